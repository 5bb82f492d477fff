// The trial loop of engine/core, scripted event by event: which trial the scheduling pass starts
// (TrialQueue) and what one attempt of a trial answers, asks for and becomes (TrialAttempt).
#include <QTest>

#include "core/trial_attempt.h"
#include "core/trial_queue.h"
#include "core/trial_roster.h"
#include "core/trial_table.h"
#include "node_builders.h"

using namespace tunedeck;

namespace {

// A scheduler whose choices the test sets: FIFO among the waiting trials it allows.
class ScriptedScheduler : public Scheduler {
  public:
    SchedulerDecision onResult(const Trial&, const QJsonObject&) override { return {}; }
    std::optional<QString> chooseTrialToRun(const std::vector<const Trial*>& waiting) override {
        for (const Trial* t : waiting) {
            if (choosesNone) {
                break;
            }
            if (t->status == TrialStatus::Pending || runsPaused) {
                return t->id;
            }
        }
        return std::nullopt;
    }
    bool sharesSlots() const override { return shares; }
    bool runsPaused = true;
    bool choosesNone = false;
    bool shares = false;
};

Trial trialWith(int index, TrialStatus status) {
    Trial t;
    t.index = index;
    t.id = trialIdForIndex(index);
    t.status = status;
    return t;
}

// The trials and nodes of a scripted experiment, and the view the queue gets of them.
struct Script {
    std::vector<Trial> trials;
    std::vector<bool> held;
    std::vector<bool> started;
    std::vector<NodeCapacity> nodes{nodeWith("local", 8)};
    bool searcherFinished = false;

    void add(TrialStatus status, bool everStarted = false, bool heldByUser = false) {
        trials.push_back(trialWith(int(trials.size()), status));
        started.push_back(everStarted || status != TrialStatus::Pending);
        held.push_back(heldByUser);
    }
    QueueView view() const {
        QueueView v;
        for (std::size_t i = 0; i < trials.size(); ++i) {
            v.add(trials[i], held[i], started[i]);
        }
        v.searcherFinished = searcherFinished;
        v.nodes = &nodes;
        return v;
    }
};

ExperimentSpec specWithLimit(int maxConcurrent) {
    ExperimentSpec spec;
    spec.maxConcurrentTrials = maxConcurrent;
    return spec;
}

ReportFacts factsAt(std::int64_t iteration, bool namesCheckpoint = false) {
    ReportFacts facts;
    facts.trialId = QStringLiteral("t00000");
    facts.iteration = iteration;
    facts.namesCheckpoint = namesCheckpoint;
    return facts;
}

ExitFacts exitWith(int code) {
    ExitFacts exit;
    exit.code = code;
    return exit;
}

}  // namespace

class TestTrialLoop : public QObject {
    Q_OBJECT

  private slots:
    // ----- TrialQueue: the scheduling pass -----

    void anEmptyExperimentAsksTheSearcherFirst() {
        ScriptedScheduler scheduler;
        TrialQueue queue(scheduler, specWithLimit(0));
        Script script;
        queue.beginPass();
        QCOMPARE(queue.next(script.view()).kind, QueueStep::Kind::Suggest);
    }

    void aNewTrialStartsWhereItFits() {
        ScriptedScheduler scheduler;
        TrialQueue queue(scheduler, specWithLimit(0));
        Script script;
        script.add(TrialStatus::Pending);
        queue.beginPass();
        const QueueStep step = queue.next(script.view());
        QCOMPARE(step.kind, QueueStep::Kind::Start);
        QCOMPARE(step.trialId, QStringLiteral("t00000"));
        QVERIFY(step.placement.placed);
        QCOMPARE(step.placement.nodeId, QStringLiteral("local"));
    }

    // Trials are created lazily: while a new one waits, the searcher is not asked for another.
    void aWaitingNewTrialHoldsTheSearcherBack() {
        ScriptedScheduler scheduler;
        TrialQueue queue(scheduler, specWithLimit(1));
        Script script;
        script.add(TrialStatus::Running);
        script.add(TrialStatus::Pending);
        queue.beginPass();
        const QueueStep step = queue.next(script.view());
        QCOMPARE(step.kind, QueueStep::Kind::Wait);
        QCOMPARE(step.cause, WaitCause::ConcurrencyLimit);
        QCOMPARE(step.reason, QStringLiteral("max_concurrent_trials (1) reached"));
    }

    // Under serve's fair queue a trial waits, with the server's reason, once the experiment runs
    // as many trials as it was granted; with a slot more it starts.
    void theServersSlotsCapTheTrialsRunning() {
        ScriptedScheduler scheduler;
        TrialQueue queue(scheduler, specWithLimit(0));
        Script script;
        script.add(TrialStatus::Running);
        script.add(TrialStatus::Pending);
        QueueView view = script.view();
        view.sharedSlots = 1;
        view.sharedSlotsWhy = QStringLiteral("priority 3 experiment 'big' comes first");
        queue.beginPass();
        const QueueStep step = queue.next(view);
        QCOMPARE(step.kind, QueueStep::Kind::Wait);
        QCOMPARE(step.cause, WaitCause::SharedQueue);
        QCOMPARE(step.reason,
                 QStringLiteral("queued by the server: priority 3 experiment 'big' comes first"));
        view.sharedSlots = 2;
        queue.beginPass();
        QCOMPARE(queue.next(view).kind, QueueStep::Kind::Start);
    }

    // ... and while the scheduler holds a new trial back (none chosen), no other is created.
    void aNewTrialTheSchedulerHoldsBackHoldsTheSearcherBack() {
        ScriptedScheduler scheduler;
        scheduler.choosesNone = true;
        TrialQueue queue(scheduler, specWithLimit(0));
        Script script;
        script.add(TrialStatus::Pending);
        queue.beginPass();
        const QueueStep step = queue.next(script.view());
        QCOMPARE(step.kind, QueueStep::Kind::Wait);
        QCOMPARE(step.cause, WaitCause::Nothing);
    }

    void aTrialThatFitsNoNodeWaitsWithTheReason() {
        ScriptedScheduler scheduler;
        TrialQueue queue(scheduler, specWithLimit(0));
        Script script;
        script.nodes = {nodeWith("local", 1)};
        script.nodes[0].cpuUsedMilli = toMilli(1);
        script.add(TrialStatus::Running);
        script.add(TrialStatus::Pending);
        queue.beginPass();
        const QueueStep step = queue.next(script.view());
        QCOMPARE(step.kind, QueueStep::Kind::Wait);
        QCOMPARE(step.cause, WaitCause::Resources);
        QVERIFY2(step.reason.startsWith(QStringLiteral("waiting for resources: ")),
                 qPrintable(step.reason));
    }

    // A searcher that waits while nothing runs (it waits on trials that wait on it) is told to
    // the scheduler once a pass; then the pass ends.
    void aWaitingSearcherWithNothingRunningIsToldOncePerPass() {
        ScriptedScheduler scheduler;
        TrialQueue queue(scheduler, specWithLimit(0));
        Script script;
        queue.beginPass();
        QCOMPARE(queue.next(script.view()).kind, QueueStep::Kind::Suggest);
        queue.searcherAnswered(Suggestion::Kind::Wait);
        QCOMPARE(queue.next(script.view()).kind, QueueStep::Kind::SearcherIdle);
        QCOMPARE(queue.next(script.view()).kind, QueueStep::Kind::Suggest);
        queue.searcherAnswered(Suggestion::Kind::Wait);
        const QueueStep last = queue.next(script.view());
        QCOMPARE(last.kind, QueueStep::Kind::Wait);
        QCOMPARE(last.cause, WaitCause::Nothing);
        queue.beginPass();  // a new pass may tell it again
        QCOMPARE(queue.next(script.view()).kind, QueueStep::Kind::Suggest);
        queue.searcherAnswered(Suggestion::Kind::Wait);
        QCOMPARE(queue.next(script.view()).kind, QueueStep::Kind::SearcherIdle);
    }

    void aWaitingSearcherWithTrialsRunningEndsThePass() {
        ScriptedScheduler scheduler;
        TrialQueue queue(scheduler, specWithLimit(0));
        Script script;
        script.add(TrialStatus::Running);
        queue.beginPass();
        QCOMPARE(queue.next(script.view()).kind, QueueStep::Kind::Suggest);
        queue.searcherAnswered(Suggestion::Kind::Wait);
        QCOMPARE(queue.next(script.view()).kind, QueueStep::Kind::Wait);
    }

    void aFinishedSearcherIsNotAskedAgain() {
        ScriptedScheduler scheduler;
        TrialQueue queue(scheduler, specWithLimit(0));
        Script script;
        script.add(TrialStatus::Terminated);
        script.searcherFinished = true;
        queue.beginPass();
        QCOMPARE(queue.next(script.view()).kind, QueueStep::Kind::Wait);
    }

    // Trials the scheduler keeps PAUSED (HyperBand's, at a rung) do not hold new ones back.
    void pausedTrialsTheSchedulerKeepsDoNotHoldNewOnesBack() {
        ScriptedScheduler scheduler;
        scheduler.runsPaused = false;
        TrialQueue queue(scheduler, specWithLimit(0));
        Script script;
        script.add(TrialStatus::Paused);
        queue.beginPass();
        QCOMPARE(queue.next(script.view()).kind, QueueStep::Kind::Suggest);
    }

    // PBT shares slots: one member that never ran is kept queued beside the paused ones, so
    // every member gets created and its turn.
    void aSchedulerThatSharesSlotsKeepsANewMemberQueued() {
        ScriptedScheduler scheduler;
        scheduler.shares = true;
        TrialQueue queue(scheduler, specWithLimit(1));
        Script script;
        script.add(TrialStatus::Running);
        script.add(TrialStatus::Paused, true);
        queue.beginPass();
        QCOMPARE(queue.next(script.view()).kind, QueueStep::Kind::Suggest);
        queue.searcherAnswered(Suggestion::Kind::Config);
        script.add(TrialStatus::Pending);
        const QueueStep step = queue.next(script.view());
        QCOMPARE(step.kind, QueueStep::Kind::Wait);
        QCOMPARE(step.cause, WaitCause::ConcurrencyLimit);
    }

    void aTrialHeldByTheUserNeitherWaitsNorRuns() {
        ScriptedScheduler scheduler;
        TrialQueue queue(scheduler, specWithLimit(1));
        Script script;
        script.add(TrialStatus::Pending, false, true);
        const QueueView view = script.view();
        QCOMPARE(view.waiting.size(), std::size_t(0));
        QCOMPARE(view.running, 0);
        queue.beginPass();
        QCOMPARE(queue.next(view).kind, QueueStep::Kind::Suggest);
    }

    // ----- TrialAttempt: one attempt, event by event -----

    void aCleanExitWithoutAStopFinishesTheTrial() {
        TrialAttempt attempt;
        attempt.begin();
        attempt.processStarted();
        QVERIFY(attempt.watchedForSilence());
        const ReportStep step = attempt.onReport(SchedulerDecision::proceed(), factsAt(1), {});
        QCOMPARE(step.answer, TrialAnswer::Continue);
        const AttemptOutcome outcome = attempt.onExit(exitWith(0), {}, 0);
        QCOMPARE(outcome.kind, AttemptOutcome::Kind::Terminated);
        QCOMPARE(outcome.status, TrialStatus::Terminated);
        QCOMPARE(outcome.reason, QStringLiteral("finished"));
    }

    void aStopIsAnsweredAndTheExitTerminatesWithItsReason() {
        TrialAttempt attempt;
        attempt.begin();
        const ReportStep step = attempt.onReport(
            SchedulerDecision::stop(QStringLiteral("asha: below the cutoff")), factsAt(3), {});
        QCOMPARE(step.answer, TrialAnswer::Stop);
        QVERIFY(step.policyChanged);
        QVERIFY(!attempt.takesReports());
        // Killed on the way out (exit 143): still the stop it was told.
        const AttemptOutcome outcome = attempt.onExit(exitWith(143), {}, 0);
        QCOMPARE(outcome.kind, AttemptOutcome::Kind::Terminated);
        QCOMPARE(outcome.reason, QStringLiteral("asha: below the cutoff"));
    }

    void aPeriodicCheckpointIsAskedForThenTheTrialGoesOn() {
        TrialAttempt attempt;
        attempt.begin();
        CheckpointSpec every2;
        every2.frequency = 2;
        QCOMPARE(attempt.onReport({}, factsAt(1), every2).answer, TrialAnswer::Continue);
        ReportFacts second = factsAt(2);
        second.result = QJsonObject{{"loss", 0.5}};
        QCOMPARE(attempt.onReport({}, second, every2).answer, TrialAnswer::Save);
        QVERIFY(!attempt.takesReports());
        QCOMPARE(attempt.savingIteration(), std::int64_t(2));
        QCOMPARE(attempt.savingResult().value("loss").toDouble(), 0.5);
        const CheckpointStep saved = attempt.onCheckpoint(true);
        QVERIFY(saved.asked);
        QVERIFY(saved.commit);
        QCOMPARE(saved.answer, std::optional<TrialAnswer>(TrialAnswer::Continue));
        QVERIFY(attempt.takesReports());
    }

    // A trial that names its checkpoint in the report is never asked for another.
    void aReportWithItsCheckpointIsNotAskedForOne() {
        TrialAttempt attempt;
        attempt.begin();
        CheckpointSpec every1;
        every1.frequency = 1;
        QCOMPARE(attempt.onReport({}, factsAt(1, true), every1).answer, TrialAnswer::Continue);
    }

    void aCheckpointAtEndIsSavedBeforeTheStop() {
        TrialAttempt attempt;
        attempt.begin();
        CheckpointSpec atEnd;
        atEnd.atEnd = true;
        const ReportStep step =
            attempt.onReport(SchedulerDecision::stop(QStringLiteral("done")), factsAt(5), atEnd);
        QCOMPARE(step.answer, TrialAnswer::Save);
        const CheckpointStep saved = attempt.onCheckpoint(true);
        QCOMPARE(saved.answer, std::optional<TrialAnswer>(TrialAnswer::Stop));
        QCOMPARE(attempt.onExit(exitWith(0), {}, 0).kind, AttemptOutcome::Kind::Terminated);
    }

    void aPauseSavesAndTheCleanExitPauses() {
        TrialAttempt attempt;
        attempt.begin();
        const ReportStep step =
            attempt.onReport(SchedulerDecision::pause(QStringLiteral("rung 1")), factsAt(4), {});
        QCOMPARE(step.answer, TrialAnswer::Pause);
        const CheckpointStep saved = attempt.onCheckpoint(true);
        QVERIFY(!saved.answer.has_value());  // it exits; nothing more to say
        const AttemptOutcome outcome = attempt.onExit(exitWith(0), {}, 0);
        QCOMPARE(outcome.kind, AttemptOutcome::Kind::Paused);
        QCOMPARE(outcome.reason, QStringLiteral("rung 1"));
    }

    // Ray pauses a function trainable at the checkpoint it reported: no save is asked for.
    void aPauseWithTheReportsCheckpointOnlyStopsTheProcess() {
        TrialAttempt attempt;
        attempt.begin();
        const ReportStep step = attempt.onReport(SchedulerDecision::pause(QStringLiteral("rung 1")),
                                                 factsAt(4, true), {});
        QCOMPARE(step.answer, TrialAnswer::Stop);
        QCOMPARE(attempt.onExit(exitWith(0), {}, 0).kind, AttemptOutcome::Kind::Paused);
    }

    void aPauseThatCrashesIsAFailure() {
        TrialAttempt attempt;
        attempt.begin();
        (void)attempt.onReport(SchedulerDecision::pause(QStringLiteral("rung 1")), factsAt(4), {});
        FailureSpec retryOnce;
        retryOnce.maxFailures = 1;
        const AttemptOutcome outcome = attempt.onExit(exitWith(1), retryOnce, 0);
        QCOMPARE(outcome.kind, AttemptOutcome::Kind::Retry);
        QCOMPARE(outcome.why, QStringLiteral("exited with status 1"));
        QCOMPARE(outcome.reason,
                 QStringLiteral("retrying (failure 1 of 1 allowed): exited with status 1"));
        QVERIFY(outcome.countsFailure);
    }

    void anExploitOfATrialWithoutACheckpointIsDropped() {
        TrialAttempt attempt;
        attempt.begin();
        const ReportStep step = attempt.onReport(
            SchedulerDecision::exploit(QStringLiteral("t00007"), QJsonObject{{"lr", 0.1}},
                                       QStringLiteral("pbt")),
            factsAt(4), {});
        QVERIFY(step.exploitDropped);
        QCOMPARE(step.answer, TrialAnswer::Continue);
        QVERIFY(attempt.takesReports());
    }

    void anExploitOfAnotherTrialStopsAndCopiesItsCheckpoint() {
        TrialAttempt attempt;
        attempt.begin();
        ReportFacts facts = factsAt(4);
        facts.exploitSource = ExploitSource{QStringLiteral("/x/t00007/checkpoint_000003"), 3};
        const ReportStep step = attempt.onReport(
            SchedulerDecision::exploit(QStringLiteral("t00007"), QJsonObject{{"lr", 0.1}},
                                       QStringLiteral("pbt")),
            facts, {});
        QVERIFY(step.exploitsOther);
        QCOMPARE(step.answer, TrialAnswer::Stop);
        // However the process exits, the exploit is applied.
        const AttemptOutcome outcome = attempt.onExit(exitWith(143), {}, 0);
        QCOMPARE(outcome.kind, AttemptOutcome::Kind::Exploit);
        QCOMPARE(attempt.exploitSource()->iteration, std::int64_t(3));
        QCOMPARE(attempt.exploit().config.value("lr").toDouble(), 0.1);
    }

    // pbt-replay changes a trial's config on the spot: it saves its own state and exits.
    void aSelfExploitSavesItsOwnCheckpoint() {
        TrialAttempt attempt;
        attempt.begin();
        const ReportStep step = attempt.onReport(
            SchedulerDecision::exploit(QStringLiteral("t00000"), QJsonObject{{"lr", 0.2}},
                                       QStringLiteral("replay")),
            factsAt(4), {});
        QCOMPARE(step.answer, TrialAnswer::Pause);
        QVERIFY(!attempt.onCheckpoint(true).answer.has_value());
        QCOMPARE(attempt.onExit(exitWith(0), {}, 0).kind, AttemptOutcome::Kind::Exploit);
        QVERIFY(!attempt.exploitSource().has_value());
    }

    void theUsersOrderReplacesTheSchedulersDecision() {
        TrialAttempt attempt;
        attempt.begin();
        attempt.orderAtNextReport(TrialAttempt::UserOrder::Stop);
        const ReportStep step = attempt.onReport(SchedulerDecision::proceed(), factsAt(1), {});
        QCOMPARE(step.answer, TrialAnswer::Stop);
        QCOMPARE(attempt.onExit(exitWith(0), {}, 0).reason, QStringLiteral("stopped by the user"));
    }

    // An order given while the trial runs survives an attempt that ends before reporting.
    void theUsersOrderOutlivesAnAttemptThatNeverReported() {
        TrialAttempt attempt;
        attempt.begin();
        attempt.orderAtNextReport(TrialAttempt::UserOrder::Pause);
        attempt.nodeLost(QStringLiteral("node a lost"));
        QCOMPARE(attempt.onExit({}, {}, 0).kind, AttemptOutcome::Kind::Retry);
        attempt.begin();
        QCOMPARE(attempt.number(), 2);
        QCOMPARE(attempt.onReport({}, factsAt(1), {}).answer, TrialAnswer::Pause);
    }

    void anExitWaitsForTheCheckpointsItSentFirst() {
        TrialAttempt attempt;
        attempt.begin();
        attempt.commitSent(QStringLiteral("/x/t00000/checkpoint_000002"), 2, {});
        const AttemptOutcome early = attempt.onExit(exitWith(0), {}, 0);
        QCOMPARE(early.kind, AttemptOutcome::Kind::Deferred);
        QVERIFY(!attempt.takeDeferredExit().has_value());  // still one pending
        QVERIFY(!attempt.commitAnswered(QStringLiteral("/x/other")).has_value());
        const std::optional<PendingCommit> done =
            attempt.commitAnswered(QStringLiteral("/x/t00000/checkpoint_000002"));
        QVERIFY(done.has_value());
        QCOMPARE(done->iteration, std::int64_t(2));
        const std::optional<ExitFacts> replay = attempt.takeDeferredExit();
        QVERIFY(replay.has_value());
        QCOMPARE(attempt.onExit(*replay, {}, 0).kind, AttemptOutcome::Kind::Terminated);
    }

    // Node loss is not the trial's fault: retried without counting, and commits from there
    // are not waited for.
    void aLostNodeRetriesWithoutCountingAFailure() {
        TrialAttempt attempt;
        attempt.begin();
        attempt.processStarted();
        attempt.commitSent(QStringLiteral("/x/c"), 1, {});
        attempt.nodeLost(QStringLiteral("node b lost: connection reset"));
        QVERIFY(!attempt.processRunning());
        const AttemptOutcome outcome = attempt.onExit({}, {}, 0);
        QCOMPARE(outcome.kind, AttemptOutcome::Kind::Retry);
        QVERIFY(!outcome.countsFailure);
        QCOMPARE(outcome.reason, QStringLiteral("node b lost: connection reset"));
    }

    void aHangIsAFailureThatEndsTheTrialWhenRetriesAreSpent() {
        TrialAttempt attempt;
        attempt.begin();
        attempt.processStarted();
        attempt.kill(FailureCause::TrialHung, QStringLiteral("no message for 5 s"));
        QVERIFY(!attempt.watchedForSilence());
        const AttemptOutcome outcome = attempt.onExit(exitWith(-9), {}, 0);
        QCOMPARE(outcome.kind, AttemptOutcome::Kind::Error);
        QCOMPARE(outcome.status, TrialStatus::Error);
        QCOMPARE(outcome.why, QStringLiteral("no message for 5 s"));
        QVERIFY(!outcome.stopsExperiment);
    }

    void failFastStopsTheExperimentAtTheFirstFailure() {
        TrialAttempt attempt;
        attempt.begin();
        FailureSpec failFast;
        failFast.failFast = true;
        failFast.maxFailures = 3;
        ExitFacts killed;
        killed.signal = 9;
        const AttemptOutcome outcome = attempt.onExit(killed, failFast, 0);
        QCOMPARE(outcome.kind, AttemptOutcome::Kind::Error);
        QVERIFY(outcome.stopsExperiment);
        QCOMPARE(outcome.why, QStringLiteral("killed by signal 9 (SIGKILL)"));
    }

    // A kill never turns a clean stop into a failure's cause once an interrupt has come, and an
    // interrupt (Ctrl-C, a mistake in the experiment) requeues the trial without blaming it.
    void anInterruptRequeuesWithoutBlame() {
        TrialAttempt attempt;
        attempt.begin();
        attempt.interrupt(QStringLiteral("interrupted"));
        attempt.kill(FailureCause::ProtocolViolation, QStringLiteral("bad line"));
        const AttemptOutcome outcome = attempt.onExit(exitWith(1), {}, 0);
        QCOMPARE(outcome.kind, AttemptOutcome::Kind::Requeued);
        QCOMPARE(outcome.reason, QStringLiteral("interrupted"));
        QVERIFY(!outcome.countsFailure);
    }

    void theTimeBudgetStopsOnlyATrialThatIsNotEndingAlready() {
        TrialAttempt attempt;
        attempt.begin();
        QVERIFY(attempt.stopNow(QStringLiteral("time_budget_s (10 s) spent")));
        QVERIFY(!attempt.stopNow(QStringLiteral("again")));
        QCOMPARE(attempt.onExit(exitWith(143), {}, 0).reason,
                 QStringLiteral("time_budget_s (10 s) spent"));
    }

    void anUnaskedCheckpointIsKeptAndTheTrialGoesOn() {
        TrialAttempt attempt;
        attempt.begin();
        const CheckpointStep step = attempt.onCheckpoint(true);
        QVERIFY(!step.asked);
        QVERIFY(step.commit);
        QCOMPARE(step.answer, std::optional<TrialAnswer>(TrialAnswer::Continue));
    }

    void aTrialThatCannotSaveOnRequestIsWarnedAbout() {
        TrialAttempt attempt;
        attempt.begin();
        CheckpointSpec every1;
        every1.frequency = 1;
        QCOMPARE(attempt.onReport({}, factsAt(1), every1).answer, TrialAnswer::Save);
        const CheckpointStep step = attempt.onCheckpoint(false);
        QVERIFY(step.cannotSave);
        QVERIFY(!step.commit);
        QCOMPARE(step.answer, std::optional<TrialAnswer>(TrialAnswer::Continue));
    }

    // The median rule's give-way pause of a function trainable (no save function, checkpoints
    // only through report): pausing it would start it again from nothing, so it keeps running,
    // and is not asked again (issue 31: trials restarted from iteration 0 and never stopped).
    void aGiveWayPauseATrialCannotSaveForIsDropped() {
        TrialAttempt attempt;
        attempt.begin();
        const SchedulerDecision giveWay = SchedulerDecision::giveWay(QStringLiteral("give way"));
        QCOMPARE(attempt.onReport(giveWay, factsAt(3), {}).answer, TrialAnswer::Save);
        const CheckpointStep declined = attempt.onCheckpoint(false);
        QVERIFY(declined.cannotSave);
        QVERIFY(declined.pauseDropped);
        QCOMPARE(declined.answer, std::optional<TrialAnswer>(TrialAnswer::Continue));
        QCOMPARE(attempt.ending(), TrialAttempt::Ending::None);
        QCOMPARE(attempt.onReport(giveWay, factsAt(4), {}).answer, TrialAnswer::Continue);
        QCOMPARE(
            attempt
                .onReport(SchedulerDecision::stop(QStringLiteral("median: worse")), factsAt(5), {})
                .answer,
            TrialAnswer::Stop);
        const AttemptOutcome outcome = attempt.onExit(exitWith(0), {}, 0);
        QCOMPARE(outcome.kind, AttemptOutcome::Kind::Terminated);
        QCOMPARE(outcome.reason, QStringLiteral("median: worse"));
    }

    // The roster answers what the loop asks on every event without walking every trial; its
    // answers must be those a walk gives, past t99999 (where ids stop sorting by creation).
    void theRosterKeepsWaitingTrialsInCreationOrder() {
        TrialRoster roster;
        roster.set(100000, {TrialStatus::Pending, false, false});
        roster.set(99999, {TrialStatus::Paused, false, true});
        roster.set(5, {TrialStatus::Running, false, true});
        roster.set(7, {TrialStatus::Pending, true, false});  // held by the user
        QCOMPARE(std::vector<std::int64_t>(roster.waiting().begin(), roster.waiting().end()),
                 (std::vector<std::int64_t>{99999, 100000}));
        QCOMPARE(roster.waitingNew(), 1);
        QCOMPARE(int(roster.running().size()), 1);
        QCOMPARE(int(roster.held().size()), 1);
        roster.set(100000, {TrialStatus::Running, false, true});
        roster.set(5, {TrialStatus::Terminated, false, true});
        roster.set(7, {TrialStatus::Pending, false, false});
        QCOMPARE(std::vector<std::int64_t>(roster.waiting().begin(), roster.waiting().end()),
                 (std::vector<std::int64_t>{7, 99999}));
        QCOMPARE(roster.waitingNew(), 1);
        QVERIFY(roster.held().empty());
        QCOMPARE(roster.counts().of(TrialStatus::Running), 1);
        QCOMPARE(roster.counts().of(TrialStatus::Terminated), 1);
        QCOMPARE(roster.counts().finished(), 1);
        QCOMPARE(roster.counts().total(), 4);
    }

    // The loop finds a trial by id or by creation index without a tree walk, past t99999 and in
    // a history with a gap, and a tick saves only the trials whose row changed, each once.
    void theTrialTableFindsTrialsAndHandsOutChangedOnesOnce() {
        TrialTable table;
        for (const std::int64_t index : {0, 1, 2, 4, 100000}) {  // 3 is missing
            LoopTrial live;
            live.trial.index = index;
            live.trial.id = trialIdForIndex(index);
            table.add(std::move(live));
        }
        QCOMPARE(int(table.size()), 5);
        QCOMPARE(table.find(QStringLiteral("t100000"))->trial.index, std::int64_t(100000));
        QCOMPARE(table.byIndex(4).trial.id, QStringLiteral("t00004"));
        QCOMPARE(table.byIndex(100000).trial.id, QStringLiteral("t100000"));
        QVERIFY(table.find(QStringLiteral("t00003")) == nullptr);
        QVERIFY(table.takeDirty().empty());
        table.markDirty(table.byIndex(4));
        table.markDirty(table.byIndex(1));
        table.markDirty(table.byIndex(4));
        std::vector<LoopTrial*> changed = table.takeDirty();
        QCOMPARE(int(changed.size()), 2);
        QCOMPARE(changed[0]->trial.id, QStringLiteral("t00004"));
        QCOMPARE(changed[1]->trial.id, QStringLiteral("t00001"));
        QVERIFY(!changed[0]->dirty);
        QVERIFY(table.takeDirty().empty());
        // Saved some other way in between (dirty cleared): not handed out again.
        table.markDirty(table.byIndex(2));
        table.byIndex(2).dirty = false;
        QVERIFY(table.takeDirty().empty());
        std::vector<QString> order;
        for (const LoopTrial& live : table) {
            order.push_back(live.trial.id);
        }
        QCOMPARE(order.back(), QStringLiteral("t100000"));
    }

    // Issue 31: a trial that ignores its stop (catches SystemExit) was never ended.
    void aTrialToldToStopThatStaysIsOverdueAfterItsGrace() {
        TrialAttempt attempt;
        attempt.begin();
        attempt.processStarted();
        attempt.answerSent(attempt.onReport({}, factsAt(1), {}).answer, 100);
        QVERIFY(!attempt.exitOverdue(1000, 30));  // going on is no ending
        const TrialAnswer stop =
            attempt.onReport(SchedulerDecision::stop(QStringLiteral("max_t")), factsAt(2), {})
                .answer;
        attempt.answerSent(stop, 200);
        attempt.answerSent(stop, 220);  // the grace counts from the first
        QVERIFY(!attempt.exitOverdue(229, 30));
        QVERIFY(attempt.exitOverdue(230, 30));
        attempt.forcedToEnd();
        QVERIFY(!attempt.exitOverdue(400, 30));  // ended once, by its node
        // Forced or not, it was stopped: TERMINATED with the stop's reason, no failure.
        ExitFacts killed;
        killed.signal = 9;
        const AttemptOutcome outcome = attempt.onExit(killed, {}, 0);
        QCOMPARE(outcome.kind, AttemptOutcome::Kind::Terminated);
        QCOMPARE(outcome.reason, QStringLiteral("max_t"));
        QVERIFY(!attempt.exitOverdue(400, 0));  // its process is gone
    }

    void aGiveWayPauseATrialSavesForPausesAtThatCheckpoint() {
        TrialAttempt attempt;
        attempt.begin();
        const SchedulerDecision giveWay = SchedulerDecision::giveWay(QStringLiteral("give way"));
        QCOMPARE(attempt.onReport(giveWay, factsAt(3), {}).answer, TrialAnswer::Save);
        const CheckpointStep saved = attempt.onCheckpoint(true);
        QVERIFY(saved.commit);
        QCOMPARE(saved.answer, std::optional<TrialAnswer>(TrialAnswer::Stop));
        const AttemptOutcome outcome = attempt.onExit(exitWith(0), {}, 0);
        QCOMPARE(outcome.kind, AttemptOutcome::Kind::Paused);
        QCOMPARE(outcome.reason, QStringLiteral("give way"));
        // With the report's own checkpoint it just stops, as any pause.
        TrialAttempt named;
        named.begin();
        QCOMPARE(named.onReport(giveWay, factsAt(3, true), {}).answer, TrialAnswer::Stop);
        QCOMPARE(named.onExit(exitWith(0), {}, 0).kind, AttemptOutcome::Kind::Paused);
    }
};

QTEST_APPLESS_MAIN(TestTrialLoop)
#include "test_trial_loop.moc"
