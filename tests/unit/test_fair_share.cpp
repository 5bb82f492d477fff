// Several experiments sharing one engine's nodes: priority, fair share (dominant resource
// fairness), user quotas, backfill into gaps, and no starvation; with why each one waits.
#include <QTest>
#include <algorithm>
#include <cmath>

#include "core/fair_share.h"
#include "node_builders.h"

using namespace tunedeck;

namespace {

SharedExperiment experiment(const QString& id, const QString& user, double cpu, double gpu,
                            int waiting, int priority = 0, double waitingSinceS = 0) {
    SharedExperiment e;
    e.id = id;
    e.user = user;
    e.request.cpu = cpu;
    e.request.gpu = gpu;
    e.waiting = waiting;
    e.priority = priority;
    e.waitingSinceS = waitingSinceS;
    return e;
}

int granted(const SharePlan& plan, const QString& id) {
    return int(std::count_if(plan.grants.begin(), plan.grants.end(),
                             [&](const SlotGrant& g) { return g.experimentId == id; }));
}

QString whyWaits(const SharePlan& plan, const QString& id) {
    for (const ShareWait& w : plan.waits) {
        if (w.experimentId == id) {
            return w.why;
        }
    }
    return QStringLiteral("(not waiting)");
}

}  // namespace

class TestFairShare : public QObject {
    Q_OBJECT

  private slots:
    void aHigherPriorityIsServedFirst() {
        const SharePlan plan = allocateSlots(
            {experiment("low", "bob", 1, 0, 4, 0), experiment("high", "alice", 1, 0, 4, 1)},
            {nodeWith("a", 4)}, {}, 0);
        QCOMPARE(granted(plan, "high"), 4);
        QCOMPARE(granted(plan, "low"), 0);
        QVERIFY2(whyWaits(plan, "low").startsWith(QStringLiteral("waiting for resources")),
                 qPrintable(whyWaits(plan, "low")));
    }

    void equalPrioritiesShareTheNodes() {
        const SharePlan plan =
            allocateSlots({experiment("a", "alice", 1, 0, 10), experiment("b", "bob", 1, 0, 10)},
                          {nodeWith("n", 4)}, {}, 0);
        QCOMPARE(granted(plan, "a"), 2);
        QCOMPARE(granted(plan, "b"), 2);
    }

    // Dominant resource fairness: a GPU trial counts by its share of the GPUs, so the CPU-only
    // experiment is not starved by it, nor does it starve it.
    void aGpuHeavyAndACpuHeavyExperimentBothProgress() {
        const SharePlan plan = allocateSlots(
            {experiment("cpu", "alice", 1, 0, 20), experiment("gpu", "bob", 1, 1, 20)},
            {nodeWith("n", 8, 2)}, {}, 0);
        QCOMPARE(granted(plan, "gpu"), 2);
        QCOMPARE(granted(plan, "cpu"), 6);
        QCOMPARE(plan.grants[0].experimentId, QStringLiteral("cpu"));
        QCOMPARE(plan.grants[1].experimentId, QStringLiteral("gpu"));
    }

    void whatRunsAlreadyCountsTowardTheShare() {
        SharedExperiment busy = experiment("busy", "alice", 1, 0, 5);
        busy.running = 3;
        std::vector<NodeCapacity> nodes = {nodeWith("n", 5)};
        nodes[0].cpuUsedMilli = toMilli(3);
        const SharePlan plan =
            allocateSlots({busy, experiment("new", "bob", 1, 0, 5)}, nodes, {}, 0);
        QCOMPARE(granted(plan, "new"), 2);
        QCOMPARE(granted(plan, "busy"), 0);
    }

    void aUserNeverExceedsTheirQuota() {
        SharePolicy policy;
        policy.quotas.insert(QStringLiteral("alice"), UserQuota{2, -1});
        const SharePlan plan =
            allocateSlots({experiment("a1", "alice", 1, 0, 5), experiment("a2", "alice", 1, 0, 5)},
                          {nodeWith("n", 8)}, policy, 0);
        QCOMPARE(granted(plan, "a1") + granted(plan, "a2"), 2);
        QCOMPARE(whyWaits(plan, "a1"),
                 QStringLiteral("quota of user alice reached (2 of 2 CPUs in use)"));
    }

    // The big trial does not fit the gap; small trials of another experiment use it.
    void smallTrialsBackfillAGapTheFirstInLineCannotUse() {
        const SharePlan plan = allocateSlots(
            {experiment("big", "alice", 4, 0, 2, 1, 0), experiment("small", "bob", 1, 0, 5)},
            {nodeWith("n", 3)}, {}, 10);
        QCOMPARE(granted(plan, "small"), 3);
        QCOMPARE(granted(plan, "big"), 0);
    }

    // ... but not forever: once the big one has waited starvationS with nothing running, the
    // gap is kept for it (the small ones drain).
    void anExperimentWaitingTooLongIsNoLongerPassedOver() {
        SharePolicy policy;
        policy.starvationS = 600;
        const SharePlan plan = allocateSlots({experiment("big", "alice", 4, 0, 2, 0, 0),
                                              experiment("small", "bob", 1, 0, 5, 5, 650)},
                                             {nodeWith("n", 3)}, policy, 700);
        QCOMPARE(granted(plan, "small"), 0);
        QCOMPARE(whyWaits(plan, "small"),
                 QStringLiteral("held back: experiment big has waited 700 s and goes first (no "
                                "backfill ahead of it)"));
    }

    // Issue 22's scripted run: experiments of priorities 1 and 3 share 4 CPUs over many steps,
    // trials of 2 steps each, the priority-3 one running at most 3 at once (its searcher's
    // max_concurrent). The policy's shares while both have trials to start: 3 of 4 slots to
    // priority 3, the slot it cannot use backfilled by priority 1, none idle. Measured slot-steps
    // are within 5% of that, and the low one never starves.
    void overARunPrioritiesOneAndThreeGetThePolicysShares() {
        struct Simulated {
            SharedExperiment e;
            int left;  // trials not started yet
            int cap;   // at most this many at once
            std::vector<int> ends;
            double slotSteps = 0;
        };
        std::vector<Simulated> sim = {{experiment("low", "alice", 1, 0, 0, 1), 200, 1000, {}},
                                      {experiment("high", "bob", 1, 0, 0, 3), 60, 3, {}}};
        double measuredSteps = 0;
        for (int step = 0; step < 400 && (sim[0].left > 0 || sim[1].left > 0); ++step) {
            std::vector<NodeCapacity> nodes = {nodeWith("n", 4)};
            std::vector<SharedExperiment> experiments;
            for (Simulated& x : sim) {
                x.ends.erase(std::remove(x.ends.begin(), x.ends.end(), step), x.ends.end());
                x.e.running = int(x.ends.size());
                x.e.waiting = std::min(x.left, x.cap - x.e.running);
                nodes[0].cpuUsedMilli += toMilli(x.e.running);
                experiments.push_back(x.e);
            }
            const SharePlan plan = allocateSlots(experiments, nodes, {}, step);
            for (Simulated& x : sim) {
                const int started = granted(plan, x.e.id);
                x.left -= started;
                for (int i = 0; i < started; ++i) {
                    x.ends.push_back(step + 2);
                }
            }
            if (sim[0].left > 0 && sim[1].left > 0) {  // both still want more
                measuredSteps += 4;
                for (Simulated& x : sim) {
                    x.slotSteps += double(x.ends.size());
                }
            }
        }
        QVERIFY(measuredSteps >= 80);
        const double high = sim[1].slotSteps / measuredSteps;
        const double low = sim[0].slotSteps / measuredSteps;
        QVERIFY2(std::abs(high - 0.75) <= 0.05 && std::abs(low - 0.25) <= 0.05,
                 qPrintable(QStringLiteral("priority 3: %1, priority 1: %2 of the slot-steps")
                                .arg(high)
                                .arg(low)));
        QCOMPARE(sim[0].left + sim[1].left, 0);  // both ran to the end
    }

    void nothingWaitingGrantsNothing() {
        const SharePlan plan =
            allocateSlots({experiment("a", "alice", 1, 0, 0)}, {nodeWith("n", 4)}, {}, 0);
        QVERIFY(plan.grants.empty());
        QVERIFY(plan.waits.empty());
    }
};

QTEST_APPLESS_MAIN(TestFairShare)
#include "test_fair_share.moc"
