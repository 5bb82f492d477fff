#include "analysis/axis_brush.h"

#include <algorithm>
#include <cmath>

namespace tunedeck::app {

AxisBrush AxisBrush::over(const ParameterScale& scale, double fromFraction, double toFraction) {
    const double lo = std::clamp(std::min(fromFraction, toFraction), 0.0, 1.0);
    const double hi = std::clamp(std::max(fromFraction, toFraction), 0.0, 1.0);
    AxisBrush brush;
    brush.key = scale.key;
    brush.categorical = scale.kind == ParameterScale::Kind::Categorical;
    if (brush.categorical) {
        // A category is inside when the brush reaches into its slot (half a step either side of
        // it): a drag over the band around "32" takes 32 even when it stops short of the tick.
        const int n = int(scale.categories.size());
        const double half = n > 1 ? 0.5 / (n - 1) : 0.5;
        for (int index = 0; index < n; ++index) {
            const double at = n == 1 ? 0.5 : double(index) / (n - 1);
            if (hi > at - half && lo < at + half) {
                brush.categories << scale.categories[index];
            }
        }
        return brush;
    }
    brush.low = scale.valueAt(lo);
    brush.high = scale.valueAt(hi);
    return brush;
}

bool AxisBrush::contains(const QJsonValue& value) const {
    if (categorical) {
        return !value.isUndefined() && !value.isNull() && categories.contains(displayValue(value));
    }
    if (!value.isDouble()) {
        return false;
    }
    const double v = value.toDouble();
    // The ends as computed from pixels: a value drawn on the edge is inside.
    const double slack = (high - low) * 1e-9;
    return v >= low - slack && v <= high + slack;
}

std::pair<double, double> AxisBrush::fractionsOn(const ParameterScale& scale) const {
    if (!categorical) {
        const double a = scale.fraction(low);
        const double b = scale.fraction(high);
        return {std::clamp(std::isfinite(a) ? a : 0.0, 0.0, 1.0),
                std::clamp(std::isfinite(b) ? b : 1.0, 0.0, 1.0)};
    }
    const int n = int(scale.categories.size());
    const double half = n > 1 ? 0.5 / (n - 1) : 0.5;
    double lo = 1, hi = 0;
    for (const QString& category : categories) {
        const int index = scale.categoryIndex.value(category, -1);
        if (index >= 0) {
            const double at = n == 1 ? 0.5 : double(index) / (n - 1);
            lo = std::min(lo, at - half);
            hi = std::max(hi, at + half);
        }
    }
    return lo > hi ? std::pair{0.0, 0.0}
                   : std::pair{std::clamp(lo, 0.0, 1.0), std::clamp(hi, 0.0, 1.0)};
}

}  // namespace tunedeck::app
