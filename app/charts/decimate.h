// Reduces a curve to what a chart of a given width can show without losing a spike: per pixel
// column the first, lowest, highest and last point, in their order. A curve of a million
// points over 1,000 pixels becomes at most 4,000. Pure; thread-safe.
#pragma once

#include <QList>
#include <QPointF>
#include <span>
#include <vector>

namespace tunedeck::app {

// `xs` ascending, `ys` beside it. Points outside [xMin, xMax] are dropped except the nearest one
// on each side (so a line still enters and leaves the view). `columns` >= 1.
QList<QPointF> decimate(const std::vector<double>& xs, const std::vector<double>& ys, double xMin,
                        double xMax, int columns);

// The same, appended to `out`, with the curve smoothed first (as smooth() with `alpha`) without
// a copy of it: the chart decimates every curve of an experiment in one pass of the GUI thread.
// `lastLevel`, when given, receives the smoothed value of the last point (where an increment
// drawn later continues from).
void decimateInto(std::span<const double> xs, std::span<const double> ys, double xMin, double xMax,
                  int columns, double alpha, std::vector<QPointF>* out,
                  double* lastLevel = nullptr);

// Exponential moving average with weight `alpha` of the newest point (TensorBoard's smoothing:
// 1 - slider value); 1 keeps the curve as it is.
std::vector<double> smooth(const std::vector<double>& ys, double alpha);

}  // namespace tunedeck::app
