// What a searcher is told before its first proposal: Ray Tune's `points_to_evaluate` (configs to
// run first, whole or partial) and `evaluated_rewards` (the objective values those configs are
// already known to reach: a model-based searcher takes them as finished trials and does not run
// them again, as Ray's HyperOpt, Optuna and BayesOpt searchers do). Pure; thread-safe.
#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>
#include <vector>

#include "core/experiment_spec.h"
#include "core/rng.h"
#include "core/search_space.h"

namespace tunedeck {

// search.points_to_evaluate, in order (items that are not mappings, which validation refuses,
// are left out).
std::vector<QJsonObject> pointsToEvaluate(const ExperimentSpec& spec);

struct EvaluatedPoint {
    QJsonObject point;
    std::vector<double> values;  // one per objective, as reported (not yet losses)
};

// The points of search.points_to_evaluate paired with search.evaluated_rewards; empty when no
// rewards are given. A point whose reward is null is not known yet: left out here.
std::vector<EvaluatedPoint> evaluatedPoints(const ExperimentSpec& spec);

// The points a searcher runs first, in order: every point of search.points_to_evaluate, or with
// evaluated_rewards those whose reward is null (an Optuna study's enqueued trials beside its
// finished ones).
std::vector<QJsonObject> pointsToRun(const ExperimentSpec& spec);

// The config a point stands for: the space sampled from `rng` with the point's values fixed
// (grid index `gridIndex`); with an empty space (define-by-run: the trials ask for their
// parameters) the point itself, whose values answer the trial's requests by name, as Optuna's
// enqueued trials do.
QJsonObject configOfPoint(const SearchSpace& space, Rng& rng, std::int64_t gridIndex,
                          const QJsonObject& point);

// What is wrong with search.evaluated_rewards (nothing when unset): a list as long as
// points_to_evaluate, each item the point's value of the objective (a number), or with several
// objectives a list of one number per objective, finite; or null, for a point to run.
std::optional<QString> evaluatedRewardsProblem(const ExperimentSpec& spec);

}  // namespace tunedeck
