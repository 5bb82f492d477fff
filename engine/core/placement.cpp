#include "core/placement.h"

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <optional>

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

template <typename T>
T cardValue(const std::vector<T>& values, std::size_t card, T otherwise) {
    return card < values.size() ? values[card] : otherwise;
}

bool cardLost(const NodeCapacity& node, std::size_t card) {
    return cardValue(node.gpuLost, card, false);
}

// Memory a new trial may still ask of a card: its size less the reservations of the trials on
// it, capped by what its agent last saw free. Empty when neither is known.
std::optional<std::int64_t> cardMemoryRoom(const NodeCapacity& node, std::size_t card) {
    std::optional<std::int64_t> room;
    if (const std::int64_t total = cardValue<std::int64_t>(node.gpuMemoryTotalMb, card, 0);
        total > 0) {
        room = total - cardValue<std::int64_t>(node.gpuMemoryReservedMb, card, 0);
    }
    if (const std::int64_t free = cardValue<std::int64_t>(node.gpuMemoryFreeMb, card, -1);
        free >= 0) {
        room = room ? std::min(*room, free) : free;
    }
    return room;
}

bool memoryFits(const NodeCapacity& node, std::size_t card, std::int64_t memoryMb) {
    const std::optional<std::int64_t> room = cardMemoryRoom(node, card);
    return memoryMb <= 0 || !room || *room >= memoryMb;
}

std::int64_t wholeFreeCards(const NodeCapacity& node) {
    std::int64_t free = 0;
    for (std::size_t i = 0; i < node.gpuUsedMilli.size(); ++i) {
        free += node.gpuUsedMilli[i] == 0 && !cardLost(node, i) ? 1 : 0;
    }
    return free;
}

std::int64_t largestCardRoom(const NodeCapacity& node) {
    std::int64_t room = 0;
    for (std::size_t i = 0; i < node.gpuUsedMilli.size(); ++i) {
        if (!cardLost(node, i)) {
            room = std::max(room, kMilliPerUnit - node.gpuUsedMilli[i]);
        }
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
GpuFit fitGpus(const NodeCapacity& node, std::int64_t gpuMilli, std::int64_t memoryMb) {
    GpuFit fit;
    if (gpuMilli <= 0) {
        fit.fits = true;
        return fit;
    }
    if (gpuMilli < kMilliPerUnit) {
        int best = -1;
        for (std::size_t i = 0; i < node.gpuUsedMilli.size(); ++i) {
            const std::int64_t room = kMilliPerUnit - node.gpuUsedMilli[i];
            if (room >= gpuMilli && !cardLost(node, i) && memoryFits(node, i, memoryMb) &&
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
        if (node.gpuUsedMilli[i] == 0 && !cardLost(node, i) && memoryFits(node, i, memoryMb)) {
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
QString whyNotPlaced(std::int64_t cpuMilli, std::int64_t gpuMilli, std::int64_t memoryMb,
                     const std::vector<NodeCapacity>& nodes) {
    const NodeCapacity* mostCpu = nullptr;
    const NodeCapacity* mostGpu = nullptr;
    const NodeCapacity* mostMemory = nullptr;
    std::int64_t mostMemoryMb = -1;
    bool cpuFitsSomewhere = false;
    bool gpuFitsSomewhere = false;
    bool sharesFitSomewhere = false;
    QStringList lost;
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
        gpuFitsSomewhere = gpuFitsSomewhere || fitGpus(node, gpuMilli, memoryMb).fits;
        sharesFitSomewhere = sharesFitSomewhere || fitGpus(node, gpuMilli, 0).fits;
        for (std::size_t i = 0; i < node.gpuUsedMilli.size(); ++i) {
            if (cardLost(node, i)) {
                lost << QStringLiteral("%1 on node '%2'")
                            .arg(cardValue(node.gpuIds, i, QString::number(i)), node.nodeId);
                continue;
            }
            const std::optional<std::int64_t> room = cardMemoryRoom(node, i);
            if (room && *room > mostMemoryMb) {
                mostMemoryMb = *room;
                mostMemory = &node;
            }
        }
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
    // Lost cards are named, so a shortfall they cause is not a mystery.
    const QString lostNote =
        lost.isEmpty() ? QString()
                       : QStringLiteral(" (lost GPUs are not offered: %1)").arg(lost.join(", "));
    if (!sharesFitSomewhere) {
        if (gpuMilli < kMilliPerUnit) {
            return QStringLiteral("needs %1 GPU, largest free on one card is %2 GPU on node '%3'")
                       .arg(amount(gpuMilli), amount(gpuOffer(*mostGpu)), mostGpu->nodeId) +
                   lostNote;
        }
        return QStringLiteral("needs %1 GPU, largest free is %2 GPU on node '%3'")
                   .arg(amount(gpuMilli), amount(gpuOffer(*mostGpu)), mostGpu->nodeId) +
               lostNote;
    }
    if (!gpuFitsSomewhere) {
        if (!mostMemory) {
            return QStringLiteral("needs %1 MB of GPU memory free on a card; none has it")
                .arg(memoryMb);
        }
        return QStringLiteral(
                   "needs %1 MB of GPU memory free on a card, the most free is %2 MB "
                   "on node '%3'")
            .arg(memoryMb)
            .arg(mostMemoryMb)
            .arg(mostMemory->nodeId);
    }
    return QStringLiteral("needs %1 CPU and %2 GPU on one node; no node has both free")
        .arg(amount(cpuMilli), amount(gpuMilli));
}

}  // namespace

NodeCapacity emptyCapacity(NodeCapacity node) {
    std::fill(node.gpuUsedMilli.begin(), node.gpuUsedMilli.end(), 0);
    node.cpuUsedMilli = 0;
    node.gpuMemoryFreeMb.clear();
    node.gpuMemoryReservedMb.clear();
    node.gpuLost.clear();
    return node;
}

std::int64_t toMilli(double amount) {
    return std::llround(amount * kMilliPerUnit);
}

Placement place(const ResourceRequest& request, const std::vector<NodeCapacity>& nodes,
                PlacementStrategy strategy) {
    const std::int64_t cpuMilli = std::max<std::int64_t>(0, toMilli(request.cpu));
    const std::int64_t gpuMilli = std::max<std::int64_t>(0, toMilli(request.gpu));
    const std::int64_t memoryMb = std::max<std::int64_t>(0, request.gpuMemoryMb);
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
        GpuFit fit = fitGpus(node, gpuMilli, memoryMb);
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
        placement.reason = whyNotPlaced(cpuMilli, gpuMilli, memoryMb, nodes);
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
    node->gpuMemoryReservedMb.resize(
        std::max(node->gpuMemoryReservedMb.size(), node->gpuUsedMilli.size()), 0);
    for (const int slot : p.gpuSlots) {
        if (slot >= 0 && static_cast<std::size_t>(slot) < node->gpuUsedMilli.size()) {
            node->gpuUsedMilli[static_cast<std::size_t>(slot)] += p.gpuMilliPerSlot;
            node->gpuMemoryReservedMb[static_cast<std::size_t>(slot)] +=
                std::max<std::int64_t>(0, request.gpuMemoryMb);
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
            if (static_cast<std::size_t>(slot) < node->gpuMemoryReservedMb.size()) {
                auto& reserved = node->gpuMemoryReservedMb[static_cast<std::size_t>(slot)];
                reserved = std::max<std::int64_t>(
                    0, reserved - std::max<std::int64_t>(0, request.gpuMemoryMb));
            }
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
    const std::int64_t memoryMb = gpuMilli > 0 ? std::max<std::int64_t>(0, request.gpuMemoryMb) : 0;
    auto cards = [](const NodeCapacity& node) {
        return static_cast<std::int64_t>(node.gpuUsedMilli.size()) * kMilliPerUnit;
    };
    // Cards large enough for gpu_memory_mb (a card of unknown size may be).
    auto roomyCards = [&](const NodeCapacity& node) {
        std::int64_t roomy = 0;
        for (std::size_t i = 0; i < node.gpuUsedMilli.size(); ++i) {
            const std::int64_t total = cardValue<std::int64_t>(node.gpuMemoryTotalMb, i, 0);
            roomy += total <= 0 || total >= memoryMb ? 1 : 0;
        }
        return roomy * kMilliPerUnit;
    };
    auto fitsOn = [&](std::int64_t offered) {
        return gpuMilli == 0 || (gpuMilli < kMilliPerUnit ? offered > 0 : offered >= gpuMilli);
    };
    const NodeCapacity* mostCpu = &nodes.front();
    const NodeCapacity* mostGpu = &nodes.front();
    const NodeCapacity* largestCard = nullptr;
    std::int64_t largestCardMb = 0;
    bool cpuFits = false;
    bool cardsFitSomewhere = false;
    for (const auto& node : nodes) {
        if (node.cpuTotalMilli >= cpuMilli && fitsOn(roomyCards(node))) {
            return true;
        }
        cpuFits = cpuFits || node.cpuTotalMilli >= cpuMilli;
        cardsFitSomewhere = cardsFitSomewhere || fitsOn(cards(node));
        if (node.cpuTotalMilli > mostCpu->cpuTotalMilli) {
            mostCpu = &node;
        }
        if (cards(node) > cards(*mostGpu)) {
            mostGpu = &node;
        }
        for (const std::int64_t total : node.gpuMemoryTotalMb) {
            if (total > largestCardMb) {
                largestCardMb = total;
                largestCard = &node;
            }
        }
    }
    if (!cpuFits) {
        return say(
            QStringLiteral("no node has %1 (the largest, '%2', has %3)")
                .arg(countOf(cpuMilli, "CPU"), mostCpu->nodeId, amount(mostCpu->cpuTotalMilli)));
    }
    if (!cardsFitSomewhere) {
        return say(QStringLiteral("no node has %1 (the largest, '%2', has %3)")
                       .arg(countOf(gpuMilli, "GPU"), mostGpu->nodeId, amount(cards(*mostGpu))));
    }
    if (largestCard && largestCardMb < memoryMb) {
        return say(QStringLiteral("no GPU has %1 MB of memory (gpu_memory_mb; the largest, on "
                                  "node '%2', has %3 MB)")
                       .arg(memoryMb)
                       .arg(largestCard->nodeId)
                       .arg(largestCardMb));
    }
    return say(QStringLiteral("no node has %1 and %2 together")
                   .arg(countOf(cpuMilli, "CPU"), countOf(gpuMilli, "GPU")));
}

}  // namespace tunedeck
