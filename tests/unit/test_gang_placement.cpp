// Gangs (a trial of N ranks) placed all or nothing: pack, spread, strict_spread, GPUs and
// fractions, fragmentation, what torchrun would set for each rank, and gangs that never fit.
#include <QTest>

#include "core/gang_placement.h"
#include "node_builders.h"

using namespace tunedeck;

namespace {

ResourceRequest perWorker(double cpu, double gpu = 0) {
    ResourceRequest r;
    r.cpu = cpu;
    r.gpu = gpu;
    return r;
}

QStringList nodesOf(const GangPlacement& gang) {
    QStringList out;
    for (const GangRank& rank : gang.ranks) {
        out << rank.placement.nodeId;
    }
    return out;
}

}  // namespace

class TestGangPlacement : public QObject {
    Q_OBJECT

  private slots:
    void packFillsOneNodeBeforeTheNext() {
        const std::vector<NodeCapacity> nodes = {nodeWith("a", 4), nodeWith("b", 4)};
        const GangPlacement gang = placeGang(perWorker(1), 6, GangStrategy::Pack, nodes);
        QVERIFY(gang.placed);
        QCOMPARE(gang.nodeCount, 2);
        QCOMPARE(nodesOf(gang).count(nodesOf(gang).first()), 4);
    }

    void spreadUsesEveryNode() {
        const std::vector<NodeCapacity> nodes = {nodeWith("a", 4), nodeWith("b", 4)};
        const GangPlacement gang = placeGang(perWorker(1), 4, GangStrategy::Spread, nodes);
        QVERIFY(gang.placed);
        QCOMPARE(nodesOf(gang).count("a"), 2);
        QCOMPARE(nodesOf(gang).count("b"), 2);
    }

    void strictSpreadPutsEveryRankOnItsOwnNode() {
        const std::vector<NodeCapacity> nodes = {nodeWith("a", 8), nodeWith("b", 8),
                                                 nodeWith("c", 8)};
        const GangPlacement gang = placeGang(perWorker(1), 3, GangStrategy::StrictSpread, nodes);
        QVERIFY(gang.placed);
        QCOMPARE(gang.nodeCount, 3);
        const GangPlacement four = placeGang(perWorker(1), 4, GangStrategy::StrictSpread, nodes);
        QVERIFY(!four.placed);
        QVERIFY2(four.reason.startsWith(QStringLiteral("3 of 4 workers (strict_spread) fit now")),
                 qPrintable(four.reason));
    }

    // All or nothing: a gang that does not fit books nothing, and the nodes are left as they were.
    void aGangThatDoesNotFitHoldsNothing() {
        std::vector<NodeCapacity> nodes = {nodeWith("a", 4), nodeWith("b", 2)};
        nodes[1].cpuUsedMilli = toMilli(1);
        const std::vector<NodeCapacity> before = nodes;
        const GangPlacement gang = placeGang(perWorker(2), 3, GangStrategy::Pack, nodes);
        QVERIFY(!gang.placed);
        QVERIFY(gang.ranks.empty());
        QCOMPARE(nodes[0].cpuUsedMilli, before[0].cpuUsedMilli);
        QCOMPARE(nodes[1].cpuUsedMilli, before[1].cpuUsedMilli);
    }

    // Free CPUs in total (3) are enough for 3 one-CPU... but not for 2 two-CPU ranks: fragmented.
    void fragmentedRoomIsNotEnough() {
        std::vector<NodeCapacity> nodes = {nodeWith("a", 2), nodeWith("b", 2)};
        nodes[0].cpuUsedMilli = toMilli(1);
        QVERIFY(placeGang(perWorker(1), 3, GangStrategy::Pack, nodes).placed);
        QVERIFY(!placeGang(perWorker(2), 2, GangStrategy::Pack, nodes).placed);
    }

    void everyRankGetsItsOwnCards() {
        const std::vector<NodeCapacity> nodes = {nodeWith("a", 8, 2), nodeWith("b", 8, 2)};
        const GangPlacement gang = placeGang(perWorker(2, 1), 4, GangStrategy::Pack, nodes);
        QVERIFY(gang.placed);
        QStringList cards;
        for (const GangRank& rank : gang.ranks) {
            QCOMPARE(rank.placement.gpuSlots.size(), std::size_t(1));
            cards << rank.placement.nodeId + QString::number(rank.placement.gpuSlots[0]);
        }
        cards.removeDuplicates();
        QCOMPARE(cards.size(), 4);
        QVERIFY(!placeGang(perWorker(1, 1), 5, GangStrategy::Pack, nodes).placed);
    }

    void fractionalGpusShareCards() {
        const std::vector<NodeCapacity> nodes = {nodeWith("a", 8, 1)};
        QVERIFY(placeGang(perWorker(1, 0.25), 4, GangStrategy::Pack, nodes).placed);
        QVERIFY(!placeGang(perWorker(1, 0.25), 5, GangStrategy::Pack, nodes).placed);
    }

    // What torchrun sets: NODE_RANK by node, LOCAL_RANK within it, LOCAL_WORLD_SIZE per node.
    void ranksAreNumberedAsTorchrunNumbersThem() {
        const std::vector<NodeCapacity> nodes = {nodeWith("a", 2), nodeWith("b", 2)};
        const GangPlacement gang = placeGang(perWorker(1), 3, GangStrategy::Pack, nodes);
        QVERIFY(gang.placed);
        QCOMPARE(gang.ranks[0].rank, 0);
        QCOMPARE(gang.ranks[0].nodeRank, 0);
        QCOMPARE(gang.ranks[0].localRank, 0);
        QCOMPARE(gang.ranks[1].nodeRank, 0);
        QCOMPARE(gang.ranks[1].localRank, 1);
        QCOMPARE(gang.ranks[0].localWorldSize, 2);
        QCOMPARE(gang.ranks[2].nodeRank, 1);
        QCOMPARE(gang.ranks[2].localRank, 0);
        QCOMPARE(gang.ranks[2].localWorldSize, 1);
    }

    void reservingAndReleasingAGangRestoresTheNodes() {
        std::vector<NodeCapacity> nodes = {nodeWith("a", 4, 2), nodeWith("b", 4, 2)};
        const GangPlacement gang = placeGang(perWorker(2, 1), 3, GangStrategy::Spread, nodes);
        QVERIFY(gang.placed);
        reserveGang(nodes, perWorker(2, 1), gang);
        QCOMPARE(nodes[0].cpuUsedMilli + nodes[1].cpuUsedMilli, toMilli(6));
        QVERIFY(!placeGang(perWorker(2, 1), 2, GangStrategy::Pack, nodes).placed);
        releaseGang(nodes, perWorker(2, 1), gang);
        QCOMPARE(nodes[0].cpuUsedMilli + nodes[1].cpuUsedMilli, std::int64_t(0));
        QCOMPARE(nodes[0].gpuUsedMilli, std::vector<std::int64_t>({0, 0}));
    }

    // Refused at validate: busy nodes may free up, too few nodes never will.
    void aGangThatCanNeverFitIsToldApartFromABusyCluster() {
        std::vector<NodeCapacity> nodes = {nodeWith("a", 4), nodeWith("b", 4)};
        nodes[0].cpuUsedMilli = toMilli(4);
        nodes[1].alive = false;
        QString why;
        QVERIFY(gangFitsEver(perWorker(2), 4, GangStrategy::Pack, nodes, &why));
        QVERIFY(!gangFitsEver(perWorker(1), 3, GangStrategy::StrictSpread, nodes, &why));
        QVERIFY2(why.startsWith(QStringLiteral("a gang of 3 workers never fits the 2 nodes")),
                 qPrintable(why));
    }
};

QTEST_APPLESS_MAIN(TestGangPlacement)
#include "test_gang_placement.moc"
