// Placement of trials on node CPUs and GPUs, including shared (fractional) GPUs.
#include <QTest>

#include "core/placement.h"

using namespace tunedeck;

namespace {

NodeCapacity node(const QString& id, double cpus, int gpus, bool alive = true) {
    NodeCapacity n;
    n.nodeId = id;
    n.alive = alive;
    n.cpuTotalMilli = toMilli(cpus);
    n.gpuUsedMilli.assign(static_cast<std::size_t>(gpus), 0);
    for (int i = 0; i < gpus; ++i) {
        n.gpuIds.push_back(QStringLiteral("GPU-%1").arg(i));
    }
    return n;
}

ResourceRequest request(double cpu, double gpu) {
    ResourceRequest r;
    r.cpu = cpu;
    r.gpu = gpu;
    return r;
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
        std::vector<NodeCapacity> nodes{node("local", 16, 1)};
        QList<Placement> placements;
        QCOMPARE(placeMany(nodes, request(1, 0.25), 5, &placements), 4);
        for (const auto& p : placements) {
            QCOMPARE(p.gpuSlots, std::vector<int>{0});
            QCOMPARE(p.gpuMilliPerSlot, std::int64_t(250));
        }
        QCOMPARE(nodes[0].gpuUsedMilli[0], kMilliPerUnit);
    }

    void sixFifteenPercentSharesFitAndASeventhDoesNot() {
        std::vector<NodeCapacity> nodes{node("local", 16, 1)};
        QCOMPARE(placeMany(nodes, request(1, 0.15), 6), 6);
        const Placement seventh = place(request(1, 0.15), nodes);
        QVERIFY(!seventh.placed);
        QCOMPARE(seventh.reason,
                 QStringLiteral("needs 0.15 GPU, largest free on one card is 0.1 GPU on node "
                                "'local'"));
    }

    void fractionsGoToTheFullestCardThatFits() {
        std::vector<NodeCapacity> nodes{node("local", 16, 3)};
        nodes[0].gpuUsedMilli = {0, 500, 900};
        const Placement p = place(request(1, 0.25), nodes);
        QVERIFY(p.placed);
        QCOMPARE(p.gpuSlots, std::vector<int>{1});
    }

    void wholeGpusTakeWholeFreeCards() {
        std::vector<NodeCapacity> nodes{node("local", 16, 4)};
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
        std::vector<NodeCapacity> nodes{node("a", 8, 0), node("b", 8, 0)};
        nodes[0].cpuUsedMilli = toMilli(6);  // a has 2 free, b has 8
        QCOMPARE(place(request(2, 0), nodes, PlacementStrategy::Pack).nodeId, QStringLiteral("a"));
        QCOMPARE(place(request(2, 0), nodes, PlacementStrategy::Spread).nodeId,
                 QStringLiteral("b"));
        QCOMPARE(place(request(3, 0), nodes, PlacementStrategy::Pack).nodeId, QStringLiteral("b"));
    }

    void deadNodesAreSkipped() {
        std::vector<NodeCapacity> nodes{node("big", 64, 8, false), node("small", 4, 0)};
        const Placement p = place(request(2, 0), nodes, PlacementStrategy::Spread);
        QCOMPARE(p.nodeId, QStringLiteral("small"));
        QVERIFY(!place(request(1, 1), nodes).placed);
    }

    void reasonNamesTheLargestFreeNode() {
        std::vector<NodeCapacity> nodes{node("local", 4, 0)};
        nodes[0].cpuUsedMilli = toMilli(2);
        const Placement p = place(request(4, 0), nodes);
        QVERIFY(!p.placed);
        QCOMPARE(p.reason, QStringLiteral("needs 4 CPU, largest free is 2 CPU on node 'local'"));
        std::vector<NodeCapacity> dead{node("local", 4, 0, false)};
        QCOMPARE(place(request(1, 0), dead).reason, QStringLiteral("no node is alive"));
    }

    void releaseGivesTheResourcesBack() {
        std::vector<NodeCapacity> nodes{node("local", 4, 1)};
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
        std::vector<NodeCapacity> nodes{node("local", 4, 4)};
        const Placement p = place(request(1, 1.5), nodes);
        QVERIFY(!p.placed);
        QVERIFY(p.reason.contains(QStringLiteral("whole number")));
    }

    void fitsAnyNodeExplainsTheShortfall() {
        const std::vector<NodeCapacity> nodes{node("local", 8, 1), node("cpu-box", 32, 0)};
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
        std::vector<NodeCapacity> nodes{node("local", 8, 2, false)};
        nodes[0].cpuUsedMilli = toMilli(8);
        QVERIFY(fitsAnyNode(request(8, 2), nodes, nullptr));
        QString reason;
        QVERIFY(!fitsAnyNode(request(1, 0), {}, &reason));
        QCOMPARE(reason, QStringLiteral("no nodes are known"));
    }
};

QTEST_GUILESS_MAIN(TestPlacement)
#include "test_placement.moc"
