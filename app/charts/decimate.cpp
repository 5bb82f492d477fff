#include "charts/decimate.h"

#include <algorithm>
#include <cmath>

namespace tunedeck::app {

namespace {

// The curve as drawn: raw, or its exponential average computed on the way.
class Level {
  public:
    explicit Level(double alpha) : alpha_(alpha) {}
    double next(double y) {
        if (alpha_ >= 1.0) {
            return y;
        }
        level_ = started_ ? alpha_ * y + (1 - alpha_) * level_ : y;
        started_ = true;
        return level_;
    }

  private:
    double alpha_;
    double level_ = 0;
    bool started_ = false;
};

}  // namespace

void decimateInto(std::span<const double> xs, std::span<const double> ys, double xMin, double xMax,
                  int columns, double alpha, std::vector<QPointF>* out, double* lastLevel) {
    const std::size_t n = std::min(xs.size(), ys.size());
    if (n == 0) {
        return;
    }
    columns = std::max(columns, 1);
    // The visible range, widened by one point each side.
    const auto xEnd = xs.begin() + long(n);
    std::size_t first = std::size_t(std::lower_bound(xs.begin(), xEnd, xMin) - xs.begin());
    std::size_t last = std::size_t(std::upper_bound(xs.begin(), xEnd, xMax) - xs.begin());
    first = first > 0 ? first - 1 : 0;
    last = std::min(last + 1, n);
    Level level(alpha);
    double y = 0;
    for (std::size_t i = 0; i < first && alpha < 1.0; ++i) {
        level.next(ys[i]);
    }
    if (last - first <= std::size_t(columns) * 4) {
        out->reserve(out->size() + (last - first));
        for (std::size_t i = first; i < last; ++i) {
            y = level.next(ys[i]);
            out->emplace_back(xs[i], y);
        }
    } else {
        const double width = xMax > xMin ? (xMax - xMin) / columns : 1.0;
        std::size_t i = first;
        y = level.next(ys[i]);
        while (i < last) {
            const double column = std::floor((xs[i] - xMin) / width);
            struct Kept {
                std::size_t index;
                QPointF point;
            };
            Kept start{i, {xs[i], y}};
            Kept low = start;
            Kept high = start;
            Kept end = start;
            for (++i; i < last; ++i) {
                y = level.next(ys[i]);  // when the column ends here, the next one starts with it
                if (std::floor((xs[i] - xMin) / width) != column) {
                    break;
                }
                end = {i, {xs[i], y}};
                if (y < low.point.y()) {
                    low = end;
                }
                if (y > high.point.y()) {
                    high = end;
                }
            }
            const bool lowFirst = low.index < high.index;
            std::size_t previous = n;  // none yet
            for (const Kept* k : {&start, lowFirst ? &low : &high, lowFirst ? &high : &low, &end}) {
                if (k->index != previous) {
                    out->push_back(k->point);
                    previous = k->index;
                }
            }
        }
    }
    if (lastLevel) {
        for (std::size_t i = last; i < n; ++i) {
            y = level.next(ys[i]);
        }
        *lastLevel = alpha < 1.0 ? y : ys[n - 1];
    }
}

QList<QPointF> decimate(const std::vector<double>& xs, const std::vector<double>& ys, double xMin,
                        double xMax, int columns) {
    std::vector<QPointF> points;
    decimateInto(xs, ys, xMin, xMax, columns, 1.0, &points);
    return QList<QPointF>(points.begin(), points.end());
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
