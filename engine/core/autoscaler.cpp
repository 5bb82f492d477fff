#include "core/autoscaler.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/placement.h"

namespace tunedeck {

namespace {

// Ray's floor on pending launches, whatever upscaling_speed says.
constexpr int kMinPendingLaunches = 5;

// Free room on a node, in milli-units (placement.h), for packing the demand.
struct Room {
    QString type;
    QString nodeId;  // empty for a node this plan launches
    std::int64_t cpuFree = 0;
    std::int64_t gpuFree = 0;
    bool used = false;  // a waiting trial was packed onto it
    int launch = -1;    // for a node this plan launches: its entry in plan.launches
};

bool fits(const Room& room, const ResourceRequest& request) {
    return toMilli(request.cpu) <= room.cpuFree && toMilli(request.gpu) <= room.gpuFree;
}

void take(Room& room, const ResourceRequest& request) {
    room.cpuFree -= toMilli(request.cpu);
    room.gpuFree -= toMilli(request.gpu);
    room.used = true;
}

const NodeTypeSpec* findType(const AutoscalerSpec& spec, const QString& name) {
    for (const NodeTypeSpec& type : spec.types) {
        if (type.name == name) {
            return &type;
        }
    }
    return nullptr;
}

QString amount(double value, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(value).arg(QLatin1String(value == 1 ? one : many));
}

QString describe(const ResourceRequest& request) {
    QString text = amount(request.cpu, "CPU", "CPUs");
    if (request.gpu > 0) {
        text += QStringLiteral(", ") + amount(request.gpu, "GPU", "GPUs");
    }
    if (request.gpuMemoryMb > 0) {
        text += QStringLiteral(", %1 MB of GPU memory").arg(request.gpuMemoryMb);
    }
    return text;
}

QString describe(const NodeTypeSpec& type) {
    ResourceRequest has;
    has.cpu = type.cpu;
    has.gpu = type.gpu;
    has.gpuMemoryMb = type.gpuMemoryMb;
    return describe(has);
}

// "t00012", "t00012, t00013" or "t00012..t00015 (4 trials)": trial ids sort in creation order.
QString trialRange(const QStringList& ids) {
    if (ids.size() <= 2) {
        return ids.join(QStringLiteral(", "));
    }
    return QStringLiteral("%1..%2 (%3 trials)").arg(ids.first(), ids.last()).arg(ids.size());
}

// Smaller first: the type that wastes least when it holds a trial.
bool smallerType(const NodeTypeSpec* a, const NodeTypeSpec* b) {
    if (a->gpu != b->gpu) {
        return a->gpu < b->gpu;
    }
    return a->cpu < b->cpu;
}

}  // namespace

AutoscalerSpec autoscalerSpecOf(const ClusterSpec& cluster) {
    AutoscalerSpec spec;
    for (const ClusterNodeType& type : cluster.nodeTypes) {
        NodeTypeSpec out;
        out.name = type.name;
        out.cpu = type.cpu;
        out.gpu = type.gpu;
        out.minWorkers = type.minWorkers;
        out.maxWorkers = type.maxWorkers;
        spec.types.push_back(out);
    }
    spec.maxWorkers = cluster.maxWorkers;
    spec.upscalingSpeed = cluster.upscalingSpeed;
    spec.idleTimeoutS = cluster.idleTimeoutS;
    return spec;
}

bool typeHolds(const NodeTypeSpec& type, const ResourceRequest& request) {
    if (toMilli(request.cpu) > toMilli(type.cpu) || toMilli(request.gpu) > toMilli(type.gpu)) {
        return false;
    }
    return request.gpuMemoryMb <= 0 || request.gpu <= 0 || type.gpuMemoryMb <= 0 ||
           request.gpuMemoryMb <= type.gpuMemoryMb;
}

ScalingPlan::Infeasible closestType(const std::vector<NodeTypeSpec>& types,
                                    const ResourceRequest& request) {
    ScalingPlan::Infeasible closest;
    double best = 0;
    for (const NodeTypeSpec& type : types) {
        // Shortfall as a fraction of what is asked, summed over the resources.
        double shortfall = std::max(0.0, request.cpu - type.cpu) / std::max(request.cpu, 1e-9);
        if (request.gpu > 0) {
            shortfall += std::max(0.0, request.gpu - type.gpu) / request.gpu;
        }
        if (request.gpuMemoryMb > 0 && type.gpuMemoryMb > 0) {
            shortfall += std::max<double>(0.0, double(request.gpuMemoryMb - type.gpuMemoryMb)) /
                         double(request.gpuMemoryMb);
        }
        if (closest.closestType.isEmpty() || shortfall < best) {
            best = shortfall;
            closest.closestType = type.name;
            closest.why = QStringLiteral("needs %1; node type '%2' (the closest) has %3")
                              .arg(describe(request), type.name, describe(type));
        }
    }
    if (closest.closestType.isEmpty()) {
        closest.why =
            QStringLiteral("needs %1; the cluster has no node types").arg(describe(request));
    }
    return closest;
}

ScalingPlan planScaling(const AutoscalerSpec& spec, const std::vector<ScaledNode>& nodes,
                        const std::vector<WaitingTrial>& waiting, double nowS) {
    ScalingPlan plan;
    std::map<QString, int> alive;  // per type: launching or ready, and those this plan launches
    int total = 0;
    int launchingNow = 0;
    std::vector<Room> rooms;
    for (const ScaledNode& node : nodes) {
        const NodeTypeSpec* type = findType(spec, node.type);
        if (node.state == ScaledNode::State::Terminating || type == nullptr) {
            continue;
        }
        ++alive[node.type];
        ++total;
        launchingNow += node.state == ScaledNode::State::Launching ? 1 : 0;
        rooms.push_back({node.type, node.id, toMilli(type->cpu) - toMilli(node.cpuUsed),
                         toMilli(type->gpu) - toMilli(node.gpuUsed), false});
    }

    // 1. Trials no node type can ever hold.
    std::vector<const WaitingTrial*> feasible;
    for (const WaitingTrial& trial : waiting) {
        const bool someTypeHolds =
            std::any_of(spec.types.begin(), spec.types.end(),
                        [&](const NodeTypeSpec& type) { return typeHolds(type, trial.request); });
        if (someTypeHolds) {
            feasible.push_back(&trial);
        } else {
            ScalingPlan::Infeasible infeasible = closestType(spec.types, trial.request);
            infeasible.trialId = trial.id;
            plan.infeasible.push_back(std::move(infeasible));
        }
    }

    // 2. Every type up to its min_workers (within the cluster's max_workers).
    for (const NodeTypeSpec& type : spec.types) {
        const int need = std::min(type.minWorkers - alive[type.name], spec.maxWorkers - total);
        if (need <= 0) {
            continue;
        }
        plan.launches.push_back(
            {type.name,
             need,
             {},
             QStringLiteral("min_workers of %1 is %2").arg(type.name).arg(type.minWorkers)});
        for (int i = 0; i < need; ++i) {
            rooms.push_back({type.name, QString(), toMilli(type.cpu), toMilli(type.gpu), false,
                             int(plan.launches.size()) - 1});
        }
        alive[type.name] += need;
        total += need;
    }

    // 3. The demand: the room there is first, then new nodes of the smallest type that holds
    // each trial, within the limits.
    const int pendingAllowed = std::max(
        kMinPendingLaunches, int(std::floor(spec.upscalingSpeed * double(std::max(total, 1)))));
    int demandLaunches = 0;
    std::vector<const NodeTypeSpec*> bySize;
    for (const NodeTypeSpec& type : spec.types) {
        bySize.push_back(&type);
    }
    std::stable_sort(bySize.begin(), bySize.end(), smallerType);
    std::map<QString, std::size_t> launchOfType;  // index in plan.launches of the demand launch
    for (const WaitingTrial* trial : feasible) {
        auto room = std::find_if(rooms.begin(), rooms.end(),
                                 [&](const Room& r) { return fits(r, trial->request); });
        if (room != rooms.end()) {
            take(*room, trial->request);
            if (room->launch >= 0) {
                plan.launches[std::size_t(room->launch)].forTrials << trial->id;
            }
            continue;
        }
        const NodeTypeSpec* pick = nullptr;
        if (total < spec.maxWorkers && launchingNow + demandLaunches < pendingAllowed) {
            for (const NodeTypeSpec* type : bySize) {
                if (typeHolds(*type, trial->request) && alive[type->name] < type->maxWorkers) {
                    pick = type;
                    break;
                }
            }
        }
        if (pick == nullptr) {
            plan.heldBack << trial->id;
            continue;
        }
        auto [it, inserted] = launchOfType.try_emplace(pick->name, plan.launches.size());
        if (inserted) {
            plan.launches.push_back({pick->name, 0, {}, QString()});
        }
        ScalingPlan::Launch& launch = plan.launches[it->second];
        ++launch.count;
        launch.forTrials << trial->id;
        Room added{pick->name,         QString(), toMilli(pick->cpu),
                   toMilli(pick->gpu), false,     int(it->second)};
        take(added, trial->request);
        rooms.push_back(added);
        ++alive[pick->name];
        ++total;
        ++demandLaunches;
    }
    for (ScalingPlan::Launch& launch : plan.launches) {
        std::sort(launch.forTrials.begin(), launch.forTrials.end());
    }
    for (const auto& [type, index] : launchOfType) {
        ScalingPlan::Launch& launch = plan.launches[index];
        launch.reason = QStringLiteral("for %1").arg(trialRange(launch.forTrials));
    }

    // 4. Idle nodes, and nodes beyond max_workers.
    std::map<QString, int> kept = alive;
    std::vector<const ScaledNode*> idle;
    for (const ScaledNode& node : nodes) {
        if (node.state != ScaledNode::State::Ready || node.busy() ||
            findType(spec, node.type) == nullptr) {
            continue;
        }
        const bool wanted = std::any_of(rooms.begin(), rooms.end(), [&](const Room& r) {
            return r.nodeId == node.id && r.used;
        });
        if (!wanted) {
            idle.push_back(&node);
        }
    }
    std::stable_sort(idle.begin(), idle.end(), [](const ScaledNode* a, const ScaledNode* b) {
        return a->idleSinceS < b->idleSinceS;  // the longest idle first
    });
    auto terminate = [&](const ScaledNode& node, const QString& reason) {
        plan.terminations.push_back({node.id, reason});
        --kept[node.type];
        --total;
    };
    for (const ScaledNode* node : idle) {
        const NodeTypeSpec* type = findType(spec, node->type);
        const double idleFor = nowS - node->idleSinceS;
        if (idleFor >= spec.idleTimeoutS && kept[node->type] > type->minWorkers) {
            terminate(*node, QStringLiteral("idle for %1 s (idle_timeout_minutes: %2)")
                                 .arg(std::floor(idleFor))
                                 .arg(spec.idleTimeoutS / 60.0));
        }
    }
    if (total > spec.maxWorkers) {
        // max_workers lowered below the nodes there are: idle ones go first, then launching
        // ones, then busy ones (their trials wait again, as after node loss).
        std::vector<const ScaledNode*> order;
        for (const ScaledNode* node : idle) {
            order.push_back(node);
        }
        for (const ScaledNode& node : nodes) {
            if (node.state == ScaledNode::State::Launching) {
                order.push_back(&node);
            }
        }
        for (const ScaledNode& node : nodes) {
            if (node.state == ScaledNode::State::Ready && node.busy()) {
                order.push_back(&node);
            }
        }
        for (const ScaledNode* node : order) {
            if (total <= spec.maxWorkers) {
                break;
            }
            const bool already = std::any_of(
                plan.terminations.begin(), plan.terminations.end(),
                [&](const ScalingPlan::Termination& t) { return t.nodeId == node->id; });
            if (!already) {
                terminate(*node, QStringLiteral("max_workers is %1").arg(spec.maxWorkers));
            }
        }
    }
    return plan;
}

}  // namespace tunedeck
