// An experiment folder opened through its store (its history read-only and a summary of its
// spec), for the commands that start a new experiment from an old one (`rerun`, `pbt-replay`).
// The views of a history (`ls`, `show`, `best`, `export`) read through cli/history_view.h.
// Main thread only.
#pragma once

#include <QString>
#include <memory>

#include "config/spec_summary.h"
#include "store/experiment_store.h"

namespace tunedeck::cli {

struct OpenedExperiment {
    QString folder;  // absolute
    std::unique_ptr<ExperimentStore> store;
    ExperimentRecord record;
    SpecSummary spec;
};

// Opens <folder>/experiment.sqlite read-only; prints why and returns false when it cannot.
bool openExperiment(const QString& folderArgument, OpenedExperiment* out);

// The absolute folder a command was given and its experiment.sqlite; false, after printing
// why, when the folder holds none (every command that reads a history starts here).
bool locateHistory(const QString& folderArgument, QString* folder, QString* database);

}  // namespace tunedeck::cli
