// An experiment folder opened for reading (its history read-only and a summary of its spec), and
// the rankings the history commands print from it. Main thread only.
#pragma once

#include <QString>
#include <memory>
#include <vector>

#include "cli/output_formats.h"
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

// False, with "cannot read FOLDER: the history is damaged: ..." on stderr, when a read of `e`'s
// history failed: a command then answers nothing rather than from the part it could read.
bool readWhole(const OpenedExperiment& e);

// One line of `ls` (and of the control API's `list`).
struct ExperimentSummary {
    QString folderName;
    QString status;  // running, finished, interrupted, failed; damaged when a read failed
    double createdAt = 0;
    int trials = 0;
    int errors = 0;
    QString best;  // "metric=value (trial)", "Pareto front of N", or empty
};

// The experiments under `root`, oldest first; folders without a readable history, and those
// whose name breaks the rule for names (core/folder_name.h), are skipped.
std::vector<ExperimentSummary> summarizeExperiments(const QString& root);

// The trials no other trial dominates on `objectives` (each scored with `scope`, max objectives
// negated), best first in NSGA-II's order (extremes and sparse regions first, ties by creation
// order). Trials that have not reported every objective are left out.
std::vector<ParetoMember> paretoFront(const ExperimentStore& store,
                                      const std::vector<TrialRecord>& trials,
                                      const std::vector<Objective>& objectives, ScoreScope scope);

}  // namespace tunedeck::cli
