// A family of algorithms chosen by name in the experiment file (searchers, schedulers): checking
// a chosen name and its option keys is the same for every family, so it lives here once.
// Pure functions; thread-safe.
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

}  // namespace tunedeck
