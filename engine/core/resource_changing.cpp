#include "core/resource_changing.h"

#include <algorithm>

namespace tunedeck {

std::vector<ResourceChange> planResourceChanges(const std::vector<SizedTrial>& running,
                                                int workerSlots, int baseWorkers,
                                                ResourcePolicy policy, MetricMode mode) {
    std::vector<ResourceChange> changes;
    const int n = int(running.size());
    if (n == 0 || baseWorkers < 1 || workerSlots < n * baseWorkers) {
        return changes;  // not even the base for each: nothing to hand out
    }
    // Best first; trials without a score yet come last, in the order given.
    std::vector<const SizedTrial*> ranked;
    for (const SizedTrial& t : running) {
        ranked.push_back(&t);
    }
    std::stable_sort(
        ranked.begin(), ranked.end(), [mode](const SizedTrial* a, const SizedTrial* b) {
            if (a->score.has_value() != b->score.has_value()) {
                return a->score.has_value();
            }
            if (!a->score) {
                return false;
            }
            return mode == MetricMode::Max ? *a->score > *b->score : *a->score < *b->score;
        });
    std::vector<int> target(std::size_t(n), baseWorkers);
    int spare = workerSlots - n * baseWorkers;
    if (policy == ResourcePolicy::Top) {
        target[0] += spare;
    } else {
        const int each = spare / n;
        for (int i = 0; i < n; ++i) {
            target[std::size_t(i)] += each;
        }
        spare -= each * n;
        for (int i = 0; i < spare; ++i) {
            target[std::size_t(i)] += 1;  // the remainder to the best
        }
    }
    for (int i = 0; i < n; ++i) {
        const SizedTrial& t = *ranked[std::size_t(i)];
        const int to = target[std::size_t(i)];
        if (to == t.workers) {
            continue;
        }
        const QString rank = QStringLiteral("rank %1 of %2 running trials").arg(i + 1).arg(n);
        changes.push_back({t.id, t.workers, to,
                           QStringLiteral("%1 workers -> %2 (%3, %4 slots, %5)")
                               .arg(t.workers)
                               .arg(to)
                               .arg(rank)
                               .arg(workerSlots)
                               .arg(policy == ResourcePolicy::Top ? QStringLiteral("top")
                                                                  : QStringLiteral("distribute"))});
    }
    return changes;
}

}  // namespace tunedeck
