// Placement of trials on node resources (Ray's resource scheduling, kept as a pure function):
// node views in, a node and GPU slots out. GPU capacity is counted in integer milli-units per
// card so that fractional requests pack exactly (0.15 x 6 fits a card; a 7th does not).
// Value types; pure.
#pragma once

#include <QString>
#include <cstdint>
#include <vector>

#include "core/experiment_spec.h"

namespace tunedeck {

inline constexpr std::int64_t kMilliPerUnit = 1000;
std::int64_t toMilli(double amount);  // rounds to the nearest milli-unit

struct NodeCapacity {
    QString nodeId;
    bool alive = true;
    std::int64_t cpuTotalMilli = 0;
    std::int64_t cpuUsedMilli = 0;
    std::vector<std::int64_t> gpuUsedMilli;  // one entry per card, 0..kMilliPerUnit
    std::vector<QString> gpuIds;             // per card, what CUDA_VISIBLE_DEVICES names (UUID)
};

// PlacementStrategy (Pack, Spread) is declared in experiment_spec.h, which chooses it.

struct Placement {
    bool placed = false;
    QString nodeId;
    std::vector<int> gpuSlots;         // card indices on the node
    std::int64_t gpuMilliPerSlot = 0;  // share taken of each card
    QString reason;                    // why not placed, in the user's words
};

// Chooses a node for `request`. Pack: the alive node with the least free CPU that fits
// (fills nodes one by one); Spread: the one with the most. A fractional GPU request goes to the
// card with the least room that still fits; whole GPUs take whole free cards.
Placement place(const ResourceRequest& request, const std::vector<NodeCapacity>& nodes,
                PlacementStrategy strategy = PlacementStrategy::Pack);

// Books or releases a placement on the matching node (no-op if the node is gone).
void reserve(std::vector<NodeCapacity>& nodes, const ResourceRequest& request, const Placement& p);
void release(std::vector<NodeCapacity>& nodes, const ResourceRequest& request, const Placement& p);

// Whether any node could ever fit the request when empty; else the reason (largest node named).
bool fitsAnyNode(const ResourceRequest& request, const std::vector<NodeCapacity>& nodes,
                 QString* reason);

}  // namespace tunedeck
