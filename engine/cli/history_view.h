// An experiment folder's history opened for the command line's views of it (`ls`, `show`,
// `best`, `export`), through the read-only history reader the app uses (store/history_reader.h):
// one read path, one way of scanning results, one picture of the history per command. And what
// those views compute from it: scores, the Pareto front, the summary line of `ls`. Main thread
// only.
#pragma once

#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <vector>

#include "cli/output_formats.h"
#include "core/best_trial.h"
#include "core/status.h"
#include "core/trial.h"
#include "store/history_reader.h"

namespace tunedeck::cli {

struct OpenedHistory {
    QString folder;  // absolute
    std::unique_ptr<store::HistoryReader> reader;
    store::HistoryExperiment experiment;
    SpecSummary spec;
};

// Opens <folder>/experiment.sqlite read-only and reads its experiment row; prints why and
// returns false when it cannot.
bool openHistory(const QString& folderArgument, OpenedHistory* out);

// False, with "cannot read FOLDER: the history is damaged: ..." on stderr, when `status` (a
// read of `h`'s history) failed: a command then answers nothing rather than from the part it
// could read.
bool readSucceeded(const OpenedHistory& h, const Status& status);

// A stored trial's status; one the engine does not know reads as PENDING, as a resume takes it.
TrialStatus trialStatusOf(const store::HistoryTrial& trial);

// One score per trial that reported `metric` as a number, best first (store::rankTrials), from
// one pass over the results.
Status readScores(OpenedHistory& h, const std::vector<store::HistoryTrial>& trials,
                  const QString& metric, MetricMode mode, ScoreScope scope,
                  std::vector<TrialScore>* out);
// The trials no other trial dominates on `objectives` (each scored with `scope`, max objectives
// negated), best first in NSGA-II's order (extremes and sparse regions first, ties by creation
// order). Trials that have not reported every objective are left out.
Status readParetoFront(OpenedHistory& h, const std::vector<store::HistoryTrial>& trials,
                       const std::vector<Objective>& objectives, ScoreScope scope,
                       std::vector<ParetoMember>* out);

// floatPathsBelow(floats, column) for each of a table's config columns, worked out once per
// distinct set of float paths: the trials of one search space share theirs, and a table of
// 20,000 trials would otherwise build a set per cell.
class ColumnFloats {
  public:
    explicit ColumnFloats(QStringList columns) : columns_(std::move(columns)) {}
    // [i] belongs to columns[i]; valid until the next call.
    const std::vector<FloatPaths>& below(const FloatPaths& floats);

  private:
    QStringList columns_;
    std::vector<std::pair<FloatPaths, std::vector<FloatPaths>>> known_;
    std::vector<FloatPaths> scratch_;  // for sets beyond those kept
};

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

}  // namespace tunedeck::cli
