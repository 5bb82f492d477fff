#include "core/gang_placement.h"

#include <map>

#include "core/counted.h"

namespace tunedeck {

namespace {

const char* strategyName(GangStrategy strategy) {
    switch (strategy) {
        case GangStrategy::Pack:
            return "pack";
        case GangStrategy::Spread:
            return "spread";
        case GangStrategy::StrictSpread:
            return "strict_spread";
    }
    return "";
}

// torchrun's view of the placed ranks: nodes numbered by their first rank, ranks by node.
void numberRanks(GangPlacement* gang) {
    std::map<QString, int> nodeRanks;
    std::map<QString, int> onNode;
    for (GangRank& rank : gang->ranks) {
        const QString& node = rank.placement.nodeId;
        auto [it, inserted] = nodeRanks.try_emplace(node, int(nodeRanks.size()));
        rank.nodeRank = it->second;
        rank.localRank = onNode[node]++;
    }
    for (GangRank& rank : gang->ranks) {
        rank.localWorldSize = onNode[rank.placement.nodeId];
    }
    gang->nodeCount = int(nodeRanks.size());
}

}  // namespace

GangPlacement placeGang(const ResourceRequest& request, int workers, GangStrategy strategy,
                        const std::vector<NodeCapacity>& nodes) {
    GangPlacement gang;
    if (workers < 1) {
        gang.reason = QStringLiteral("a gang needs at least one worker, got %1").arg(workers);
        return gang;
    }
    std::vector<NodeCapacity> trial = nodes;  // booked rank by rank; the caller's stay untouched
    for (int r = 0; r < workers; ++r) {
        std::vector<NodeCapacity> candidates = trial;
        if (strategy == GangStrategy::StrictSpread) {
            for (NodeCapacity& node : candidates) {
                for (const GangRank& placed : gang.ranks) {
                    node.alive = node.alive && node.nodeId != placed.placement.nodeId;
                }
            }
        }
        Placement p = place(
            request, candidates,
            strategy == GangStrategy::Pack ? PlacementStrategy::Pack : PlacementStrategy::Spread);
        if (!p.placed) {
            GangPlacement none;
            none.reason = QStringLiteral("%1 of %2 workers (%3) fit now: %4")
                              .arg(r)
                              .arg(workers)
                              .arg(QLatin1String(strategyName(strategy)), p.reason);
            return none;
        }
        reserve(trial, request, p);
        gang.ranks.push_back({r, std::move(p), 0, 0, 0});
    }
    gang.placed = true;
    numberRanks(&gang);
    return gang;
}

void reserveGang(std::vector<NodeCapacity>& nodes, const ResourceRequest& request,
                 const GangPlacement& gang) {
    for (const GangRank& rank : gang.ranks) {
        reserve(nodes, request, rank.placement);
    }
}

void releaseGang(std::vector<NodeCapacity>& nodes, const ResourceRequest& request,
                 const GangPlacement& gang) {
    for (const GangRank& rank : gang.ranks) {
        release(nodes, request, rank.placement);
    }
}

bool gangFitsEver(const ResourceRequest& request, int workers, GangStrategy strategy,
                  const std::vector<NodeCapacity>& nodes, QString* reason) {
    std::vector<NodeCapacity> empty;
    for (const NodeCapacity& node : nodes) {
        NodeCapacity e = emptyCapacity(node);
        e.alive = true;
        empty.push_back(std::move(e));
    }
    const GangPlacement gang = placeGang(request, workers, strategy, empty);
    if (gang.placed) {
        return true;
    }
    if (reason) {
        *reason =
            QStringLiteral("a gang of %1 workers never fits the %2 even when they are empty: %3")
                .arg(workers)
                .arg(counted(qint64(nodes.size()), "node"), gang.reason);
    }
    return false;
}

bool trialFitsEver(const ResourceRequest& request, const GangSpec& gang,
                   const std::vector<NodeCapacity>& nodes, QString* reason) {
    if (!gang.isGang()) {
        return fitsAnyNode(request, nodes, reason);
    }
    return gangFitsEver(request, gang.workers, gang.placement, nodes, reason);
}

}  // namespace tunedeck
