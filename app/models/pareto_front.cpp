#include "models/pareto_front.h"

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/pareto.h"
#include "models/experiment_data.h"

namespace tunedeck::app {

double objectiveScoreOf(const TrialRow& row, const std::vector<Objective>& objectives,
                        std::size_t objective, ScoreScope scope) {
    if (objective >= objectives.size() || objective >= row.objectiveCurves.size()) {
        return kNoValue;
    }
    return trialScore(row.objectiveCurves[objective].values, objectives[objective].mode, scope)
        .value_or(kNoValue);
}

std::vector<int> nonDominated(const std::vector<std::vector<double>>& losses) {
    // Sorted by the first loss from one contiguous array (each vector is elsewhere on the heap,
    // and a sort of 10,000 that compares through them misses the cache at every step); the
    // rest of the vector only breaks ties.
    std::vector<double> first(losses.size());
    for (std::size_t i = 0; i < losses.size(); ++i) {
        first[i] = losses[i].empty() ? 0.0 : losses[i].front();
    }
    std::vector<int> order(losses.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        const double fa = first[std::size_t(a)];
        const double fb = first[std::size_t(b)];
        return fa != fb ? fa < fb : losses[std::size_t(a)] < losses[std::size_t(b)];
    });
    std::vector<int> front;
    // Neighbours in the order are mostly beaten by the same member: it is asked first.
    std::size_t lastBeater = 0;
    for (const int candidate : order) {
        const std::vector<double>& point = losses[std::size_t(candidate)];
        bool dominated =
            !front.empty() && pareto::dominates(losses[std::size_t(front[lastBeater])], point);
        for (std::size_t k = 0; !dominated && k < front.size(); ++k) {
            if (pareto::dominates(losses[std::size_t(front[k])], point)) {
                dominated = true;
                lastBeater = k;
            }
        }
        if (!dominated) {
            front.push_back(candidate);
        }
    }
    std::sort(front.begin(), front.end());
    return front;
}

std::vector<int> paretoFrontOf(const std::vector<double>& scores,
                               const std::vector<Objective>& objectives) {
    const std::size_t k = objectives.size();
    if (k < 2) {
        return {};
    }
    const std::size_t rows = scores.size() / k;
    std::vector<int> scored;
    std::vector<std::vector<double>> losses;
    scored.reserve(rows);
    losses.reserve(rows);
    for (std::size_t r = 0; r < rows; ++r) {
        std::vector<double> loss;
        loss.reserve(k);
        for (std::size_t i = 0; i < k; ++i) {
            const double value = scores[r * k + i];
            if (!std::isfinite(value)) {
                break;
            }
            loss.push_back(objectives[i].mode == MetricMode::Max ? -value : value);
        }
        if (loss.size() == k) {
            scored.push_back(int(r));
            losses.push_back(std::move(loss));
        }
    }
    std::vector<int> front;
    for (const int index : nonDominated(losses)) {
        front.push_back(scored[std::size_t(index)]);
    }
    return front;
}

QString objectivesText(const std::vector<Objective>& objectives) {
    QStringList parts;
    for (const Objective& objective : objectives) {
        parts << QStringLiteral("%1 (%2)").arg(objective.metric, metricModeName(objective.mode));
    }
    return parts.join(QStringLiteral(", "));
}

}  // namespace tunedeck::app
