// ExperimentRunner hears what the nodes' agents measure: every gpu_sample_s a
// sample of the node's CPU, memory and GPUs (recorded in the history, streamed as a node_usage
// event, and read by placement for each card's free memory), and a card that stops answering
// (never offered again; see RUNTIME.md, "GPUs"); and, with `gpu_sharing: mps`, the MPS daemon each
// agent starts.
#include <QJsonArray>
#include <algorithm>

#include "core/events.h"
#include "runtime/experiment_runner.h"

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

void ExperimentRunner::startMonitoring(const QString& nodeId, const QJsonObject& hello) {
    if (const QString note = hello.value("gpu_note").toString(); !note.isEmpty()) {
        nodeNotes_.gpuNotes[nodeId] = note;
    } else {
        nodeNotes_.gpuNotes.erase(nodeId);
    }
    NodeLink* link = pool_->link(nodeId);
    if (link == nullptr) {
        return;
    }
    if (spec().gpuSampleS > 0) {
        link->send(QJsonObject{{"op", "monitor"}, {"interval_s", spec().gpuSampleS}});
    }
    // Before any trial starts there: the agent points each GPU trial at its MPS daemon.
    if (spec().gpuSharing == GpuSharing::Mps && !hello.value("gpus").toArray().isEmpty()) {
        link->send(QJsonObject{{"op", "gpu_sharing"}, {"mode", "mps"}});
    }
}

void ExperimentRunner::onGpuSharing(const QString& nodeId, const QJsonObject& message) {
    const QString mode = message.value("mode").toString();
    const QString reason = message.value("reason").toString();
    QJsonObject details{{"mode", mode}};
    if (!reason.isEmpty()) {
        details.insert("reason", reason);
    }
    loop_->recordEvent(events::type::kNode,
                       events::node(nodeId, QStringLiteral("gpu_sharing"), details));
    if (spec().gpuSharing == GpuSharing::Mps && mode != QLatin1String("mps")) {
        loop_->recordEvent(
            events::type::kWarning,
            events::warning(tr("node %1: MPS did not start (%2); trials on its GPUs share "
                               "them by time slicing")
                                .arg(nodeId, reason)));
    }
}

QString ExperimentRunner::gpuNotes() const {
    QStringList notes;
    for (const auto& [nodeId, note] : nodeNotes_.gpuNotes) {
        notes << QStringLiteral("%1: %2").arg(nodeId, note);
    }
    return notes.isEmpty() ? QString()
                           : QStringLiteral(" (%1)").arg(notes.join(QStringLiteral("; ")));
}

void ExperimentRunner::onNodeUsage(const QString& nodeId, const QJsonObject& sample) {
    if (loop_->isFinished()) {
        return;
    }
    const QJsonObject usage = withGangRanksNamed(events::nodeUsage(nodeId, sample));
    bool memoryFreed = false;
    if (NodeCapacity* node = capacityOf(pool_->capacities(), nodeId)) {
        node->gpuMemoryFreeMb.resize(node->gpuIds.size(), -1);
        for (const QJsonValue& entry : usage.value("gpus").toArray()) {
            const QJsonObject gpu = entry.toObject();
            const int card = cardIndex(*node, gpu.value("uuid").toString());
            if (card < 0) {
                continue;  // a card the cluster file's `resources` keeps from trials
            }
            const std::int64_t free =
                gpu.value("lost").toBool()
                    ? 0
                    : std::max<std::int64_t>(0, gpu.value("memory_total_mb").toInteger() -
                                                    gpu.value("memory_used_mb").toInteger());
            std::int64_t& known = node->gpuMemoryFreeMb[std::size_t(card)];
            memoryFreed = memoryFreed || free > known;
            known = free;
        }
    }
    // The engine's clock, not the node's: samples of every node line up with the other events,
    // and the history thins them by this time.
    const double t = now();
    nodeNotes_.latestUsage[nodeId] = usage;
    const std::int64_t seq = store_->appendNodeUsage(nodeId, t, usage);
    writeEventLine(events::type::kNodeUsage, seq, t, usage);
    if (memoryFreed && spec().resourcesPerTrial.gpuMemoryMb > 0) {
        loop_->schedule();  // a trial waiting for GPU memory may fit now
    }
}

void ExperimentRunner::onGpuLost(const QString& nodeId, const QJsonObject& message) {
    if (loop_->isFinished()) {
        return;
    }
    const QString uuid = message.value("uuid").toString();
    const QString reason = message.value("reason").toString();
    QJsonArray onCard;
    QStringList onCardIds;
    if (NodeCapacity* node = capacityOf(pool_->capacities(), nodeId)) {
        if (const int card = cardIndex(*node, uuid); card >= 0) {
            node->gpuLost.resize(node->gpuIds.size(), false);
            node->gpuLost[std::size_t(card)] = true;
            for (const auto& [id, live] : loop_->trials()) {
                const std::vector<int>& taken = live.placement.gpuSlots;
                if (live.trial.status == TrialStatus::Running && live.placement.nodeId == nodeId &&
                    std::find(taken.begin(), taken.end(), card) != taken.end()) {
                    onCard.append(id);
                    onCardIds << id;
                }
            }
        }
    }
    loop_->recordEvent(events::type::kNode, events::node(nodeId, QStringLiteral("gpu_lost"),
                                                         {{"index", message.value("index").toInt()},
                                                          {"uuid", uuid},
                                                          {"reason", reason},
                                                          {"trials", onCard}}));
    // Its trials are left to fail as they do when CUDA reports the error; they are then retried
    // under failure.max_failures, on other cards.
    QString text = tr("GPU %1 (%2) of node %3 was lost (%4); no more trials are placed on it")
                       .arg(message.value("index").toInt())
                       .arg(uuid, nodeId, reason);
    if (!onCardIds.isEmpty()) {
        text += tr("; trials using it: %1").arg(onCardIds.join(QStringLiteral(", ")));
    }
    loop_->recordEvent(events::type::kWarning, events::warning(text));
}

}  // namespace tunedeck
