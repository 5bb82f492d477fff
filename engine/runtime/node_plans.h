// Which nodes an experiment runs on and how each is reached, as a node provider: this machine's
// agent when the experiment names no cluster (or a `local` one), one SSH link per node of an SSH
// cluster file (with the copies that node needs: agent, Python SDK, trainable folder), or the
// nodes the autoscaler asks of Slurm or of the user's commands. No I/O until a link opens.
#pragma once

#include <vector>

#include "cluster/node_provider.h"
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

std::unique_ptr<NodeProvider> makeNodeProvider(const ExperimentSpec& spec,
                                               const NodePlanContext& context);

// How the pool opens a node of `provider` (Slurm's allocations are not reopened after a loss).
NodePlan planNode(NodeProvider& provider, const ProviderNode& node);

}  // namespace tunedeck
