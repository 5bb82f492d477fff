// One attempt of a trial (from its start on a node to its process's exit) as an explicit state
// machine: what is answered to each report, when a checkpoint is asked for, which checkpoint
// commits the exit waits for, and how the attempt's end and exit code map to the trial's next
// status (RUNTIME.md, "How an attempt ends"). The runtime carries the steps out (lines to the
// node, rows in the store, events); every decision is here, so a test can script an attempt
// event by event. Pure: no I/O, no clock.
//
//   begin ─▶ Running ──report──▶ Running            (answer continue)
//               │  └──report──▶ Saving ──checkpoint──▶ Running | Ending
//               │                    (save then continue / stop / pause; a give-way pause the
//               │                     trial cannot save for is dropped: Running)
//               └──stop, pause, exploit, kill, interrupt──▶ Ending
//   Running | Saving | Ending ──exit──▶ (commits pending? wait for them) ──▶ Outcome
#pragma once

#include <QJsonObject>
#include <QString>
#include <cstdint>
#include <map>
#include <optional>

#include "core/exit_description.h"
#include "core/experiment_spec.h"
#include "core/failure_policy.h"
#include "core/scheduler.h"
#include "core/trial.h"

namespace tunedeck {

// Why a trial of a paused experiment is PAUSED; a trial paused so waits as PENDING ("resumed")
// once the experiment is resumed (runtime/recovery.cpp), until it starts again.
inline constexpr char kExperimentPausedReason[] = "experiment paused";

// What the engine says back to a trial that waits on its report.
enum class TrialAnswer {
    Continue,
    Stop,   // end now (TERMINATED, or PAUSED / exploited when the attempt is ending so)
    Save,   // write a checkpoint, then wait for the answer that follows it
    Pause,  // write a checkpoint and exit
};

// Another trial's committed checkpoint that a PBT exploit copies.
struct ExploitSource {
    QString path;
    std::int64_t iteration = 0;
};

// What the attempt needs to know about a report beside the scheduler's decision.
struct ReportFacts {
    QString trialId;
    std::int64_t iteration = 0;
    QJsonObject result;            // as recorded (a checkpoint asked for is taken with it)
    bool namesCheckpoint = false;  // report(..., checkpoint=DIR)
    // The latest committed checkpoint of the trial an exploit copies; none when it has none.
    std::optional<ExploitSource> exploitSource;
    // That trial has a checkpoint on its way (then the exploit waits for it even with none yet).
    bool exploitSourceOnItsWay = false;
};

struct ReportStep {
    TrialAnswer answer = TrialAnswer::Continue;
    // Exploit of another trial that has no checkpoint yet: dropped, the trial goes on (warn).
    bool exploitDropped = false;
    // The attempt ends to take another trial's checkpoint (pin `exploitSource`, if any, until
    // copied; with none, the source's first checkpoint is on its way).
    bool exploitsOther = false;
    // The searcher's and scheduler's state changed in a way worth saving at once.
    bool policyChanged = false;
};

// A `checkpoint` message of the trial (its save function ran).
struct CheckpointStep {
    bool asked = false;                 // the answer to the engine's Save or Pause
    bool commit = false;                // it names a folder: commit it
    bool cannotSave = false;            // asked, but the trial named none (no save function): warn
    bool pauseDropped = false;          // ... and the give-way pause it was for is dropped
    std::optional<TrialAnswer> answer;  // what to answer now (none: the trial exits)
};

// A checkpoint sent to the node for commit, awaited by the attempt's exit.
struct PendingCommit {
    std::int64_t iteration = 0;
    QJsonObject result;
};

struct AttemptOutcome {
    enum class Kind {
        Deferred,    // checkpoint commits are pending: the exit is replayed once they are done
        Requeued,    // PENDING again, not the trial's fault (interrupted, its node lost)
        Terminated,  // finished: stopped, or exited 0
        Paused,      // PAUSED at its checkpoint
        Exploit,     // take the exploit's checkpoint and config, then PENDING
        Retry,       // failed; PENDING, retried from its latest checkpoint
        Error,       // failed for good (ERROR)
    };
    Kind kind = Kind::Deferred;
    TrialStatus status = TrialStatus::Pending;  // the trial's next status
    QString reason;                             // shown with the status
    // Retry and Error: the failure as recorded (the trial's errorMessage is `why` plus the log
    // tail), whether it counts against max_failures, and whether it ends the experiment.
    QString why;
    bool countsFailure = false;
    bool stopsExperiment = false;
};

class TrialAttempt {
  public:
    enum class Ending { None, Stop, Pause, Exploit, Interrupt, Kill };

    // A new attempt of the trial; nothing of the previous one is kept.
    void begin();
    int number() const { return number_; }  // counts starts: late callbacks of older ones lose
    void processStarted() { processRunning_ = true; }
    bool processRunning() const { return processRunning_; }
    Ending ending() const { return ending_; }
    // Whether a silence of the trial counts as a hang (its process runs and nothing ends it).
    bool watchedForSilence() const { return processRunning_ && ending_ == Ending::None; }

    // The trial said `done`: a report after it is answered stop and not recorded.
    void trialSaidDone() { saidDone_ = true; }
    bool saidDone() const { return saidDone_; }
    // Whether a report is taken: not while the attempt ends or a checkpoint it asked for is due.
    bool takesReports() const { return ending_ == Ending::None && !saving_; }
    std::int64_t countReport() { return ++iterationsSinceRestore_; }

    // The user's order for the trial's next report (it replaces the scheduler's decision). It is
    // the trial's, not the attempt's: an attempt that ends before reporting passes it on.
    enum class UserOrder { None, Stop, Pause };
    void orderAtNextReport(UserOrder order) { userOrder_ = order; }
    UserOrder userOrder() const { return userOrder_; }

    // A report taken: `decision` is the stop criterion's or the scheduler's.
    ReportStep onReport(SchedulerDecision decision, const ReportFacts& facts,
                        const CheckpointSpec& checkpoints);
    // The trial's `checkpoint` message; `namesFolder` when it names one.
    CheckpointStep onCheckpoint(bool namesFolder);
    // After a Save: the checkpoint is written under this iteration with this result.
    std::int64_t savingIteration() const { return savingIteration_; }
    // Whether a checkpoint of this attempt is on its way: asked and not yet written, or sent for
    // commit and not yet answered.
    bool checkpointInFlight() const { return saving_ || !pendingCommits_.empty(); }
    const QJsonObject& savingResult() const { return savingResult_; }

    // Checkpoint commits: sent to the node, and answered by it (nullopt: not this attempt's).
    void commitSent(const QString& target, std::int64_t iteration, const QJsonObject& result);
    std::optional<PendingCommit> commitAnswered(const QString& target);
    // The exit that waited for the commits, once none is pending.
    std::optional<ExitFacts> takeDeferredExit();

    // Ends the attempt (the runtime sends the kill): a failure of the trial with its cause,
    // unless it is already being stopped, paused or exploited cleanly.
    void kill(FailureCause cause, const QString& message);
    // Ends the attempt without blaming the trial (the experiment stopping): PENDING.
    void interrupt(const QString& message);
    // Ends the attempt because the whole experiment pauses (Experiment > Pause, Ctrl-C once,
    // serve shutting down): PAUSED with `message`, resumed from its latest checkpoint when the
    // experiment is.
    void pauseWithExperiment(const QString& message);
    // Ends it as a stop (time budget spent): TERMINATED with `reason`. False when it was ending
    // already (then nothing is sent).
    bool stopNow(const QString& reason);
    // Its node is gone (or never took it): commits from there will not arrive.
    void nodeLost(const QString& message);
    // The experiment gave up waiting for it: what the node sends, if anything, no longer counts.
    void abandonCommits() { pendingCommits_.clear(); }

    // An answer went to the trial at `now` (seconds). A trial told to end (stop, pause) must
    // exit within the grace it is given; exitOverdue says when it has not, until it is forced.
    void answerSent(TrialAnswer answer, double now);
    bool exitOverdue(double now, double graceS) const;
    void forcedToEnd() { forced_ = true; }

    // The exploit to apply (Ending::Exploit), and the other trial's checkpoint it was decided
    // with (none for a self-exploit, which keeps its own latest, or when the other's first
    // checkpoint was on its way).
    const SchedulerDecision& exploit() const { return exploit_; }
    const std::optional<ExploitSource>& exploitSource() const { return exploitSource_; }

    // The process exited (or the node was lost). `failuresSoFar` excludes this failure.
    AttemptOutcome onExit(const ExitFacts& exit, const FailureSpec& failure, int failuresSoFar);

    // Answers `decision` (continue or stop) without asking for a checkpoint; a stop ends the
    // attempt with its reason (a report after `done`).
    TrialAnswer answer(const SchedulerDecision& decision);

  private:
    SchedulerDecision applyUserOrder(SchedulerDecision decision);

    int number_ = 0;
    bool processRunning_ = false;
    bool saidDone_ = false;
    std::int64_t iterationsSinceRestore_ = 0;
    UserOrder userOrder_ = UserOrder::None;
    Ending ending_ = Ending::None;
    QString endReason_;
    std::optional<FailureCause> failureCause_;
    QString failureMessage_;
    bool pausedWithExperiment_ = false;  // an Interrupt ending that leaves the trial PAUSED
    SchedulerDecision exploit_;
    std::optional<ExploitSource> exploitSource_;
    std::optional<double> toldToEndAt_;
    bool forced_ = false;
    // The trial declined a save asked of it: later give-way pauses are dropped without asking.
    bool declinedSave_ = false;
    // A checkpoint asked for: the decision that follows it.
    bool saving_ = false;
    SchedulerDecision afterSave_;
    std::int64_t savingIteration_ = 0;
    QJsonObject savingResult_;
    std::map<QString, PendingCommit> pendingCommits_;  // by target folder
    std::optional<ExitFacts> deferredExit_;
};

}  // namespace tunedeck
