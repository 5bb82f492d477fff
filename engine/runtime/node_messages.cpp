// ExperimentRunner and the nodes' worker agents: their hello (CPUs and GPUs), the trial messages
// and exits they relay (turned into the loop's typed inputs), checkpoints travelling between a
// node and this machine, and a node's loss and return.
#include <QJsonArray>

#include "checkpoint/checkpoint_files.h"
#include "core/events.h"
#include "core/gang_placement.h"
#include "runtime/experiment_runner.h"
#include "runtime/node_plans.h"
#include "runtime/recovery.h"

namespace tunedeck {

namespace {

// How long a checkpoint copy that failed waits for its node to be declared lost (a connection
// reset ends the copy and the agent's link at once, in either order).
constexpr double kCopyVerdictS = 2;
// How long an unasked-for exit on an elastic node waits for the node's loss: srun ends within a
// second or two of its allocation (the trial's signal and srun's end race by milliseconds).
constexpr double kNodeLossVerdictS = 5;

}  // namespace

void ExperimentRunner::openNodes() {
    NodePlanContext context;
    context.experimentDir = options_.experimentDir;
    context.workerPath = options_.workerPath;
    context.pythonSdkDir = options_.pythonSdkDir;
    context.acceptNewHostKeys = options_.acceptNewHostKeys;
    provider_ = makeNodeProvider(spec(), context);
    std::vector<NodePlan> plans;
    if (!provider_->elastic()) {
        for (const ProviderNode& node : provider_->listNodes()) {
            plans.push_back(planNode(*provider_, node));
        }
    }
    pool_ = std::make_unique<NodePool>(std::move(plans), spec().clusterSpec
                                                             ? spec().clusterSpec->nodeTimeoutS
                                                             : kLocalNodeTimeoutS);
    connect(pool_.get(), &NodePool::nodeUp, this, &ExperimentRunner::onNodeUp);
    connect(pool_.get(), &NodePool::nodeLost, this, &ExperimentRunner::onNodeLost);
    connect(pool_.get(), &NodePool::message, this, &ExperimentRunner::onNodeMessage);
    // A node that cannot be reached has answered too: placement: spread waits no longer for it.
    connect(pool_.get(), &NodePool::nodeUnreachable, this, [this] { loop_->schedule(); });
    gangs_.attach(pool_.get());
    monitor_.attach(pool_.get());
    pool_->open();
    if (provider_->elastic()) {
        startAutoscaler();
    }
}

NodeLink* ExperimentRunner::linkOn(const Placement& placement) const {
    return pool_ && !placement.nodeId.isEmpty() ? pool_->link(placement.nodeId) : nullptr;
}

QString ExperimentRunner::onNodePath(const Placement& placement, const QString& headPath) const {
    const NodeLink* link = linkOn(placement);
    return link ? link->paths().toNode(headPath) : headPath;
}

void ExperimentRunner::onNodeMessage(const QString& nodeId, const node::Event& event) {
    if (const auto* usage = std::get_if<node::Usage>(&event)) {
        monitor_.onUsage(nodeId, *usage);
        return;
    }
    if (const auto* lost = std::get_if<node::GpuLost>(&event)) {
        monitor_.onGpuLost(nodeId, *lost);
        return;
    }
    if (const auto* sharing = std::get_if<node::GpuSharing>(&event)) {
        monitor_.onGpuSharing(nodeId, *sharing);
        return;
    }
    if (const auto* error = std::get_if<node::Error>(&event)) {
        loop_->recordEvent(
            events::type::kWarning,
            events::warning(
                tr("worker agent on %1: %2").arg(nodeId, QString::fromStdString(error->message))));
        return;
    }
    if (gangs_.onMessage(nodeId, event)) {
        return;  // a rank other than 0 of a gang trial
    }
    const node::TrialId* trialId = node::trialOf(event);
    const LoopTrial* live =
        trialId != nullptr ? loop_->find(QString::fromStdString(trialId->text)) : nullptr;
    if (live == nullptr || live->placement.nodeId != nodeId) {
        return;  // a trial from before a restart of the agent, or moved since; nothing to do
    }
    const QString& id = live->trial.id;
    const int attempt = live->attempt.number();
    if (const auto* relayed = std::get_if<node::TrialLine>(&event)) {
        const std::optional<QJsonObject> msg = relayedTrialLine(*relayed);
        if (!msg) {
            qWarning("worker agent of %s relayed a line of trial %s that is no JSON object",
                     qPrintable(nodeId), qPrintable(id));
            return;
        }
        TrialLine line = decodeTrialLine(*msg);
        if (line.namesPath) {
            // The loop sees this machine's paths.
            NodeLink* link = linkOn(live->placement);
            line.path = link ? link->paths().toHead(line.path) : line.path;
        }
        loop_->trialLine(id, attempt, line);
    } else if (const auto* started = std::get_if<node::Started>(&event)) {
        loop_->processStarted(id, attempt);
        if (live->gang.placed) {
            gangs_.start(*live, *started);
        }
    } else if (const auto* broke = std::get_if<node::TrialError>(&event)) {
        loop_->failAttempt(id, attempt, FailureCause::ProtocolViolation,
                           QString::fromStdString(broke->message));
    } else if (const auto* committed = std::get_if<node::Committed>(&event)) {
        onNodeCommitted(*live, *committed);
    } else if (const auto* exited = std::get_if<node::Exited>(&event)) {
        ExitFacts exit;
        exit.code = exited->code;
        exit.signal = exited->signal;
        exit.oomKilled = exited->oomKilled;
        exit.peakRssMb = exited->peakRssMb;
        for (const std::string& line : exited->logTail) {
            exit.logTail << QString::fromStdString(line);
        }
        // On an elastic cluster's node, an exit the engine did not ask for waits a moment for
        // the node's loss (the end of a Slurm allocation signals the trial first).
        loop_->exited(id, attempt, exit, autoscaler_ ? kNodeLossVerdictS : 0);
    }
}

void ExperimentRunner::onNodeCommitted(const LoopTrial& live, const node::Committed& committed) {
    NodeLink* link = linkOn(live.placement);
    const QString nodeTo = QString::fromStdString(committed.to);
    const QString headTo = link ? link->paths().toHead(nodeTo) : nodeTo;
    const QString trialId = live.trial.id;
    const QString nodeId = live.placement.nodeId;
    const int attempt = live.attempt.number();
    NodeFiles* files = link ? link->files() : nullptr;
    if (files == nullptr || !committed.ok) {
        loop_->committed(trialId, attempt, headTo, committed.ok,
                         QString::fromStdString(committed.error.value_or("")));
        return;
    }
    // The node has the checkpoint; the history records it once this machine has it too. Results
    // go on meanwhile; only the trial's exit waits for the copy (pendingCommits).
    const QString scratch = headTo + QStringLiteral(".tmp");
    if (Status s = removeStagingFolder(scratch); !s) {
        loop_->committed(trialId, attempt, headTo, false, s.message());
        return;
    }
    files->fetchFolder(
        nodeTo, scratch,
        [this, trialId, nodeId, attempt, headTo, scratch](bool ok, const QString& error) {
            if (!ok) {
                // A copy cut off by the node's death is node loss, noticed
                // perhaps a moment later: the loop waits that moment for it.
                removeStagingFolder(scratch);
                loop_->committed(trialId, attempt, headTo, false,
                                 tr("copying it from %1 failed: %2").arg(nodeId, error),
                                 kCopyVerdictS);
                return;
            }
            // Fetched files are made durable and put in place as every
            // checkpoint is.
            const checkpoint::FileOutcome published = checkpoint::publishFolder(
                checkpoint::posixFileSystem(), scratch.toStdString(), headTo.toStdString());
            if (published.ok) {
                nodeCheckpoints_.held(nodeId, headTo);
            } else {
                removeStagingFolder(scratch);
            }
            loop_->committed(trialId, attempt, headTo, published.ok,
                             tr("copying it from %1 failed: %2")
                                 .arg(nodeId, QString::fromStdString(published.error)));
        });
}

void ExperimentRunner::onNodeUp(const QString& nodeId, const node::Hello& hello) {
    loop_->recordEvent(events::type::kNode,
                       events::node(nodeId, QStringLiteral("up"), jsonOf(hello)));
    monitor_.nodeUp(nodeId, hello);
    gangs_.tellWorkerSlots();
    if (!checkRequestFits()) {
        return;
    }
    loop_->schedule();
}

bool ExperimentRunner::checkRequestFits() {
    if (autoscaler_) {
        return true;  // node types, not the nodes up now, decide (the autoscaler)
    }
    const std::vector<NodeCapacity> seen = monitor_.seenNodes();
    if (!pool_->allHeardFrom() || seen.empty()) {
        return true;  // a node still connecting may be the one that fits
    }
    QString why;
    if (trialFitsEver(spec().resourcesPerTrial, spec().gang, seen, &why)) {
        return true;
    }
    if (spec().resourcesPerTrial.gpu > 0) {
        why += monitor_.gpuNotes();
    }
    loop_->fail(kExitBadInput, QStringLiteral("%1: resources_per_trial: %2")
                                   .arg(spec().locationOf("resources_per_trial").toString(), why));
    return false;
}

void ExperimentRunner::onNodeLost(const QString& nodeId, const QString& reason) {
    nodeCheckpoints_.nodeLost(nodeId);
    gangs_.nodeLost(nodeId, reason);
    monitor_.nodeLost(nodeId);
    if (loop_->isFinished()) {
        return;
    }
    loop_->recordEvent(events::type::kNode,
                       events::node(nodeId, QStringLiteral("lost"), {{"reason", reason}}));
    gangs_.tellWorkerSlots();
    loop_->nodeLost(nodeId, reason);
    if (loop_->stopping() || loop_->isFinished()) {
        return;
    }
    if (checkRequestFits()) {
        loop_->schedule();
    }
}

void ExperimentRunner::pushCheckpointThenLaunch(const QString& trialId, int attempt,
                                                TrialLaunch launch) {
    const LoopTrial* live = loop_->find(trialId);
    if (live == nullptr || live->attempt.number() != attempt ||
        live->trial.status != TrialStatus::Running) {
        return;  // ended before its launch went out
    }
    const QString nodeId = live->placement.nodeId;
    if (!nodeCheckpoints_.missingOn(nodeId, live->trial.checkpointPath)) {
        launchOnNode(trialId, attempt, launch);
        return;
    }
    // Restored on a node that does not have its checkpoint: the checkpoint goes there first.
    nodeCheckpoints_.push(
        nodeId, live->trial.checkpointPath,
        [this, trialId, attempt, nodeId, launch = std::move(launch)](bool ok,
                                                                     const QString& error) {
            const LoopTrial* live = loop_->find(trialId);
            if (live == nullptr || live->attempt.number() != attempt ||
                live->trial.status != TrialStatus::Running) {
                return;  // the node was lost meanwhile; the trial waits again
            }
            if (live->attempt.ending() != TrialAttempt::Ending::None) {
                // stopped or interrupted while its checkpoint travelled
                loop_->exited(trialId, attempt, ExitFacts{});
                return;
            }
            if (!ok) {
                loop_->attemptLost(trialId, attempt,
                                   tr("cannot copy its checkpoint to %1: %2").arg(nodeId, error));
                return;
            }
            launchOnNode(trialId, attempt, launch);
        });
}

void ExperimentRunner::launchOnNode(const QString& trialId, int attempt,
                                    const TrialLaunch& launch) {
    const LoopTrial* live = loop_->find(trialId);
    NodeLink* link = linkOn(live->placement);
    if (link == nullptr) {  // the node went away while the trial was being placed
        loop_->attemptLost(trialId, attempt, tr("node %1 is not up").arg(live->placement.nodeId));
        return;
    }
    node::StartOp op = nodeStartOp(*link, trialId, launch);
    if (live->gang.placed) {
        // Rank 0 of a gang: its node picks the port the other ranks meet it on.
        op.logPrefix = "[rank 0] ";
        op.freePorts = {"MASTER_PORT"};
        if (const QString peer = gangs_.peerAddress(live->gang, 0); !peer.isEmpty()) {
            op.interfaceFor = peer.toStdString();
        }
    }
    link->send(op);
}

}  // namespace tunedeck
