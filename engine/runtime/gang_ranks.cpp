// ExperimentRunner and gang trials (resources_per_trial.workers > 1): the
// trial's own process is rank 0, started, answered and ended as any trial; ranks 1.. are
// processes beside it (RUNTIME.md, "Gang trials"). All are placed at once (core/gang_placement.h)
// and booked together; rank 0's node picks a free MASTER_PORT when it starts it, and the other
// ranks start with it, each with the environment torchrun would give it. Any rank's failure is
// the trial's: rank 0 is killed with the rank's reason, and the attempt ends as a failure (a
// node lost, as a node loss). When rank 0 ends, for any reason, the other ranks are stopped; a
// rank's place is given back when its own exit arrives, so no next trial lands on a card a
// dying rank still holds.
#include <QJsonArray>
#include <QRegularExpression>

#include "cluster/node_link.h"
#include "core/events.h"
#include "runtime/experiment_runner.h"

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

QString ExperimentRunner::nodeAddress(const QString& nodeId) const {
    if (spec().clusterSpec) {
        for (const ClusterNodeSpec& listed : spec().clusterSpec->nodes) {
            if (listed.name() == nodeId) {
                return listed.host;
            }
        }
    }
    return nodeId;
}

QString ExperimentRunner::peerAddress(const GangPlacement& gang, int rank) const {
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

QString ExperimentRunner::masterAddress(const GangPlacement& gang) const {
    // One node: loopback. Several: rank 0's node as the others reach it, the host its cluster
    // file gives (an SSH node's id adds ":port" when the port is not 22).
    const QString& node = gang.ranks.front().placement.nodeId;
    if (gang.nodeCount <= 1 || node == QLatin1String("local")) {
        return QStringLiteral("127.0.0.1");
    }
    return nodeAddress(node);
}

QString ExperimentRunner::cudaDevicesOf(const Placement& placement) const {
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

void ExperimentRunner::bookGang(const QString& trialId, int attempt, const GangPlacement& gang) {
    for (const GangRank& rank : gang.ranks) {
        if (rank.rank == 0) {
            continue;  // the trial's own placement, booked by startTrial
        }
        reserve(pool_->capacities(), spec().resourcesPerTrial, rank.placement);
        gangs_.members[memberId(trialId, attempt, rank.rank)] =
            GangMember{trialId, attempt, rank.rank, rank.placement, false};
    }
}

void ExperimentRunner::addGangEnvironment(const QString& trialId, const GangPlacement& gang,
                                          TrialLaunch& launch) {
    gangs_.launches[trialId] = launch;  // each rank's own variables are set when it starts
    setRankEnvironment(launch, gang, gang.ranks.front(), masterAddress(gang));
}

void ExperimentRunner::startGangRanks(const LoopTrial& live, const QJsonObject& started) {
    const QString port =
        QString::number(started.value("ports").toObject().value("MASTER_PORT").toInt());
    const int attempt = live.attempt.number();
    for (const GangRank& rank : live.gang.ranks) {
        if (rank.rank == 0) {
            continue;
        }
        const QString id = memberId(live.trial.id, attempt, rank.rank);
        auto member = gangs_.members.find(id);
        NodeLink* link = pool_->link(rank.placement.nodeId);
        if (member == gangs_.members.end() || member->second.started) {
            continue;
        }
        if (link == nullptr) {
            onGangNodeLost(rank.placement.nodeId,
                           tr("node %1 is not up").arg(rank.placement.nodeId));
            return;
        }
        TrialLaunch launch = gangs_.launches[live.trial.id];
        setRankEnvironment(launch, live.gang, rank, masterAddress(live.gang));
        launch.env.insert(QStringLiteral("MASTER_PORT"), port);
        launch.env.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), cudaDevicesOf(rank.placement));
        member->second.started = true;
        pushCheckpointThenStartRank(live.trial.checkpointPath, id, std::move(launch),
                                    peerAddress(live.gang, rank.rank));
    }
}

void ExperimentRunner::pushCheckpointThenStartRank(const QString& checkpoint, const QString& id,
                                                   TrialLaunch launch, const QString& peer) {
    const GangMember& member = gangs_.members.at(id);
    const QString nodeId = member.placement.nodeId;
    NodeLink* link = pool_->link(nodeId);
    QJsonObject extra{{"log_prefix", rankPrefix(member.rank)}};
    if (!peer.isEmpty()) {
        extra.insert(QStringLiteral("interface_for"), peer);
    }
    if (link == nullptr) {
        return;  // its node's loss ends the gang (onGangNodeLost)
    }
    if (!checkpointMissingOn(nodeId, checkpoint)) {
        link->send(startOp(*link, id, launch, extra));
        return;
    }
    // Every rank restores from rank 0's checkpoint: it goes to this rank's node first.
    pushCheckpoint(
        nodeId, checkpoint,
        [this, id, nodeId, launch = std::move(launch), extra](bool ok, const QString& error) {
            const auto it = gangs_.members.find(id);
            NodeLink* link = pool_ ? pool_->link(nodeId) : nullptr;
            if (it == gangs_.members.end() || link == nullptr || loop_->isFinished()) {
                return;  // the gang ended meanwhile
            }
            const LoopTrial* trial = loop_->find(it->second.trialId);
            const bool current = trial != nullptr && trial->trial.status == TrialStatus::Running &&
                                 trial->attempt.number() == it->second.attempt;
            if (!current) {
                // Rank 0 ended while the copy travelled: this rank never starts.
                release(pool_->capacities(), spec().resourcesPerTrial, it->second.placement);
                gangs_.members.erase(it);
                loop_->schedule();
                return;
            }
            if (!ok) {
                loop_->failAttempt(trial->trial.id, it->second.attempt, FailureCause::NodeLost,
                                   tr("cannot copy the checkpoint to %1 for rank %2: %3")
                                       .arg(nodeId)
                                       .arg(it->second.rank)
                                       .arg(error));
                release(pool_->capacities(), spec().resourcesPerTrial, it->second.placement);
                gangs_.members.erase(it);
                return;
            }
            link->send(startOp(*link, id, launch, extra));
        });
}

void ExperimentRunner::stopGangRanks(const QString& trialId, const QString& reason) {
    for (auto it = gangs_.members.begin(); it != gangs_.members.end();) {
        GangMember& member = it->second;
        if (member.trialId != trialId) {
            ++it;
            continue;
        }
        if (!member.started) {
            // Never started: its place is free at once.
            release(pool_->capacities(), spec().resourcesPerTrial, member.placement);
            it = gangs_.members.erase(it);
            continue;
        }
        if (NodeLink* link = pool_->link(member.placement.nodeId)) {
            link->send(QJsonObject{{"op", "kill"}, {"trial", it->first}, {"reason", reason}});
        }
        ++it;
    }
}

bool ExperimentRunner::onGangMemberMessage(const QString& nodeId, const QJsonObject& message) {
    const QString id = message.value("trial").toString();
    const auto it = gangs_.members.find(id);
    if (it == gangs_.members.end()) {
        return false;
    }
    GangMember member = it->second;
    if (member.placement.nodeId != nodeId) {
        return true;
    }
    const LoopTrial* live = loop_->find(member.trialId);
    const bool current = live != nullptr && live->trial.status == TrialStatus::Running &&
                         live->attempt.number() == member.attempt;
    const QString ev = message.value("ev").toString();
    if (ev == QLatin1String("exited")) {
        release(pool_->capacities(), spec().resourcesPerTrial, member.placement);
        gangs_.members.erase(it);
        const QJsonValue code = message.value("code");
        const QJsonValue signal = message.value("signal");
        const bool clean = code.isDouble() && code.toInt() == 0 && !signal.isDouble();
        if (current && !clean && live->attempt.takesReports()) {
            // One rank down stops the gang: the others would wait in their collectives for ever.
            QString why =
                signal.isDouble()
                    ? tr("rank %1 was killed by signal %2").arg(member.rank).arg(signal.toInt())
                    : tr("rank %1 exited with code %2").arg(member.rank).arg(code.toInt());
            const QJsonArray tail = message.value("log_tail").toArray();
            if (!tail.isEmpty()) {
                why += QStringLiteral(": ") + tail.last().toString();
            }
            loop_->failAttempt(member.trialId, member.attempt, FailureCause::TrialCrashed, why);
        }
        loop_->schedule();  // its place may be what a waiting gang needs
        return true;
    }
    if (ev == QLatin1String("trial") && live != nullptr) {
        const QJsonObject msg = message.value("msg").toObject();
        const QString type = msg.value("type").toString();
        if (type == QLatin1String("report") || type == QLatin1String("checkpoint")) {
            // Only rank 0 speaks for the trial: the rank is told so, and fails with it.
            NodeLink* link = pool_->link(nodeId);
            if (link != nullptr) {
                link->send(QJsonObject{
                    {"op", "answer"},
                    {"trial", id},
                    {"answer", QJsonObject{{"action", "refused"},
                                           {"message", tr("only rank 0 of a gang trial reports "
                                                          "and checkpoints; this is rank %1")
                                                           .arg(member.rank)}}}});
            }
        } else if (type == QLatin1String("log")) {
            loop_->recordEvent(events::type::kLog,
                               events::log(member.trialId, rankPrefix(member.rank) +
                                                               msg.value("message").toString()));
        }
    }
    return true;
}

void ExperimentRunner::onGangNodeLost(const QString& nodeId, const QString& reason) {
    for (auto it = gangs_.members.begin(); it != gangs_.members.end();) {
        const GangMember member = it->second;
        if (member.placement.nodeId != nodeId) {
            ++it;
            continue;
        }
        release(pool_->capacities(), spec().resourcesPerTrial, member.placement);
        it = gangs_.members.erase(it);
        const LoopTrial* live = loop_->find(member.trialId);
        if (live == nullptr) {
            continue;
        }
        if (live->trial.status == TrialStatus::Running &&
            live->attempt.number() == member.attempt && live->placement.nodeId != nodeId) {
            // Rank 0 lives elsewhere: it is stopped, and the loss, not the trial, is to blame.
            const QString why =
                tr("node %1 of rank %2 lost: %3").arg(nodeId).arg(member.rank).arg(reason);
            loop_->failAttempt(member.trialId, member.attempt, FailureCause::NodeLost, why);
        }
    }
}

QJsonObject ExperimentRunner::withGangRanksNamed(QJsonObject usage) const {
    if (gangs_.members.empty()) {
        return usage;
    }
    // The agent knows a rank by its own id: samples name the trial, and the rank beside it.
    QJsonArray trials = usage.value("trials").toArray();
    for (QJsonValueRef entry : trials) {
        QJsonObject trial = entry.toObject();
        const QString id = trial.value("trial").toString();
        const auto member = gangs_.members.find(id);
        if (member != gangs_.members.end()) {
            trial.insert("trial", member->second.trialId);
            trial.insert("rank", member->second.rank);
            entry = trial;
        } else if (const LoopTrial* live = loop_->find(id); live != nullptr && live->gang.placed) {
            trial.insert("rank", 0);  // rank 0 is the trial's own process
            entry = trial;
        }
    }
    usage.insert("trials", trials);
    QJsonArray gpus = usage.value("gpus").toArray();
    for (QJsonValueRef entry : gpus) {
        QJsonObject gpu = entry.toObject();
        QStringList onCard;  // each trial once, however many of its ranks share the card
        for (const QJsonValue& id : gpu.value("trials").toArray()) {
            const auto member = gangs_.members.find(id.toString());
            onCard << (member != gangs_.members.end() ? member->second.trialId : id.toString());
        }
        onCard.removeDuplicates();
        gpu.insert("trials", QJsonArray::fromStringList(onCard));
        entry = gpu;
    }
    usage.insert("gpus", gpus);
    return usage;
}

void ExperimentRunner::tellSchedulerWorkerSlots() {
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
        const Placement p = place(spec().resourcesPerTrial, empty, PlacementStrategy::Pack);
        if (!p.placed) {
            break;
        }
        reserve(empty, spec().resourcesPerTrial, p);
        ++count;
    }
    if (count != gangs_.workerSlotsTold) {
        gangs_.workerSlotsTold = count;
        loop_->setWorkerSlots(count);
    }
}

}  // namespace tunedeck
