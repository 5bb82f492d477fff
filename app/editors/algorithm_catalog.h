// What the searcher and scheduler pickers offer: each algorithm of SCHEMA.md with a one-line
// description and its options' defaults, in the user's language. A fixed list: the app does not
// link the engine's own catalogue, and the engine's `validate` names any it does not know.
// Thread-safety: pure functions; call from any thread once the translators are installed.
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
    QList<AlgorithmOption> options;  // its own options, then those every member takes
    bool isDefault = false;          // what an experiment without the key gets
};

QList<AlgorithmInfo> searchAlgorithms();
QList<AlgorithmInfo> schedulerTypes();

// "name = default, ..." for a picker's caption.
QString optionsSummary(const AlgorithmInfo& info);

}  // namespace tunedeck::app
