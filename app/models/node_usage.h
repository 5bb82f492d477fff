// How busy each node and each GPU card of an experiment is, over time: the engine's `node_usage`
// events (one per node every gpu_sample_s, decoded by engine/api/event_decoders.h) kept as bounded
// series per node and per card, plus the latest sample of each with the trials that sit on each
// card: those the engine placed there (the cards of each RUNNING trial_status event) and those
// the driver's process list names; and each node's state from the engine's `node` events (an
// elastic cluster's autoscaler launching, readying, terminating them, with their type), with the
// autoscaler's decisions in the order they came. Thread-safety: plain value type; the window owns
// one and feeds it on the GUI thread.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <deque>
#include <functional>
#include <map>
#include <vector>

#include "api/event_decoders.h"

namespace tunedeck::app {

struct UsagePoint {
    double time = 0;   // unix seconds
    double value = 0;  // percent
};

struct GpuCard {
    QString node;
    int index = 0;
    QString uuid;
    QString name;
    double utilization = 0;  // percent
    long long memoryUsedMb = 0;
    long long memoryTotalMb = 0;
    double temperatureC = 0;
    double powerW = 0;
    // The trials placed on the card ("t00000 (rank 1)" for a gang trial's rank), then any other
    // the driver names.
    QStringList trials;
    bool lost = false;
    std::deque<UsagePoint> utilizationSeries;
    std::deque<UsagePoint> memorySeries;  // percent of the card's memory
};

// How a node's trials share its cards (the engine's `node` event `gpu_sharing`, sent when the
// experiment asked for MPS): `mps`, or `time_slicing` with the reason MPS did not start.
struct GpuSharing {
    QString mode;
    QString reason;
};

// Where a node stands, from the engine's `node` events: `launching`, `ready` (an autoscaled node
// ready, or any node whose agent said hello: `up`), `terminating`, `lost`, `launch_failed`.
struct NodeLifecycle {
    QString type;  // the node type of an elastic cluster; empty for a listed node
    QString state;
    QString reason;  // why it was launched, terminated, lost or did not start
};

// One step of an elastic cluster's nodes, as the autoscaler decided or saw it.
struct ScalingDecision {
    QString node;  // empty: a launch that failed before the node had a name
    QString state;
    QString type;
    QString reason;
    QString decision;    // the engine's words for a launch or a termination
    double seconds = 0;  // ready: seconds from its launch
};

struct NodeUsage {
    QString node;
    double cpuPercent = 0;
    long long memoryUsedMb = 0;
    long long memoryTotalMb = 0;
    std::deque<UsagePoint> cpuSeries;
    std::deque<UsagePoint> memorySeries;  // percent of the node's memory
};

class NodeUsageModel {
  public:
    // Points kept per series: an hour at the default 2 s sampling; older ones are dropped.
    static constexpr std::size_t kMaxPoints = 1800;
    // Decisions kept: far more than the view lists, few enough for a run of thousands of nodes.
    static constexpr std::size_t kMaxDecisions = 200;

    // Applies one event: a `node_usage` sample, a `node` event (`gpu_sharing`, or a state of the
    // node's lifecycle), or a `trial_status` (a RUNNING trial sits on the cards it names until its
    // status changes); anything else is ignored. Returns whether what the view shows changed.
    bool apply(const events::Event& event);
    void clear();

    const std::map<QString, NodeUsage>& nodes() const { return nodes_; }
    // Cards in node, index order.
    std::vector<const GpuCard*> cards() const;
    bool empty() const { return nodes_.empty(); }
    // How `node` shares its cards; null when the engine did not say (CUDA's time slicing).
    const GpuSharing* gpuSharing(const QString& node) const;
    // Nodes the `node` events named, by id; a node may have samples, a state, or both.
    const std::map<QString, NodeLifecycle>& lifecycles() const { return lifecycles_; }
    // Whether an autoscaler made nodes (a `node` event named a node type): a slurm or command
    // cluster, whose nodes come and go.
    bool autoscaled() const { return autoscaled_; }
    // Oldest first, at most kMaxDecisions.
    const std::deque<ScalingDecision>& decisions() const { return decisions_; }
    // The node types of the autoscaler's events, in name order, and the max_workers a control
    // request last set for each (absent: the cluster file's).
    QStringList nodeTypes() const;
    const std::map<QString, int>& maxWorkersSet() const { return maxWorkers_; }
    double firstTime() const { return firstTime_; }
    double lastTime() const { return lastTime_; }

  private:
    void applySample(const events::NodeUsageEvent& sample, double time);
    bool applyStatus(const events::TrialStatusEvent& status);
    bool applyLifecycle(const events::NodeEvent& event);
    // Each card's trials: the placed ones (trial id order), then those only the driver named.
    void listTrials(GpuCard& card) const;

    std::map<QString, NodeUsage> nodes_;
    std::map<std::pair<QString, int>, GpuCard> cards_;
    std::map<QString, GpuSharing> sharing_;
    std::map<QString, NodeLifecycle> lifecycles_;
    std::deque<ScalingDecision> decisions_;
    std::map<QString, int> maxWorkers_;  // node type -> the cap a control request set
    bool autoscaled_ = false;
    // Where each running trial was placed: its node and card indexes, one entry per rank of a
    // gang trial (rank -1: a trial of one process).
    struct Placed {
        QString node;
        std::vector<int> gpus;
        int rank = -1;
        bool operator==(const Placed&) const = default;
    };
    std::map<QString, std::vector<Placed>> placed_;
    // Trial nodes as last said (a status event without `node` keeps the one it had).
    std::map<QString, QString> trialNodes_;
    std::map<std::pair<QString, int>, QStringList> driverTrials_;  // the latest sample's
    double firstTime_ = 0;
    double lastTime_ = 0;
};

// Reads the samples kept in <folder>/experiment.sqlite (the node_usage table of history schema
// v3; none from an older file), how each node shared its cards and where the trials running then
// were placed, and hands each to `apply` as the event it was, in that order (samples in time
// order): NodeUsageModel::apply and TrialHealthModel::apply take what they need of them. Runs
// anywhere; false with `error` set on failure.
bool readNodeUsage(const QString& folder, const std::function<void(events::Event&&)>& apply,
                   QString* error);

}  // namespace tunedeck::app
