// Placement of trials on node resources (Ray's resource scheduling, kept as a pure function):
// node views in, a node and GPU slots out. GPU capacity is counted in integer milli-units per
// card so that fractional requests pack exactly (0.15 x 6 fits a card; a 7th does not; Ray's
// floating-point sums let a 7th in). A request's gpu_memory_mb must fit on each card it takes:
// the room is the card's memory less what trials placed there asked for, and never more than
// its agent last measured free (so memory that other programs hold counts too). A card its
// agent reported lost is never offered. Value types; pure.
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
    // Also per card; a shorter vector (or none) reads as "unknown" and "not lost" for the rest.
    std::vector<std::int64_t> gpuMemoryTotalMb;     // from the agent's inventory; 0 = unknown
    std::vector<std::int64_t> gpuMemoryFreeMb;      // from its latest sample; -1 = none yet
    std::vector<std::int64_t> gpuMemoryReservedMb;  // gpu_memory_mb of the trials placed there
    std::vector<bool> gpuLost;
};

// The node as it was when its agent said hello: nothing placed, nothing measured, nothing lost
// (what fitsAnyNode judges a node by: one that is busy or down now may be free later).
NodeCapacity emptyCapacity(NodeCapacity node);

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
// card with the least room that still fits (memory included); whole GPUs take whole free cards.
Placement place(const ResourceRequest& request, const std::vector<NodeCapacity>& nodes,
                PlacementStrategy strategy = PlacementStrategy::Pack);

// Books or releases a placement on the matching node (no-op if the node is gone).
void reserve(std::vector<NodeCapacity>& nodes, const ResourceRequest& request, const Placement& p);
void release(std::vector<NodeCapacity>& nodes, const ResourceRequest& request, const Placement& p);

// Whether any node could ever fit the request when empty (lost cards count: a reset brings them
// back); else the reason, naming the largest node (or card, for gpu_memory_mb).
bool fitsAnyNode(const ResourceRequest& request, const std::vector<NodeCapacity>& nodes,
                 QString* reason);

}  // namespace tunedeck
