// The axes of the study plots (optimisation history, slice, contour, EDF, timeline): a linear,
// log or categorical mapping from data to pixels, round tick values, and the frame, grid, tick
// labels and titles painted around a plot area. QPainter only, no QtCharts: these plots draw up
// to tens of thousands of marks a frame. Thread-safety: plain values; painting on the GUI
// thread.
#pragma once

#include <QList>
#include <QRect>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

class QPainter;
class QPalette;

namespace tunedeck::app {

struct PlotAxis {
    enum class Kind { Linear, Log, Categorical };

    Kind kind = Kind::Linear;
    double lo = 0;  // the ends shown (Categorical: -0.5 and count - 0.5)
    double hi = 1;
    QStringList categories;
    QString title;

    // Round ends around [min, max] with a little room; a single value gets a range around it.
    static PlotAxis linear(double min, double max, const QString& title);
    // Ends a little outside [min, max] (both > 0), drawn in decades.
    static PlotAxis log(double min, double max, const QString& title);
    // One slot per category, at its index.
    static PlotAxis categorical(const QStringList& categories, const QString& title);

    // Where `value` falls, 0 at lo to 1 at hi (a category by its index); NaN when it cannot be
    // placed (a non-positive number on a log axis).
    double fraction(double value) const;
    // The ticks to label: position as a value of this axis (a category's index), and text.
    std::vector<std::pair<double, QString>> ticks(int wanted) const;
};

// The plot area inside `bounds`, leaving room for tick labels and titles on the left and below.
QRectF plotAreaIn(const QRectF& bounds);
// Pixel of a value within `area` (x grows right, y grows up); NaN when not placeable.
double pixelX(const QRectF& area, const PlotAxis& axis, double value);
double pixelY(const QRectF& area, const PlotAxis& axis, double value);
// The frame, the grid at the ticks, tick labels and both titles.
void drawAxes(QPainter& painter, const QPalette& palette, const QRectF& area, const PlotAxis& x,
              const PlotAxis& y);
// The faint grid lines, given as whole-pixel rectangles one pixel wide or high, filled in one
// call: the same line drawn as a translucent stroke costs about a hundred times more.
void drawGrid(QPainter& painter, const QPalette& palette, const QList<QRect>& lines);
// A short number for labels and tooltips ("0.00123", "1.5e+06").
QString shortNumber(double value);

}  // namespace tunedeck::app
