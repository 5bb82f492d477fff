// The FIFO scheduler, scheduler validation, and the experiment's own stop criteria.
#include <QTest>

#include "core/scheduler.h"

using namespace tunedeck;

class TestScheduler : public QObject {
    Q_OBJECT

  private slots:
    void knownNames() {
        QCOMPARE(knownSchedulers(), (QStringList{"fifo", "asha", "median", "hyperband", "pbt",
                                                 "pb2", "pbt_replay", "resource_changing"}));
    }

    void fifoLetsEveryTrialContinue() {
        ExperimentSpec spec;
        QVERIFY(validateScheduler(spec, nullptr).isOk());
        auto scheduler = makeScheduler(spec);
        QVERIFY(scheduler);
        Trial trial;
        trial.id = trialIdForIndex(0);
        scheduler->onTrialAdd(trial);
        for (int i = 1; i <= 50; ++i) {
            const auto decision = scheduler->onResult(
                trial, QJsonObject{{"training_iteration", i}, {"loss", 100.0 / i}});
            QCOMPARE(decision.action, SchedulerDecision::Action::Continue);
        }
    }

    void fifoRunsTheFirstPendingTrialThenThePausedOnes() {
        auto scheduler = makeScheduler(ExperimentSpec{});
        Trial a, b, c;
        a.id = "t00003";
        b.id = "t00004";
        c.id = "t00005";
        b.status = TrialStatus::Paused;
        QCOMPARE(scheduler->chooseTrialToRun({&a, &b, &c}), std::optional<QString>("t00003"));
        // As Ray's FIFOScheduler: a PENDING trial before a PAUSED one (a trial that paused to
        // give way does not take its slot straight back).
        QCOMPARE(scheduler->chooseTrialToRun({&b, &c}), std::optional<QString>("t00005"));
        QCOMPARE(scheduler->chooseTrialToRun({&b}), std::optional<QString>("t00004"));
        QCOMPARE(scheduler->chooseTrialToRun({}), std::nullopt);
    }

    void unknownSchedulerListsTheKnownOnes() {
        ExperimentSpec spec;
        spec.scheduler.name = "hyperband_plus";
        QString badKey;
        const Status status = validateScheduler(spec, &badKey);
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QCOMPARE(badKey, QStringLiteral("scheduler.type"));
        QCOMPARE(status.message(),
                 QStringLiteral("unknown scheduler 'hyperband_plus'; known schedulers: fifo, asha, "
                                "median, hyperband, pbt, pb2, pbt_replay, resource_changing"));
        QVERIFY(!makeScheduler(spec));
    }

    void unknownOptionIsNamed() {
        ExperimentSpec spec;
        spec.scheduler.options.insert("grace_period", 3);
        QString badKey;
        const Status status = validateScheduler(spec, &badKey);
        QVERIFY(!status.isOk());
        QCOMPARE(badKey, QStringLiteral("scheduler.grace_period"));
        QVERIFY(status.message().contains(QStringLiteral("'grace_period'")));
    }

    void stopOnTrainingIteration() {
        StopCriteria stop;
        stop.trainingIteration = 10;
        QCOMPARE(stopReason(stop, {{"training_iteration", 9}}), std::nullopt);
        QCOMPARE(stopReason(stop, {{"training_iteration", 10}}),
                 std::optional<QString>("training_iteration >= 10"));
        QCOMPARE(stopReason(stop, {{"training_iteration", 11}}),
                 std::optional<QString>("training_iteration >= 10"));
        QCOMPARE(stopReason(stop, {{"loss", 1}}), std::nullopt);
    }

    void stopOnTimeTotal() {
        StopCriteria stop;
        stop.timeTotalS = 60;
        QCOMPARE(stopReason(stop, {{"time_total_s", 59.9}}), std::nullopt);
        QCOMPARE(stopReason(stop, {{"time_total_s", 60.5}}),
                 std::optional<QString>("time_total_s >= 60"));
    }

    void stopOnMetricThresholdsInBothDirections() {
        StopCriteria stop;
        stop.thresholds = {{"accuracy", 0.98, true}, {"loss", 0.1, false}};
        QCOMPARE(stopReason(stop, {{"accuracy", 0.97}, {"loss", 0.5}}), std::nullopt);
        QCOMPARE(stopReason(stop, {{"accuracy", 0.98}, {"loss", 0.5}}),
                 std::optional<QString>("accuracy >= 0.98"));
        QCOMPARE(stopReason(stop, {{"accuracy", 0.5}, {"loss", 0.05}}),
                 std::optional<QString>("loss <= 0.1"));
        QCOMPARE(stopReason(stop, {{"accuracy", "high"}}), std::nullopt);
        QCOMPARE(stopReason(stop, {}), std::nullopt);
    }

    // Ray's function trainables finish with report({..., "done": True}) (issue 16.6).
    void aResultSayingDoneStops() {
        const StopCriteria none;
        QCOMPARE(stopReason(none, {{"loss", 1}, {"done", true}}),
                 std::optional<QString>("the trial reported done"));
        QCOMPARE(stopReason(none, {{"done", 1}}),
                 std::optional<QString>("the trial reported done"));
        QCOMPARE(stopReason(none, {{"done", false}}), std::nullopt);
        QCOMPARE(stopReason(none, {{"done", 0}}), std::nullopt);
    }

    void noCriteriaNeverStops() {
        StopCriteria stop;
        QVERIFY(stop.isEmpty());
        QCOMPARE(stopReason(stop, {{"training_iteration", 1000000}}), std::nullopt);
    }
};

QTEST_GUILESS_MAIN(TestScheduler)
#include "test_scheduler.moc"
