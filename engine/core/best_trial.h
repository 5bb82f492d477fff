// The one definition of "the best trial", shared by every view of it: the app's bold row, its
// scatter and comparison, its export, and the command line's `best`, `ls` and `show`. A trial is
// scored by its metric's values under a scope (Ray Tune's `ExperimentAnalysis` scopes: the last
// value, the best of all, the mean, the mean of the last 5 or 10), and the best trial is the one
// with the best score for the mode; ties go to the trial created first (the lower id).
// Pure functions; thread-safe.
#pragma once

#include <QString>
#include <QStringList>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "core/experiment_spec.h"

namespace tunedeck {

enum class ScoreScope { Last, All, Avg, Last5Avg, Last10Avg };

// What each experiment is ranked by unless asked otherwise: Ray's default, the value the trial
// ended on. An early high that the trial later lost is not what its config delivers.
inline constexpr ScoreScope kDefaultScoreScope = ScoreScope::Last;

// Ray's names: "last", "all", "avg", "last-5-avg", "last-10-avg".
QString scoreScopeName(ScoreScope scope);
std::optional<ScoreScope> scoreScopeFromName(const QString& name);
QStringList scoreScopeNames();  // every scope, in the order above

// One trial's score: `values` are its metric's numbers in iteration order (a trial restored from
// an earlier checkpoint counts from there: see pointsKeptBefore). Last: the last value; All: the
// best for `mode`; Avg: the mean; LastNAvg: the mean of the last N (of all when fewer). nullopt
// when there is no value.
std::optional<double> trialScore(std::span<const double> values, MetricMode mode, ScoreScope scope);

// a is a better score than b for `mode` (strictly).
bool betterScore(double a, double b, MetricMode mode);

struct TrialScore {
    QString trialId;
    double value = 0;
};

// The scores best first for `mode`; equal scores by trial id (the order trials were created).
void rankScores(std::vector<TrialScore>* scores, MetricMode mode);

// How many points of a trial's curve (its `iterations`, ascending) stay when a result at
// `iteration` arrives: a result at an iteration the curve already reached (the trial was
// restored from an earlier checkpoint) drops the points from there on, so the curve and its
// score follow the run that goes on.
std::size_t pointsKeptBefore(std::span<const double> iterations, double iteration);

}  // namespace tunedeck
