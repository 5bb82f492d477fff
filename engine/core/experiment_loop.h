// The experiment as one state machine: every decision of a run, from the searcher's next trial
// to the run's exit code. It takes typed inputs — a trial's process started, a line it wrote, a
// checkpoint committed or not, its exit, a node lost, the user's orders, the recovered history,
// and tick() for every timeout and delayed verdict — and acts only through the environment it is
// given (core/loop_environment.h): the history it records into, the nodes it places on, the clock,
// and the effects the runtime carries out. So the same loop runs the real engine
// (engine/runtime/experiment_runner.h executes its effects over the worker agents and SQLite) and
// the deterministic simulation (tests/simulation), which drives it through millions of seeded
// scenarios on a virtual clock.
//
// The parts it is made of are pure and tested on their own: which trial runs next
// (trial_queue.h), one attempt of a trial (trial_attempt.h), where each trial stands
// (trial_roster.h), reports (trial_report.h), the run's end (experiment_end.h), retention and
// failures (checkpoint_policy.h, failure_policy.h). Not thread-safe: one thread calls it.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "core/checkpoint_policy.h"
#include "core/exit_description.h"
#include "core/experiment_limits.h"
#include "core/experiment_spec.h"
#include "core/exploit_copies.h"
#include "core/failure_policy.h"
#include "core/gang_placement.h"
#include "core/loop_environment.h"
#include "core/parameter_requests.h"
#include "core/placement.h"
#include "core/scheduler.h"
#include "core/searcher.h"
#include "core/trial.h"
#include "core/trial_attempt.h"
#include "core/trial_queue.h"
#include "core/trial_report.h"
#include "core/trial_roster.h"
#include "core/trial_table.h"

namespace tunedeck {

// Exit codes of `run` and `resume` (README, --help).
inline constexpr int kExitFinished = 0;
inline constexpr int kExitTrialErrors = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInterrupted = 3;

// A trial as the history had it when the run (re)started; runtime/recovery.h fills it.
struct RecoveredLoopTrial {
    Trial trial;
    std::vector<CheckpointRecord> checkpoints;
    std::map<std::int64_t, QString> checkpointPaths;
    double startedAt = 0;
    double finishedAt = 0;
};

struct RecoveredRun {
    std::vector<RecoveredLoopTrial> trials;  // creation order
    QJsonObject searcherState;
    QJsonObject schedulerState;
    std::vector<LimitsChange> limits;  // set_limits changes, in the order they were made
    std::int64_t resultCount = 0;
    QStringList notices;  // shown as warnings
};

// One line of a trial's channel (engine/sdk/PROTOCOL.md), as the node relayed it.
struct TrialLine {
    enum class Kind { Report, Checkpoint, Log, Done, Heartbeat, Suggest, Unknown };
    Kind kind = Kind::Unknown;
    QJsonValue metrics;  // Report: the result as the trial wrote it
    QString path;        // Report: the checkpoint folder it names; Checkpoint: the saved folder
    bool namesPath = false;
    QString text;         // Log: the message; Unknown: the type it gave
    QJsonObject request;  // Suggest: the line (its `name` and `distribution`)
};
TrialLine decodeTrialLine(const QJsonObject& line);

// What the experiment runs and could start now: serve's queue and an elastic cluster's
// autoscaler both size to it. `waiting`: trials created and waiting (not held by the user);
// `future`: trials the searcher will still add, at most `mostFuture`. With max_concurrent_trials,
// waiting + future never exceed the room it leaves. Empty while the experiment stops or has ended.
struct TrialDemand {
    std::int64_t running = 0;
    std::vector<QString> waiting;
    std::int64_t future = 0;
};

class ExperimentLoop {
  public:
    // `sharedSlots`: under serve's fair queue, no trial starts until setSharedSlots grants room.
    ExperimentLoop(ExperimentSpec spec, QString experimentDir, LoopEnvironment env,
                   bool sharedSlots);
    ~ExperimentLoop();
    ExperimentLoop(const ExperimentLoop&) = delete;
    ExperimentLoop& operator=(const ExperimentLoop&) = delete;

    // The first input of every run, fresh or resumed: the history as recovery left it. A fresh
    // run is the same with nothing in it.
    Status recover(RecoveredRun run);
    // Scheduling begins (the nodes are being opened): the time budget counts from now.
    void begin();
    // Something changed that may let a trial start (a node up or unreachable, GPU memory freed).
    void schedule();

    // What a trial's node says, for attempt `attempt` (late words of an older attempt are
    // dropped). processStarted: its process runs. trialLine: a line it wrote. committed: the
    // node put a checkpoint in place at `to` (this machine's path), or could not;
    // `settleS` > 0 makes a failure wait that long for the node's loss, which then decides.
    // exited: its process ended; `settleS` > 0 (an elastic cluster's node, whose allocation may
    // be ending) makes an exit the engine did not ask for wait that long likewise.
    void processStarted(const QString& trialId, int attempt);
    void trialLine(const QString& trialId, int attempt, const TrialLine& line);
    void committed(const QString& trialId, int attempt, const QString& to, bool ok,
                   const QString& error, double settleS = 0);
    void exited(const QString& trialId, int attempt, const ExitFacts& exit, double settleS = 0);
    // The attempt fails (a protocol violation, a rank of its gang crashed, its node went away).
    void failAttempt(const QString& trialId, int attempt, FailureCause cause,
                     const QString& message);
    // The attempt never ran or cannot go on, not its fault (its node is not up, its checkpoint
    // could not be copied there): the trial waits again.
    void attemptLost(const QString& trialId, int attempt, const QString& message);
    // pbt's explore_command answered for the exploit of `trialId`: the config it goes on with,
    // or why there is none (`error`; the explored config is kept, with a warning).
    void explored(const QString& trialId, const QJsonObject& config, const QString& error);
    void nodeLost(const QString& nodeId, const QString& reason);
    // How many ranks the nodes up hold (resource_changing sizes trials to it).
    void setWorkerSlots(int count);
    // Timeouts and delayed verdicts due by now: hung trials, trials told to end that did not,
    // the time budget, an experiment that stopped waiting for its trials. Also saves what changed.
    void tick();

    // The user's orders. A running trial obeys at its next report: stop ends it (TERMINATED),
    // pause saves a checkpoint and gives its slot back (PAUSED). A waiting trial is stopped at
    // once, or held (not started) until resumeTrial. Each returns why it cannot apply.
    Status stopTrial(const QString& id);
    Status pauseTrial(const QString& id);
    Status resumeTrial(const QString& id);
    // No new trials, waiting ones TERMINATED, running ones stop at their next report.
    void stopExperiment();
    // New num_samples and/or max_concurrent_trials from now on, recorded as a `limits` event.
    Status setLimits(const LimitsChange& change);
    // serve's fair queue: at most `count` trials at once from now on, `why` shown on the waiting.
    void setSharedSlots(int count, const QString& why);
    Status setTrialNote(const QString& id, const QString& note);
    // The experiment pauses (Experiment > Pause, Pause and quit, Ctrl-C once, serve shutting
    // down): every running trial stops and reads PAUSED, the experiment reads "paused", exit
    // code 3; `resume` continues each from its latest checkpoint.
    void interrupt();
    // The run stops with `exitCode` (a mistake in the experiment, the history unwritable).
    void fail(int exitCode, const QString& message);
    // Records an event (for the runtime's own: nodes, usage, autoscaling).
    void recordEvent(const QString& type, const QJsonObject& payload);
    // A warning recorded and shown.
    void warn(const QString& message, const QString& trialId = {});

    const ExperimentSpec& spec() const { return spec_; }
    const LoopTrial* find(const QString& id) const;
    const TrialTable& trials() const { return trials_; }
    TrialDemand demand(std::int64_t mostFuture) const;
    std::optional<std::int64_t> totalTrials() const { return searcher_->totalTrials(); }
    std::int64_t resultCount() const { return resultCount_; }
    int checkpointsNotKept() const { return checkpointsNotKept_; }
    bool stopping() const { return stopping_; }
    bool isFinished() const { return finished_; }
    int exitCode() const { return exitCode_; }

  private:
    double now() const { return env_.clock->now(); }
    LoopTrial* current(const QString& trialId, int attempt);
    LoopTrial& byIndex(std::int64_t index) { return trials_.byIndex(index); }

    // Scheduling: which trial starts next, and when the run is over.
    void pump();
    Suggestion::Kind askSearcher();
    void tellSchedulerWhoWaits();
    LoopTrial& addTrial(QJsonObject config);
    void startTrial(LoopTrial& live);
    void maybeFinish();
    void finish(int exitCode, const QString& outcome);

    // Where a trial stands: its status (saved, an event, the roster), a waiting trial's reason.
    void setStatus(LoopTrial& live, TrialStatus status, const QString& reason);
    void setPendingReason(LoopTrial& live, const QString& reason);
    void restand(const LoopTrial& live);
    void holdForUser(LoopTrial& live, bool held);
    void saveTrial(LoopTrial& live);
    void savePolicyState(bool now = false);
    void emitEvent(const QString& type, const QJsonObject& payload);

    // Trials the experiment no longer runs: those a scheduler gave up on, those whose
    // checkpoint already meets their end, every trial once time_budget_s is spent.
    void applyStopOrders();
    void finishTrialsAtTheirEnd();
    void spendTimeBudget();
    void terminateWaiting(LoopTrial& live, const QString& reason);
    LoopTrial* findTrialForOrder(const QString& id, Status* why);

    // What a trial says.
    void onReport(LoopTrial& live, const TrialLine& line);
    void refuseReport(LoopTrial& live, const ReportProblem& problem);
    void onCheckpointWritten(LoopTrial& live, const TrialLine& line);
    void onSuggest(LoopTrial& live, const TrialLine& line);
    void sendAnswer(LoopTrial& live, TrialAnswer answer);
    QString scratchFolder(const LoopTrial& live) const;
    void commitCheckpoint(LoopTrial& live, const QString& from, std::int64_t iteration,
                          const QJsonObject& result, bool engineScratch = false);
    QJsonObject checkpointManifest(const QString& trialId, std::int64_t iteration,
                                   const QJsonObject& result) const;
    void onCommitted(LoopTrial& live, const QString& to, bool ok, const QString& error);
    void checkpointNotKept(const LoopTrial& live, std::int64_t iteration, const QString& why);
    void applyRetention(LoopTrial& live);
    // Forgets the trial's checkpoint rows for `folder`, which a new checkpoint replaced.
    void supersedeCheckpointAt(LoopTrial& live, const QString& folder);

    // How an attempt ends.
    void killTrial(LoopTrial& live, FailureCause cause, const QString& message);
    void interruptTrial(LoopTrial& live, const QString& message);
    void forceEnd(LoopTrial& live);
    void onTrialExited(LoopTrial& live, const ExitFacts& exit);
    void onFailed(LoopTrial& live, const AttemptOutcome& outcome, const ExitFacts& exit);
    // The exploit `decision` of `live` (its attempt ended for it, or it waits): `source` copied
    // into it (none: a self-exploit), its config changed, recorded; PENDING.
    void applyExploit(LoopTrial& live, const SchedulerDecision& decision,
                      const std::optional<ExploitSource>& source);
    // Applies the exploit now, or, while a checkpoint of its source is on its way, once that
    // is committed or given up (releaseExploitsAwaiting).
    void exploitWhenCopyable(LoopTrial& live, const SchedulerDecision& decision,
                             const std::optional<ExploitSource>& source);
    void copyNewest(LoopTrial& live, const SchedulerDecision& decision,
                    const std::optional<ExploitSource>& decided);
    // exploitWhenCopyable, after explore_command (when pbt has one) has changed the config.
    void exploreThenCopy(LoopTrial& live, const SchedulerDecision& decision,
                         const std::optional<ExploitSource>& decided);
    // Whether `live` still stands where an exploit left it (its attempt ended for the exploit,
    // or it waits held for it); clears the hold.
    bool stillExploiting(LoopTrial& live);
    void releaseExploitsAwaiting(const LoopTrial& source);
    // The scheduler's exploits of waiting trials (Scheduler::exploitsDue).
    void applyExploitsDue();
    void warnExploitDropped(const QString& trialId, const QString& sourceId);
    // The checkpoint of `source` an exploit copies: its newest short of `stop:
    // training_iteration` (one at the end would leave the copying trial nothing to report).
    std::optional<ExploitSource> exploitSourceOf(const LoopTrial& source) const;
    void applyDueVerdicts();

    // A verdict that waits for a node's loss to decide first (see exited, committed).
    struct Verdict {
        QString trialId;
        int attempt = 0;
        double due = 0;
        std::optional<ExitFacts> exit;  // an exit, or else a failed commit:
        QString to;
        QString error;
    };

    ExperimentSpec spec_;
    QString experimentDir_;
    LoopEnvironment env_;
    std::unique_ptr<Searcher> searcher_;
    std::unique_ptr<Scheduler> scheduler_;
    ParameterRequests parameterRequests_;
    TrialQueue queue_;
    TrialTable trials_;
    TrialRoster roster_;
    std::int64_t nextTrialIndex_ = 0;
    bool searcherFinished_ = false;
    int sharedSlots_ = -1;  // -1: not under serve's queue
    QString sharedSlotsWhy_;
    int waitingTold_ = 0;  // what the scheduler was last told by tellSchedulerWhoWaits
    bool policyStateDirty_ = false;
    std::vector<StopOrder> heldStopOrders_;  // for trials still pausing when ordered
    ExploitCopies exploitCopies_;
    std::vector<Verdict> verdicts_;
    bool stopping_ = false;
    double stoppingSince_ = 0;
    bool finished_ = false;
    int exitCode_ = kExitFinished;
    int pendingExitCode_ = kExitFinished;
    QString pendingOutcome_;
    std::int64_t resultCount_ = 0;
    int checkpointsNotKept_ = 0;
    std::optional<double> budgetEndsAt_;
    bool budgetSpent_ = false;
};

}  // namespace tunedeck
