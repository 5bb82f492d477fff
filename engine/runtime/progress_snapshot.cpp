#include "runtime/progress_snapshot.h"

#include <utility>

#include "core/pareto.h"

namespace tunedeck {

ProgressSnapshot snapshotProgress(const ExperimentSpec& spec, std::vector<const Trial*> trials,
                                  const std::vector<NodeCapacity>& nodes, std::int64_t totalResults,
                                  std::optional<std::int64_t> totalTrials,
                                  std::vector<QJsonObject> nodeUsage) {
    ProgressSnapshot s;
    s.trials = std::move(trials);
    for (const Trial* t : s.trials) {
        const QJsonValue v = t->lastResult.value(spec.metric);
        if (spec.metric.isEmpty() || !v.isDouble()) {
            continue;
        }
        const double value = v.toDouble();
        if (!s.bestValue ||
            (spec.mode == MetricMode::Max ? value > *s.bestValue : value < *s.bestValue)) {
            s.bestValue = value;
            s.bestTrialId = t->id;
        }
    }
    if (spec.objectives.size() > 1) {
        std::vector<const Trial*> reported;
        std::vector<std::vector<double>> losses;
        for (const Trial* t : s.trials) {
            if (auto l = pareto::lossesOf(spec.objectives, t->lastResult)) {
                reported.push_back(t);
                losses.push_back(std::move(*l));
            }
        }
        const std::vector<int> ranks = pareto::frontRanks(losses);
        for (std::size_t i = 0; i < reported.size(); ++i) {
            if (ranks[i] == 0) {
                s.paretoFront << reported[i]->id;
            }
        }
    }
    s.totalResults = totalResults;
    s.totalTrials = totalTrials;
    s.nodeUsage = std::move(nodeUsage);
    for (const NodeCapacity& n : nodes) {
        s.cpuTotal += double(n.cpuTotalMilli) / kMilliPerUnit;
        s.cpuUsed += double(n.cpuUsedMilli) / kMilliPerUnit;
        s.gpuTotal += double(n.gpuUsedMilli.size());
        for (std::int64_t used : n.gpuUsedMilli) {
            s.gpuUsed += double(used) / kMilliPerUnit;
        }
    }
    return s;
}

}  // namespace tunedeck
