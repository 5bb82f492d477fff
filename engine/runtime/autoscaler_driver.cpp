#include "runtime/autoscaler_driver.h"

#include <QJsonArray>
#include <QPointer>
#include <algorithm>

#include "runtime/node_plans.h"

namespace tunedeck {

namespace {

// A step a second: idle_timeout_minutes is whole seconds at best, and a waiting trial's demand
// is also seen at once through demandChanged().
constexpr int kStepIntervalMs = 1000;
// After a node fails to start, the next launch waits 2 s, then 4, 8, ... up to a minute, so a
// wrong partition or a full quota does not flood Slurm with jobs.
constexpr double kFirstBackoffS = 2;
constexpr double kLongestBackoffS = 60;

}  // namespace

AutoscalerDriver::AutoscalerDriver(AutoscalerSpec spec, NodeProvider& provider, NodePool& pool,
                                   Hooks hooks, QObject* parent)
    : QObject(parent),
      spec_(std::move(spec)),
      provider_(provider),
      pool_(pool),
      hooks_(std::move(hooks)) {
    timer_.setInterval(kStepIntervalMs);
    connect(&timer_, &QTimer::timeout, this, &AutoscalerDriver::step);
    connect(&pool_, &NodePool::nodeUp, this,
            [this](const QString& nodeId, const node::Hello&) { onNodeUp(nodeId); });
    connect(&pool_, &NodePool::nodeGone, this, &AutoscalerDriver::onNodeGone);
    provider_.onTerminated = [self = QPointer<AutoscalerDriver>(this)](const QString& nodeId) {
        if (self) {
            self->onNodeTerminated(nodeId);
        }
    };
}

AutoscalerDriver::~AutoscalerDriver() {
    provider_.onTerminated = nullptr;
}

void AutoscalerDriver::start() {
    clock_.start();
    timer_.start();
    demandChanged();
}

void AutoscalerDriver::demandChanged() {
    if (stepQueued_ || stopped_) {
        return;
    }
    stepQueued_ = true;
    QMetaObject::invokeMethod(this, &AutoscalerDriver::step, Qt::QueuedConnection);
}

double AutoscalerDriver::nowS() const {
    return double(clock_.elapsed()) / 1000.0;
}

std::vector<ScaledNode> AutoscalerDriver::scaledNodes() {
    std::vector<ScaledNode> scaled;
    const double now = nowS();
    for (auto& [id, managed] : nodes_) {
        ScaledNode node;
        node.id = id;
        node.type = managed.node.type;
        node.state = managed.state;
        if (managed.state == ScaledNode::State::Ready) {
            for (const NodeCapacity& capacity : pool_.capacities()) {
                if (capacity.nodeId != id) {
                    continue;
                }
                node.cpuUsed = double(capacity.cpuUsedMilli) / double(kMilliPerUnit);
                for (std::int64_t used : capacity.gpuUsedMilli) {
                    node.gpuUsed += double(used) / double(kMilliPerUnit);
                }
            }
            if (node.busy()) {
                managed.idleSinceS = -1;
            } else if (managed.idleSinceS < 0) {
                managed.idleSinceS = now;
            }
            node.idleSinceS = managed.idleSinceS < 0 ? now : managed.idleSinceS;
        }
        scaled.push_back(node);
    }
    return scaled;
}

void AutoscalerDriver::step() {
    stepQueued_ = false;
    if (stopped_) {
        return;
    }
    const std::vector<WaitingTrial> waiting = hooks_.demand();
    const ScalingPlan plan = planScaling(spec_, scaledNodes(), waiting, nowS());
    if (!plan.infeasible.empty() && !infeasibleReported_) {
        infeasibleReported_ = true;
        hooks_.infeasible(plan.infeasible.front());
        return;
    }
    for (const ScalingPlan::Termination& termination : plan.terminations) {
        terminate(termination);
    }
    if (nowS() < noLaunchBeforeS_) {
        if (!plan.launches.empty()) {
            QTimer::singleShot(int((noLaunchBeforeS_ - nowS()) * 1000) + 10, this,
                               &AutoscalerDriver::demandChanged);
        }
        return;
    }
    for (const ScalingPlan::Launch& launch : plan.launches) {
        this->launch(launch);
    }
}

void AutoscalerDriver::launch(const ScalingPlan::Launch& launch) {
    QStringList ids;
    std::vector<ProviderNode> created;
    for (int i = 0; i < launch.count; ++i) {
        QString error;
        std::optional<ProviderNode> node = provider_.createNode(launch.type, &error);
        if (!node) {
            hooks_.record(QString(), QStringLiteral("launch_failed"),
                          QStringLiteral("cannot launch a %1: %2").arg(launch.type, error),
                          {{"type", launch.type}, {"reason", error}});
            break;
        }
        ids << node->id;
        created.push_back(*node);
    }
    const QString message = QStringLiteral("launching %1 x %2 (%3) %4")
                                .arg(created.size())
                                .arg(launch.type, ids.join(QStringLiteral(", ")), launch.reason);
    bool first = true;
    for (const ProviderNode& node : created) {
        Managed managed;
        managed.node = node;
        managed.launchedAtS = nowS();
        nodes_[node.id] = managed;
        hooks_.record(node.id, QStringLiteral("launching"), first ? message : QString(),
                      {{"type", node.type},
                       {"reason", launch.reason},
                       {"decision", message},
                       {"trials", QJsonArray::fromStringList(launch.forTrials)}});
        first = false;
        pool_.addNode(planNode(provider_, node));
    }
}

void AutoscalerDriver::terminate(const ScalingPlan::Termination& termination) {
    auto it = nodes_.find(termination.nodeId);
    if (it == nodes_.end() || it->second.state == ScaledNode::State::Terminating) {
        return;
    }
    const QString message =
        QStringLiteral("terminating %1: %2").arg(termination.nodeId, termination.reason);
    hooks_.record(
        termination.nodeId, QStringLiteral("terminating"), message,
        {{"type", it->second.node.type}, {"reason", termination.reason}, {"decision", message}});
    terminating_[termination.nodeId] = it->second.node.type;
    nodes_.erase(it);
    pool_.removeNode(termination.nodeId);
    provider_.terminateNode(termination.nodeId);
}

void AutoscalerDriver::onNodeTerminated(const QString& nodeId) {
    const auto it = terminating_.find(nodeId);
    if (it == terminating_.end() || stopped_) {
        return;  // a lost node's clean-up, or the run has ended
    }
    // No console line: the decision was "terminating"; this only says it is done.
    hooks_.record(nodeId, QStringLiteral("terminated"), QString(), {{"type", it->second}});
    terminating_.erase(it);
}

void AutoscalerDriver::onNodeUp(const QString& nodeId) {
    auto it = nodes_.find(nodeId);
    if (it == nodes_.end()) {
        return;
    }
    failedStartsInARow_ = 0;
    it->second.state = ScaledNode::State::Ready;
    it->second.idleSinceS = -1;
    const double after = nowS() - it->second.launchedAtS;
    hooks_.record(nodeId, QStringLiteral("ready"),
                  QStringLiteral("%1 (%2) ready %3 s after its launch")
                      .arg(nodeId, it->second.node.type)
                      .arg(after, 0, 'f', 1),
                  {{"type", it->second.node.type}, {"seconds_from_launch", after}});
    demandChanged();
}

void AutoscalerDriver::onNodeGone(const QString& nodeId, const QString& reason) {
    auto it = nodes_.find(nodeId);
    if (it == nodes_.end()) {
        return;
    }
    const bool neverReady = it->second.state == ScaledNode::State::Launching;
    const QString type = it->second.node.type;
    nodes_.erase(it);
    provider_.terminateNode(nodeId);  // a job left in the queue would start for nothing
    if (stopped_) {
        return;
    }
    if (neverReady) {
        ++failedStartsInARow_;
        const double delay = std::min(
            kLongestBackoffS, kFirstBackoffS * double(1 << std::min(failedStartsInARow_, 6)) / 2);
        noLaunchBeforeS_ = nowS() + delay;
        hooks_.record(nodeId, QStringLiteral("launch_failed"),
                      QStringLiteral("%1 (%2) did not start: %3; next launch in %4 s")
                          .arg(nodeId, type, reason)
                          .arg(delay),
                      {{"type", type}, {"reason", reason}});
    }
    demandChanged();
}

Status AutoscalerDriver::setMaxWorkers(const QString& type, int maxWorkers) {
    QStringList known;
    for (NodeTypeSpec& spec : spec_.types) {
        known << spec.name;
        if (spec.name != type) {
            continue;
        }
        if (maxWorkers < spec.minWorkers) {
            return Status::invalid(tr("set_max_workers: %1 is below min_workers of %2 (%3)")
                                       .arg(maxWorkers)
                                       .arg(type)
                                       .arg(spec.minWorkers));
        }
        const int was = spec.maxWorkers;
        spec.maxWorkers = maxWorkers;
        // The cluster-wide cap is at least the sum of the types' (SCHEMA.md: max_workers).
        int sum = 0;
        for (const NodeTypeSpec& each : spec_.types) {
            sum += each.maxWorkers;
        }
        spec_.maxWorkers = std::max(spec_.maxWorkers, sum);
        const QString message =
            tr("max_workers of %1: %2 -> %3 (control request)").arg(type).arg(was).arg(maxWorkers);
        hooks_.record(
            QString(), QStringLiteral("max_workers"), message,
            {{"type", type}, {"max_workers", maxWorkers}, {"was", was}, {"decision", message}});
        demandChanged();
        return Status::ok();
    }
    return Status::invalid(tr("set_max_workers: no node type '%1' in the cluster (known: %2)")
                               .arg(type.left(80), known.join(QStringLiteral(", "))));
}

void AutoscalerDriver::shutdown() {
    stopped_ = true;
    timer_.stop();
    for (const auto& [id, managed] : nodes_) {
        provider_.terminateNode(id);
    }
    nodes_.clear();
}

}  // namespace tunedeck
