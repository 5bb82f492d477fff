// What the study plots draw, computed from ExperimentData without widgets: each trial's value
// (its score by the window's "Best trial by" scope, core/best_trial.h, so the plots rank trials
// as the bold row and `tunedeck-engine best` do), the best-so-far line by trial number or by
// time, the empirical distribution of the values, and an interpolated surface over two
// parameters. Pure functions; thread-safe.
#pragma once

#include <QPointF>
#include <vector>

#include "models/experiment_data.h"

namespace tunedeck::app {

// One trial with a value. `number` is its place in the experiment (0 for the first trial
// created, as Optuna numbers trials); `time` the seconds from the experiment's start to its last
// result, when the value was known.
struct TrialValue {
    int row = 0;
    double number = 0;
    double time = 0;
    double value = 0;
};

// The trials that have a score, in the order they were created.
std::vector<TrialValue> trialValues(const ExperimentData& data);

// The best value among the trials up to each one, by number or by time (ties in time in number
// order): one point per trial, the steps of the best-so-far line. Its last y is the best trial's
// score.
std::vector<QPointF> bestSoFar(const std::vector<TrialValue>& values, bool byTime, bool minimize);

// The empirical distribution: the values sorted, each with the fraction of trials at or below
// it (i + 1) / n.
std::vector<QPointF> empiricalDistribution(std::vector<double> values);

// A surface of values over the unit square, interpolated from scattered samples (x and y as
// fractions of their axes, 0 to 1): columns x rows cells, row 0 at the bottom; NaN where no
// sample is within `reach` (a fraction of the square's side), so nothing is drawn where nothing
// was tried. Inverse-distance weighting (Shepard, power 2): every cell is a weighted mean of the
// samples, so the surface never leaves the range of values seen and needs no triangulation
// (categories on a line, many equal points). Over 4,096 samples, the samples are first averaged
// per 1/64 of each side.
struct SurfaceGrid {
    int columns = 0;
    int rows = 0;
    std::vector<double> cells;  // row-major, NaN where blank
    double at(int column, int row) const { return cells[std::size_t(row * columns + column)]; }
};
SurfaceGrid interpolateSurface(const std::vector<QPointF>& at, const std::vector<double>& values,
                               int columns, int rows, double reach);

}  // namespace tunedeck::app
