// Nodes for benchmarks that drive the experiment loop: a fixed set, all up from the start.
#pragma once

#include <utility>
#include <vector>

#include "core/loop_environment.h"

namespace tunedeck {

class FixedNodes : public LoopNodes {
  public:
    explicit FixedNodes(std::vector<NodeCapacity> nodes) : nodes_(std::move(nodes)) {}
    std::vector<NodeCapacity>& capacities() override { return nodes_; }
    bool opened() const override { return true; }
    bool anyReady() const override { return true; }
    bool elastic() const override { return false; }
    bool allHeardFrom() const override { return true; }
    QString describeUnavailable() const override { return {}; }

  private:
    std::vector<NodeCapacity> nodes_;
};

// One node of `cpus` CPUs.
inline NodeCapacity nodeOfCpus(const QString& id, int cpus) {
    NodeCapacity node;
    node.nodeId = id;
    node.cpuTotalMilli = std::int64_t(cpus) * 1000;
    return node;
}

}  // namespace tunedeck
