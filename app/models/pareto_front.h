// Which trials of an experiment with several objectives (`metric: [loss, latency_ms]`) are on
// its Pareto front, in the window as `tunedeck-engine best` and `show` find them: each trial is
// scored on every objective by the window's scope (core/best_trial.h's trialScore, over that
// objective's values), objectives maximised are negated, and the front is rank 0 of
// core/pareto.h's non-dominated sort, the one dominance rule the engine and the CLI use. A trial
// lacking a value of any objective is on no front. Pure functions over the app's rows, no
// widgets; thread-safe.
#pragma once

#include <QString>
#include <cstddef>
#include <vector>

#include "core/best_trial.h"
#include "core/experiment_spec.h"

namespace tunedeck::app {

struct TrialRow;

// `row`'s score on objectives[objective] by `scope` (its values in that objective's curve);
// NaN when it has none.
double objectiveScoreOf(const TrialRow& row, const std::vector<Objective>& objectives,
                        std::size_t objective, ScoreScope scope);

// The indices of the loss vectors no other one dominates (pareto::dominates), ascending:
// exactly those pareto::frontRanks puts in front 0, found in O(n log n + n * front) rather than
// its O(n^2), since the window finds the front again after every frame's results. (Sorted
// lexicographically, a vector can be dominated only by one before it, and a dominated one's
// dominator is itself dominated by a member of the front: so each is checked against the front
// found so far, and only once.)
std::vector<int> nonDominated(const std::vector<std::vector<double>>& losses);

// The rows on the Pareto front, ascending, from each row's score on each objective (`scores`
// row-major, objectiveScoreOf's, NaN where a row has none). Empty with fewer than two
// objectives.
std::vector<int> paretoFrontOf(const std::vector<double>& scores,
                               const std::vector<Objective>& objectives);

// "loss (min), latency_ms (min)", as `show` names the front's objectives.
QString objectivesText(const std::vector<Objective>& objectives);

}  // namespace tunedeck::app
