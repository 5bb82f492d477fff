// Non-dominated sorting and crowding distance (core/pareto.h): what `best` prints as the Pareto
// front and how multi-objective searchers rank observations.
#include <QtTest>
#include <cmath>

#include "core/pareto.h"

using namespace tunedeck;

class TestPareto : public QObject {
    Q_OBJECT
  private slots:
    void dominationNeedsOneStrictImprovement() {
        QVERIFY(pareto::dominates({1, 2}, {1, 3}));
        QVERIFY(!pareto::dominates({1, 3}, {1, 3}));  // equal: neither
        QVERIFY(!pareto::dominates({0, 4}, {1, 3}));  // a trade-off
    }

    void frontsAreLayered() {
        // Front 0: (1,4) (2,2) (4,1); front 1: (3,3) (2,5); front 2: (5,5).
        const std::vector<std::vector<double>> points = {{3, 3}, {1, 4}, {2, 2},
                                                         {5, 5}, {4, 1}, {2, 5}};
        const std::vector<int> ranks = pareto::frontRanks(points);
        QCOMPARE(ranks, (std::vector<int>{1, 0, 0, 2, 0, 1}));
    }

    void extremesOfAFrontAreMostCrowdedAway() {
        const std::vector<std::vector<double>> front = {{1, 4}, {2, 2}, {4, 1}};
        const std::vector<double> d = pareto::crowdingDistances(front);
        QVERIFY(std::isinf(d[0]) && std::isinf(d[2]));
        // Middle: (4 - 1) / 3 + (4 - 1) / 3 = 2.
        QCOMPARE(d[1], 2.0);
    }

    void rankOrderIsFrontThenCrowding() {
        const std::vector<std::vector<double>> points = {{3, 3}, {1, 4}, {2, 2},
                                                         {5, 5}, {4, 1}, {2, 5}};
        const std::vector<std::size_t> order = pareto::rankOrder(points);
        QCOMPARE(order.size(), size_t(6));
        // Front 0 first, its extremes before its middle; the dominated (5, 5) last.
        QCOMPARE(order[0], size_t(1));
        QCOMPARE(order[1], size_t(4));
        QCOMPARE(order[2], size_t(2));
        QCOMPARE(order[5], size_t(3));
    }

    void singleObjectiveRankIsASort() {
        const std::vector<std::vector<double>> points = {{3}, {1}, {2}};
        QCOMPARE(pareto::rankOrder(points), (std::vector<std::size_t>{1, 2, 0}));
    }
};

QTEST_GUILESS_MAIN(TestPareto)
#include "test_pareto.moc"
