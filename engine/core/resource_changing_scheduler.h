// `scheduler: {type: resource_changing, base: asha, policy: distribute}`: Ray's
// ResourceChangingScheduler. The base scheduler decides as always; when it lets a trial go on,
// planResourceChanges (core/resource_changing.h) may give the trial more workers (or take them
// back when trials wait): the trial is then paused at a checkpoint and started again with its
// new size (its ranks see the new WORLD_SIZE). The worker slots are what the runtime says the
// nodes hold (onWorkerSlots), less the base size of every waiting trial, so growing trials never
// keep a new one out. A trial changes size at most once every `min_iterations` of its own
// results (no flapping when two trials trade places). Pure; not thread-safe.
#pragma once

#include <QStringList>
#include <map>
#include <memory>

#include "core/resource_changing.h"
#include "core/scheduler.h"

namespace tunedeck {

QStringList resourceChangingOptionNames();
Status validateResourceChangingOptions(const ExperimentSpec& spec, QString* badKey);
std::unique_ptr<Scheduler> makeResourceChangingScheduler(const ExperimentSpec& spec);

// The experiment as its base scheduler sees it: scheduler.type is `base`, and the options of
// resource_changing itself are taken out.
ExperimentSpec baseSchedulerSpec(const ExperimentSpec& spec);

}  // namespace tunedeck
