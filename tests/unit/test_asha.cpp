// The asha scheduler: rung cutoffs as Ray's ASHAScheduler, max_t, brackets, resume, options.
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "core/rng.h"
#include "core/scheduler.h"
#include "scheduler_builders.h"

using namespace tunedeck;
using Action = SchedulerDecision::Action;

namespace {

ExperimentSpec ashaSpec(QJsonObject options, const QString& metric = "acc",
                        MetricMode mode = MetricMode::Max) {
    return schedulerSpec(QStringLiteral("asha"), std::move(options), metric, mode);
}

std::unique_ptr<Scheduler> make(const ExperimentSpec& spec) {
    return makeValidated(spec);
}

Trial trialAt(int index) {
    Trial trial;
    trial.index = index;
    trial.id = trialIdForIndex(index);
    return trial;
}

// Adds trials 0..values.size()-1 and reports values[i] for trial i at `iteration`.
std::vector<Action> reportAll(Scheduler& scheduler, const std::vector<double>& values,
                              int iteration, const QString& metric = "acc") {
    std::vector<Action> actions;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const Trial trial = trialAt(static_cast<int>(i));
        scheduler.onTrialAdd(trial);
        actions.push_back(
            scheduler.onResult(trial, {{"training_iteration", iteration}, {metric, values[i]}})
                .action);
    }
    return actions;
}

const Action C = Action::Continue;
const Action S = Action::Stop;

}  // namespace

class TestAsha : public QObject {
    Q_OBJECT

  private slots:
    void isInTheCatalogue() {
        QVERIFY(knownSchedulers().contains("asha"));
        QVERIFY(make(ashaSpec({})));
    }

    void loneFirstTrialAtARungContinues() {
        auto scheduler = make(ashaSpec({}));
        QCOMPARE(reportAll(*scheduler, {0.01}, 1), std::vector<Action>{C});
    }

    void cutoffIsTheTopQuarterWithReductionFactor4() {
        // Rung 1 of grace 1, rf 4. Cutoffs (75th percentile of the values so far):
        // {} -> none, {1} -> 1, {1,2} -> 1.75, {1,2,3} -> 2.5, {.5,1,2,3} -> 2.25,
        // {.5,1,2,2.6,3} -> 2.6.
        auto scheduler = make(ashaSpec({{"reduction_factor", 4}}));
        QCOMPARE(reportAll(*scheduler, {1, 2, 3, 0.5, 2.6, 2.2}, 1),
                 (std::vector<Action>{C, C, C, S, C, S}));
    }

    void cutoffIsTheMedianWithReductionFactor2() {
        auto scheduler = make(ashaSpec({{"reduction_factor", 2}, {"max_t", 8}}));
        // {10} -> 10; {10,20} -> 15; {10,14,20} -> 14; {10,14,14,20} -> 14
        QCOMPARE(reportAll(*scheduler, {10, 20, 14, 14, 13.9}, 2),
                 (std::vector<Action>{C, C, S, C, S}));
    }

    void modeMinStopsTheHighValues() {
        // The scheduler's own metric and mode override the experiment's.
        auto scheduler = make(ashaSpec({{"metric", "loss"}, {"mode", "min"}}, "acc"));
        // Negated: {-1} -> -1; {-1,-0.5} -> -0.625; {-3,-1,-0.5} -> -0.75
        QCOMPARE(reportAll(*scheduler, {1, 0.5, 3, 0.7}, 1, "loss"),
                 (std::vector<Action>{C, C, S, C}));
    }

    void experimentModeMinIsTheDefault() {
        auto scheduler = make(ashaSpec({}, "loss", MetricMode::Min));
        QCOMPARE(reportAll(*scheduler, {1, 0.5, 3}, 1, "loss"), (std::vector<Action>{C, C, S}));
    }

    void aTrialIsJudgedOncePerRung() {
        auto scheduler = make(ashaSpec({}));
        reportAll(*scheduler, {5, 6, 7}, 1);
        const Trial bad = trialAt(3);
        scheduler->onTrialAdd(bad);
        // Its first result is past rung 1 but short of rung 4: judged at rung 1, stopped.
        QCOMPARE(scheduler->onResult(bad, {{"training_iteration", 2}, {"acc", 0.1}}).action, S);
        // Trial 0 was judged at rung 1 already; iteration 2 and 3 bring no new rung.
        const Trial first = trialAt(0);
        QCOMPARE(scheduler->onResult(first, {{"training_iteration", 3}, {"acc", 0.0}}).action, C);
        // At rung 4 it is the first one there, so it continues.
        QCOMPARE(scheduler->onResult(first, {{"training_iteration", 4}, {"acc", 0.0}}).action, C);
    }

    void reachingMaxTStops() {
        auto scheduler =
            make(ashaSpec({{"max_t", 30}, {"grace_period", 2}, {"reduction_factor", 3}}));
        const Trial trial = trialAt(0);
        scheduler->onTrialAdd(trial);
        QCOMPARE(scheduler->onResult(trial, {{"training_iteration", 29}, {"acc", 1.0}}).action, C);
        const auto decision =
            scheduler->onResult(trial, {{"training_iteration", 30}, {"acc", 1.0}});
        QCOMPARE(decision.action, S);
        QVERIFY2(decision.reason.contains("max_t"), qPrintable(decision.reason));
    }

    // A trial restored from a checkpoint taken at max_t is finished, not run on (issue 16.5).
    void aResultAtMaxTIsTheEnd() {
        auto scheduler = make(ashaSpec({{"max_t", 30}}));
        QCOMPARE(scheduler->endReached({{"training_iteration", 29}, {"acc", 1.0}}), std::nullopt);
        const auto end = scheduler->endReached({{"training_iteration", 30}, {"acc", 1.0}});
        QVERIFY(end && end->contains("max_t"));
        auto runsOn = make(ashaSpec({{"max_t", 30}, {"stop_last_trials", false}}));
        QCOMPARE(runsOn->endReached({{"training_iteration", 30}, {"acc", 1.0}}), std::nullopt);
    }

    // Ray's stop_last_trials=False: a trial that reaches max_t is judged at the top rung and,
    // when it survives, keeps running; true (Ray's default) stops it there.
    void stopLastTrialsFalseLetsSurvivorsPastMaxT() {
        auto scheduler = make(ashaSpec({{"max_t", 4},
                                        {"grace_period", 1},
                                        {"reduction_factor", 2},
                                        {"stop_last_trials", false}}));
        const Trial good = trialAt(0);
        const Trial bad = trialAt(1);
        scheduler->onTrialAdd(good);
        scheduler->onTrialAdd(bad);
        for (int it = 1; it <= 3; ++it) {
            QCOMPARE(scheduler->onResult(good, {{"training_iteration", it}, {"acc", 0.9}}).action,
                     C);
        }
        QCOMPARE(scheduler->onResult(good, {{"training_iteration", 4}, {"acc", 0.9}}).action, C);
        QCOMPARE(scheduler->onResult(good, {{"training_iteration", 9}, {"acc", 0.9}}).action, C);
        // The second trial is below the top rung's cutoff: stopped there like any rung.
        QCOMPARE(scheduler->onResult(bad, {{"training_iteration", 4}, {"acc", 0.1}}).action, S);
    }

    void stopLastTrialsDefaultsToTrue() {
        auto scheduler = make(ashaSpec({{"max_t", 4}, {"stop_last_trials", true}}));
        const Trial trial = trialAt(0);
        scheduler->onTrialAdd(trial);
        QCOMPARE(scheduler->onResult(trial, {{"training_iteration", 4}, {"acc", 1.0}}).action, S);
        auto byDefault = make(ashaSpec({{"max_t", 4}}));
        byDefault->onTrialAdd(trial);
        QCOMPARE(byDefault->onResult(trial, {{"training_iteration", 4}, {"acc", 1.0}}).action, S);
    }

    void resultsWithoutTheMetricAreIgnored() {
        auto scheduler = make(ashaSpec({{"max_t", 5}}));
        const Trial trial = trialAt(0);
        scheduler->onTrialAdd(trial);
        QCOMPARE(scheduler->onResult(trial, {{"training_iteration", 7}}).action, C);
    }

    void bracketsFollowRaySoftmax() {
        // grace 1, rf 4, max_t 100: bracket s has rungs 4^(k+s) below 100, as Ray builds them.
        auto scheduler = make(ashaSpec({{"brackets", 3}}));
        QVERIFY(scheduler);
        std::vector<int> counts(3, 0);
        for (int i = 0; i < 600; ++i) {
            scheduler->onTrialAdd(trialAt(i));
        }
        const QJsonObject trials = scheduler->saveState().value("trials").toObject();
        QCOMPARE(trials.size(), 600);
        for (const QJsonValue& bracket : trials) {
            ++counts.at(static_cast<std::size_t>(bracket.toInt()));
        }
        // softmax(4, 3, 2 rungs) = 0.665, 0.245, 0.090
        QVERIFY2(counts[0] > 340 && counts[0] < 460, qPrintable(QString::number(counts[0])));
        QVERIFY2(counts[1] > 100 && counts[1] < 200, qPrintable(QString::number(counts[1])));
        QVERIFY2(counts[2] > 25 && counts[2] < 85, qPrintable(QString::number(counts[2])));
        const QJsonArray rungs = scheduler->saveState().value("brackets").toArray();
        auto milestones = [&](int b) {
            std::vector<double> out;
            for (const QJsonValue& rung : rungs.at(b).toArray()) {
                out.push_back(rung.toObject().value("milestone").toDouble());
            }
            return out;
        };
        QCOMPARE(milestones(0), (std::vector<double>{64, 16, 4, 1}));
        QCOMPARE(milestones(1), (std::vector<double>{64, 16, 4}));
        QCOMPARE(milestones(2), (std::vector<double>{64, 16}));
    }

    void restoredStateGivesTheSameLaterDecisions() {
        const ExperimentSpec spec =
            ashaSpec({{"brackets", 2}, {"max_t", 27}, {"reduction_factor", 3}});
        auto original = make(spec);
        auto valueOf = [](int trial, int iteration) {
            return Rng::forStream(static_cast<std::uint64_t>(trial),
                                  static_cast<std::uint64_t>(iteration))
                .uniform01();
        };
        std::vector<Trial> trials;
        for (int i = 0; i < 12; ++i) {
            trials.push_back(trialAt(i));
            original->onTrialAdd(trials.back());
        }
        // Results in round-robin order, iterations 1..27; events [from, to) of that sequence.
        auto run = [&](Scheduler& scheduler, int from, int to, std::vector<bool>& stopped) {
            std::vector<Action> actions;
            for (int event = from; event < to; ++event) {
                const int it = event / 12 + 1;
                const auto i = static_cast<std::size_t>(event % 12);
                if (stopped[i]) {
                    continue;
                }
                const QJsonObject result{{"training_iteration", it},
                                         {"acc", valueOf(static_cast<int>(i), it)}};
                const Action a = scheduler.onResult(trials[i], result).action;
                actions.push_back(a);
                if (a == S) {
                    stopped[i] = true;
                    scheduler.onComplete(trials[i], result);
                }
            }
            return actions;
        };
        // Save halfway through rung 3's arrivals.
        const int split = 2 * 12 + 6, end = 27 * 12;
        std::vector<bool> stopped(12, false);
        const auto before = run(*original, 0, split, stopped);
        QVERIFY(std::count(before.begin(), before.end(), S) > 0);
        const QByteArray saved = QJsonDocument(original->saveState()).toJson();

        auto resumed = make(spec);
        QVERIFY(resumed->restoreState(QJsonDocument::fromJson(saved).object()).isOk());
        auto fresh = make(spec);

        std::vector<bool> stoppedA = stopped, stoppedB = stopped, stoppedC = stopped;
        const auto expected = run(*original, split, end, stoppedA);
        QCOMPARE(run(*resumed, split, end, stoppedB), expected);
        QVERIFY(std::count(expected.begin(), expected.end(), S) > 0);
        QCOMPARE(resumed->saveState(), original->saveState());
        // Without the saved rungs the decisions differ, so the comparison above means something.
        QVERIFY(run(*fresh, split, end, stoppedC) != expected);
    }

    void badOptionsAreNamed_data() {
        QTest::addColumn<QJsonObject>("options");
        QTest::addColumn<QString>("metric");
        QTest::addColumn<QString>("badKey");
        QTest::addColumn<QString>("message");
        QTest::newRow("rf 1") << QJsonObject{{"reduction_factor", 1}} << "acc"
                              << "scheduler.reduction_factor"
                              << "greater than 1";
        QTest::newRow("grace > max_t") << QJsonObject{{"grace_period", 20}, {"max_t", 10}} << "acc"
                                       << "scheduler.grace_period"
                                       << "must not exceed max_t";
        QTest::newRow("negative grace") << QJsonObject{{"grace_period", -1}} << "acc"
                                        << "scheduler.grace_period"
                                        << "positive";
        QTest::newRow("negative max_t") << QJsonObject{{"max_t", -5}} << "acc"
                                        << "scheduler.max_t"
                                        << "positive";
        QTest::newRow("max_t text") << QJsonObject{{"max_t", "ten"}} << "acc"
                                    << "scheduler.max_t"
                                    << "must be a number";
        QTest::newRow("time_attr number") << QJsonObject{{"time_attr", 3}} << "acc"
                                          << "scheduler.time_attr"
                                          << "must be a string";
        QTest::newRow("brackets 0") << QJsonObject{{"brackets", 0}} << "acc"
                                    << "scheduler.brackets"
                                    << "at least 1";
        QTest::newRow("brackets 1.5") << QJsonObject{{"brackets", 1.5}} << "acc"
                                      << "scheduler.brackets"
                                      << "whole number";
        QTest::newRow("mode") << QJsonObject{{"mode", "up"}} << "acc"
                              << "scheduler.mode"
                              << "'min' or 'max'";
        QTest::newRow("no metric") << QJsonObject{} << ""
                                   << "scheduler.metric"
                                   << "needs a metric";
        QTest::newRow("stop_last_trials text") << QJsonObject{{"stop_last_trials", "no"}} << "acc"
                                               << "scheduler.stop_last_trials"
                                               << "must be true or false";
        QTest::newRow("unknown") << QJsonObject{{"eta", 3}} << "acc"
                                 << "scheduler.eta"
                                 << "unknown option 'eta'";
    }

    void badOptionsAreNamed() {
        QFETCH(QJsonObject, options);
        QFETCH(QString, metric);
        QFETCH(QString, badKey);
        QFETCH(QString, message);
        QString key;
        const Status status = validateScheduler(ashaSpec(options, metric), &key);
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QCOMPARE(key, badKey);
        QVERIFY2(status.message().contains(message), qPrintable(status.message()));
    }

    void goodOptionsPass() {
        QVERIFY(validateScheduler(ashaSpec({{"time_attr", "time_total_s"},
                                            {"max_t", 30},
                                            {"grace_period", 2},
                                            {"reduction_factor", 3},
                                            {"brackets", 2},
                                            {"mode", "min"}}),
                                  nullptr)
                    .isOk());
        QVERIFY(validateScheduler(ashaSpec({{"metric", "loss"}}, ""), nullptr).isOk());
    }
};

QTEST_GUILESS_MAIN(TestAsha)
#include "test_asha.moc"
