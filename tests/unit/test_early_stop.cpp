// Early stops (core/early_stop.h) read from the reasons the real schedulers give: ASHA's cutoff
// is an early stop at the judged iteration, ASHA's max_t is not; HyperBand's and median
// stopping's reasons name their schedulers; a user's stop or a stop rule is no early stop.
#include <QTest>

#include "core/early_stop.h"
#include "core/scheduler.h"
#include "scheduler_builders.h"

using namespace tunedeck;

namespace {

Trial trialAt(int index) {
    Trial trial;
    trial.index = index;
    trial.id = trialIdForIndex(index);
    return trial;
}

}  // namespace

class TestEarlyStop : public QObject {
    Q_OBJECT
  private slots:
    void ashaCutoffIsAnEarlyStopAndMaxTIsNot() {
        auto asha = makeValidated(
            schedulerSpec("asha", {{"max_t", 6}, {"grace_period", 2}, {"reduction_factor", 2}},
                          "acc", MetricMode::Max));
        QVERIFY(asha);
        const Trial strong = trialAt(0);
        const Trial weak = trialAt(1);
        asha->onTrialAdd(strong);
        asha->onTrialAdd(weak);
        QCOMPARE(asha->onResult(strong, {{"training_iteration", 2}, {"acc", 0.9}}).action,
                 SchedulerDecision::Action::Continue);
        const SchedulerDecision cut =
            asha->onResult(weak, {{"training_iteration", 2}, {"acc", 0.1}});
        QCOMPARE(cut.action, SchedulerDecision::Action::Stop);
        const std::optional<EarlyStop> stop = earlyStopOf(cut.reason, 2);
        QVERIFY2(stop, qPrintable(cut.reason));
        QCOMPARE(earlyStopText(*stop), QStringLiteral("stopped by ASHA at 2"));

        const SchedulerDecision end =
            asha->onResult(strong, {{"training_iteration", 6}, {"acc", 0.95}});
        QCOMPARE(end.action, SchedulerDecision::Action::Stop);
        QVERIFY2(!earlyStopOf(end.reason, 6), qPrintable(end.reason));
    }

    void otherSchedulersAreNamedAsUsersKnowThem() {
        QCOMPARE(earlyStopOf("hyperband: bracket 0 rung 1 (training_iteration = 3): acc = 0.2 "
                             "is not in the top 1/3 (cutoff 0.5)",
                             3)
                     ->scheduler,
                 QStringLiteral("HyperBand"));
        QVERIFY(
            !earlyStopOf("hyperband: bracket 0 reached its last rung (training_iteration = 9)", 9));
        QCOMPARE(earlyStopOf("median: best acc = 0.2 is worse than the median 0.4 of other "
                             "trials' running averages at training_iteration = 5",
                             5)
                     ->scheduler,
                 QStringLiteral("median stopping"));
    }

    void endingsThatAreNotASchedulersAreNoEarlyStop() {
        for (const QString& reason :
             {QStringLiteral("stopped by the user"), QStringLiteral("training_iteration >= 10"),
              QStringLiteral("the trial reported done"), QString()}) {
            QVERIFY2(!earlyStopOf(reason, 4), qPrintable(reason));
        }
    }
};

QTEST_APPLESS_MAIN(TestEarlyStop)
#include "test_early_stop.moc"
