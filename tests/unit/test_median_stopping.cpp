// The median stopping rule: grace period, min_samples_required, stop vs pause, both modes,
// resume, options; scripted results in, decisions out, as Ray's MedianStoppingRule.
#include <QJsonDocument>
#include <QTest>

#include "core/scheduler.h"
#include "scheduler_builders.h"

using namespace tunedeck;
using Action = SchedulerDecision::Action;

namespace {

ExperimentSpec medianSpec(QJsonObject options, const QString& metric = "acc",
                          MetricMode mode = MetricMode::Max) {
    return schedulerSpec(QStringLiteral("median"), std::move(options), metric, mode);
}

std::unique_ptr<Scheduler> make(const ExperimentSpec& spec) {
    return makeValidated(spec);
}

Trial trialAt(int index) {
    Trial trial;
    trial.index = index;
    trial.id = trialIdForIndex(index);
    trial.status = TrialStatus::Running;
    return trial;
}

Action report(Scheduler& scheduler, int trial, double time, double value,
              const QString& metric = "acc") {
    return scheduler.onResult(trialAt(trial), {{"time_total_s", time}, {metric, value}}).action;
}

// Trials 1..count report `value` at times 60, 70, 80.
void othersReport(Scheduler& scheduler, int count, double value, const QString& metric = "acc") {
    for (int trial = 1; trial <= count; ++trial) {
        for (double time : {60.0, 70.0, 80.0}) {
            report(scheduler, trial, time, value, metric);
        }
    }
}

}  // namespace

class TestMedianStopping : public QObject {
    Q_OBJECT

  private slots:
    void isInTheCatalogue() {
        QVERIFY(knownSchedulers().contains("median"));
        QVERIFY(make(medianSpec({})));
    }

    void gracePeriodIsRespected() {
        auto scheduler = make(medianSpec({}));
        othersReport(*scheduler, 3, 0.9);
        QCOMPARE(report(*scheduler, 0, 10, 0.1), Action::Continue);
        QCOMPARE(report(*scheduler, 0, 59.9, 0.1), Action::Continue);
        QCOMPARE(report(*scheduler, 0, 60, 0.1), Action::Stop);
    }

    void noGiveWayPauseBeforeTheGracePeriod() {
        auto scheduler = make(medianSpec({}));
        scheduler->onTrialsWaiting(1);
        QCOMPARE(report(*scheduler, 0, 10, 0.5), Action::Continue);
        QCOMPARE(report(*scheduler, 0, 60, 0.5), Action::Pause);  // too few samples: give way
        // ... which judges nothing: a trial that cannot keep its progress goes on instead.
        QVERIFY(scheduler->onResult(trialAt(0), {{"time_total_s", 61}, {"acc", 0.5}}).yields);
    }

    void shorterGracePeriodStopsSooner() {
        auto scheduler = make(medianSpec({{"grace_period", 5}}));
        for (int trial = 1; trial <= 3; ++trial) {
            report(*scheduler, trial, 5, 0.9);
            report(*scheduler, trial, 15, 0.9);
        }
        QCOMPARE(report(*scheduler, 0, 4, 0.1), Action::Continue);
        QCOMPARE(report(*scheduler, 0, 10, 0.1), Action::Stop);
    }

    void minSamplesRequiredIsRespected() {
        auto scheduler = make(medianSpec({}));
        othersReport(*scheduler, 2, 0.9);
        QCOMPARE(report(*scheduler, 0, 60, 0.1), Action::Continue);  // 2 others, need 3
        othersReport(*scheduler, 3, 0.9);                            // trial 3 joins
        QCOMPARE(report(*scheduler, 0, 70, 0.1), Action::Stop);
    }

    void minSamplesRequiredCanBeLowered() {
        auto scheduler = make(medianSpec({{"min_samples_required", 1}}));
        othersReport(*scheduler, 1, 0.9);
        QCOMPARE(report(*scheduler, 0, 60, 0.1), Action::Stop);
    }

    void onlyTrialsThatGotAsFarCount() {
        auto scheduler = make(medianSpec({}));
        othersReport(*scheduler, 3, 0.9);
        // At 90 no other trial has got that far: too few samples, the trial continues.
        QCOMPARE(report(*scheduler, 0, 90, 0.1), Action::Continue);
    }

    void runningAveragesStopAtTheTrialsTime() {
        auto scheduler = make(medianSpec({}));
        for (int trial = 1; trial <= 3; ++trial) {
            report(*scheduler, trial, 60, 0.2);
            report(*scheduler, trial, 100, 1.0);
        }
        // Others' average up to 70 is 0.2 (not 0.6 over all their results).
        QCOMPARE(report(*scheduler, 0, 70, 0.5), Action::Continue);
    }

    void theBestResultSoFarCounts() {
        auto scheduler = make(medianSpec({}));
        othersReport(*scheduler, 3, 0.5);
        QCOMPARE(report(*scheduler, 0, 60, 0.95), Action::Continue);
        QCOMPARE(report(*scheduler, 0, 70, 0.1), Action::Continue);  // best is still 0.95
    }

    void hardStopFalsePausesOnceThenLetsItRun() {
        auto scheduler = make(medianSpec({{"hard_stop", false}}));
        othersReport(*scheduler, 3, 0.9);
        const auto decision = scheduler->onResult(trialAt(0), {{"time_total_s", 60}, {"acc", 0.1}});
        QCOMPARE(decision.action, Action::Pause);
        QVERIFY(!decision.yields);  // a verdict: carried out whatever the trial loses
        QVERIFY2(decision.reason.contains("median"), qPrintable(decision.reason));
        QCOMPARE(report(*scheduler, 0, 70, 0.1), Action::Continue);  // resumed: runs to the end
    }

    void hardStopStopsWithAReason() {
        auto scheduler = make(medianSpec({{"hard_stop", true}}));
        othersReport(*scheduler, 3, 0.9);
        const auto decision = scheduler->onResult(trialAt(0), {{"time_total_s", 60}, {"acc", 0.1}});
        QCOMPARE(decision.action, Action::Stop);
        QVERIFY2(decision.reason.contains("0.9"), qPrintable(decision.reason));
    }

    void modeMinStopsHighLosses() {
        auto scheduler = make(medianSpec({}, "loss", MetricMode::Min));
        othersReport(*scheduler, 3, 0.2, "loss");
        QCOMPARE(report(*scheduler, 0, 60, 0.1, "loss"), Action::Continue);
        QCOMPARE(report(*scheduler, 4, 60, 0.9, "loss"), Action::Stop);
    }

    void modeMaxStopsLowValuesAndEqualIsNotWorse() {
        auto scheduler =
            make(medianSpec({{"metric", "acc"}, {"mode", "max"}}, "loss", MetricMode::Min));
        othersReport(*scheduler, 3, 0.5);
        QCOMPARE(report(*scheduler, 0, 60, 0.5), Action::Continue);
        QCOMPARE(report(*scheduler, 4, 60, 0.9), Action::Continue);
        QCOMPARE(report(*scheduler, 5, 60, 0.4), Action::Stop);
    }

    void tooFewSamplesGivesWayToWaitingTrials() {
        auto scheduler = make(medianSpec({{"min_time_slice", 10}}));
        othersReport(*scheduler, 1, 0.9);
        // The loop tells it one trial waits.
        scheduler->onTrialsWaiting(1);
        QCOMPARE(report(*scheduler, 0, 60, 0.95), Action::Pause);
        QCOMPARE(report(*scheduler, 0, 65, 0.95), Action::Continue);  // within min_time_slice
        QCOMPARE(report(*scheduler, 0, 71, 0.95), Action::Pause);
        // Once nothing waits any more, it keeps running.
        scheduler->onTrialsWaiting(0);
        QCOMPARE(report(*scheduler, 0, 90, 0.95), Action::Continue);
    }

    void restoredStateGivesTheSameLaterDecisions() {
        const ExperimentSpec spec = medianSpec({{"grace_period", 3}, {"hard_stop", false}});
        auto original = make(spec);
        auto valueOf = [](int trial, int time) {
            // Later trials are worse, with some noise, so some get paused before the save.
            return (7 - trial) * 0.1 + ((trial * 7919 + time * 104729) % 1000) / 50000.0;
        };
        auto run = [&](Scheduler& scheduler, int from, int to) {
            std::vector<Action> actions;
            for (int time = from; time <= to; ++time) {
                for (int trial = 0; trial < 8; ++trial) {
                    actions.push_back(report(scheduler, trial, time, valueOf(trial, time)));
                }
            }
            return actions;
        };
        const auto before = run(*original, 1, 6);
        QVERIFY(std::count(before.begin(), before.end(), Action::Pause) > 0);
        const QByteArray saved = QJsonDocument(original->saveState()).toJson();
        auto resumed = make(spec);
        QVERIFY(resumed->restoreState(QJsonDocument::fromJson(saved).object()).isOk());
        auto fresh = make(spec);
        const auto expected = run(*original, 7, 20);
        QCOMPARE(run(*resumed, 7, 20), expected);
        QCOMPARE(resumed->saveState(), original->saveState());
        QVERIFY(run(*fresh, 7, 20) != expected);
    }

    void badOptionsAreNamed_data() {
        QTest::addColumn<QJsonObject>("options");
        QTest::addColumn<QString>("metric");
        QTest::addColumn<QString>("badKey");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative grace") << QJsonObject{{"grace_period", -1}} << "acc"
                                        << "scheduler.grace_period"
                                        << "negative";
        QTest::newRow("grace text") << QJsonObject{{"grace_period", "1m"}} << "acc"
                                    << "scheduler.grace_period"
                                    << "must be a number";
        QTest::newRow("negative slice") << QJsonObject{{"min_time_slice", -2}} << "acc"
                                        << "scheduler.min_time_slice"
                                        << "negative";
        QTest::newRow("samples 2.5") << QJsonObject{{"min_samples_required", 2.5}} << "acc"
                                     << "scheduler.min_samples_required"
                                     << "whole number";
        QTest::newRow("hard_stop text") << QJsonObject{{"hard_stop", "yes"}} << "acc"
                                        << "scheduler.hard_stop"
                                        << "true or false";
        QTest::newRow("time_attr number") << QJsonObject{{"time_attr", 1}} << "acc"
                                          << "scheduler.time_attr"
                                          << "must be a string";
        QTest::newRow("mode") << QJsonObject{{"mode", "best"}} << "acc"
                              << "scheduler.mode"
                              << "'min' or 'max'";
        QTest::newRow("no metric") << QJsonObject{} << ""
                                   << "scheduler.metric"
                                   << "needs a metric";
        QTest::newRow("unknown") << QJsonObject{{"max_t", 3}} << "acc"
                                 << "scheduler.max_t"
                                 << "unknown option 'max_t'";
    }

    void badOptionsAreNamed() {
        QFETCH(QJsonObject, options);
        QFETCH(QString, metric);
        QFETCH(QString, badKey);
        QFETCH(QString, message);
        QString key;
        const Status status = validateScheduler(medianSpec(options, metric), &key);
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QCOMPARE(key, badKey);
        QVERIFY2(status.message().contains(message), qPrintable(status.message()));
    }
};

QTEST_GUILESS_MAIN(TestMedianStopping)
#include "test_median_stopping.moc"
