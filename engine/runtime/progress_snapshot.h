// What the progress table and the closing summary show of a run at one moment: the best trial by
// each trial's latest result (core/best_trial.h under the scope `last`, as `best` ranks by
// default), the Pareto front when there are several objectives, the CPUs and GPUs in use, and how
// busy each card is (the nodes' latest usage samples, passed through). A pure function;
// thread-safe.
#pragma once

#include <QJsonObject>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/experiment_spec.h"
#include "core/placement.h"
#include "core/trial.h"
#include "runtime/progress_reporter.h"

namespace tunedeck {

// `trials` in creation order (the snapshot keeps them so, and a tie for best goes to the older);
// `totalTrials` when the searcher knows its budget.
ProgressSnapshot snapshotProgress(const ExperimentSpec& spec, std::vector<const Trial*> trials,
                                  const std::vector<NodeCapacity>& nodes, std::int64_t totalResults,
                                  std::optional<std::int64_t> totalTrials,
                                  std::vector<NodeUsageSample> nodeUsage = {});

}  // namespace tunedeck
