#include "charts/decimate.h"

#include <algorithm>
#include <cmath>

namespace tunedeck::app {

QList<QPointF> decimate(const std::vector<double>& xs, const std::vector<double>& ys, double xMin,
                        double xMax, int columns) {
    QList<QPointF> out;
    const std::size_t n = std::min(xs.size(), ys.size());
    if (n == 0) {
        return out;
    }
    columns = std::max(columns, 1);
    // The visible range, widened by one point each side.
    std::size_t first =
        std::size_t(std::lower_bound(xs.begin(), xs.begin() + long(n), xMin) - xs.begin());
    std::size_t last =
        std::size_t(std::upper_bound(xs.begin(), xs.begin() + long(n), xMax) - xs.begin());
    first = first > 0 ? first - 1 : 0;
    last = std::min(last + 1, n);
    if (last - first <= std::size_t(columns) * 4) {
        for (std::size_t i = first; i < last; ++i) {
            out.append(QPointF(xs[i], ys[i]));
        }
        return out;
    }
    const double width = xMax > xMin ? (xMax - xMin) / columns : 1.0;
    std::size_t i = first;
    while (i < last) {
        const long column = long(std::floor((xs[i] - xMin) / width));
        const std::size_t start = i;
        std::size_t low = i;
        std::size_t high = i;
        while (i < last && long(std::floor((xs[i] - xMin) / width)) == column) {
            if (ys[i] < ys[low]) {
                low = i;
            }
            if (ys[i] > ys[high]) {
                high = i;
            }
            ++i;
        }
        const std::size_t end = i - 1;
        std::size_t keep[4] = {start, std::min(low, high), std::max(low, high), end};
        std::size_t previous = n;  // none yet
        for (std::size_t k : keep) {
            if (k != previous) {
                out.append(QPointF(xs[k], ys[k]));
                previous = k;
            }
        }
    }
    return out;
}

std::vector<double> smooth(const std::vector<double>& ys, double alpha) {
    if (alpha >= 1.0 || ys.empty()) {
        return ys;
    }
    std::vector<double> out(ys.size());
    double level = ys.front();
    for (std::size_t i = 0; i < ys.size(); ++i) {
        level = alpha * ys[i] + (1 - alpha) * level;
        out[i] = level;
    }
    return out;
}

}  // namespace tunedeck::app
