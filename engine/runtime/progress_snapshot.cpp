#include "runtime/progress_snapshot.h"

#include <utility>

#include "core/best_trial.h"
#include "core/pareto.h"

namespace tunedeck {

ProgressSnapshot snapshotProgress(const ExperimentSpec& spec, std::vector<const Trial*> trials,
                                  const std::vector<NodeCapacity>& nodes, std::int64_t totalResults,
                                  std::optional<std::int64_t> totalTrials,
                                  std::vector<NodeUsageSample> nodeUsage) {
    ProgressSnapshot s;
    s.trials = std::move(trials);
    // The live run knows each trial's latest result: core's rule under the scope `last`, the
    // engine's default (core/best_trial.h), as `best`, the export and the window rank them.
    std::vector<TrialScore> scores;
    for (const Trial* t : s.trials) {
        const QJsonValue v = t->lastResult.value(spec.metric);
        if (spec.metric.isEmpty() || !v.isDouble()) {
            continue;
        }
        scores.push_back({t->id, v.toDouble()});  // scope last: the score is the latest value
    }
    rankScores(&scores, spec.mode);
    if (!scores.empty()) {
        s.bestValue = scores.front().value;
        s.bestTrialId = scores.front().trialId;
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
