#include "runtime/trial_relay.h"

#include "checkpoint/checkpoint_files.h"
#include "checkpoint/file_identity.h"
#include "core/run_folders.h"
#include "runtime/gang_ranks.h"
#include "runtime/recovery.h"

namespace tunedeck {

namespace {

// How long a checkpoint copy that failed waits for its node to be declared lost (a connection
// reset ends the copy and the agent's link at once, in either order).
constexpr double kCopyVerdictS = 2;
// How long an unasked-for exit on an elastic node waits for the node's loss: srun ends within a
// second or two of its allocation (the trial's signal and srun's end race by milliseconds).
constexpr double kNodeLossVerdictS = 5;

// Whether `live` is still the attempt a launch or a copy was started for.
bool stillRunning(const LoopTrial* live, int attempt) {
    return live != nullptr && live->attempt.number() == attempt &&
           live->trial.status == TrialStatus::Running;
}

}  // namespace

TrialRelay::TrialRelay(ExperimentLoop& loop, std::function<NodeLink*(const QString&)> linkOf,
                       std::function<bool()> elastic, QString foldersBackTo)
    : loop_(loop),
      linkOf_(linkOf),
      elastic_(std::move(elastic)),
      foldersBackTo_(std::move(foldersBackTo)),
      checkpoints_(std::move(linkOf)) {}

NodeLink* TrialRelay::linkOn(const Placement& placement) const {
    return placement.nodeId.isEmpty() ? nullptr : linkOf_(placement.nodeId);
}

void TrialRelay::onTrialEvent(const QString& nodeId, const node::Event& event) {
    const node::TrialId* trialId = node::trialOf(event);
    const LoopTrial* live =
        trialId != nullptr ? loop_.find(QString::fromStdString(trialId->text)) : nullptr;
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
        loop_.trialLine(id, attempt, line);
    } else if (const auto* started = std::get_if<node::Started>(&event)) {
        loop_.processStarted(id, attempt);
        if (live->gang.placed && gangs_ != nullptr) {
            gangs_->start(*live, *started);
        }
    } else if (const auto* broke = std::get_if<node::TrialError>(&event)) {
        loop_.failAttempt(id, attempt, FailureCause::ProtocolViolation,
                          QString::fromStdString(broke->message));
    } else if (const auto* committed = std::get_if<node::Committed>(&event)) {
        onCommitted(*live, *committed);
    } else if (const auto* exited = std::get_if<node::Exited>(&event)) {
        onExited(*live, *exited);
    }
}

void TrialRelay::onExited(const LoopTrial& live, const node::Exited& exited) {
    ExitFacts exit;
    exit.code = exited.code;
    exit.signal = exited.signal;
    exit.oomKilled = exited.oomKilled;
    exit.peakRssMb = exited.peakRssMb;
    for (const std::string& line : exited.logTail) {
        exit.logTail << QString::fromStdString(line);
    }
    // On an elastic cluster's node, an exit the engine did not ask for waits a moment for the
    // node's loss (the end of a Slurm allocation signals the trial first).
    const double verdictS = elastic_() ? kNodeLossVerdictS : 0;
    const QString trialId = live.trial.id;
    const int attempt = live.attempt.number();
    NodeLink* link = linkOn(live.placement);
    NodeFiles* files = link ? link->files() : nullptr;
    if (files == nullptr || foldersBackTo_.isEmpty()) {
        loop_.exited(trialId, attempt, exit, verdictS);
        return;
    }
    // Checkpoints came as they were committed; a staging folder is half a copy.
    const QString headDir = trialFolder(foldersBackTo_, trialId);
    const QString nodeId = live.placement.nodeId;
    files->fetchChanges(
        link->paths().toNode(headDir), headDir,
        {QStringLiteral("checkpoints"), QStringLiteral("*.tmp")},
        [this, trialId, attempt, exit, verdictS, nodeId](bool ok, const QString& error) {
            if (!ok) {
                loop_.warn(QStringLiteral("what trial %1 left in its folder stays "
                                          "on %2: %3")
                               .arg(trialId, nodeId, error),
                           trialId);
            }
            loop_.exited(trialId, attempt, exit, verdictS);
        });
}

void TrialRelay::onCommitted(const LoopTrial& live, const node::Committed& committed) {
    NodeLink* link = linkOn(live.placement);
    const QString nodeTo = QString::fromStdString(committed.to);
    const QString headTo = link ? link->paths().toHead(nodeTo) : nodeTo;
    const QString trialId = live.trial.id;
    const QString nodeId = live.placement.nodeId;
    const int attempt = live.attempt.number();
    NodeFiles* files = link ? link->files() : nullptr;
    if (files == nullptr || !committed.ok) {
        loop_.committed(trialId, attempt, headTo, committed.ok,
                        QString::fromStdString(committed.error.value_or("")));
        return;
    }
    // The node has the checkpoint; the history records it once this machine has it too. Results
    // go on meanwhile; only the trial's exit waits for the copy (pendingCommits).
    const QString scratch = headTo + QStringLiteral(".tmp");
    if (Status s = removeStagingFolder(scratch); !s) {
        loop_.committed(trialId, attempt, headTo, false, s.message());
        return;
    }
    files->fetchFolder(
        nodeTo, scratch,
        [this, trialId, nodeId, attempt, headTo, scratch](bool ok, const QString& error) {
            if (!ok) {
                // A copy cut off by the node's death is node loss, noticed perhaps a moment
                // later: the loop waits that moment for it.
                removeStagingFolder(scratch);
                loop_.committed(trialId, attempt, headTo, false,
                                QStringLiteral("copying it from %1 failed: %2").arg(nodeId, error),
                                kCopyVerdictS);
                return;
            }
            // Fetched files are made durable and put in place as every checkpoint is.
            const checkpoint::FileOutcome published = checkpoint::asExperimentOwner([&] {
                return checkpoint::publishFolder(checkpoint::posixFileSystem(),
                                                 scratch.toStdString(), headTo.toStdString());
            });
            if (published.ok) {
                checkpoints_.held(nodeId, headTo);
            } else {
                removeStagingFolder(scratch);
            }
            loop_.committed(trialId, attempt, headTo, published.ok,
                            QStringLiteral("copying it from %1 failed: %2")
                                .arg(nodeId, QString::fromStdString(published.error)));
        });
}

void TrialRelay::launch(const QString& trialId, int attempt, TrialLaunch launch) {
    const LoopTrial* live = loop_.find(trialId);
    if (!stillRunning(live, attempt)) {
        return;  // ended before its launch went out
    }
    const QString nodeId = live->placement.nodeId;
    if (!checkpoints_.missingOn(nodeId, live->trial.checkpointPath)) {
        sendLaunch(trialId, attempt, launch);
        return;
    }
    // Restored on a node that does not have its checkpoint: the checkpoint goes there first.
    checkpoints_.push(
        nodeId, live->trial.checkpointPath,
        [this, trialId, attempt, nodeId, launch = std::move(launch)](bool ok,
                                                                     const QString& error) {
            const LoopTrial* live = loop_.find(trialId);
            if (!stillRunning(live, attempt)) {
                return;  // the node was lost meanwhile; the trial waits again
            }
            if (live->attempt.ending() != TrialAttempt::Ending::None) {
                // stopped or interrupted while its checkpoint travelled
                loop_.exited(trialId, attempt, ExitFacts{});
                return;
            }
            if (!ok) {
                loop_.attemptLost(
                    trialId, attempt,
                    QStringLiteral("cannot copy its checkpoint to %1: %2").arg(nodeId, error));
                return;
            }
            sendLaunch(trialId, attempt, launch);
        });
}

void TrialRelay::sendLaunch(const QString& trialId, int attempt, const TrialLaunch& launch) {
    const LoopTrial* live = loop_.find(trialId);
    NodeLink* link = linkOn(live->placement);
    if (link == nullptr) {  // the node went away while the trial was being placed
        loop_.attemptLost(trialId, attempt,
                          QStringLiteral("node %1 is not up").arg(live->placement.nodeId));
        return;
    }
    node::StartOp op = nodeStartOp(*link, trialId, launch);
    if (live->gang.placed && gangs_ != nullptr) {
        // Rank 0 of a gang: its node picks the port the other ranks meet it on.
        op.logPrefix = "[rank 0] ";
        op.freePorts = {"MASTER_PORT"};
        if (const QString peer = gangs_->peerAddress(live->gang, 0); !peer.isEmpty()) {
            op.interfaceFor = peer.toStdString();
        }
    }
    link->send(op);
}

}  // namespace tunedeck
