// What the nodes' agents say of themselves and measure: every gpu_sample_s a
// sample of the node's CPU, memory and GPUs (recorded in the history, streamed as a node_usage
// event, and read by placement for each card's free memory), and a card that stops answering
// (never offered again; see RUNTIME.md, "GPUs"); and, with `gpu_sharing: mps`, the MPS daemon each
// agent starts.
// Not thread-safe: the runtime's event loop only.
#pragma once

#include <QJsonObject>
#include <QString>
#include <functional>
#include <map>
#include <vector>

#include "core/experiment_loop.h"
#include "core/experiment_spec.h"
#include "core/loop_environment.h"
#include "runtime/gang_ranks.h"
#include "runtime/node_pool.h"
#include "runtime/progress_reporter.h"
#include "store/experiment_store.h"

namespace tunedeck {

class NodeMonitor {
  public:
    // `recorded`: a node_usage sample was recorded with this seq (the --events file's line).
    using Recorded = std::function<void(const QString& type, std::int64_t seq, double time,
                                        const QJsonObject& payload)>;
    NodeMonitor(const ExperimentSpec& spec, ExperimentLoop& loop, ExperimentStore& store,
                const LoopClock& clock, GangRanks& gangs, Recorded recorded);
    // The nodes, once they are opened.
    void attach(NodePool* pool) { pool_ = pool; }

    // Its agent said hello: monitoring and GPU sharing are switched on as the experiment asks.
    void nodeUp(const QString& nodeId, const node::Hello& hello);
    void nodeLost(const QString& nodeId);
    void onUsage(const QString& nodeId, const node::Usage& sample);
    void onGpuLost(const QString& nodeId, const node::GpuLost& lost);
    void onGpuSharing(const QString& nodeId, const node::GpuSharing& sharing);

    // Every node that said hello, as it was then (empty).
    std::vector<NodeCapacity> seenNodes() const;
    // Each node's latest usage sample.
    std::vector<NodeUsageSample> latestUsage() const;
    // The agents' reasons for offering fewer GPUs than asked for ("local: no NVIDIA driver"),
    // appended to a refusal of a GPU request; empty when there are none.
    QString gpuNotes() const;

  private:
    const ExperimentSpec& spec_;
    ExperimentLoop& loop_;
    ExperimentStore& store_;
    const LoopClock& clock_;
    GangRanks& gangs_;
    Recorded recorded_;
    NodePool* pool_ = nullptr;
    std::map<QString, NodeCapacity> seen_;
    std::map<QString, QString> gpuNotes_;
    std::map<QString, node::Usage> latestUsage_;
};

}  // namespace tunedeck
