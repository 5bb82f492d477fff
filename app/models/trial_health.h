// Each trial's system health over its life: the CPU (percent of one core), resident memory and
// GPU memory its processes used, as its node's agent sampled them (the `trials` of the engine's
// `node_usage` events, live or read back from the history by readNodeUsage). Up to kMaxPoints
// samples per trial: when a trial has more, every other one is dropped, so a long trial keeps its
// whole life at a coarser step; its peaks are kept apart and never thinned. Thread-safety: plain
// value type; the window owns one and feeds it on the GUI thread (the history is read into one on a
// worker thread, then moved).
// A gang trial (resources_per_trial.workers) is one series, its ranks added up: a sample of a
// node names each rank's processes apart, and the point of that time is the sum of the trial's
// entries in it plus the latest sums of its other nodes, as nvidia-smi's total or Ray's
// per-trial resources count a whole trial (app/APP.md).
#pragma once

#include <QString>
#include <cstdint>
#include <map>
#include <vector>

#include "api/event_decoders.h"

namespace tunedeck::app {

struct HealthPoint {
    double time = 0;        // unix seconds
    double cpuPercent = 0;  // NaN when the node could not say yet (a trial's first sample)
    double rssMb = 0;
    double gpuMemoryMb = 0;  // NaN on a node without GPUs
};

struct TrialHealth {
    QString node;   // a gang across nodes: its nodes, joined with ", "
    int ranks = 0;  // the most ranks of a gang trial one point added up; 0 for one process
    std::vector<HealthPoint> points;  // in time order
    std::size_t samples = 0;          // all samples seen, thinned or not
    double peakRssMb = 0;
    double peakCpuPercent = 0;
    double peakGpuMemoryMb = 0;
    bool gpuKnown = false;  // it ran on a node with GPUs
};

class TrialHealthModel {
  public:
    static constexpr std::size_t kMaxPoints = 600;

    // Applies a `node_usage` event; anything else is ignored. Returns whether it held a trial.
    bool apply(const events::Event& event);
    void clear();

    // Null when no sample named the trial.
    const TrialHealth* find(const QString& trial) const;
    const std::map<QString, TrialHealth>& trials() const { return trials_; }
    // Grows with every sample taken in; views compare it to skip redraws.
    std::uint64_t version() const { return version_; }

  private:
    // What one node's sample said of a trial: its entries added up.
    struct NodePart {
        HealthPoint sum;
        int ranks = 0;
    };
    void applyPart(const QString& id, const QString& node, const NodePart& part);

    std::map<QString, TrialHealth> trials_;
    std::map<QString, std::map<QString, NodePart>> parts_;  // trial -> node -> its latest part
    std::uint64_t version_ = 0;
};

}  // namespace tunedeck::app
