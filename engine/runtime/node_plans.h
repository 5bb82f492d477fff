// Which nodes an experiment runs on and how each is reached: this machine's agent when the
// experiment names no cluster (or a `local` one), else one SSH link per node of the cluster file,
// with the copies that node needs (agent, Python SDK, trainable folder). Pure; no I/O.
#pragma once

#include <vector>

#include "core/experiment_spec.h"
#include "runtime/node_pool.h"

namespace tunedeck {

// How long an agent may be silent before its node is lost, without a cluster file (Ray: 15-30 s).
inline constexpr double kLocalNodeTimeoutS = 15;

struct NodePlanContext {
    QString experimentDir;
    QString workerPath;
    QString pythonSdkDir;
    bool acceptNewHostKeys = false;
};

std::vector<NodePlan> planNodes(const ExperimentSpec& spec, const NodePlanContext& context);

}  // namespace tunedeck
