// A brushed range on one axis of the parallel coordinates (as in plotly's and HiPlot's parallel
// coordinates): the trials whose value on that axis lies inside it pass, and the trials table
// shows those inside every brush. The range is kept in the axis's values (numbers from low to
// high, or the categories covered), not in pixels, so a trial that arrives later or an axis
// that grows keeps the same meaning. Pure values; thread-safety: none needed.
#pragma once

#include <QJsonValue>
#include <QStringList>
#include <utility>

#include "charts/parameter_scale.h"

namespace tunedeck::app {

struct AxisBrush {
    QString key;  // the axis's parameter (or the metric)
    bool categorical = false;
    double low = 0;  // the numbers inside, both ends included (Linear, Log)
    double high = 0;
    QStringList categories;  // the categories inside (Categorical)

    // The brush over `scale` between two positions, 0 (bottom) to 1 (top), in either order. On a
    // categorical axis a category is inside when the range reaches into its slot.
    static AxisBrush over(const ParameterScale& scale, double fromFraction, double toFraction);
    // Whether `value` (absent: undefined) is inside.
    bool contains(const QJsonValue& value) const;
    // Where it lies on `scale`, bottom and top fraction (a category's slot half a step wide
    // around it); clamped to [0, 1].
    std::pair<double, double> fractionsOn(const ParameterScale& scale) const;
};

}  // namespace tunedeck::app
