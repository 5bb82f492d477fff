// The part of ExperimentRunner that talks with the node's worker agent: its hello (the node's
// CPUs and GPUs), the trial messages and exits it relays, and the node's loss and restart.
#include <QJsonArray>

#include "api/events.h"
#include "runtime/experiment_runner.h"

namespace tunedeck {

namespace {

constexpr int kNodeRestartDelayMs = 1000;  // before a lost local agent is started again

}  // namespace

void ExperimentRunner::openNode() {
    nodeReady_ = false;
    nodes_.clear();
    node_ = std::make_unique<LocalNodeLink>(options_.workerPath);
    connect(node_.get(), &NodeLink::messageReceived, this, &ExperimentRunner::onNodeMessage);
    connect(node_.get(), &NodeLink::closed, this, &ExperimentRunner::onNodeClosed);
    nodeSilence_.start();
    node_->open();
}

void ExperimentRunner::onNodeMessage(const QJsonObject& message) {
    nodeSilence_.start();
    const QString ev = message.value("ev").toString();
    if (ev == QLatin1String("heartbeat")) {
        return;
    }
    if (ev == QLatin1String("hello")) {
        onHello(message);
        return;
    }
    if (ev == QLatin1String("error")) {
        emitEvent(events::type::kWarning,
                  events::warning(tr("worker agent: %1").arg(message.value("message").toString())));
        return;
    }
    LiveTrial* live = findTrial(message);
    if (live == nullptr) {
        return;  // a trial from before a restart of the agent; nothing to do
    }
    if (ev == QLatin1String("trial")) {
        onTrialMessage(*live, message.value("msg").toObject());
    } else if (ev == QLatin1String("started")) {
        live->processRunning = true;
        live->lastActivity.start();
    } else if (ev == QLatin1String("trial_error")) {
        killTrial(*live, LiveTrial::Ending::Kill, FailureCause::ProtocolViolation,
                  message.value("message").toString());
    } else if (ev == QLatin1String("committed")) {
        onCommitted(*live, message);
    } else if (ev == QLatin1String("exited")) {
        onTrialExited(*live, message);
    }
}

ExperimentRunner::LiveTrial* ExperimentRunner::findTrial(const QJsonObject& message) {
    auto it = trials_.find(message.value("trial").toString());
    return it == trials_.end() ? nullptr : &it->second;
}

void ExperimentRunner::onHello(const QJsonObject& hello) {
    NodeCapacity node;
    node.nodeId = node_->nodeId();
    node.cpuTotalMilli = toMilli(hello.value("cpus").toDouble(1));
    for (const QJsonValue& gpu : hello.value("gpus").toArray()) {
        node.gpuUsedMilli.push_back(0);
        node.gpuIds.push_back(gpu.toObject().value("uuid").toString());
    }
    nodes_ = {node};
    QString why;
    if (!fitsAnyNode(spec_.resourcesPerTrial, nodes_, &why)) {
        failExperiment(kExitBadInput,
                       QStringLiteral("%1: resources_per_trial: %2")
                           .arg(spec_.locationOf("resources_per_trial").toString(), why));
        return;
    }
    emitEvent(events::type::kNode, events::node(node.nodeId, QStringLiteral("up"), hello));
    nodeReady_ = true;
    pump();
}

void ExperimentRunner::onNodeClosed(const QString& reason) {
    nodeReady_ = false;
    nodes_.clear();
    if (finished_) {
        return;
    }
    emitEvent(events::type::kNode,
              events::node(QStringLiteral("local"), QStringLiteral("lost"), {{"reason", reason}}));
    for (auto& [id, live] : trials_) {
        if (live.trial.status == TrialStatus::Running) {
            live.processRunning = false;
            live.failureCause = FailureCause::NodeLost;
            live.failureMessage = tr("node lost: %1").arg(reason);
            onTrialExited(live, QJsonObject{{"trial", id}});
        }
    }
    if (stopping_) {
        maybeFinish();
        return;
    }
    QTimer::singleShot(kNodeRestartDelayMs, this, [this] {
        if (!finished_) {
            openNode();
        }
    });
}

}  // namespace tunedeck
