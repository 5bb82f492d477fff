// The samples a parameter-importance forest is fitted to: one row per finished trial that has
// the metric (its score by the window's scope is the target; with several objectives, 1 for a
// trial on the Pareto front and 0 for one dominated), one column per varying numeric hyperparameter
// and one per category of each categorical one (one-hot, as Optuna encodes them; one ordinal column
// when it has very many), and the way back from columns to parameters. Pure values.
// Thread-safety: plain values, no shared state.
#pragma once

#include <QStringList>
#include <vector>

#include "analysis/random_forest.h"
#include "models/experiment_data.h"

namespace tunedeck::app {

struct ParameterImportance {
    QString parameter;
    double importance = 0;  // share of the forest's impurity decrease, the shares sum to 1
};

struct ImportanceInput {
    QStringList parameters;                    // the varying hyperparameters, sorted
    std::vector<int> parameterOfColumn;        // index into `parameters`
    std::vector<std::vector<double>> samples;  // one row per trial
    std::vector<double> targets;               // each trial's score, or 1/0: on the front
    std::vector<int> rows;                     // the trials' rows in the ExperimentData

    // Trials that finished (TERMINATED) with the metric; a conditional parameter a trial did
    // not have is a value of its own (below every number, or no category set).
    static ImportanceInput of(const ExperimentData& data);

    // The forest's per-column importances summed per parameter, largest first.
    std::vector<ParameterImportance> importances(const RandomForest& forest) const;
};

}  // namespace tunedeck::app
