#include "runtime/gang_ranks.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <algorithm>

#include "cluster/node_link.h"
#include "core/events.h"

namespace tunedeck {

namespace {

// How a node knows rank N of a trial's attempt: unique over attempts, so a rank of an attempt
// being stopped and the same rank of the next attempt never share a name on the node.
QString memberId(const QString& trialId, int attempt, int rank) {
    return QStringLiteral("%1.rank%2.a%3").arg(trialId).arg(rank).arg(attempt);
}

QString rankPrefix(int rank) {
    return QStringLiteral("[rank %1] ").arg(rank);
}

// What torchrun sets for each worker (torch.distributed's env:// rendezvous), plus Tunedeck's.
void setRankEnvironment(TrialLaunch& launch, const GangPlacement& gang, const GangRank& rank,
                        const QString& masterAddress) {
    const QString worldSize = QString::number(gang.ranks.size());
    launch.env.insert(QStringLiteral("WORLD_SIZE"), worldSize);
    launch.env.insert(QStringLiteral("RANK"), QString::number(rank.rank));
    launch.env.insert(QStringLiteral("LOCAL_RANK"), QString::number(rank.localRank));
    launch.env.insert(QStringLiteral("LOCAL_WORLD_SIZE"), QString::number(rank.localWorldSize));
    launch.env.insert(QStringLiteral("NODE_RANK"), QString::number(rank.nodeRank));
    launch.env.insert(QStringLiteral("GROUP_RANK"), QString::number(rank.nodeRank));
    launch.env.insert(QStringLiteral("MASTER_ADDR"), masterAddress);
    launch.env.insert(QStringLiteral("TUNEDECK_RANK"), QString::number(rank.rank));
    launch.env.insert(QStringLiteral("TUNEDECK_WORLD_SIZE"), worldSize);
}

}  // namespace

GangRanks::GangRanks(const ExperimentSpec& spec, ExperimentLoop& loop, NodeCheckpoints& checkpoints)
    : spec_(spec), loop_(loop), checkpoints_(checkpoints) {}

QString GangRanks::nodeAddress(const QString& nodeId) const {
    if (spec_.clusterSpec) {
        for (const ClusterNodeSpec& listed : spec_.clusterSpec->nodes) {
            if (listed.name() == nodeId) {
                return listed.host;
            }
        }
    }
    return nodeId;
}

QString GangRanks::peerAddress(const GangPlacement& gang, int rank) const {
    if (gang.nodeCount <= 1) {
        return {};  // loopback: nothing to choose
    }
    // Rank 0 listens where the others reach it; the others, where they reach rank 0.
    const QString& master = gang.ranks.front().placement.nodeId;
    if (rank != 0) {
        return nodeAddress(master);
    }
    for (const GangRank& other : gang.ranks) {
        if (other.placement.nodeId != master) {
            return nodeAddress(other.placement.nodeId);
        }
    }
    return {};
}

QString GangRanks::masterAddress(const GangPlacement& gang) const {
    // One node: loopback. Several: rank 0's node as the others reach it, the host its cluster
    // file gives (an SSH node's id adds ":port" when the port is not 22).
    const QString& node = gang.ranks.front().placement.nodeId;
    if (gang.nodeCount <= 1 || node == QLatin1String("local")) {
        return QStringLiteral("127.0.0.1");
    }
    return nodeAddress(node);
}

QString GangRanks::cudaDevicesOf(const Placement& placement) const {
    QStringList gpus;
    for (const NodeCapacity& node : pool_->capacities()) {
        if (node.nodeId != placement.nodeId) {
            continue;
        }
        for (int slot : placement.gpuSlots) {
            const auto& ids = node.gpuIds;
            gpus << (slot < int(ids.size()) ? ids[size_t(slot)] : QString::number(slot));
        }
    }
    return gpus.join(',');
}

void GangRanks::book(const QString& trialId, int attempt, const GangPlacement& gang,
                     TrialLaunch& launch) {
    for (const GangRank& rank : gang.ranks) {
        if (rank.rank == 0) {
            continue;  // the trial's own placement, booked by the loop
        }
        reserve(pool_->capacities(), spec_.resourcesPerTrial, rank.placement);
        members_[memberId(trialId, attempt, rank.rank)] =
            Member{trialId, attempt, rank.rank, rank.placement, false};
    }
    launches_[trialId] = launch;  // each rank's own variables are set when it starts
    setRankEnvironment(launch, gang, gang.ranks.front(), masterAddress(gang));
}

void GangRanks::start(const LoopTrial& live, const node::Started& started) {
    const auto masterPort = started.ports.find("MASTER_PORT");
    const QString port =
        QString::number(masterPort == started.ports.end() ? 0 : masterPort->second);
    const int attempt = live.attempt.number();
    for (const GangRank& rank : live.gang.ranks) {
        if (rank.rank == 0) {
            continue;
        }
        const QString id = memberId(live.trial.id, attempt, rank.rank);
        auto member = members_.find(id);
        NodeLink* link = pool_->link(rank.placement.nodeId);
        if (member == members_.end() || member->second.started) {
            continue;
        }
        if (link == nullptr) {
            nodeLost(rank.placement.nodeId,
                     QStringLiteral("node %1 is not up").arg(rank.placement.nodeId));
            return;
        }
        TrialLaunch launch = launches_[live.trial.id];
        setRankEnvironment(launch, live.gang, rank, masterAddress(live.gang));
        launch.env.insert(QStringLiteral("MASTER_PORT"), port);
        launch.env.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), cudaDevicesOf(rank.placement));
        member->second.started = true;
        startRank(live.trial.checkpointPath, id, std::move(launch),
                  peerAddress(live.gang, rank.rank));
    }
}

void GangRanks::startRank(const QString& checkpoint, const QString& id, TrialLaunch launch,
                          const QString& peer) {
    const Member& member = members_.at(id);
    const QString nodeId = member.placement.nodeId;
    NodeLink* link = pool_->link(nodeId);
    const auto startOp = [prefix = rankPrefix(member.rank), peer](
                             const NodeLink& link, const QString& id, const TrialLaunch& launch) {
        node::StartOp op = nodeStartOp(link, id, launch);
        op.logPrefix = prefix.toStdString();
        if (!peer.isEmpty()) {
            op.interfaceFor = peer.toStdString();
        }
        return op;
    };
    if (link == nullptr) {
        return;  // its node's loss ends the gang (onGangNodeLost)
    }
    if (!checkpoints_.missingOn(nodeId, checkpoint)) {
        link->send(startOp(*link, id, launch));
        return;
    }
    // Every rank restores from rank 0's checkpoint: it goes to this rank's node first.
    checkpoints_.push(
        nodeId, checkpoint,
        [this, id, nodeId, launch = std::move(launch), startOp](bool ok, const QString& error) {
            const auto it = members_.find(id);
            NodeLink* link = pool_ ? pool_->link(nodeId) : nullptr;
            if (it == members_.end() || link == nullptr || loop_.isFinished()) {
                return;  // the gang ended meanwhile
            }
            const LoopTrial* trial = loop_.find(it->second.trialId);
            const bool current = trial != nullptr && trial->trial.status == TrialStatus::Running &&
                                 trial->attempt.number() == it->second.attempt;
            if (!current) {
                // Rank 0 ended while the copy travelled: this rank never starts.
                release(pool_->capacities(), spec_.resourcesPerTrial, it->second.placement);
                members_.erase(it);
                loop_.schedule();
                return;
            }
            if (!ok) {
                loop_.failAttempt(trial->trial.id, it->second.attempt, FailureCause::NodeLost,
                                  QStringLiteral("cannot copy the checkpoint to %1 for rank %2: %3")
                                      .arg(nodeId)
                                      .arg(it->second.rank)
                                      .arg(error));
                release(pool_->capacities(), spec_.resourcesPerTrial, it->second.placement);
                members_.erase(it);
                return;
            }
            link->send(startOp(*link, id, launch));
        });
}

void GangRanks::stop(const QString& trialId, const QString& reason) {
    launches_.erase(trialId);
    for (auto it = members_.begin(); it != members_.end();) {
        Member& member = it->second;
        if (member.trialId != trialId) {
            ++it;
            continue;
        }
        if (!member.started) {
            // Never started: its place is free at once.
            release(pool_->capacities(), spec_.resourcesPerTrial, member.placement);
            it = members_.erase(it);
            continue;
        }
        if (NodeLink* link = pool_->link(member.placement.nodeId)) {
            link->send(node::KillOp{it->first.toStdString(), reason.toStdString()});
        }
        ++it;
    }
}

bool GangRanks::onMessage(const QString& nodeId, const node::Event& event) {
    const node::TrialId* trialId = node::trialOf(event);
    if (trialId == nullptr) {
        return false;
    }
    const QString id = QString::fromStdString(trialId->text);
    const auto it = members_.find(id);
    if (it == members_.end()) {
        return false;
    }
    Member member = it->second;
    if (member.placement.nodeId != nodeId) {
        return true;
    }
    const LoopTrial* live = loop_.find(member.trialId);
    const bool current = live != nullptr && live->trial.status == TrialStatus::Running &&
                         live->attempt.number() == member.attempt;
    if (const auto* exited = std::get_if<node::Exited>(&event)) {
        release(pool_->capacities(), spec_.resourcesPerTrial, member.placement);
        members_.erase(it);
        const bool clean = exited->code == 0 && !exited->signal;
        if (current && !clean && live->attempt.takesReports()) {
            // One rank down stops the gang: the others would wait in their collectives for ever.
            QString why = exited->signal ? QStringLiteral("rank %1 was killed by signal %2")
                                               .arg(member.rank)
                                               .arg(*exited->signal)
                                         : QStringLiteral("rank %1 exited with code %2")
                                               .arg(member.rank)
                                               .arg(exited->code.value_or(0));
            if (!exited->logTail.empty()) {
                why += QStringLiteral(": ") + QString::fromStdString(exited->logTail.back());
            }
            loop_.failAttempt(member.trialId, member.attempt, FailureCause::TrialCrashed, why);
        }
        loop_.schedule();  // its place may be what a waiting gang needs
        return true;
    }
    const auto* relayed = std::get_if<node::TrialLine>(&event);
    const std::optional<QJsonObject> msg =
        relayed != nullptr && live != nullptr ? relayedTrialLine(*relayed) : std::nullopt;
    if (!msg) {
        return true;
    }
    const TrialLine line = decodeTrialLine(*msg);
    if (line.kind == TrialLine::Kind::Report || line.kind == TrialLine::Kind::Checkpoint) {
        // Only rank 0 speaks for the trial: the rank is told so, and fails with it.
        if (NodeLink* link = pool_->link(nodeId)) {
            const QJsonObject refusal{
                {"action", "refused"},
                {"message", QStringLiteral("only rank 0 of a gang trial reports and checkpoints; "
                                           "this is rank %1")
                                .arg(member.rank)}};
            link->send(node::AnswerOp{
                *trialId, QJsonDocument(refusal).toJson(QJsonDocument::Compact).toStdString(), {}});
        }
    } else if (line.kind == TrialLine::Kind::Log) {
        loop_.recordEvent(events::type::kLog,
                          events::log(member.trialId, rankPrefix(member.rank) + line.text));
    }
    return true;
}

void GangRanks::nodeLost(const QString& nodeId, const QString& reason) {
    for (auto it = members_.begin(); it != members_.end();) {
        const Member member = it->second;
        if (member.placement.nodeId != nodeId) {
            ++it;
            continue;
        }
        release(pool_->capacities(), spec_.resourcesPerTrial, member.placement);
        it = members_.erase(it);
        const LoopTrial* live = loop_.find(member.trialId);
        if (live == nullptr) {
            continue;
        }
        if (live->trial.status == TrialStatus::Running &&
            live->attempt.number() == member.attempt && live->placement.nodeId != nodeId) {
            // Rank 0 lives elsewhere: it is stopped, and the loss, not the trial, is to blame.
            const QString why = QStringLiteral("node %1 of rank %2 lost: %3")
                                    .arg(nodeId)
                                    .arg(member.rank)
                                    .arg(reason);
            loop_.failAttempt(member.trialId, member.attempt, FailureCause::NodeLost, why);
        }
    }
}

node::Usage GangRanks::withRanksNamed(node::Usage usage) const {
    if (members_.empty()) {
        return usage;
    }
    // The agent knows a rank by its own id: samples name the trial, and the rank beside it.
    for (node::TrialUsage& trial : usage.trials) {
        const QString id = QString::fromStdString(trial.trial.text);
        const auto member = members_.find(id);
        if (member != members_.end()) {
            trial.trial = member->second.trialId.toStdString();
            trial.rank = member->second.rank;
        } else if (const LoopTrial* live = loop_.find(id); live != nullptr && live->gang.placed) {
            trial.rank = 0;  // rank 0 is the trial's own process
        }
    }
    for (node::GpuUsage& gpu : usage.gpus) {
        std::vector<node::TrialId> onCard;  // each trial once, however many of its ranks share it
        for (const node::TrialId& id : gpu.trials) {
            const auto member = members_.find(QString::fromStdString(id.text));
            node::TrialId named =
                member != members_.end() ? node::TrialId(member->second.trialId.toStdString()) : id;
            if (std::find(onCard.begin(), onCard.end(), named) == onCard.end()) {
                onCard.push_back(std::move(named));
            }
        }
        gpu.trials = std::move(onCard);
    }
    return usage;
}

void GangRanks::tellWorkerSlots() {
    // How many ranks of resources_per_trial the nodes up hold when empty.
    std::vector<NodeCapacity> empty;
    for (const NodeCapacity& node : pool_->capacities()) {
        if (node.alive) {
            empty.push_back(emptyCapacity(node));
        }
    }
    constexpr int kMostSlots = 4096;
    int count = 0;
    while (count < kMostSlots) {
        const Placement p = place(spec_.resourcesPerTrial, empty, PlacementStrategy::Pack);
        if (!p.placed) {
            break;
        }
        reserve(empty, spec_.resourcesPerTrial, p);
        ++count;
    }
    if (count != workerSlotsTold_) {
        workerSlotsTold_ = count;
        loop_.setWorkerSlots(count);
    }
}

}  // namespace tunedeck
