#include "core/placement.h"

#include <algorithm>
#include <cmath>

namespace tunedeck {

namespace {

// An amount in the user's units: 4000 -> "4", 250 -> "0.25".
QString amount(std::int64_t milli) {
    return QString::number(static_cast<double>(milli) / kMilliPerUnit, 'g', 12);
}

QString countOf(std::int64_t milli, const char* unit) {
    const QString text = amount(milli) + QLatin1Char(' ') + QLatin1String(unit);
    return milli == kMilliPerUnit || milli % kMilliPerUnit != 0 ? text : text + QLatin1Char('s');
}

std::int64_t freeCpu(const NodeCapacity& node) {
    return node.cpuTotalMilli - node.cpuUsedMilli;
}

std::int64_t wholeFreeCards(const NodeCapacity& node) {
    return std::count(node.gpuUsedMilli.begin(), node.gpuUsedMilli.end(), 0);
}

std::int64_t largestCardRoom(const NodeCapacity& node) {
    std::int64_t room = 0;
    for (const std::int64_t used : node.gpuUsedMilli) {
        room = std::max(room, kMilliPerUnit - used);
    }
    return room;
}

struct GpuFit {
    bool fits = false;
    std::vector<int> cards;
    std::int64_t milliPerSlot = 0;
};

// Fractions go to the fullest card that still has room (best fit), so shares pack onto as few
// cards as possible and whole cards stay free for whole-GPU trials.
GpuFit fitGpus(const NodeCapacity& node, std::int64_t gpuMilli) {
    GpuFit fit;
    if (gpuMilli <= 0) {
        fit.fits = true;
        return fit;
    }
    if (gpuMilli < kMilliPerUnit) {
        int best = -1;
        for (std::size_t i = 0; i < node.gpuUsedMilli.size(); ++i) {
            const std::int64_t room = kMilliPerUnit - node.gpuUsedMilli[i];
            if (room >= gpuMilli &&
                (best < 0 ||
                 room < kMilliPerUnit - node.gpuUsedMilli[static_cast<std::size_t>(best)])) {
                best = static_cast<int>(i);
            }
        }
        if (best >= 0) {
            fit = {true, {best}, gpuMilli};
        }
        return fit;
    }
    const std::int64_t cards = gpuMilli / kMilliPerUnit;
    for (std::size_t i = 0; i < node.gpuUsedMilli.size() && std::ssize(fit.cards) < cards; ++i) {
        if (node.gpuUsedMilli[i] == 0) {
            fit.cards.push_back(static_cast<int>(i));
        }
    }
    fit.fits = std::ssize(fit.cards) == cards;
    fit.milliPerSlot = kMilliPerUnit;
    if (!fit.fits) {
        fit.cards.clear();
    }
    return fit;
}

// Above one GPU only whole cards make sense: a trial cannot own 1.5 cards.
bool isShareable(std::int64_t gpuMilli) {
    return gpuMilli <= kMilliPerUnit || gpuMilli % kMilliPerUnit == 0;
}

NodeCapacity* findNode(std::vector<NodeCapacity>& nodes, const QString& nodeId) {
    for (auto& node : nodes) {
        if (node.nodeId == nodeId) {
            return &node;
        }
    }
    return nullptr;
}

// Why no alive node takes the request: the resource that is short, with the best on offer.
QString whyNotPlaced(std::int64_t cpuMilli, std::int64_t gpuMilli,
                     const std::vector<NodeCapacity>& nodes) {
    const NodeCapacity* mostCpu = nullptr;
    const NodeCapacity* mostGpu = nullptr;
    bool cpuFitsSomewhere = false;
    bool gpuFitsSomewhere = false;
    auto gpuOffer = [&](const NodeCapacity& node) {
        return gpuMilli < kMilliPerUnit ? largestCardRoom(node)
                                        : wholeFreeCards(node) * kMilliPerUnit;
    };
    for (const auto& node : nodes) {
        if (!node.alive) {
            continue;
        }
        if (!mostCpu || freeCpu(node) > freeCpu(*mostCpu)) {
            mostCpu = &node;
        }
        if (!mostGpu || gpuOffer(node) > gpuOffer(*mostGpu)) {
            mostGpu = &node;
        }
        cpuFitsSomewhere = cpuFitsSomewhere || freeCpu(node) >= cpuMilli;
        gpuFitsSomewhere = gpuFitsSomewhere || fitGpus(node, gpuMilli).fits;
    }
    if (!mostCpu) {
        return nodes.empty() ? QStringLiteral("no nodes are known")
                             : QStringLiteral("no node is alive");
    }
    if (!cpuFitsSomewhere) {
        return QStringLiteral("needs %1 CPU, largest free is %2 CPU on node '%3'")
            .arg(amount(cpuMilli), amount(std::max<std::int64_t>(0, freeCpu(*mostCpu))),
                 mostCpu->nodeId);
    }
    if (!gpuFitsSomewhere) {
        if (gpuMilli < kMilliPerUnit) {
            return QStringLiteral("needs %1 GPU, largest free on one card is %2 GPU on node '%3'")
                .arg(amount(gpuMilli), amount(gpuOffer(*mostGpu)), mostGpu->nodeId);
        }
        return QStringLiteral("needs %1 GPU, largest free is %2 GPU on node '%3'")
            .arg(amount(gpuMilli), amount(gpuOffer(*mostGpu)), mostGpu->nodeId);
    }
    return QStringLiteral("needs %1 CPU and %2 GPU on one node; no node has both free")
        .arg(amount(cpuMilli), amount(gpuMilli));
}

}  // namespace

std::int64_t toMilli(double amount) {
    return std::llround(amount * kMilliPerUnit);
}

Placement place(const ResourceRequest& request, const std::vector<NodeCapacity>& nodes,
                PlacementStrategy strategy) {
    const std::int64_t cpuMilli = std::max<std::int64_t>(0, toMilli(request.cpu));
    const std::int64_t gpuMilli = std::max<std::int64_t>(0, toMilli(request.gpu));
    Placement placement;
    if (!isShareable(gpuMilli)) {
        placement.reason = QStringLiteral("a GPU request above 1 must be a whole number (got %1)")
                               .arg(amount(gpuMilli));
        return placement;
    }
    const NodeCapacity* chosen = nullptr;
    GpuFit chosenFit;
    for (const auto& node : nodes) {
        if (!node.alive || freeCpu(node) < cpuMilli) {
            continue;
        }
        GpuFit fit = fitGpus(node, gpuMilli);
        if (!fit.fits) {
            continue;
        }
        // Ties keep the first node in the list, so placement is stable run to run.
        const bool better =
            !chosen || (strategy == PlacementStrategy::Pack ? freeCpu(node) < freeCpu(*chosen)
                                                            : freeCpu(node) > freeCpu(*chosen));
        if (better) {
            chosen = &node;
            chosenFit = std::move(fit);
        }
    }
    if (!chosen) {
        placement.reason = whyNotPlaced(cpuMilli, gpuMilli, nodes);
        return placement;
    }
    placement.placed = true;
    placement.nodeId = chosen->nodeId;
    placement.gpuSlots = std::move(chosenFit.cards);
    placement.gpuMilliPerSlot = chosenFit.milliPerSlot;
    return placement;
}

void reserve(std::vector<NodeCapacity>& nodes, const ResourceRequest& request, const Placement& p) {
    NodeCapacity* node = p.placed ? findNode(nodes, p.nodeId) : nullptr;
    if (!node) {
        return;
    }
    node->cpuUsedMilli += std::max<std::int64_t>(0, toMilli(request.cpu));
    for (const int slot : p.gpuSlots) {
        if (slot >= 0 && static_cast<std::size_t>(slot) < node->gpuUsedMilli.size()) {
            node->gpuUsedMilli[static_cast<std::size_t>(slot)] += p.gpuMilliPerSlot;
        }
    }
}

void release(std::vector<NodeCapacity>& nodes, const ResourceRequest& request, const Placement& p) {
    NodeCapacity* node = p.placed ? findNode(nodes, p.nodeId) : nullptr;
    if (!node) {
        return;
    }
    node->cpuUsedMilli = std::max<std::int64_t>(
        0, node->cpuUsedMilli - std::max<std::int64_t>(0, toMilli(request.cpu)));
    for (const int slot : p.gpuSlots) {
        if (slot >= 0 && static_cast<std::size_t>(slot) < node->gpuUsedMilli.size()) {
            auto& used = node->gpuUsedMilli[static_cast<std::size_t>(slot)];
            used = std::max<std::int64_t>(0, used - p.gpuMilliPerSlot);
        }
    }
}

bool fitsAnyNode(const ResourceRequest& request, const std::vector<NodeCapacity>& nodes,
                 QString* reason) {
    const std::int64_t cpuMilli = std::max<std::int64_t>(0, toMilli(request.cpu));
    const std::int64_t gpuMilli = std::max<std::int64_t>(0, toMilli(request.gpu));
    auto say = [&](const QString& text) {
        if (reason) {
            *reason = text;
        }
        return false;
    };
    if (!isShareable(gpuMilli)) {
        return say(QStringLiteral("a GPU request above 1 must be a whole number (got %1)")
                       .arg(amount(gpuMilli)));
    }
    if (nodes.empty()) {
        return say(QStringLiteral("no nodes are known"));
    }
    // A node that is down now may come back, so every known node counts, as if it were empty.
    auto cards = [](const NodeCapacity& node) {
        return static_cast<std::int64_t>(node.gpuUsedMilli.size()) * kMilliPerUnit;
    };
    auto gpuFits = [&](const NodeCapacity& node) {
        return gpuMilli == 0 ||
               (gpuMilli < kMilliPerUnit ? cards(node) > 0 : cards(node) >= gpuMilli);
    };
    const NodeCapacity* mostCpu = &nodes.front();
    const NodeCapacity* mostGpu = &nodes.front();
    bool cpuFits = false;
    bool gpuFitsSomewhere = false;
    for (const auto& node : nodes) {
        if (node.cpuTotalMilli >= cpuMilli && gpuFits(node)) {
            return true;
        }
        cpuFits = cpuFits || node.cpuTotalMilli >= cpuMilli;
        gpuFitsSomewhere = gpuFitsSomewhere || gpuFits(node);
        if (node.cpuTotalMilli > mostCpu->cpuTotalMilli) {
            mostCpu = &node;
        }
        if (cards(node) > cards(*mostGpu)) {
            mostGpu = &node;
        }
    }
    if (!cpuFits) {
        return say(
            QStringLiteral("no node has %1 (the largest, '%2', has %3)")
                .arg(countOf(cpuMilli, "CPU"), mostCpu->nodeId, amount(mostCpu->cpuTotalMilli)));
    }
    if (!gpuFitsSomewhere) {
        return say(QStringLiteral("no node has %1 (the largest, '%2', has %3)")
                       .arg(countOf(gpuMilli, "GPU"), mostGpu->nodeId, amount(cards(*mostGpu))));
    }
    return say(QStringLiteral("no node has %1 and %2 together")
                   .arg(countOf(cpuMilli, "CPU"), countOf(gpuMilli, "GPU")));
}

}  // namespace tunedeck
