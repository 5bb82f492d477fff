// The hyperband scheduler: Ray's bracket shapes, pauses at rungs, only the top 1/eta resumed,
// the rest ended with a reason, errors and early finishes, jumps, resume, options.
#include <QJsonArray>
#include <QTest>
#include <map>

#include "core/hyperband_scheduler.h"
#include "scheduler_builders.h"

using namespace tunedeck;
using Action = SchedulerDecision::Action;

namespace {

ExperimentSpec hyperbandSpec(QJsonObject options, const QString& metric = "acc",
                             MetricMode mode = MetricMode::Max) {
    return schedulerSpec(QStringLiteral("hyperband"), std::move(options), metric, mode);
}

QString validationError(const QJsonObject& options, QString* badKey = nullptr,
                        const QString& metric = "acc") {
    QString key;
    const Status status = validateHyperbandOptions(hyperbandSpec(options, metric), &key);
    if (badKey) {
        *badKey = key;
    }
    return status.isOk() ? QString() : status.message();
}

// Plays the runtime: trials in creation order, decisions applied to their status, stop orders
// taken after every event and the ended trials completed, as the runner does.
struct Run {
    explicit Run(const QJsonObject& options = {}, const QString& metric = "acc",
                 MetricMode mode = MetricMode::Max) {
        const ExperimentSpec spec = hyperbandSpec(options, metric, mode);
        const Status status = validateHyperbandOptions(spec, nullptr);
        if (!status.isOk()) {
            qFatal("%s", qPrintable(status.message()));
        }
        scheduler = makeHyperbandScheduler(spec);
        this->metric = metric;
    }

    Trial& add() {
        Trial trial;
        trial.index = static_cast<std::int64_t>(trials.size());
        trial.id = trialIdForIndex(trial.index);
        Trial& added = trials.emplace(trial.id, trial).first->second;
        scheduler->onTrialAdd(added);
        return added;
    }
    void addMany(int count) {
        for (int i = 0; i < count; ++i) {
            add();
        }
    }
    Trial& at(int index) { return trials.at(trialIdForIndex(index)); }

    SchedulerDecision report(int index, double time, double value) {
        Trial& trial = at(index);
        trial.status = TrialStatus::Running;
        trial.lastResult = {{"training_iteration", time}, {metric, value}};
        const SchedulerDecision decision = scheduler->onResult(trial, trial.lastResult);
        if (decision.action == Action::Pause) {
            trial.status = TrialStatus::Paused;
        } else if (decision.action == Action::Stop) {
            trial.status = TrialStatus::Terminated;
            scheduler->onComplete(trial, trial.lastResult);
        }
        applyOrders();
        return decision;
    }
    void fail(int index) {
        Trial& trial = at(index);
        trial.status = TrialStatus::Error;
        scheduler->onError(trial);
        applyOrders();
    }
    void finish(int index) {
        Trial& trial = at(index);
        trial.status = TrialStatus::Terminated;
        scheduler->onComplete(trial, trial.lastResult);
        applyOrders();
    }
    void applyOrders() {
        for (const StopOrder& order : scheduler->takeStopOrders()) {
            orders.push_back(order);
            Trial& trial = trials.at(order.trialId);
            QVERIFY2(trial.status == TrialStatus::Paused || trial.status == TrialStatus::Pending,
                     qPrintable(order.trialId + " ordered to stop while not waiting"));
            trial.status = TrialStatus::Terminated;
            scheduler->onComplete(trial, trial.lastResult);
        }
    }
    std::optional<QString> choose() {
        std::vector<const Trial*> waiting;
        for (const auto& [id, trial] : trials) {
            if (trial.status == TrialStatus::Pending || trial.status == TrialStatus::Paused) {
                waiting.push_back(&trial);
            }
        }
        return scheduler->chooseTrialToRun(waiting);
    }
    // Every trial the scheduler would start now, started one after another.
    QStringList startAll() {
        QStringList started;
        while (auto id = choose()) {
            trials.at(*id).status = TrialStatus::Running;
            started << *id;
        }
        return started;
    }
    QStringList stoppedIds() const {
        QStringList ids;
        for (const StopOrder& order : orders) {
            ids << order.trialId;
        }
        return ids;
    }

    std::unique_ptr<Scheduler> scheduler;
    std::map<QString, Trial> trials;
    std::vector<StopOrder> orders;
    QString metric;
};

HyperbandScheduler& hyperband(Run& run) {
    return static_cast<HyperbandScheduler&>(*run.scheduler);
}

QString id(int index) {
    return trialIdForIndex(index);
}

}  // namespace

class TestHyperband : public QObject {
    Q_OBJECT

  private slots:
    void bracketShapesEqualRays() {
        // Ray's HyperBandScheduler with max_t 81, reduction_factor 3: (n_i, r_i) per bracket s.
        //   s=0: (5,81)
        //   s=1: (8,27)  (3,81)
        //   s=2: (15,9)  (5,27)  (2,81)
        //   s=3: (34,3)  (12,9)  (4,27)  (2,81)
        //   s=4: (81,1)  (27,3)  (9,9)   (3,27)  (1,81)
        const std::vector<std::vector<std::pair<double, double>>> ray = {
            {{5, 81}},
            {{8, 27}, {3, 81}},
            {{15, 9}, {5, 27}, {2, 81}},
            {{34, 3}, {12, 9}, {4, 27}, {2, 81}},
            {{81, 1}, {27, 3}, {9, 9}, {3, 27}, {1, 81}},
        };
        Run run;
        QCOMPARE(hyperband(run).bracketsPerBand(), 5);
        for (int s = 0; s < 5; ++s) {
            std::vector<std::pair<double, double>> planned;
            for (const auto& rung : hyperband(run).plannedRungs(s)) {
                planned.emplace_back(rung.trials, rung.milestone);
            }
            QCOMPARE(planned, ray[static_cast<std::size_t>(s)]);
        }
        QCOMPARE(hyperbandBudgets(hyperbandSpec({})), (std::vector<double>{1, 3, 9, 27, 81}));
    }

    void trialsFillBracketsSmallestFirstThenANewBand() {
        Run run;
        run.addMany(5 + 8 + 15 + 34 + 81 + 1);
        QCOMPARE(hyperband(run).bracketOf(id(0)), std::optional<int>(0));
        QCOMPARE(hyperband(run).bracketOf(id(4)), std::optional<int>(0));
        QCOMPARE(hyperband(run).bracketOf(id(5)), std::optional<int>(1));
        QCOMPARE(hyperband(run).bracketOf(id(12)), std::optional<int>(1));
        QCOMPARE(hyperband(run).bracketOf(id(13)), std::optional<int>(2));
        QCOMPARE(hyperband(run).bracketOf(id(28)), std::optional<int>(3));
        QCOMPARE(hyperband(run).bracketOf(id(62)), std::optional<int>(4));
        QCOMPARE(hyperband(run).bracketOf(id(142)), std::optional<int>(4));
        // The 144th trial opens the next band at its bracket 0.
        QCOMPARE(hyperband(run).bracketOf(id(143)), std::optional<int>(0));
    }

    void pausesAtTheMilestoneThenOnlyTheTopThirdResumes() {
        Run run;
        run.addMany(5 + 8);  // bracket 0: t0..t4; bracket 1 (8 trials, rung at 27): t5..t12
        QCOMPARE(run.startAll().size(), 13);
        QCOMPARE(run.report(5, 26, 0.50).action, Action::Continue);
        // Values 0.50, 0.10, ..., the winners are t7 (0.90), t10 (0.80), t12 (0.95).
        const std::vector<double> values = {0.50, 0.10, 0.90, 0.30, 0.40, 0.80, 0.20, 0.95};
        for (int i = 0; i < 7; ++i) {
            const auto decision = run.report(5 + i, 27, values[static_cast<std::size_t>(i)]);
            QCOMPARE(decision.action, Action::Pause);
            QVERIFY2(decision.reason.contains("waiting for"), qPrintable(decision.reason));
        }
        QVERIFY(run.orders.empty());
        QCOMPARE(run.choose(), std::nullopt);  // nobody resumes before the rung is complete
        // The last one completes the rung and is among the best three: it goes straight on.
        QCOMPARE(run.report(12, 27, 0.95).action, Action::Continue);
        QStringList stopped = run.stoppedIds();
        stopped.sort();
        QCOMPARE(stopped, (QStringList{id(5), id(6), id(8), id(9), id(11)}));
        for (const StopOrder& order : run.orders) {
            QVERIFY2(order.reason.startsWith("hyperband: bracket 1 rung 0 (training_iteration = "
                                             "27): acc = "),
                     qPrintable(order.reason));
            QVERIFY2(order.reason.contains("is not in the top 1/3 (cutoff 0.8)"),
                     qPrintable(order.reason));
        }
        QCOMPARE(run.startAll(), (QStringList{id(7), id(10)}));
        // The winners run to 81, the bracket's last rung, and stop there.
        QCOMPARE(run.report(7, 60, 0.9).action, Action::Continue);
        QCOMPARE(run.report(7, 81, 0.9).action, Action::Pause);
        QCOMPARE(run.report(10, 81, 0.8).action, Action::Pause);
        const auto last = run.report(12, 81, 0.99);
        QCOMPARE(last.action, Action::Stop);
        QVERIFY2(last.reason.contains("bracket 1 reached its last rung (training_iteration = 81)"),
                 qPrintable(last.reason));
        QVERIFY(run.stoppedIds().contains(id(7)) && run.stoppedIds().contains(id(10)));
    }

    void theLosingReporterIsStoppedItself() {
        Run run({{"mode", "min"}, {"metric", "loss"}}, "loss");
        run.addMany(5 + 8);
        run.startAll();
        for (int i = 0; i < 7; ++i) {
            QCOMPARE(run.report(5 + i, 27, 1.0 + i).action, Action::Pause);
        }
        // mode min: the lowest losses win (1, 2, 3 -> t5, t6, t7); 9 is stopped at once.
        const auto decision = run.report(12, 27, 9.0);
        QCOMPARE(decision.action, Action::Stop);
        QVERIFY2(decision.reason.contains("loss = 9 is not in the top 1/3 (cutoff 3)"),
                 qPrintable(decision.reason));
        QCOMPARE(run.startAll(), (QStringList{id(5), id(6), id(7)}));
    }

    void tiesGoToTheTrialAddedLaterAsInRay() {
        Run run;
        run.addMany(5 + 8);
        run.startAll();
        for (int i = 0; i < 8; ++i) {
            run.report(5 + i, 27, 0.5);
        }
        QCOMPARE(run.stoppedIds(), (QStringList{id(5), id(6), id(7), id(8), id(9)}));
    }

    void anErroredTrialDoesNotBlockItsBracket() {
        Run run;
        run.addMany(5 + 8);
        run.startAll();
        for (int i = 0; i < 7; ++i) {
            run.report(5 + i, 27, 0.1 * (i + 1));
        }
        QCOMPARE(run.choose(), std::nullopt);
        run.fail(12);  // the last one never reaches the rung
        QCOMPARE(run.startAll(), (QStringList{id(9), id(10), id(11)}));
        QCOMPARE(run.orders.size(), std::size_t(4));
    }

    void aTrialFinishingEarlyDoesNotBlockItsBracket() {
        Run run;
        run.addMany(5 + 8);
        run.startAll();
        run.report(12, 10, 0.99);
        run.finish(12);  // ended by itself before the rung (its script stopped at 10)
        for (int i = 0; i < 7; ++i) {
            const auto action = run.report(5 + i, 27, 0.1 * (i + 1)).action;
            QCOMPARE(action, i < 6 ? Action::Pause : Action::Continue);
        }
        QCOMPARE(run.startAll(), (QStringList{id(9), id(10)}));
    }

    void aLoserStillSavingItsPauseIsEndedOnceItWaits() {
        Run run;
        run.addMany(5 + 8);
        run.startAll();
        for (int i = 0; i < 6; ++i) {
            run.report(5 + i, 27, 0.1 * (i + 1));
        }
        // t11 is told to pause, but its process is still saving when t12 completes the rung,
        // so the runtime (which ends waiting trials only) drops the order that names it.
        Trial& saving = run.at(11);
        saving.status = TrialStatus::Running;
        saving.lastResult = {{"training_iteration", 27}, {"acc", 0.0}};
        QCOMPARE(run.scheduler->onResult(saving, saving.lastResult).action, Action::Pause);
        saving.status = TrialStatus::Running;
        Trial& last = run.at(12);
        last.status = TrialStatus::Running;
        QCOMPARE(run.scheduler->onResult(last, {{"training_iteration", 27}, {"acc", 0.9}}).action,
                 Action::Continue);
        const auto dropped = run.scheduler->takeStopOrders();
        QVERIFY(std::any_of(dropped.begin(), dropped.end(),
                            [](const StopOrder& o) { return o.trialId == id(11); }));
        for (const StopOrder& order : dropped) {
            if (order.trialId != id(11)) {
                run.trials.at(order.trialId).status = TrialStatus::Terminated;
            }
        }
        saving.status = TrialStatus::Paused;  // its save finished and it exited
        // Winners first; once only t11 waits it is ordered again, and run if nothing else can.
        QCOMPARE(run.startAll(), (QStringList{id(9), id(10), id(11)}));
        const auto again = run.scheduler->takeStopOrders();
        QCOMPARE(again.size(), std::size_t(1));
        QCOMPARE(again.front().trialId, id(11));
        QCOMPARE(run.scheduler->onResult(saving, saving.lastResult).action, Action::Stop);
    }

    void theFirstRungWaitsForAFullBracket() {
        // Bracket 1 (s = 1: 8 trials, first rung at 27). Trials are created as slots free up,
        // so its first trial reaches the rung alone: it waits for the other seven instead of
        // being judged alone and kept (Ray judges whoever is there, so under load a bracket
        // may keep everyone; ours decides the same whatever the timing).
        Run run;
        run.addMany(5 + 1);
        run.startAll();
        QCOMPARE(run.report(5, 27, 0.5).action, Action::Pause);
        for (int i = 6; i < 13; ++i) {
            run.add();
            QCOMPARE(hyperband(run).bracketOf(id(i)), std::optional<int>(1));
        }
        run.add();  // the ninth goes to the next bracket
        QCOMPARE(hyperband(run).bracketOf(id(13)), std::optional<int>(2));
        for (int i = 6; i < 12; ++i) {
            QCOMPARE(run.report(i, 27, 0.1 * (i - 5)).action, Action::Pause);
        }
        // The last of eight is judged with the rest: the top ceil(8 / 3) = 3 (11 with 0.6,
        // then 5 and 10 with 0.5) go on, the others end.
        QCOMPARE(run.report(12, 27, 0.05).action, Action::Stop);
        QCOMPARE(run.stoppedIds(), (QStringList{id(6), id(7), id(8), id(9)}));
        QStringList started = run.startAll();
        started.sort();
        QCOMPARE(started, (QStringList{id(5), id(10), id(11), id(13)}));  // 13: the next bracket
    }

    void anIdleSearcherGetsABracketJudgedAsItIs() {
        // The searcher has nothing more (or waits on these very trials): bracket 1 is judged
        // with its one trial, which goes on; a trial added later starts a new bracket rather
        // than join one already halved.
        Run run;
        run.addMany(5 + 1);
        run.startAll();
        QCOMPARE(run.report(5, 27, 0.5).action, Action::Pause);
        run.scheduler->onSearcherIdle();
        run.applyOrders();
        QCOMPARE(run.startAll(), QStringList{id(5)});
        run.add();
        QCOMPARE(hyperband(run).bracketOf(id(6)), std::optional<int>(2));
        QCOMPARE(run.report(5, 81, 0.5).action, Action::Stop);
        QVERIFY(run.stoppedIds().isEmpty());
    }

    void aTrialAddedAfterItsBracketFilledGoesToTheNext() {
        Run run;
        run.addMany(5 + 8);
        run.startAll();
        for (int i = 0; i < 8; ++i) {
            run.report(5 + i, 27, 0.1 * (i + 1));
        }
        run.add();  // bracket 1 keeps 3 and holds 3: full
        QCOMPARE(hyperband(run).bracketOf(id(13)), std::optional<int>(2));
    }

    void aResultJumpingPastTheNextMilestoneIsJudgedAgainAtOnce() {
        // max_t 9, eta 3: bracket 2 is (9, 1) (3, 3) (1, 9). Every trial first reports at 4,
        // past rungs 1 and 3: both are judged at once, or the bracket would wait for ever.
        Run run({{"max_t", 9}});
        QCOMPARE(hyperband(run).plannedRungs(2).size(), std::size_t(3));
        run.addMany(3 + 5 + 9);  // brackets 0, 1, then t8..t16 in bracket 2
        run.startAll();
        for (int i = 0; i < 8; ++i) {
            QCOMPARE(run.report(8 + i, 4, 0.1 * (i + 1)).action, Action::Pause);
        }
        // Rung 0 keeps t13, t14, t15 (t16 is stopped at once); rung 1 keeps t15 alone.
        QCOMPARE(run.report(16, 4, 0.05).action, Action::Stop);
        QCOMPARE(run.stoppedIds(),
                 (QStringList{id(8), id(9), id(10), id(11), id(12), id(13), id(14)}));
        QVERIFY2(run.orders.back().reason.contains("rung 1 (training_iteration = 3)"),
                 qPrintable(run.orders.back().reason));
        QCOMPARE(run.startAll(), QStringList{id(15)});
        QCOMPARE(run.report(15, 9, 0.9).action, Action::Stop);
    }

    void stopLastTrialsFalseLetsTheLastRungRunOn() {
        Run run({{"stop_last_trials", false}});
        run.addMany(5);
        run.startAll();
        QCOMPARE(run.report(0, 81, 0.5).action, Action::Continue);
        QCOMPARE(run.report(0, 200, 0.5).action, Action::Continue);
        QVERIFY(run.orders.empty());
    }

    void newTrialsRunBeforeAnyoneWaitingAtARung() {
        Run run;
        run.addMany(5 + 2);
        QCOMPARE(run.startAll().size(), 7);
        run.report(5, 27, 0.5);  // paused, waiting for t6
        run.add();               // t7 joins bracket 1 and is the only one to start
        QCOMPARE(run.startAll(), QStringList{id(7)});
    }

    void needsTimeAttrInEveryResult() {
        Run run({{"time_attr", "time_total_s"}});
        const auto keys = run.scheduler->requiredResultKeys();
        QCOMPARE(keys.size(), std::size_t(1));
        QCOMPARE(keys.front().first, QStringLiteral("time_total_s"));
        QCOMPARE(keys.front().second, QStringLiteral("scheduler.time_attr"));
        // A result without it is not judged.
        run.addMany(1);
        run.startAll();
        QCOMPARE(run.scheduler->onResult(run.at(0), {{"acc", 1.0}}).action, Action::Continue);
    }

    void stateRoundTripMakesTheSameDecisions() {
        // Saved with bracket 1 just judged (its winners paused, waiting to be picked), bracket 2
        // half way to its first rung and bracket 0 running.
        Run original;
        original.addMany(5 + 8 + 3);
        original.startAll();
        for (int i = 0; i < 8; ++i) {
            original.report(5 + i, 27, i == 7 ? 0.01 : 0.1 * (i + 1));
        }
        original.report(13, 9, 0.2);
        original.report(0, 40, 0.3);
        const QJsonObject saved = original.scheduler->saveState();

        Run restored;
        QVERIFY(restored.scheduler->restoreState(saved).isOk());
        restored.trials = original.trials;
        restored.orders = original.orders;
        QCOMPARE(restored.scheduler->saveState(), saved);

        // The same events from here on: the same decisions, orders and picks.
        for (Run* run : {&original, &restored}) {
            run->add();
        }
        const QStringList started = original.startAll();
        QCOMPARE(started, (QStringList{id(16), id(9), id(10), id(11)}));
        QCOMPARE(restored.startAll(), started);
        const std::vector<std::tuple<int, double, double>> script = {
            {10, 81, 0.9}, {11, 60, 0.05}, {11, 81, 0.7}, {13, 9, 0.3}, {14, 9, 0.1},
            {15, 9, 0.4},  {16, 9, 0.6},   {0, 81, 0.3},  {1, 81, 0.2}, {9, 81, 0.5}};
        for (const auto& [index, time, value] : script) {
            const auto a = original.report(index, time, value);
            const auto b = restored.report(index, time, value);
            QCOMPARE(b.action, a.action);
            QCOMPARE(b.reason, a.reason);
            QCOMPARE(restored.startAll(), original.startAll());
        }
        QCOMPARE(restored.stoppedIds(), original.stoppedIds());
        QVERIFY(!original.orders.empty());
        QCOMPARE(restored.scheduler->saveState(), original.scheduler->saveState());
    }

    void resumeCatchesUpWithResultsAfterTheSavedState() {
        Run run;
        run.addMany(5 + 8);
        run.startAll();
        for (int i = 0; i < 7; ++i) {
            run.report(5 + i, 27, 0.1 * (i + 1));
        }
        const QJsonObject saved = run.scheduler->saveState();
        // Before the engine died, t12 also reached the rung and was paused; the state missed it.
        Trial& late = run.at(12);
        late.status = TrialStatus::Paused;
        late.lastResult = {{"training_iteration", 27}, {"acc", 0.95}};

        Run resumed;
        QVERIFY(resumed.scheduler->restoreState(saved).isOk());
        resumed.trials = run.trials;
        for (auto& [id, trial] : resumed.trials) {
            resumed.scheduler->onTrialAdd(trial);
        }
        resumed.applyOrders();
        QCOMPARE(resumed.startAll(), (QStringList{id(10), id(11), id(12)}));
    }

    void resumeKeepsTheWinnersOfARungRunnable() {
        Run run;
        run.addMany(5 + 8);
        run.startAll();
        for (int i = 0; i < 8; ++i) {
            run.report(5 + i, 27, 0.1 * (i + 1));
        }
        // Saved with t10, t11 paused and picked to resume (t12 went straight on).
        Run resumed;
        QVERIFY(resumed.scheduler->restoreState(run.scheduler->saveState()).isOk());
        resumed.trials = run.trials;
        for (auto& [id, trial] : resumed.trials) {
            resumed.scheduler->onTrialAdd(trial);  // as the runtime re-adds every trial
        }
        QCOMPARE(resumed.startAll(), (QStringList{id(10), id(11)}));
    }

    void restoreRefusesABracketThatDoesNotFit() {
        Run run;
        const QJsonObject bad{{"brackets", QJsonArray{QJsonObject{{"s", 7}, {"rung", 0}}}}};
        const Status status = run.scheduler->restoreState(bad);
        QCOMPARE(status.code(), Status::Code::Corruption);
    }

    void optionsAreValidated() {
        QString key;
        QCOMPARE(validationError({}), QString());
        QCOMPARE(validationError({{"max_t", 0.5}}, &key),
                 QStringLiteral("scheduler option 'max_t' must be at least 1, not 0.5"));
        QCOMPARE(key, QStringLiteral("scheduler.max_t"));
        QCOMPARE(
            validationError({{"reduction_factor", 1}}, &key),
            QStringLiteral("scheduler option 'reduction_factor' must be greater than 1, not 1"));
        QCOMPARE(key, QStringLiteral("scheduler.reduction_factor"));
        QVERIFY(validationError({{"reduction_factor", 1.0001}}, &key).contains("brackets"));
        QCOMPARE(validationError({{"stop_last_trials", "yes"}}, &key),
                 QStringLiteral("scheduler option 'stop_last_trials' must be true or false"));
        QCOMPARE(key, QStringLiteral("scheduler.stop_last_trials"));
        QCOMPARE(validationError({{"max_t", "81"}}, &key),
                 QStringLiteral("scheduler option 'max_t' must be a number"));
        QVERIFY(validationError({{"mode", "maximum"}}, &key).contains("'min' or 'max'"));
        QCOMPARE(key, QStringLiteral("scheduler.mode"));
        QVERIFY(validationError({}, &key, QString()).contains("needs a metric"));
        QCOMPARE(hyperbandOptionNames(), (QStringList{"time_attr", "metric", "mode", "max_t",
                                                      "reduction_factor", "stop_last_trials"}));
    }
};

QTEST_APPLESS_MAIN(TestHyperband)
#include "test_hyperband.moc"
