// pbt-replay: the config schedule of a PBT winner's lineage computed from hand-made exploit
// histories, and the pbt_replay scheduler that makes one trial live that schedule.
#include <QJsonArray>
#include <QTest>

#include "core/pbt_replay.h"
#include "scheduler_builders.h"

using namespace tunedeck;
using Action = SchedulerDecision::Action;

namespace {

QJsonObject lr(double value) {
    return QJsonObject{{"lr", value}};
}

RecordedExploit exploit(std::int64_t id, const QString& trial, std::int64_t iteration,
                        const QString& source, std::int64_t sourceIteration, double oldLr,
                        double newLr) {
    return {id, trial, source, iteration, sourceIteration, lr(oldLr), lr(newLr)};
}

PbtReplaySchedule compute(const QString& trialId, std::int64_t lastIteration,
                          const std::vector<RecordedExploit>& exploits,
                          const QMap<QString, QJsonObject>& configs) {
    PbtReplaySchedule schedule;
    const Status status =
        computePbtReplaySchedule(trialId, lastIteration, exploits, configs, &schedule);
    if (!status.isOk()) {
        qWarning("%s", qPrintable(status.message()));
    }
    return schedule;
}

// "step:lr" for each change, e.g. "4:0.2 7:0.3".
QString changesText(const PbtReplaySchedule& schedule) {
    QStringList parts;
    for (const ReplayChange& change : schedule.changes) {
        parts << QStringLiteral("%1:%2").arg(change.step).arg(change.config.value("lr").toDouble());
    }
    return parts.join(' ');
}

// "t00000(0,4] t00001(4,7]" for the lineage.
QString lineageText(const PbtReplaySchedule& schedule) {
    QStringList parts;
    for (const ReplaySegment& segment : schedule.lineage) {
        parts << QStringLiteral("%1(%2,%3]")
                     .arg(segment.trialId)
                     .arg(segment.fromStep)
                     .arg(segment.toStep);
    }
    return parts.join(' ');
}

ExperimentSpec replaySpec(QJsonObject options) {
    return schedulerSpec(QStringLiteral("pbt_replay"), std::move(options), "score",
                         MetricMode::Max);
}

std::unique_ptr<Scheduler> makeReplay(QJsonObject options) {
    const ExperimentSpec spec = replaySpec(std::move(options));
    const Status status = validatePbtReplayOptions(spec, nullptr);
    if (!status.isOk()) {
        qWarning("%s", qPrintable(status.message()));
        return nullptr;
    }
    return makePbtReplayScheduler(spec);
}

QJsonObject scheduleOption(std::initializer_list<std::pair<int, double>> changes) {
    std::vector<ReplayChange> list;
    for (const auto& [step, value] : changes) {
        list.push_back({step, lr(value)});
    }
    return QJsonObject{{"schedule", pbtReplayScheduleOption(list)}};
}

// Runs one trial through the scheduler as the runtime would (an exploit of itself changes its
// config and it goes on at the next iteration) and returns the lr each iteration trained with.
std::vector<double> liveTheSchedule(Scheduler& scheduler, Trial trial, int iterations,
                                    std::vector<int>* exploitedAt = nullptr) {
    std::vector<double> trained;
    for (int it = 1; it <= iterations; ++it) {
        trained.push_back(trial.config.value("lr").toDouble());
        const SchedulerDecision decision =
            scheduler.onResult(trial, {{"training_iteration", it}, {"score", it}});
        if (decision.action == Action::Exploit) {
            if (decision.source != trial.id) {
                qWarning("pbt_replay copied %s into %s", qPrintable(decision.source),
                         qPrintable(trial.id));
                return {};
            }
            trial.config = decision.config;
            if (exploitedAt) {
                exploitedAt->push_back(it);
            }
        } else if (decision.action != Action::Continue) {
            qWarning("unexpected decision: %s", qPrintable(decision.reason));
            return {};
        }
    }
    return trained;
}

Trial replayTrial(double initialLr) {
    Trial trial;
    trial.id = trialIdForIndex(0);
    trial.config = lr(initialLr);
    return trial;
}

}  // namespace

class TestPbtReplay : public QObject {
    Q_OBJECT

  private slots:
    void trialThatNeverExploitedKeepsItsConfig() {
        const auto s = compute("t00000", 9, {}, {{"t00000", lr(0.1)}});
        QCOMPARE(s.initialConfig, lr(0.1));
        QVERIFY(s.changes.empty());
        QCOMPARE(s.totalSteps, std::int64_t(9));
        QCOMPARE(lineageText(s), QString("t00000(0,9]"));
    }

    // t00001 copied t00000 at t00000's 4th iteration when it had done 5 of its own; t00002
    // copied t00001 at t00001's 8th when it had done 10. t00002 then trained to its 15th.
    void chainOfThreeShiftsEachLaterStep() {
        const std::vector<RecordedExploit> exploits = {
            exploit(1, "t00001", 5, "t00000", 4, 0.5, 0.2),
            exploit(2, "t00002", 10, "t00001", 8, 0.7, 0.3),
        };
        const QMap<QString, QJsonObject> configs = {
            {"t00000", lr(0.1)}, {"t00001", lr(0.2)}, {"t00002", lr(0.3)}};
        const auto s = compute("t00002", 15, exploits, configs);
        QCOMPARE(s.initialConfig, lr(0.1));  // the root's, not the winner's first config
        QCOMPARE(changesText(s), QString("4:0.2 7:0.3"));
        QCOMPARE(s.totalSteps, std::int64_t(12));  // 4 of t00000 + 3 of t00001 + 5 of t00002
        QCOMPARE(lineageText(s), QString("t00000(0,4] t00001(4,7] t00002(7,12]"));

        // The middle trial's own replay stops at its own last iteration.
        const auto middle = compute("t00001", 9, exploits, configs);
        QCOMPARE(changesText(middle), QString("4:0.2"));
        QCOMPARE(middle.totalSteps, std::int64_t(8));
    }

    // t00001 copies t00000, t00002 then copies t00001, and t00001 finally copies t00002 back:
    // only its latest exploit decides its weights, and the one before comes back through
    // t00002's lineage.
    void trialExploitingTwiceThroughATrialThatCopiedIt() {
        const std::vector<RecordedExploit> exploits = {
            exploit(1, "t00001", 3, "t00000", 3, 0.9, 0.2),
            exploit(2, "t00002", 5, "t00001", 4, 0.8, 0.3),
            exploit(3, "t00001", 8, "t00002", 7, 0.2, 0.4),
        };
        const QMap<QString, QJsonObject> configs = {
            {"t00000", lr(0.1)}, {"t00001", lr(0.4)}, {"t00002", lr(0.3)}};
        const auto s = compute("t00001", 12, exploits, configs);
        QCOMPARE(s.initialConfig, lr(0.1));
        QCOMPARE(changesText(s), QString("3:0.2 4:0.3 6:0.4"));
        QCOMPARE(lineageText(s), QString("t00000(0,3] t00001(3,4] t00002(4,6] t00001(6,10]"));
        QCOMPARE(s.totalSteps, std::int64_t(10));
    }

    // A checkpoint is read as it was when copied: t00000's exploit recorded after t00001 copied
    // it does not belong to t00001's lineage, although it happened at an earlier iteration.
    void exploitsRecordedAfterTheCopyDoNotCount() {
        const std::vector<RecordedExploit> exploits = {
            exploit(1, "t00001", 6, "t00000", 6, 0.5, 0.2),
            exploit(2, "t00000", 4, "t00002", 4, 0.1, 0.3),
        };
        const QMap<QString, QJsonObject> configs = {
            {"t00000", lr(0.3)}, {"t00001", lr(0.2)}, {"t00002", lr(0.6)}};
        const auto s = compute("t00001", 8, exploits, configs);
        QCOMPARE(s.initialConfig, lr(0.1));  // t00000's first config, from its exploit record
        QCOMPARE(changesText(s), QString("6:0.2"));
        QCOMPARE(lineageText(s), QString("t00000(0,6] t00001(6,8]"));
    }

    // t00001's checkpoint at its 6th iteration is the copy of t00000's it made there, so
    // t00002 copying it goes on from t00000's weights, with its own config.
    void copyOfATrialThatJustExploitedIsACopyOfItsSource() {
        const std::vector<RecordedExploit> exploits = {
            exploit(1, "t00001", 6, "t00000", 6, 0.5, 0.2),
            exploit(2, "t00002", 6, "t00001", 6, 0.7, 0.3),
        };
        const auto s = compute("t00002", 10, exploits,
                               {{"t00000", lr(0.1)}, {"t00001", lr(0.2)}, {"t00002", lr(0.3)}});
        QCOMPARE(s.initialConfig, lr(0.1));
        QCOMPARE(changesText(s), QString("6:0.3"));
        QCOMPARE(lineageText(s), QString("t00000(0,6] t00002(6,10]"));
        QCOMPARE(s.totalSteps, std::int64_t(10));
    }

    void selfExploitChangesTheConfigAndKeepsTheWeights() {
        const std::vector<RecordedExploit> exploits = {
            exploit(1, "t00000", 4, "t00000", 4, 0.1, 0.05),
            exploit(2, "t00000", 7, "t00000", 7, 0.05, 0.02),
        };
        const auto s = compute("t00000", 10, exploits, {{"t00000", lr(0.02)}});
        QCOMPARE(s.initialConfig, lr(0.1));
        QCOMPARE(changesText(s), QString("4:0.05 7:0.02"));
        QCOMPARE(s.totalSteps, std::int64_t(10));
        QCOMPARE(lineageText(s), QString("t00000(0,10]"));
    }

    void changesThatChangeNothingAreLeftOut() {
        // t00001 copies t00000 keeping t00000's config: the weights move, the config does not.
        const std::vector<RecordedExploit> exploits = {
            exploit(1, "t00001", 5, "t00000", 5, 0.7, 0.1),
        };
        const auto s = compute("t00001", 9, exploits, {{"t00000", lr(0.1)}, {"t00001", lr(0.1)}});
        QVERIFY(s.changes.empty());
        QCOMPARE(lineageText(s), QString("t00000(0,5] t00001(5,9]"));
    }

    void exploitAtTheLastResultIsNotAChange() {
        const std::vector<RecordedExploit> exploits = {
            exploit(1, "t00001", 10, "t00000", 8, 0.5, 0.2),
        };
        const auto s = compute("t00001", 10, exploits, {{"t00000", lr(0.1)}, {"t00001", lr(0.2)}});
        QVERIFY(s.changes.empty());  // the new config never trained
        QCOMPARE(s.totalSteps, std::int64_t(8));
        QCOMPARE(lineageText(s), QString("t00000(0,8]"));
    }

    void unknownTrialIsAnError() {
        PbtReplaySchedule schedule;
        const Status status =
            computePbtReplaySchedule("t00042", 5, {}, {{"t00000", lr(0.1)}}, &schedule);
        QCOMPARE(status.code(), Status::Code::NotFound);
        QVERIFY2(status.message().contains("t00042"), qPrintable(status.message()));

        const std::vector<RecordedExploit> exploits = {
            exploit(1, "t00000", 5, "t00009", 5, 0.1, 0.2)};
        const Status source =
            computePbtReplaySchedule("t00000", 8, exploits, {{"t00000", lr(0.2)}}, &schedule);
        QCOMPARE(source.code(), Status::Code::NotFound);
        QVERIFY2(source.message().contains("t00009"), qPrintable(source.message()));
    }

    void schedulerAppliesEachChangeOnceAsASelfExploit() {
        auto scheduler = makeReplay(scheduleOption({{3, 0.2}, {6, 0.3}}));
        QVERIFY(scheduler);
        std::vector<int> exploitedAt;
        const std::vector<double> trained =
            liveTheSchedule(*scheduler, replayTrial(0.1), 8, &exploitedAt);
        QCOMPARE(trained, (std::vector<double>{0.1, 0.1, 0.1, 0.2, 0.2, 0.2, 0.3, 0.3}));
        QCOMPARE(exploitedAt, (std::vector<int>{3, 6}));
    }

    void computedScheduleReplaysTheLineage() {
        // The chain of three: steps 1-4 at 0.1, 5-7 at 0.2, 8-12 at 0.3.
        const std::vector<RecordedExploit> exploits = {
            exploit(1, "t00001", 5, "t00000", 4, 0.5, 0.2),
            exploit(2, "t00002", 10, "t00001", 8, 0.7, 0.3),
        };
        const auto s = compute("t00002", 15, exploits,
                               {{"t00000", lr(0.1)}, {"t00001", lr(0.2)}, {"t00002", lr(0.3)}});
        auto scheduler = makeReplay({{"schedule", pbtReplayScheduleOption(s.changes)}});
        QVERIFY(scheduler);
        Trial trial = replayTrial(0);
        trial.config = s.initialConfig;
        QCOMPARE(liveTheSchedule(*scheduler, trial, int(s.totalSteps)),
                 (std::vector<double>{0.1, 0.1, 0.1, 0.1, 0.2, 0.2, 0.2, 0.3, 0.3, 0.3, 0.3, 0.3}));
    }

    void resultPastSeveralStepsGoesToTheLatestConfig() {
        auto scheduler = makeReplay(scheduleOption({{3, 0.2}, {5, 0.3}, {9, 0.4}}));
        QVERIFY(scheduler);
        const Trial trial = replayTrial(0.1);
        QCOMPARE(scheduler->onResult(trial, {{"training_iteration", 2}}).action, Action::Continue);
        const SchedulerDecision late = scheduler->onResult(trial, {{"training_iteration", 6}});
        QCOMPARE(late.action, Action::Exploit);
        QCOMPARE(late.config, lr(0.3));
        QVERIFY2(late.reason.contains("pbt_replay"), qPrintable(late.reason));
    }

    void resultWithoutTheStepCounterChangesNothing() {
        auto scheduler = makeReplay(scheduleOption({{1, 0.2}}));
        QVERIFY(scheduler);
        QCOMPARE(scheduler->onResult(replayTrial(0.1), {{"score", 1}}).action, Action::Continue);
        using Keys = std::vector<std::pair<QString, QString>>;
        QCOMPARE(scheduler->requiredResultKeys(),
                 (Keys{{"training_iteration", "scheduler.time_attr"}}));
        auto byEpoch = makeReplay(QJsonObject{
            {"schedule", scheduleOption({{2, 0.2}}).value("schedule")}, {"time_attr", "epoch"}});
        QVERIFY(byEpoch);
        QCOMPARE(byEpoch->onResult(replayTrial(0.1), {{"training_iteration", 5}}).action,
                 Action::Continue);
        QCOMPARE(byEpoch->onResult(replayTrial(0.1), {{"epoch", 2}}).action, Action::Exploit);
    }

    void trialAlreadyOnTheConfigIsNotRestarted() {
        auto scheduler = makeReplay(scheduleOption({{3, 0.2}, {6, 0.3}}));
        QVERIFY(scheduler);
        // Resumed after the first change without the scheduler state: it already runs 0.2.
        QCOMPARE(scheduler->onResult(replayTrial(0.2), {{"training_iteration", 4}}).action,
                 Action::Continue);
        const SchedulerDecision next =
            scheduler->onResult(replayTrial(0.2), {{"training_iteration", 6}});
        QCOMPARE(next.action, Action::Exploit);
        QCOMPARE(next.config, lr(0.3));
    }

    void stateRoundTripMakesTheSameNextDecisions() {
        const QJsonObject options = scheduleOption({{2, 0.2}, {4, 0.3}, {7, 0.4}});
        auto original = makeReplay(options);
        QVERIFY(original);
        Trial trial = replayTrial(0.1);
        for (int it = 1; it <= 3; ++it) {
            const SchedulerDecision d = original->onResult(trial, {{"training_iteration", it}});
            if (d.action == Action::Exploit) {
                trial.config = d.config;
            }
        }
        auto restored = makeReplay(options);
        QVERIFY(restored);
        QVERIFY(restored->restoreState(original->saveState()).isOk());
        std::vector<int> a;
        std::vector<int> b;
        QCOMPARE(liveTheSchedule(*restored, trial, 9, &b).size(), size_t(9));
        liveTheSchedule(*original, trial, 9, &a);
        QCOMPARE(b, a);
        QCOMPARE(b, (std::vector<int>{4, 7}));  // the change at 2 is not applied again

        QCOMPARE(restored
                     ->restoreState(QJsonObject{{"scheduler", "pbt_replay"},
                                                {"next", QJsonObject{{"t00000", 9}}}})
                     .code(),
                 Status::Code::Corruption);
        QVERIFY(!restored->restoreState(QJsonObject{{"scheduler", "asha"}}).isOk());
    }

    void optionsAreChecked_data() {
        QTest::addColumn<QJsonObject>("options");
        QTest::addColumn<QString>("badKey");
        QTest::addColumn<QString>("message");
        const QJsonObject good{{"step", 2}, {"config", lr(0.1)}};
        QTest::newRow("no schedule") << QJsonObject{} << "scheduler.schedule"
                                     << "list of";
        QTest::newRow("not a list") << QJsonObject{{"schedule", good}} << "scheduler.schedule"
                                    << "list of";
        QTest::newRow("step zero")
            << QJsonObject{{"schedule", QJsonArray{QJsonObject{{"step", 0}, {"config", lr(1)}}}}}
            << "scheduler.schedule"
            << "item 1 step must be a whole number >= 1";
        QTest::newRow("fractional step")
            << QJsonObject{{"schedule", QJsonArray{QJsonObject{{"step", 1.5}, {"config", lr(1)}}}}}
            << "scheduler.schedule"
            << "item 1 step";
        QTest::newRow("steps out of order")
            << QJsonObject{{"schedule",
                            QJsonArray{good, QJsonObject{{"step", 2}, {"config", lr(1)}}}}}
            << "scheduler.schedule"
            << "item 2 step 2 must come after";
        QTest::newRow("config not a mapping")
            << QJsonObject{{"schedule", QJsonArray{QJsonObject{{"step", 1}, {"config", 3}}}}}
            << "scheduler.schedule"
            << "item 1 config must be a mapping";
        QTest::newRow("unknown key in an item")
            << QJsonObject{{"schedule",
                            QJsonArray{QJsonObject{{"step", 1}, {"config", lr(1)}, {"when", 3}}}}}
            << "scheduler.schedule"
            << "exactly 'step' and 'config'";
        QTest::newRow("time_attr not a string")
            << QJsonObject{{"schedule", QJsonArray{good}}, {"time_attr", 3}}
            << "scheduler.time_attr"
            << "must be a string";
        QTest::newRow("empty time_attr")
            << QJsonObject{{"schedule", QJsonArray{good}}, {"time_attr", ""}}
            << "scheduler.time_attr"
            << "must not be empty";
        QTest::newRow("bad mode") << QJsonObject{{"schedule", QJsonArray{good}}, {"mode", "up"}}
                                  << "scheduler.mode"
                                  << "'min' or 'max'";
    }

    void optionsAreChecked() {
        QFETCH(QJsonObject, options);
        QFETCH(QString, badKey);
        QFETCH(QString, message);
        QString key;
        const Status status = validatePbtReplayOptions(replaySpec(options), &key);
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QCOMPARE(key, badKey);
        QVERIFY2(status.message().contains(message), qPrintable(status.message()));
        QVERIFY(!status.message().contains('\n'));
    }

    void optionsPbtReplayWritesAreAccepted() {
        const QJsonObject options{{"schedule", scheduleOption({{1, 0.2}}).value("schedule")},
                                  {"time_attr", "training_iteration"},
                                  {"metric", "score"},
                                  {"mode", "min"}};
        QVERIFY(validatePbtReplayOptions(replaySpec(options), nullptr).isOk());
        QVERIFY(validatePbtReplayOptions(replaySpec({{"schedule", QJsonArray{}}}), nullptr).isOk());
        for (const QString& key : options.keys()) {
            QVERIFY2(pbtReplayOptionNames().contains(key), qPrintable(key));
        }
    }

    // The experiment pbt-replay writes passes the catalogue, which also asks for checkpoints
    // (every change resumes from one).
    void catalogueAcceptsTheReplayScheduler() {
        QVERIFY(knownSchedulers().contains("pbt_replay"));
        ExperimentSpec spec = replaySpec(scheduleOption({{3, 0.2}}));
        QVERIFY(makeValidated(spec));
        spec.checkpoint.enabled = false;
        QString badKey;
        QVERIFY(!validateScheduler(spec, &badKey).isOk());
        QCOMPARE(badKey, QString("scheduler.type"));
    }
};

QTEST_GUILESS_MAIN(TestPbtReplay)
#include "test_pbt_replay.moc"
