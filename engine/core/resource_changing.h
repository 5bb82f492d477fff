// Resources that follow the promising trials (Ray's ResourceChangingScheduler and its
// DistributeResources default; issue 20): when worker slots free up, running trials are given
// more workers (a gang trial's WORLD_SIZE), the leading ones first; the trial is paused at a
// checkpoint and restarted with its new size. Policies:
//   distribute  the slots are divided evenly among the running trials (never below each trial's
//               base), the remainder going to the best ones (DistributeResources);
//   top         the best trial takes every slot the others do not need at their base
//               (DistributeResourcesToTopJob).
// planResourceChanges says which trials change and to what; the total never exceeds the slots
// the cluster has. Pure.
#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "core/experiment_spec.h"

namespace tunedeck {

enum class ResourcePolicy { Distribute, Top };

struct SizedTrial {
    QString id;
    int workers = 1;              // what it runs with now
    std::optional<double> score;  // its latest value of the metric (none: not reported yet)
};

struct ResourceChange {
    QString trialId;
    int fromWorkers = 0;
    int toWorkers = 0;
    QString reason;
};

// `workerSlots`: the worker slots the cluster offers the experiment in all (running trials'
// included); `baseWorkers`: what every trial starts with and never goes below.
std::vector<ResourceChange> planResourceChanges(const std::vector<SizedTrial>& running,
                                                int workerSlots, int baseWorkers,
                                                ResourcePolicy policy, MetricMode mode);

}  // namespace tunedeck
