#include "plots/study_series.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace tunedeck::app {

namespace {

constexpr int kBinsPerSide = 64;          // the pre-averaging grid for many samples
constexpr std::size_t kMaxDirect = 4096;  // samples interpolated one by one below this

bool better(double a, double b, bool minimize) {
    return minimize ? a < b : a > b;
}

}  // namespace

std::vector<TrialValue> trialValues(const ExperimentData& data) {
    std::vector<TrialValue> out;
    const std::vector<TrialRow>& trials = data.trials();
    out.reserve(trials.size());
    for (int r = 0; r < int(trials.size()); ++r) {
        const double value = data.score(r);
        if (std::isnan(value)) {
            continue;
        }
        const TrialRow& row = trials[std::size_t(r)];
        out.push_back({r, double(r), row.times.empty() ? 0.0 : row.times.back(), value});
    }
    return out;
}

std::vector<QPointF> bestSoFar(const std::vector<TrialValue>& values, bool byTime, bool minimize) {
    std::vector<const TrialValue*> order;
    order.reserve(values.size());
    for (const TrialValue& v : values) {
        order.push_back(&v);
    }
    if (byTime) {
        std::stable_sort(order.begin(), order.end(), [](const TrialValue* a, const TrialValue* b) {
            return a->time < b->time;
        });
    }
    std::vector<QPointF> out;
    out.reserve(order.size());
    double best = kNoValue;
    for (const TrialValue* v : order) {
        if (std::isnan(best) || better(v->value, best, minimize)) {
            best = v->value;
        }
        out.emplace_back(byTime ? v->time : v->number, best);
    }
    return out;
}

std::vector<QPointF> empiricalDistribution(std::vector<double> values) {
    values.erase(
        std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
        values.end());
    std::sort(values.begin(), values.end());
    std::vector<QPointF> out;
    out.reserve(values.size());
    const double n = double(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        // Equal values share the step of the last of them.
        if (i + 1 < values.size() && values[i + 1] == values[i]) {
            continue;
        }
        out.emplace_back(values[i], double(i + 1) / n);
    }
    return out;
}

SurfaceGrid interpolateSurface(const std::vector<QPointF>& at, const std::vector<double>& values,
                               int columns, int rows, double reach) {
    SurfaceGrid grid;
    grid.columns = columns;
    grid.rows = rows;
    grid.cells.assign(std::size_t(columns * rows), kNoValue);
    // The samples, averaged per bin when there are many.
    std::vector<QPointF> points;
    std::vector<double> weights;  // how many samples each point stands for
    std::vector<double> means;
    if (at.size() <= kMaxDirect) {
        for (std::size_t i = 0; i < at.size(); ++i) {
            if (std::isfinite(at[i].x()) && std::isfinite(at[i].y()) && std::isfinite(values[i])) {
                points.push_back(at[i]);
                means.push_back(values[i]);
                weights.push_back(1);
            }
        }
    } else {
        std::map<int, std::pair<QPointF, std::pair<double, double>>> bins;  // sum of xy, sum, n
        for (std::size_t i = 0; i < at.size(); ++i) {
            if (!std::isfinite(at[i].x()) || !std::isfinite(at[i].y()) ||
                !std::isfinite(values[i])) {
                continue;
            }
            const int bx = std::clamp(int(at[i].x() * kBinsPerSide), 0, kBinsPerSide - 1);
            const int by = std::clamp(int(at[i].y() * kBinsPerSide), 0, kBinsPerSide - 1);
            auto& bin = bins[by * kBinsPerSide + bx];
            bin.first += at[i];
            bin.second.first += values[i];
            bin.second.second += 1;
        }
        for (const auto& [key, bin] : bins) {
            const double n = bin.second.second;
            points.push_back(bin.first / n);
            means.push_back(bin.second.first / n);
            weights.push_back(n);
        }
    }
    if (points.empty()) {
        return grid;
    }
    const double reach2 = reach * reach;
    for (int r = 0; r < rows; ++r) {
        const double cy = (r + 0.5) / rows;
        for (int c = 0; c < columns; ++c) {
            const double cx = (c + 0.5) / columns;
            double sum = 0, total = 0, nearest = std::numeric_limits<double>::infinity();
            for (std::size_t i = 0; i < points.size(); ++i) {
                const double dx = points[i].x() - cx;
                const double dy = points[i].y() - cy;
                const double d2 = dx * dx + dy * dy;
                nearest = std::min(nearest, d2);
                const double w = weights[i] / std::max(d2, 1e-12);
                sum += w * means[i];
                total += w;
            }
            if (nearest <= reach2) {
                grid.cells[std::size_t(r * columns + c)] = sum / total;
            }
        }
    }
    return grid;
}

}  // namespace tunedeck::app
