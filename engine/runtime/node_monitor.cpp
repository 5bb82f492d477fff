#include "runtime/node_monitor.h"

#include <QJsonArray>
#include <algorithm>

#include "core/events.h"

namespace tunedeck {

namespace {

// The card of `node` with this UUID, or -1.
int cardIndex(const NodeCapacity& node, const QString& uuid) {
    const auto card = std::find(node.gpuIds.begin(), node.gpuIds.end(), uuid);
    return card == node.gpuIds.end() ? -1 : int(card - node.gpuIds.begin());
}

NodeCapacity* capacityOf(std::vector<NodeCapacity>& nodes, const QString& nodeId) {
    const auto node = std::find_if(nodes.begin(), nodes.end(),
                                   [&](const NodeCapacity& n) { return n.nodeId == nodeId; });
    return node == nodes.end() ? nullptr : &*node;
}

}  // namespace

NodeMonitor::NodeMonitor(const ExperimentSpec& spec, ExperimentLoop& loop, ExperimentStore& store,
                         const LoopClock& clock, GangRanks& gangs, Recorded recorded)
    : spec_(spec),
      loop_(loop),
      store_(store),
      clock_(clock),
      gangs_(gangs),
      recorded_(std::move(recorded)) {}

void NodeMonitor::nodeUp(const QString& nodeId, const node::Hello& hello) {
    for (const NodeCapacity& node : pool_->capacities()) {
        if (node.nodeId == nodeId) {
            seen_[nodeId] = emptyCapacity(node);
        }
    }
    if (!hello.gpuNote.empty()) {
        gpuNotes_[nodeId] = QString::fromStdString(hello.gpuNote);
    } else {
        gpuNotes_.erase(nodeId);
    }
    NodeLink* link = pool_->link(nodeId);
    if (link == nullptr) {
        return;
    }
    if (spec_.gpuSampleS > 0) {
        link->send(node::MonitorOp{spec_.gpuSampleS});
    }
    // Before any trial starts there: the agent points each GPU trial at its MPS daemon.
    if (spec_.gpuSharing == GpuSharing::Mps && !hello.gpus.empty()) {
        link->send(node::GpuSharingOp{"mps"});
    }
}

void NodeMonitor::onGpuSharing(const QString& nodeId, const node::GpuSharing& sharing) {
    const QString mode = QString::fromStdString(sharing.mode);
    const QString reason = QString::fromStdString(sharing.reason.value_or(""));
    QJsonObject details{{"mode", mode}};
    if (!reason.isEmpty()) {
        details.insert("reason", reason);
    }
    loop_.recordEvent(events::type::kNode,
                      events::node(nodeId, QStringLiteral("gpu_sharing"), details));
    if (spec_.gpuSharing == GpuSharing::Mps && mode != QLatin1String("mps")) {
        loop_.recordEvent(
            events::type::kWarning,
            events::warning(
                QStringLiteral("node %1: MPS did not start (%2); trials on its GPUs share "
                               "them by time slicing")
                    .arg(nodeId, reason)));
    }
}

void NodeMonitor::nodeLost(const QString& nodeId) {
    latestUsage_.erase(nodeId);  // its cards are no longer shown as busy
}

std::vector<NodeCapacity> NodeMonitor::seenNodes() const {
    std::vector<NodeCapacity> seen;
    for (const auto& [id, node] : seen_) {
        seen.push_back(node);
    }
    return seen;
}

std::vector<NodeUsageSample> NodeMonitor::latestUsage() const {
    std::vector<NodeUsageSample> usage;
    for (const auto& [nodeId, sample] : latestUsage_) {
        usage.push_back({nodeId, sample});
    }
    return usage;
}

QString NodeMonitor::gpuNotes() const {
    QStringList notes;
    for (const auto& [nodeId, note] : gpuNotes_) {
        notes << QStringLiteral("%1: %2").arg(nodeId, note);
    }
    return notes.isEmpty() ? QString()
                           : QStringLiteral(" (%1)").arg(notes.join(QStringLiteral("; ")));
}

void NodeMonitor::onUsage(const QString& nodeId, const node::Usage& sample) {
    if (loop_.isFinished()) {
        return;
    }
    const node::Usage named = gangs_.withRanksNamed(sample);
    const QJsonObject usage = events::nodeUsage(nodeId, jsonOf(named));
    bool memoryFreed = false;
    if (NodeCapacity* capacity = capacityOf(pool_->capacities(), nodeId)) {
        capacity->gpuMemoryFreeMb.resize(capacity->gpuIds.size(), -1);
        for (const node::GpuUsage& gpu : named.gpus) {
            const int card = cardIndex(*capacity, QString::fromStdString(gpu.uuid));
            if (card < 0) {
                continue;  // a card the cluster file's `resources` keeps from trials
            }
            const std::int64_t free =
                gpu.lost ? 0 : std::max<std::int64_t>(0, gpu.memoryTotalMb - gpu.memoryUsedMb);
            std::int64_t& known = capacity->gpuMemoryFreeMb[std::size_t(card)];
            memoryFreed = memoryFreed || free > known;
            known = free;
        }
    }
    // The engine's clock, not the node's: samples of every node line up with the other events,
    // and the history thins them by this time.
    const double t = clock_.now();
    latestUsage_[nodeId] = named;
    const std::int64_t seq = store_.appendNodeUsage(nodeId, t, usage);
    recorded_(events::type::kNodeUsage, seq, t, usage);
    if (memoryFreed && spec_.resourcesPerTrial.gpuMemoryMb > 0) {
        loop_.schedule();  // a trial waiting for GPU memory may fit now
    }
}

void NodeMonitor::onGpuLost(const QString& nodeId, const node::GpuLost& lost) {
    if (loop_.isFinished()) {
        return;
    }
    const QString uuid = QString::fromStdString(lost.uuid);
    const QString reason = QString::fromStdString(lost.reason);
    QJsonArray onCard;
    QStringList onCardIds;
    if (NodeCapacity* node = capacityOf(pool_->capacities(), nodeId)) {
        if (const int card = cardIndex(*node, uuid); card >= 0) {
            node->gpuLost.resize(node->gpuIds.size(), false);
            node->gpuLost[std::size_t(card)] = true;
            for (const LoopTrial& live : loop_.trials()) {
                const QString& id = live.trial.id;
                const std::vector<int>& taken = live.placement.gpuSlots;
                if (live.trial.status == TrialStatus::Running && live.placement.nodeId == nodeId &&
                    std::find(taken.begin(), taken.end(), card) != taken.end()) {
                    onCard.append(id);
                    onCardIds << id;
                }
            }
        }
    }
    loop_.recordEvent(
        events::type::kNode,
        events::node(
            nodeId, QStringLiteral("gpu_lost"),
            {{"index", lost.index}, {"uuid", uuid}, {"reason", reason}, {"trials", onCard}}));
    // Its trials are left to fail as they do when CUDA reports the error; they are then retried
    // under failure.max_failures, on other cards.
    QString text =
        QStringLiteral("GPU %1 (%2) of node %3 was lost (%4); no more trials are placed on it")
            .arg(lost.index)
            .arg(uuid, nodeId, reason);
    if (!onCardIds.isEmpty()) {
        text += QStringLiteral("; trials using it: %1").arg(onCardIds.join(QStringLiteral(", ")));
    }
    loop_.recordEvent(events::type::kWarning, events::warning(text));
}

}  // namespace tunedeck
