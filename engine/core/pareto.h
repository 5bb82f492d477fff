// Multi-objective ranking (NSGA-II, Deb et al., 2002): non-dominated sorting and crowding
// distance over loss vectors (lower is better in every objective). Used by the searchers'
// multi-objective splits and by `best` to print the Pareto front. Pure functions; thread-safe.
#pragma once

#include <QJsonObject>
#include <cstddef>
#include <optional>
#include <vector>

#include "core/experiment_spec.h"

namespace tunedeck::pareto {

// A result as a loss vector: each objective's value, negated where it is maximised; nullopt
// when the result lacks one of them (or it is not a finite number).
std::optional<std::vector<double>> lossesOf(const std::vector<Objective>& objectives,
                                            const QJsonObject& result);

// a dominates b: no worse in every objective and better in at least one.
bool dominates(const std::vector<double>& a, const std::vector<double>& b);

// The front (0 = non-dominated) of every point, as NSGA-II's fast non-dominated sort.
std::vector<int> frontRanks(const std::vector<std::vector<double>>& points);

// Crowding distance of each point within the set given (one front); the extremes of each
// objective get infinity.
std::vector<double> crowdingDistances(const std::vector<std::vector<double>>& points);

// Indices of points ordered best first: by front, then by larger crowding distance, ties by
// index. NSGA-II's survivor order; the first k are "the best k" of a multi-objective set.
std::vector<std::size_t> rankOrder(const std::vector<std::vector<double>>& points);

}  // namespace tunedeck::pareto
