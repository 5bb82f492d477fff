#include "core/pareto.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "core/scheduler_options.h"

namespace tunedeck::pareto {

std::optional<std::vector<double>> lossesOf(const std::vector<Objective>& objectives,
                                            const QJsonObject& result) {
    if (objectives.empty()) {
        return std::nullopt;
    }
    std::vector<double> losses;
    losses.reserve(objectives.size());
    for (const Objective& objective : objectives) {
        const auto value = scheduler_options::finiteNumberAt(result, objective.metric);
        if (!value) {
            return std::nullopt;
        }
        losses.push_back(objective.mode == MetricMode::Max ? -*value : *value);
    }
    return losses;
}

bool dominates(const std::vector<double>& a, const std::vector<double>& b) {
    bool better = false;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        if (a[i] > b[i]) {
            return false;
        }
        better = better || a[i] < b[i];
    }
    return better;
}

std::vector<int> frontRanks(const std::vector<std::vector<double>>& points) {
    const size_t n = points.size();
    std::vector<int> rank(n, 0);
    std::vector<int> dominatedBy(n, 0);         // how many points dominate i
    std::vector<std::vector<size_t>> beats(n);  // points i dominates
    std::vector<size_t> front;
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = i + 1; j < n; ++j) {
            if (dominates(points[i], points[j])) {
                beats[i].push_back(j);
                ++dominatedBy[j];
            } else if (dominates(points[j], points[i])) {
                beats[j].push_back(i);
                ++dominatedBy[i];
            }
        }
    }
    for (size_t i = 0; i < n; ++i) {
        if (dominatedBy[i] == 0) {
            front.push_back(i);
        }
    }
    for (int level = 0; !front.empty(); ++level) {
        std::vector<size_t> next;
        for (size_t i : front) {
            rank[i] = level;
            for (size_t j : beats[i]) {
                if (--dominatedBy[j] == 0) {
                    next.push_back(j);
                }
            }
        }
        front = std::move(next);
    }
    return rank;
}

std::vector<double> crowdingDistances(const std::vector<std::vector<double>>& points) {
    const size_t n = points.size();
    std::vector<double> distance(n, 0.0);
    if (n == 0) {
        return distance;
    }
    const double infinity = std::numeric_limits<double>::infinity();
    std::vector<size_t> order(n);
    for (size_t objective = 0; objective < points.front().size(); ++objective) {
        std::iota(order.begin(), order.end(), size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return points[a][objective] < points[b][objective];
        });
        const double low = points[order.front()][objective];
        const double high = points[order.back()][objective];
        distance[order.front()] = infinity;
        distance[order.back()] = infinity;
        if (high <= low) {
            continue;
        }
        for (size_t k = 1; k + 1 < n; ++k) {
            distance[order[k]] +=
                (points[order[k + 1]][objective] - points[order[k - 1]][objective]) / (high - low);
        }
    }
    return distance;
}

std::vector<std::size_t> rankOrder(const std::vector<std::vector<double>>& points) {
    const std::vector<int> ranks = frontRanks(points);
    std::vector<double> crowding(points.size(), 0.0);
    const int fronts = ranks.empty() ? 0 : *std::max_element(ranks.begin(), ranks.end()) + 1;
    for (int front = 0; front < fronts; ++front) {
        std::vector<size_t> members;
        std::vector<std::vector<double>> values;
        for (size_t i = 0; i < points.size(); ++i) {
            if (ranks[i] == front) {
                members.push_back(i);
                values.push_back(points[i]);
            }
        }
        const std::vector<double> distances = crowdingDistances(values);
        for (size_t k = 0; k < members.size(); ++k) {
            crowding[members[k]] = distances[k];
        }
    }
    std::vector<size_t> order(points.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (ranks[a] != ranks[b]) {
            return ranks[a] < ranks[b];
        }
        return crowding[a] > crowding[b];
    });
    return order;
}

}  // namespace tunedeck::pareto
