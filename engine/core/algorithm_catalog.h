// A family of algorithms chosen by name in the experiment file (searchers, schedulers): checking
// a chosen name and its option keys is the same for every family, so it lives here once; and
// the catalogue of every searcher and scheduler with its options and their defaults, which the
// app's pickers show. Pure functions; thread-safe.
#pragma once

#include <QString>
#include <QStringList>
#include <vector>

#include "core/experiment_spec.h"
#include "core/status.h"

namespace tunedeck {

// How a family is named in the file and in messages.
struct AlgorithmFamily {
    QString section;  // "search"
    QString nameKey;  // "algorithm": the key holding the name inside `section`
    QString noun;     // "search algorithm"
    QString plural;   // "algorithms"
};

// Names of a catalogue whose entries have `name`, in catalogue order.
template <typename Entry>
QStringList algorithmNames(const std::vector<Entry>& catalog) {
    QStringList names;
    for (const Entry& entry : catalog) {
        names.append(entry.name);
    }
    return names;
}

// The entry called `name`, or null.
template <typename Entry>
const Entry* findAlgorithm(const std::vector<Entry>& catalog, const QString& name) {
    for (const Entry& entry : catalog) {
        if (entry.name == name) {
            return &entry;
        }
    }
    return nullptr;
}

// Checks `spec` against the known names and, when the name is known, against the option keys
// that algorithm takes (`options` null when the name is unknown). On failure *badKey is set to
// "<section>.<nameKey>" or "<section>.<option>".
Status checkAlgorithmChoice(const AlgorithmSpec& spec, const QStringList& knownNames,
                            const QStringList* options, const AlgorithmFamily& family,
                            QString* badKey);

// One option of an algorithm as the catalogue shows it.
struct AlgorithmOptionInfo {
    QString name;          // the key in the file
    QString defaultValue;  // what an unset option means, as SCHEMA.md writes it
    // defaultValue is a value the file may hold (`100`, `ei`, `[1.2, 0.8]`); false when it
    // describes one ("the experiment's", "d + 1", "none").
    bool isLiteral = true;
};

// One searcher or scheduler: its name, a line on what it does (English; the app translates it
// under the context "AlgorithmCatalog"), every option key it takes, and whether it is what an
// experiment without the key gets.
struct AlgorithmInfo {
    QString name;
    QString description;
    std::vector<AlgorithmOptionInfo> options;
    bool isDefault = false;
};

// Every search algorithm and scheduler in the order of the validators' tables (knownSearchers,
// knownSchedulers), each with the option keys its validator accepts, in the same order. The
// numeric and boolean defaults are read from the option structs the algorithms start from, so
// the catalogue cannot drift from what the engine does.
std::vector<AlgorithmInfo> searchAlgorithmCatalog();
std::vector<AlgorithmInfo> schedulerCatalog();

}  // namespace tunedeck
