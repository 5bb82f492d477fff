// Placement of a gang: a trial of N worker processes (data-parallel training, one rank each),
// each needing `request`, placed all or nothing across the nodes (Ray's placement groups: a
// gang never holds part of its resources while waiting for the rest). Strategies, as Ray's:
//   pack          ranks fill nodes one by one (fewest nodes: fastest collectives)
//   spread        ranks go to the nodes with most room, several per node when they must
//   strict_spread every rank on a different node
// The result carries what torchrun would set for each rank (NODE_RANK, LOCAL_RANK,
// LOCAL_WORLD_SIZE), rank 0 first on the first node. Pure; value types.
#pragma once

#include <QString>
#include <vector>

#include "core/experiment_spec.h"
#include "core/placement.h"

namespace tunedeck {

struct GangRank {
    int rank = 0;
    Placement placement;     // its node and GPU slots
    int nodeRank = 0;        // index of its node among the gang's nodes, in order of first rank
    int localRank = 0;       // index among the gang's ranks on its node
    int localWorldSize = 0;  // the gang's ranks on its node
};

struct GangPlacement {
    bool placed = false;
    std::vector<GangRank> ranks;  // rank order; empty unless placed
    int nodeCount = 0;
    QString reason;  // why not placed, in the user's words
};

// Places `workers` ranks of `request` on `nodes` (not changed: books nothing).
GangPlacement placeGang(const ResourceRequest& request, int workers, GangStrategy strategy,
                        const std::vector<NodeCapacity>& nodes);

// Books or releases every rank of a placed gang.
void reserveGang(std::vector<NodeCapacity>& nodes, const ResourceRequest& request,
                 const GangPlacement& gang);
void releaseGang(std::vector<NodeCapacity>& nodes, const ResourceRequest& request,
                 const GangPlacement& gang);

// Whether the gang could ever be placed on these nodes when they are empty; else why (validate
// and the run refuse a gang that never fits, naming what is missing).
bool gangFitsEver(const ResourceRequest& request, int workers, GangStrategy strategy,
                  const std::vector<NodeCapacity>& nodes, QString* reason);

// The check every `validate` and run makes before waiting for room: whether a trial of
// `request` (a gang of `gang.workers` ranks) could ever be placed on these nodes. One worker
// is fitsAnyNode's question; a gang is gangFitsEver's.
bool trialFitsEver(const ResourceRequest& request, const GangSpec& gang,
                   const std::vector<NodeCapacity>& nodes, QString* reason);

}  // namespace tunedeck
