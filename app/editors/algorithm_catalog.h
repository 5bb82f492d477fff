// What the searcher and scheduler pickers offer: each algorithm of SCHEMA.md with a one-line
// description and its options' defaults, in the user's language. The list is engine/core's
// catalogue (core/algorithm_catalog.h), which the app links through engine/api's schema: the
// editor needs it with no engine attached, and a copy here drifted from the engine (app/APP.md,
// "The algorithm catalogue"). Thread-safety: pure functions; call from any thread once the
// translators are installed.
#pragma once

#include <QList>
#include <QString>

namespace tunedeck::app {

struct AlgorithmOption {
    QString name;
    QString defaultValue;
};

struct AlgorithmInfo {
    QString name;  // as written in the file
    QString description;
    QList<AlgorithmOption> options;  // every option key it takes
    bool isDefault = false;          // what an experiment without the key gets
};

QList<AlgorithmInfo> searchAlgorithms();
QList<AlgorithmInfo> schedulerTypes();

// "name = default, ..." for a picker's caption.
QString optionsSummary(const AlgorithmInfo& info);

}  // namespace tunedeck::app
