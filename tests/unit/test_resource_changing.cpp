// Resources that follow the promising trials: which running trials get more (or fewer) workers
// when slots free up, with scripted scores.
#include <QTest>

#include "core/resource_changing.h"
#include "core/resource_changing_scheduler.h"

using namespace tunedeck;

namespace {

SizedTrial trial(const QString& id, int workers, std::optional<double> score) {
    return SizedTrial{id, workers, score};
}

int sizeOf(const std::vector<ResourceChange>& changes, const QString& id, int unchanged) {
    for (const ResourceChange& c : changes) {
        if (c.trialId == id) {
            return c.toWorkers;
        }
    }
    return unchanged;
}

// An experiment of `resource_changing` over fifo, maximising `score`.
ExperimentSpec resourceChangingSpec(int minIterations) {
    ExperimentSpec spec;
    spec.metric = QStringLiteral("score");
    spec.mode = MetricMode::Max;
    spec.scheduler.name = QStringLiteral("resource_changing");
    spec.scheduler.options = {{"base", "fifo"}, {"min_iterations", minIterations}};
    return spec;
}

Trial runningTrial(const QString& id, int workers) {
    Trial t;
    t.id = id;
    t.status = TrialStatus::Running;
    t.workers = workers;
    return t;
}

SchedulerDecision report(Scheduler& scheduler, const Trial& t, int iteration, double score) {
    return scheduler.onResult(t, {{"training_iteration", iteration}, {"score", score}});
}

}  // namespace

class TestResourceChanging : public QObject {
    Q_OBJECT

  private slots:
    void freeSlotsAreDividedEvenlyTheRemainderToTheBest() {
        const std::vector<SizedTrial> running = {trial("t0", 1, 0.5), trial("t1", 1, 0.9),
                                                 trial("t2", 1, 0.7)};
        const auto changes =
            planResourceChanges(running, 8, 1, ResourcePolicy::Distribute, MetricMode::Max);
        QCOMPARE(sizeOf(changes, "t1", 1), 3);  // best: 2 each + 1 of the remainder 2
        QCOMPARE(sizeOf(changes, "t2", 1), 3);
        QCOMPARE(sizeOf(changes, "t0", 1), 2);
    }

    void topGivesTheBestTrialEverySpareSlot() {
        const std::vector<SizedTrial> running = {trial("t0", 1, 3.0), trial("t1", 1, 1.0)};
        const auto changes =
            planResourceChanges(running, 6, 1, ResourcePolicy::Top, MetricMode::Min);
        QCOMPARE(changes.size(), std::size_t(1));
        QCOMPARE(changes[0].trialId, QStringLiteral("t1"));  // min mode: 1.0 is best
        QCOMPARE(changes[0].toWorkers, 5);
        QCOMPARE(changes[0].reason,
                 QStringLiteral("1 workers -> 5 (rank 1 of 2 running trials, 6 slots, top)"));
    }

    // When the cluster shrinks or a new trial arrives, the leader gives its extra workers back.
    void aLeaderShrinksWhenTheSlotsAreNeeded() {
        const std::vector<SizedTrial> running = {trial("t0", 4, 0.9), trial("t1", 1, 0.1),
                                                 trial("t2", 1, std::nullopt)};
        const auto changes =
            planResourceChanges(running, 6, 1, ResourcePolicy::Distribute, MetricMode::Max);
        QCOMPARE(sizeOf(changes, "t0", 4), 2);
        QCOMPARE(sizeOf(changes, "t1", 1), 2);
        QCOMPARE(sizeOf(changes, "t2", 1), 2);
    }

    void theTotalNeverExceedsTheSlots() {
        std::vector<SizedTrial> running;
        for (int i = 0; i < 7; ++i) {
            running.push_back(trial(QStringLiteral("t%1").arg(i), 2, double(i)));
        }
        for (const ResourcePolicy policy : {ResourcePolicy::Distribute, ResourcePolicy::Top}) {
            const auto changes = planResourceChanges(running, 23, 2, policy, MetricMode::Max);
            int total = 0;
            for (const SizedTrial& t : running) {
                total += sizeOf(changes, t.id, t.workers);
            }
            QCOMPARE(total, 23);
        }
    }

    void tooFewSlotsForTheBaseChangesNothing() {
        const std::vector<SizedTrial> running = {trial("t0", 2, 1.0), trial("t1", 2, 2.0)};
        QVERIFY(planResourceChanges(running, 3, 2, ResourcePolicy::Distribute, MetricMode::Max)
                    .empty());
        QVERIFY(planResourceChanges({}, 8, 1, ResourcePolicy::Top, MetricMode::Max).empty());
    }

    // The scheduler over the policy, with scripted results: a trial changes size only after
    // min_iterations of its results, into free slots, and the change is a pause with the size.
    void theSchedulerResizesOnlyAfterMinIterationsIntoFreeSlots() {
        std::unique_ptr<Scheduler> scheduler = makeScheduler(resourceChangingSpec(3));
        QVERIFY(scheduler);
        scheduler->onWorkerSlots(4);
        const Trial a = runningTrial("t0", 1);
        const Trial b = runningTrial("t1", 1);
        for (int i = 1; i <= 2; ++i) {
            QCOMPARE(report(*scheduler, a, i, 0.9).action, SchedulerDecision::Action::Continue);
            QCOMPARE(report(*scheduler, b, i, 0.1).action, SchedulerDecision::Action::Continue);
        }
        const SchedulerDecision grow = report(*scheduler, a, 3, 0.9);
        QCOMPARE(grow.action, SchedulerDecision::Action::Pause);
        QCOMPARE(grow.workers, 2);  // 4 slots, 2 trials: 2 each
        QVERIFY2(grow.reason.startsWith("resource_changing: 1 workers -> 2"),
                 qPrintable(grow.reason));
        // t0 comes back with 2: t1 may grow to 2 as well, never past the 4 slots.
        const SchedulerDecision second = report(*scheduler, b, 3, 0.1);
        QCOMPARE(second.workers, 2);
    }

    void waitingTrialsKeepTheirBaseSlots() {
        std::unique_ptr<Scheduler> scheduler = makeScheduler(resourceChangingSpec(1));
        scheduler->onWorkerSlots(4);
        scheduler->onTrialsWaiting(2);  // two trials wait for 1 slot each: 2 left to share
        const Trial a = runningTrial("t0", 3);
        const SchedulerDecision shrink = report(*scheduler, a, 1, 0.5);
        QCOMPARE(shrink.action, SchedulerDecision::Action::Pause);
        QCOMPARE(shrink.workers, 2);  // gives a slot back for the waiting ones
    }

    void nothingChangesWhenTheSizesAreRightAlready() {
        const std::vector<SizedTrial> running = {trial("t0", 2, 1.0), trial("t1", 2, 2.0)};
        QVERIFY(planResourceChanges(running, 4, 1, ResourcePolicy::Distribute, MetricMode::Max)
                    .empty());
    }
};

QTEST_APPLESS_MAIN(TestResourceChanging)
#include "test_resource_changing.moc"
