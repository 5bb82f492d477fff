// Placement of trials on node CPUs and GPUs, including shared (fractional) GPUs.
#include <QTest>

#include "core/placement.h"
#include "node_builders.h"

using namespace tunedeck;

namespace {

ResourceRequest request(double cpu, double gpu, std::int64_t gpuMemoryMb = 0) {
    ResourceRequest r;
    r.cpu = cpu;
    r.gpu = gpu;
    r.gpuMemoryMb = gpuMemoryMb;
    return r;
}

// How many of `placements` sit on each card of a node with `cards` cards.
std::vector<int> trialsPerCard(const QList<Placement>& placements, int cards) {
    std::vector<int> count(static_cast<std::size_t>(cards), 0);
    for (const Placement& p : placements) {
        for (const int slot : p.gpuSlots) {
            ++count[static_cast<std::size_t>(slot)];
        }
    }
    return count;
}

// Places and books `count` identical trials; returns how many found room.
int placeMany(std::vector<NodeCapacity>& nodes, const ResourceRequest& r, int count,
              QList<Placement>* placements = nullptr) {
    int placed = 0;
    for (int i = 0; i < count; ++i) {
        const Placement p = place(r, nodes);
        if (!p.placed) {
            break;
        }
        reserve(nodes, r, p);
        if (placements) {
            placements->append(p);
        }
        ++placed;
    }
    return placed;
}

}  // namespace

class TestPlacement : public QObject {
    Q_OBJECT

  private slots:
    void milliUnitsRoundToNearest() {
        QCOMPARE(toMilli(0.15), std::int64_t(150));
        QCOMPARE(toMilli(0.1 + 0.2), std::int64_t(300));
        QCOMPARE(toMilli(2), std::int64_t(2000));
        QCOMPARE(toMilli(1.0 / 3), std::int64_t(333));
    }

    void fourQuarterGpusShareOneCard() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 16, 1)};
        QList<Placement> placements;
        QCOMPARE(placeMany(nodes, request(1, 0.25), 5, &placements), 4);
        for (const auto& p : placements) {
            QCOMPARE(p.gpuSlots, std::vector<int>{0});
            QCOMPARE(p.gpuMilliPerSlot, std::int64_t(250));
        }
        QCOMPARE(nodes[0].gpuUsedMilli[0], kMilliPerUnit);
    }

    void sixFifteenPercentSharesFitAndASeventhDoesNot() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 16, 1)};
        QCOMPARE(placeMany(nodes, request(1, 0.15), 6), 6);
        const Placement seventh = place(request(1, 0.15), nodes);
        QVERIFY(!seventh.placed);
        QCOMPARE(seventh.reason,
                 QStringLiteral("needs 0.15 GPU, largest free on one card is 0.1 GPU on node "
                                "'local'"));
    }

    void fifteenPercentSharesPutSixOnEveryCardNeverSeven() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 64, 3)};
        QList<Placement> placements;
        QCOMPARE(placeMany(nodes, request(1, 0.15), 30, &placements), 18);
        QCOMPARE(trialsPerCard(placements, 3), (std::vector<int>{6, 6, 6}));
        for (const std::int64_t used : nodes[0].gpuUsedMilli) {
            QCOMPARE(used, std::int64_t(900));  // 0.1 of each card stays idle
        }
    }

    void quarterSharesFillCardsOneAfterAnother() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 64, 2)};
        QList<Placement> placements;
        QCOMPARE(placeMany(nodes, request(1, 0.25), 9, &placements), 8);
        // Best fit: the first card is full before the second gets a share.
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(placements[i].gpuSlots, std::vector<int>{0});
        }
        QCOMPARE(trialsPerCard(placements, 2), (std::vector<int>{4, 4}));
    }

    void sharesLeaveRoomForTheNextSizeThatFits() {
        // 0.15 x 6 = 0.9 leaves 0.1: a 0.1 share still fits there, a 0.25 one goes elsewhere.
        std::vector<NodeCapacity> nodes{nodeWith("local", 64, 2)};
        QCOMPARE(placeMany(nodes, request(1, 0.15), 6), 6);
        QCOMPARE(place(request(1, 0.25), nodes).gpuSlots, std::vector<int>{1});
        QCOMPARE(place(request(1, 0.1), nodes).gpuSlots, std::vector<int>{0});
    }

    void gpuMemoryIsCheckedOnTheCard() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 64, 2)};
        nodes[0].gpuMemoryTotalMb = {16000, 16000};
        // Another program holds most of card 0 (the agent's latest sample says so).
        nodes[0].gpuMemoryFreeMb = {3000, 16000};
        const Placement p = place(request(1, 0.25, 4000), nodes);
        QVERIFY(p.placed);
        QCOMPARE(p.gpuSlots, std::vector<int>{1});
        QCOMPARE(place(request(1, 0.25, 2000), nodes).gpuSlots, std::vector<int>{0});
        QCOMPARE(place(request(1, 1, 4000), nodes).gpuSlots, std::vector<int>{1});
    }

    void gpuMemoryReservationsAddUp() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 64, 1)};
        nodes[0].gpuMemoryTotalMb = {10000};
        const auto r = request(1, 0.25, 4000);
        QList<Placement> placements;
        // Shares would allow four; memory allows two (no sample has been taken yet).
        QCOMPARE(placeMany(nodes, r, 4, &placements), 2);
        const Placement third = place(r, nodes);
        QVERIFY(!third.placed);
        QCOMPARE(third.reason, QStringLiteral("needs 4000 MB of GPU memory free on a card, the "
                                              "most free is 2000 MB on node 'local'"));
        release(nodes, r, placements[0]);
        QCOMPARE(nodes[0].gpuMemoryReservedMb, std::vector<std::int64_t>{4000});
        QVERIFY(place(r, nodes).placed);
        // A sample showing less free than the reservations leave is believed.
        nodes[0].gpuMemoryFreeMb = {3500};
        QVERIFY(!place(r, nodes).placed);
    }

    void lostCardsAreNotOffered() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 64, 2)};
        nodes[0].gpuLost = {true, false};
        QList<Placement> placements;
        QCOMPARE(placeMany(nodes, request(1, 0.5), 4, &placements), 2);
        QCOMPARE(trialsPerCard(placements, 2), (std::vector<int>{0, 2}));
        const Placement whole = place(request(1, 1), nodes);
        QVERIFY(!whole.placed);
        QCOMPARE(whole.reason, QStringLiteral("needs 1 GPU, largest free is 0 GPU on node 'local' "
                                              "(lost GPUs are not offered: GPU-0 on node "
                                              "'local')"));
        // A node that said hello with the card may get it back after a reset: still fits.
        QVERIFY(fitsAnyNode(request(1, 2), {emptyCapacity(nodes[0])}, nullptr));
        QVERIFY(emptyCapacity(nodes[0]).gpuLost.empty());
    }

    void fitsAnyNodeChecksGpuMemoryAgainstCardSizes() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 8, 2), nodeWith("small", 8, 1)};
        nodes[0].gpuMemoryTotalMb = {16384, 16384};
        nodes[1].gpuMemoryTotalMb = {8192};
        QString reason;
        QVERIFY(fitsAnyNode(request(1, 0.5, 16000), nodes, &reason));
        QVERIFY(!fitsAnyNode(request(1, 0.5, 20000), nodes, &reason));
        QCOMPARE(reason, QStringLiteral("no GPU has 20000 MB of memory (gpu_memory_mb; the "
                                        "largest, on node 'local', has 16384 MB)"));
        // A card of unknown size may be large enough.
        nodes[1].gpuMemoryTotalMb.clear();
        QVERIFY(fitsAnyNode(request(1, 0.5, 20000), nodes, &reason));
    }

    void fractionsGoToTheFullestCardThatFits() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 16, 3)};
        nodes[0].gpuUsedMilli = {0, 500, 900};
        const Placement p = place(request(1, 0.25), nodes);
        QVERIFY(p.placed);
        QCOMPARE(p.gpuSlots, std::vector<int>{1});
    }

    void wholeGpusTakeWholeFreeCards() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 16, 4)};
        nodes[0].gpuUsedMilli = {0, 250, 0, 0};
        const Placement p = place(request(1, 2), nodes);
        QVERIFY(p.placed);
        QCOMPARE(p.gpuSlots, (std::vector<int>{0, 2}));
        QCOMPARE(p.gpuMilliPerSlot, kMilliPerUnit);
        reserve(nodes, request(1, 2), p);
        QCOMPARE(nodes[0].gpuUsedMilli, (std::vector<std::int64_t>{1000, 250, 1000, 0}));
        const Placement again = place(request(1, 2), nodes);
        QVERIFY(!again.placed);
        QCOMPARE(again.reason,
                 QStringLiteral("needs 2 GPU, largest free is 1 GPU on node 'local'"));
    }

    void packFillsOneNodeSpreadBalances() {
        std::vector<NodeCapacity> nodes{nodeWith("a", 8, 0), nodeWith("b", 8, 0)};
        nodes[0].cpuUsedMilli = toMilli(6);  // a has 2 free, b has 8
        QCOMPARE(place(request(2, 0), nodes, PlacementStrategy::Pack).nodeId, QStringLiteral("a"));
        QCOMPARE(place(request(2, 0), nodes, PlacementStrategy::Spread).nodeId,
                 QStringLiteral("b"));
        QCOMPARE(place(request(3, 0), nodes, PlacementStrategy::Pack).nodeId, QStringLiteral("b"));
    }

    void deadNodesAreSkipped() {
        std::vector<NodeCapacity> nodes{nodeWith("big", 64, 8, false), nodeWith("small", 4, 0)};
        const Placement p = place(request(2, 0), nodes, PlacementStrategy::Spread);
        QCOMPARE(p.nodeId, QStringLiteral("small"));
        QVERIFY(!place(request(1, 1), nodes).placed);
    }

    void reasonNamesTheLargestFreeNode() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 4, 0)};
        nodes[0].cpuUsedMilli = toMilli(2);
        const Placement p = place(request(4, 0), nodes);
        QVERIFY(!p.placed);
        QCOMPARE(p.reason, QStringLiteral("needs 4 CPU, largest free is 2 CPU on node 'local'"));
        std::vector<NodeCapacity> dead{nodeWith("local", 4, 0, false)};
        QCOMPARE(place(request(1, 0), dead).reason, QStringLiteral("no node is alive"));
    }

    void releaseGivesTheResourcesBack() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 4, 1)};
        const auto r = request(4, 0.5);
        const Placement p = place(r, nodes);
        reserve(nodes, r, p);
        QVERIFY(!place(request(1, 0), nodes).placed);
        release(nodes, r, p);
        QCOMPARE(nodes[0].cpuUsedMilli, std::int64_t(0));
        QCOMPARE(nodes[0].gpuUsedMilli[0], std::int64_t(0));
        QVERIFY(place(r, nodes).placed);
    }

    void gpuRequestAboveOneMustBeWhole() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 4, 4)};
        const Placement p = place(request(1, 1.5), nodes);
        QVERIFY(!p.placed);
        QVERIFY(p.reason.contains(QStringLiteral("whole number")));
    }

    void fitsAnyNodeExplainsTheShortfall() {
        const std::vector<NodeCapacity> nodes{nodeWith("local", 8, 1), nodeWith("cpu-box", 32, 0)};
        QString reason;
        QVERIFY(!fitsAnyNode(request(1, 3), nodes, &reason));
        QCOMPARE(reason, QStringLiteral("no node has 3 GPUs (the largest, 'local', has 1)"));
        QVERIFY(!fitsAnyNode(request(64, 0), nodes, &reason));
        QCOMPARE(reason, QStringLiteral("no node has 64 CPUs (the largest, 'cpu-box', has 32)"));
        QVERIFY(!fitsAnyNode(request(16, 1), nodes, &reason));
        QCOMPARE(reason, QStringLiteral("no node has 16 CPUs and 1 GPU together"));
        QVERIFY(fitsAnyNode(request(8, 0.5), nodes, &reason));
        QVERIFY(fitsAnyNode(request(30, 0), nodes, nullptr));
    }

    void fitsAnyNodeCountsNodesThatAreBusyOrDown() {
        std::vector<NodeCapacity> nodes{nodeWith("local", 8, 2, false)};
        nodes[0].cpuUsedMilli = toMilli(8);
        QVERIFY(fitsAnyNode(request(8, 2), nodes, nullptr));
        QString reason;
        QVERIFY(!fitsAnyNode(request(1, 0), {}, &reason));
        QCOMPARE(reason, QStringLiteral("no nodes are known"));
    }
};

QTEST_GUILESS_MAIN(TestPlacement)
#include "test_placement.moc"
