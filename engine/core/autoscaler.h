// The autoscaler's policy (Ray's cluster launcher keys: available_node_types with resources,
// min_workers and max_workers per type, the cluster's max_workers, upscaling_speed,
// idle_timeout_minutes). The head knows the exact demand, every waiting trial and its resources,
// so each step scales straight to what the waiting trials need instead of growing linearly
// (ray-project/ray #43451), and a trial no node type can ever hold is named at once with the type
// that comes closest instead of waiting forever (#20968). Pure: the runtime gives the nodes and
// the waiting trials as they are and the time; it carries out the launches and terminations.
//
// One step (planScaling):
//   1. trials no type can hold are reported infeasible (with the closest type);
//   2. each type is brought up to its min_workers;
//   3. the other waiting trials are packed onto the free room of ready and launching nodes, then
//      onto new nodes of the smallest type that holds them, within max_workers per type and for
//      the cluster; the launches beyond min_workers are bounded by upscaling_speed: at most
//      max(5, upscaling_speed x nodes) launches pending at once, as Ray;
//   4. ready nodes idle for idle_timeout are terminated, never below min_workers of their type
//      and never while a waiting trial could use them; nodes beyond max_workers (lowered while
//      running) go, idle ones first.
#pragma once

#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

#include "core/cluster_spec.h"
#include "core/experiment_spec.h"

namespace tunedeck {

struct NodeTypeSpec {
    QString name;
    double cpu = 1;
    double gpu = 0;
    std::int64_t gpuMemoryMb = 0;  // per card; 0: unknown (not checked)
    int minWorkers = 0;
    int maxWorkers = 0;
};

struct AutoscalerSpec {
    std::vector<NodeTypeSpec> types;
    int maxWorkers = 0;           // the whole cluster's, beside each type's
    double upscalingSpeed = 1.0;  // pending launches as a multiple of the nodes there are
    double idleTimeoutS = 300;    // idle_timeout_minutes: 5
};

// A worker node the autoscaler manages, as the runtime sees it now.
struct ScaledNode {
    enum class State { Launching, Ready, Terminating };
    QString id;
    QString type;
    State state = State::Launching;
    double cpuUsed = 0;  // by the trials placed on it
    double gpuUsed = 0;
    double idleSinceS = 0;  // Ready with nothing placed: since when (seconds, the caller's clock)
    bool busy() const { return cpuUsed > 0 || gpuUsed > 0; }
};

struct WaitingTrial {
    QString id;
    ResourceRequest request;
};

struct ScalingPlan {
    struct Launch {
        QString type;
        int count = 0;
        QStringList forTrials;  // the waiting trials the new nodes are for (none: min_workers)
        QString reason;         // "min_workers of gpu-node" or "t00012..t00015 wait"
    };
    struct Termination {
        QString nodeId;
        QString reason;  // "idle for 300 s", "max_workers lowered to 2"
    };
    struct Infeasible {
        QString trialId;
        QString closestType;
        QString
            why;  // "needs 8 CPUs, 2 GPUs; node type 'gpu-node' (the closest) has 4 CPUs, 1 GPU"
    };
    std::vector<Launch> launches;
    std::vector<Termination> terminations;
    std::vector<Infeasible> infeasible;
    // Trials that wait for room the limits do not allow yet (max_workers, upscaling_speed).
    QStringList heldBack;
};

// The policy's view of a cluster file's node types and autoscaling keys.
AutoscalerSpec autoscalerSpecOf(const ClusterSpec& cluster);

ScalingPlan planScaling(const AutoscalerSpec& spec, const std::vector<ScaledNode>& nodes,
                        const std::vector<WaitingTrial>& waiting, double nowS);

// Whether an empty node of `type` could hold `request`.
bool typeHolds(const NodeTypeSpec& type, const ResourceRequest& request);
// The type that comes closest to holding `request` (the smallest shortfall), and why none holds
// it; an empty name when there are no types.
ScalingPlan::Infeasible closestType(const std::vector<NodeTypeSpec>& types,
                                    const ResourceRequest& request);

}  // namespace tunedeck
