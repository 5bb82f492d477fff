// The part of ExperimentRunner that talks with the nodes' worker agents: their hello (CPUs and
// GPUs), the trial messages and exits they relay, checkpoints travelling between a node and this
// machine, and a node's loss and return.
#include <QJsonArray>
#include <QTimer>

#include "api/events.h"
#include "checkpoint/checkpoint_files.h"
#include "core/gang_placement.h"
#include "runtime/experiment_runner.h"
#include "runtime/node_plans.h"
#include "runtime/recovery.h"

namespace tunedeck {

namespace {

// How long a checkpoint copy that failed waits for its node to be declared lost (a connection
// reset ends the copy and the agent's link at once, in either order).
constexpr int kCopyVerdictDelayMs = 2000;

}  // namespace

void ExperimentRunner::openNodes() {
    NodePlanContext context;
    context.experimentDir = options_.experimentDir;
    context.workerPath = options_.workerPath;
    context.pythonSdkDir = options_.pythonSdkDir;
    context.acceptNewHostKeys = options_.acceptNewHostKeys;
    provider_ = makeNodeProvider(spec_, context);
    std::vector<NodePlan> plans;
    if (!provider_->elastic()) {
        for (const ProviderNode& node : provider_->listNodes()) {
            plans.push_back(planNode(*provider_, node));
        }
    }
    pool_ = std::make_unique<NodePool>(
        std::move(plans), spec_.clusterSpec ? spec_.clusterSpec->nodeTimeoutS : kLocalNodeTimeoutS);
    connect(pool_.get(), &NodePool::nodeUp, this, &ExperimentRunner::onNodeUp);
    connect(pool_.get(), &NodePool::nodeLost, this, &ExperimentRunner::onNodeLost);
    connect(pool_.get(), &NodePool::message, this, &ExperimentRunner::onNodeMessage);
    // A node that cannot be reached has answered too: placement: spread waits no longer for it.
    connect(pool_.get(), &NodePool::nodeUnreachable, this, [this] { pump(); });
    pool_->open();
    if (provider_->elastic()) {
        startAutoscaler();
    }
}

NodeLink* ExperimentRunner::linkOf(const LiveTrial& live) const {
    return pool_ && !live.placement.nodeId.isEmpty() ? pool_->link(live.placement.nodeId) : nullptr;
}

QString ExperimentRunner::onNodePath(const LiveTrial& live, const QString& headPath) const {
    const NodeLink* link = linkOf(live);
    return link ? link->paths().toNode(headPath) : headPath;
}

void ExperimentRunner::sendToNode(const LiveTrial& live, const QJsonObject& op) {
    if (NodeLink* link = linkOf(live)) {
        link->send(op);
    }
}

void ExperimentRunner::onNodeMessage(const QString& nodeId, const QJsonObject& message) {
    const QString ev = message.value("ev").toString();
    if (ev == QLatin1String("usage")) {
        onNodeUsage(nodeId, message);
        return;
    }
    if (ev == QLatin1String("gpu_lost")) {
        onGpuLost(nodeId, message);
        return;
    }
    if (ev == QLatin1String("gpu_sharing")) {
        onGpuSharing(nodeId, message);
        return;
    }
    if (ev == QLatin1String("error")) {
        emitEvent(
            events::type::kWarning,
            events::warning(
                tr("worker agent on %1: %2").arg(nodeId, message.value("message").toString())));
        return;
    }
    if (onGangMemberMessage(nodeId, message)) {
        return;  // a rank other than 0 of a gang trial
    }
    LiveTrial* live = findTrial(message);
    if (live == nullptr || live->placement.nodeId != nodeId) {
        return;  // a trial from before a restart of the agent, or moved since; nothing to do
    }
    if (ev == QLatin1String("trial")) {
        onTrialMessage(*live, message.value("msg").toObject());
    } else if (ev == QLatin1String("started")) {
        live->attempt.processStarted();
        live->lastActivity.start();
        if (live->gang.placed) {
            startGangRanks(*live, message);
        }
    } else if (ev == QLatin1String("trial_error")) {
        killTrial(*live, FailureCause::ProtocolViolation, message.value("message").toString());
    } else if (ev == QLatin1String("committed")) {
        onNodeCommitted(*live, message);
    } else if (ev == QLatin1String("exited")) {
        onTrialExited(*live, message);
    }
}

ExperimentRunner::LiveTrial* ExperimentRunner::findTrial(const QJsonObject& message) {
    auto it = trials_.find(message.value("trial").toString());
    return it == trials_.end() ? nullptr : &it->second;
}

void ExperimentRunner::onNodeCommitted(LiveTrial& live, const QJsonObject& message) {
    NodeLink* link = linkOf(live);
    const QString nodeTo = message.value("to").toString();
    QJsonObject onHead = message;
    onHead.insert("to", link ? link->paths().toHead(nodeTo) : nodeTo);
    NodeFiles* files = link ? link->files() : nullptr;
    if (files == nullptr || !message.value("ok").toBool()) {
        onCommitted(live, onHead);
        return;
    }
    // The node has the checkpoint; the history records it once this machine has it too. Results
    // go on meanwhile; only the trial's exit waits for the copy (pendingCommits).
    const QString headTo = onHead.value("to").toString();
    const QString scratch = headTo + QStringLiteral(".tmp");
    if (Status s = removeStagingFolder(scratch); !s) {
        onHead.insert("ok", false);
        onHead.insert("error", s.message());
        onCommitted(live, onHead);
        return;
    }
    const QString trialId = live.trial.id;
    const QString nodeId = live.placement.nodeId;
    const int attempt = live.attempt.number();
    files->fetchFolder(
        nodeTo, scratch,
        [this, trialId, nodeId, attempt, headTo, scratch, onHead](bool ok,
                                                                  const QString& error) mutable {
            auto it = trials_.find(trialId);
            if (it == trials_.end() || finished_) {
                return;
            }
            QString why = error;
            if (!ok) {
                // A copy cut off by the node's death is node loss, and the node's loss may be
                // noticed a moment after the copy's: the verdict waits that moment, and the
                // node's loss, if it comes, forgets the commit (TrialAttempt::nodeLost).
                onHead.insert("ok", false);
                onHead.insert("error", tr("copying it from %1 failed: %2").arg(nodeId, why));
                removeStagingFolder(scratch);
                QTimer::singleShot(kCopyVerdictDelayMs, this, [this, trialId, attempt, onHead] {
                    auto later = trials_.find(trialId);
                    if (later != trials_.end() && !finished_ &&
                        later->second.attempt.number() == attempt) {
                        onCommitted(later->second, onHead);
                    }
                });
                return;
            }
            // Fetched files are made durable and put in place as every checkpoint is.
            const checkpoint::FileOutcome published = checkpoint::publishFolder(
                checkpoint::posixFileSystem(), scratch.toStdString(), headTo.toStdString());
            ok = published.ok;
            why = QString::fromStdString(published.error);
            if (ok) {
                checkpointsOnNode_[nodeId].insert(headTo);
            }
            if (!ok) {
                removeStagingFolder(scratch);
                onHead.insert("ok", false);
                onHead.insert("error", tr("copying it from %1 failed: %2").arg(nodeId, why));
            }
            onCommitted(it->second, onHead);
        });
}

void ExperimentRunner::onNodeUp(const QString& nodeId, const QJsonObject& hello) {
    for (const NodeCapacity& node : pool_->capacities()) {
        if (node.nodeId == nodeId) {
            nodesSeen_[nodeId] = emptyCapacity(node);
        }
    }
    emitEvent(events::type::kNode, events::node(nodeId, QStringLiteral("up"), hello));
    startMonitoring(nodeId, hello);
    tellSchedulerWorkerSlots();
    if (!checkRequestFits()) {
        return;
    }
    pump();
}

bool ExperimentRunner::checkRequestFits() {
    if (autoscaler_) {
        return true;  // node types, not the nodes up now, decide (the autoscaler)
    }
    if (!pool_->allHeardFrom() || nodesSeen_.empty()) {
        return true;  // a node still connecting may be the one that fits
    }
    std::vector<NodeCapacity> seen;
    for (const auto& [id, node] : nodesSeen_) {
        seen.push_back(node);
    }
    QString why;
    if (trialFitsEver(spec_.resourcesPerTrial, spec_.gang, seen, &why)) {
        return true;
    }
    if (spec_.resourcesPerTrial.gpu > 0) {
        why += gpuNotes();
    }
    failExperiment(kExitBadInput,
                   QStringLiteral("%1: resources_per_trial: %2")
                       .arg(spec_.locationOf("resources_per_trial").toString(), why));
    return false;
}

void ExperimentRunner::onNodeLost(const QString& nodeId, const QString& reason) {
    checkpointsOnNode_.erase(nodeId);
    onGangNodeLost(nodeId, reason);
    latestUsage_.erase(nodeId);  // its cards are no longer shown as busy
    if (finished_) {
        return;
    }
    emitEvent(events::type::kNode,
              events::node(nodeId, QStringLiteral("lost"), {{"reason", reason}}));
    tellSchedulerWorkerSlots();
    for (auto& [id, live] : trials_) {
        if (live.trial.status == TrialStatus::Running && live.placement.nodeId == nodeId) {
            // Copies from that node will not arrive.
            live.attempt.nodeLost(tr("node %1 lost: %2").arg(nodeId, reason));
            onTrialExited(live, ExitFacts{});
        }
    }
    if (stopping_) {
        maybeFinish();
        return;
    }
    checkRequestFits();
    pump();
}

bool ExperimentRunner::checkpointMissingOn(const QString& nodeId, const QString& checkpoint) {
    NodeLink* link = pool_ ? pool_->link(nodeId) : nullptr;
    return link != nullptr && link->files() != nullptr && !checkpoint.isEmpty() &&
           checkpointsOnNode_[nodeId].count(checkpoint) == 0;
}

void ExperimentRunner::pushCheckpoint(const QString& nodeId, const QString& checkpoint,
                                      NodeFiles::Done done) {
    NodeLink* link = pool_->link(nodeId);
    link->files()->pushFolder(
        checkpoint, link->paths().toNode(checkpoint),
        [this, nodeId, checkpoint, done = std::move(done)](bool ok, const QString& error) {
            if (ok) {
                checkpointsOnNode_[nodeId].insert(checkpoint);
            }
            done(ok, error);
        });
}

void ExperimentRunner::pushCheckpointThenLaunch(LiveTrial& live, TrialLaunch launch) {
    const QString nodeId = live.placement.nodeId;
    if (!checkpointMissingOn(nodeId, live.trial.checkpointPath)) {
        launchOnNode(live, launch);
        return;
    }
    // Restored on a node that does not have its checkpoint: the checkpoint goes there first.
    const QString trialId = live.trial.id;
    const int attempt = live.attempt.number();
    live.trial.pendingReason = tr("copying its checkpoint to %1").arg(nodeId);
    pushCheckpoint(
        nodeId, live.trial.checkpointPath,
        [this, trialId, attempt, nodeId, launch = std::move(launch)](bool ok,
                                                                     const QString& error) {
            auto it = trials_.find(trialId);
            if (it == trials_.end() || finished_) {
                return;
            }
            LiveTrial& live = it->second;
            if (live.attempt.number() != attempt || live.trial.status != TrialStatus::Running) {
                return;  // the node was lost meanwhile; the trial waits again
            }
            if (live.attempt.ending() != TrialAttempt::Ending::None) {
                // stopped or interrupted while its checkpoint travelled
                onTrialExited(live, ExitFacts{});
                return;
            }
            if (!ok) {
                live.attempt.nodeLost(
                    tr("cannot copy its checkpoint to %1: %2").arg(nodeId, error));
                onTrialExited(live, ExitFacts{});
                return;
            }
            launchOnNode(live, launch);
        });
}

void ExperimentRunner::launchOnNode(LiveTrial& live, const TrialLaunch& launch) {
    NodeLink* link = linkOf(live);
    if (link == nullptr) {  // the node went away while the trial was being placed
        live.attempt.nodeLost(tr("node %1 is not up").arg(live.placement.nodeId));
        onTrialExited(live, ExitFacts{});
        return;
    }
    live.lastActivity.start();  // the trial's silence counts from its start on the node
    QJsonObject extra;
    if (live.gang.placed) {
        // Rank 0 of a gang: its node picks the port the other ranks meet it on.
        extra = {{"log_prefix", QStringLiteral("[rank 0] ")},
                 {"free_ports", QJsonArray{QStringLiteral("MASTER_PORT")}}};
        if (const QString peer = peerAddress(live.gang, 0); !peer.isEmpty()) {
            extra.insert(QStringLiteral("interface_for"), peer);
        }
    }
    link->send(startOp(*link, live.trial.id, launch, extra));
}

QJsonObject ExperimentRunner::startOp(const NodeLink& link, const QString& id,
                                      const TrialLaunch& launch, const QJsonObject& extra) {
    const PathMap& paths = link.paths();
    QJsonObject env;
    for (auto it = launch.env.cbegin(); it != launch.env.cend(); ++it) {
        // Search paths (PYTHONPATH) are lists: each folder in them is mapped on its own.
        QStringList parts = it.value().split(QLatin1Char(':'));
        for (QString& part : parts) {
            part = paths.toNode(part);
        }
        env.insert(it.key(), parts.join(QLatin1Char(':')));
    }
    QJsonArray argv;
    for (const QString& argument : launch.argv) {
        argv.append(paths.toNode(argument));
    }
    QJsonObject op{{"op", "start"},
                   {"trial", id},
                   {"argv", argv},
                   {"env", env},
                   {"cwd", paths.toNode(launch.cwd)},
                   {"trial_dir", paths.toNode(launch.trialDir)}};
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        op.insert(it.key(), it.value());
    }
    return op;
}

void ExperimentRunner::deleteCheckpointFolder(const LiveTrial& live, const QString& headPath) {
    NodeLink* link = linkOf(live);
    const bool nodeSharesFiles = link != nullptr && link->files() == nullptr;
    if (nodeSharesFiles) {
        link->send(QJsonObject{{"op", "delete_checkpoint"}, {"path", headPath}});
        return;  // the agent removes it without holding up the engine
    }
    if (link != nullptr && checkpointsOnNode_[live.placement.nodeId].erase(headPath) != 0) {
        link->send(
            QJsonObject{{"op", "delete_checkpoint"}, {"path", link->paths().toNode(headPath)}});
    }
    if (Status s = removeCheckpoint(headPath); !s) {
        emitEvent(events::type::kWarning, events::warning(s.message(), live.trial.id));
    }
}

}  // namespace tunedeck
