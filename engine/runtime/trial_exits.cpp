// The part of ExperimentRunner that ends an attempt: the kill it sends, and what the trial
// becomes once its process has exited (the attempt's outcome, core/trial_attempt.h): finished,
// paused, exploited (PBT), retried or failed for good.
#include <QJsonArray>
#include <QTimer>

#include "api/events.h"
#include "runtime/experiment_runner.h"
#include "runtime/recovery.h"

namespace tunedeck {

namespace {

// How long an unasked-for exit on an elastic node waits for the node's loss: srun ends within a
// second or two of its allocation (the trial's signal and srun's end race by milliseconds).
constexpr int kNodeLossVerdictMs = 5000;

}  // namespace

void ExperimentRunner::killTrial(LiveTrial& live, FailureCause cause, const QString& message) {
    if (live.trial.status != TrialStatus::Running) {
        return;
    }
    live.attempt.kill(cause, message);
    sendToNode(live, QJsonObject{{"op", "kill"}, {"trial", live.trial.id}, {"reason", message}});
}

void ExperimentRunner::interruptTrial(LiveTrial& live, const QString& message) {
    if (live.trial.status != TrialStatus::Running) {
        return;
    }
    live.attempt.interrupt(message);
    sendToNode(live, QJsonObject{{"op", "kill"}, {"trial", live.trial.id}, {"reason", message}});
}

void ExperimentRunner::forceEnd(LiveTrial& live) {
    live.attempt.forcedToEnd();
    const QString message = tr("trial %1 was told to end and is still running %2 s later "
                               "(failure.stop_grace_s): ending it with SIGTERM, then SIGKILL")
                                .arg(live.trial.id)
                                .arg(spec_.failure.stopGraceS);
    emitEvent(events::type::kWarning, events::warning(message, live.trial.id));
    reporter_->warning(message);
    sendToNode(live, QJsonObject{{"op", "kill"}, {"trial", live.trial.id}, {"reason", message}});
}

void ExperimentRunner::onTrialExited(LiveTrial& live, const QJsonObject& message) {
    ExitFacts exit;
    if (const QJsonValue code = message.value("code"); code.isDouble()) {
        exit.code = code.toInt();
    }
    if (const QJsonValue signal = message.value("signal"); signal.isDouble()) {
        exit.signal = signal.toInt();
    }
    exit.oomKilled = message.value("oom_killed").toBool();
    if (const QJsonValue peak = message.value("peak_rss_mb"); peak.isDouble()) {
        exit.peakRssMb = peak.toDouble();
    }
    for (const QJsonValue& line : message.value("log_tail").toArray()) {
        exit.logTail << line.toString();
    }
    // The end of a Slurm allocation (scancel, its time limit, a preemption) signals every
    // process of its step, the trial's too, and the trial's exit can reach the engine a moment
    // before srun's end does. On an elastic cluster's node, an exit the engine did not ask for
    // waits that moment: when the node is lost meanwhile, the loss decides (no failure counted).
    if (autoscaler_ && !exit.isClean() && live.attempt.ending() == TrialAttempt::Ending::None &&
        !message.value("replayed").toBool()) {
        const QString trialId = live.trial.id;
        const int attempt = live.attempt.number();
        QJsonObject replay = message;
        replay.insert("replayed", true);
        QTimer::singleShot(kNodeLossVerdictMs, this, [this, trialId, attempt, replay] {
            auto it = trials_.find(trialId);
            if (it != trials_.end() && !finished_ && it->second.attempt.number() == attempt) {
                onTrialExited(it->second, replay);
            }
        });
        return;
    }
    onTrialExited(live, exit);
}

void ExperimentRunner::onTrialExited(LiveTrial& live, const ExitFacts& exit) {
    Trial& trial = live.trial;
    if (trial.status != TrialStatus::Running) {
        return;
    }
    const AttemptOutcome outcome = live.attempt.onExit(exit, spec_.failure, trial.failures);
    if (outcome.kind == AttemptOutcome::Kind::Deferred) {
        return;  // onCommitted replays it once the checkpoints it sent first are in
    }
    release(pool_->capacities(), spec_.resourcesPerTrial, live.placement);
    live.placement = {};
    if (live.gang.placed) {
        stopGangRanks(live, tr("rank 0 has ended"));  // their places return with their exits
        live.gang = {};
    }
    using Kind = AttemptOutcome::Kind;
    switch (outcome.kind) {
        case Kind::Deferred:
            break;
        case Kind::Requeued:
        case Kind::Paused:
            setStatus(live, outcome.status, outcome.reason);
            break;
        case Kind::Terminated:
            setStatus(live, outcome.status, outcome.reason);
            scheduler_->onComplete(trial, trial.lastResult);
            searcher_->onComplete(trial.id, trial.lastResult, false);
            break;
        case Kind::Exploit:
            applyExploit(live);
            break;
        case Kind::Retry:
        case Kind::Error:
            onFailed(live, outcome, exit);
            break;
    }
    savePolicyState();
    pump();
}

void ExperimentRunner::onFailed(LiveTrial& live, const AttemptOutcome& outcome,
                                const ExitFacts& exit) {
    Trial& trial = live.trial;
    if (outcome.countsFailure) {
        ++trial.failures;
    }
    trial.errorMessage = outcome.why;
    if (!exit.logTail.isEmpty()) {
        trial.errorMessage +=
            QStringLiteral("\n--- last lines of %1/trial.log ---\n%2")
                .arg(trialFolder(options_.experimentDir, trial.id), exit.logTail.join('\n'));
    }
    emitEvent(
        events::type::kWarning,
        events::warning(tr("trial %1 failed: %2").arg(trial.id, trial.errorMessage), trial.id));
    setStatus(live, outcome.status, outcome.reason);
    if (outcome.kind != AttemptOutcome::Kind::Error) {
        return;
    }
    scheduler_->onError(trial);
    searcher_->onComplete(trial.id, trial.lastResult, true);
    if (outcome.stopsExperiment) {
        // `raise`: the trial's error as Ray raises it, its log's last lines included.
        failExperiment(
            kExitTrialErrors,
            tr("fail_fast: trial %1 failed: %2")
                .arg(trial.id, spec_.failure.failFastRaise ? trial.errorMessage : outcome.why));
    }
}

void ExperimentRunner::applyExploit(LiveTrial& live) {
    Trial& trial = live.trial;
    const SchedulerDecision exploit = live.attempt.exploit();
    const std::optional<ExploitSource> source = live.attempt.exploitSource();
    const bool self = !source.has_value();
    const QString copied = source ? source->path : QString();
    ExploitRecord record;
    record.trialId = trial.id;
    record.sourceTrialId = exploit.source;
    record.iteration = trial.iteration;
    record.sourceIteration = self ? trial.checkpointIteration : source->iteration;
    record.oldConfig = trial.config;
    record.newConfig = exploit.config;
    record.reason = exploit.reason;
    record.timestamp = now();
    if (!self) {
        // The copy becomes this trial's checkpoint at its own iteration: its curve goes on
        // from where it is, with the source's weights.
        const QString to = checkpointFolder(options_.experimentDir, trial.id, trial.iteration);
        QJsonObject manifest = checkpointManifest(trial.id, trial.iteration, trial.lastResult);
        manifest.insert("copied_from", exploit.source);
        const Status copiedOk = copyCheckpoint(copied, to, manifest);
        if (--pinnedCheckpoints_[copied] <= 0) {
            pinnedCheckpoints_.erase(copied);
        }
        if (!copiedOk) {
            emitEvent(events::type::kWarning,
                      events::warning(tr("trial %1 could not copy the checkpoint of trial %2: %3; "
                                         "it continues from its own")
                                          .arg(trial.id, exploit.source, copiedOk.message()),
                                      trial.id));
            setStatus(live, TrialStatus::Pending, tr("exploit failed; resuming"));
            return;
        }
        QJsonObject result = trial.lastResult;
        supersedeCheckpointAt(live, to);
        const std::int64_t id = store_->addCheckpoint(trial.id, trial.iteration, to, result, now());
        live.checkpoints.push_back({id, trial.iteration, result});
        live.checkpointPaths[id] = to;
        trial.checkpointPath = to;
        trial.checkpointIteration = trial.iteration;
        emitEvent(events::type::kCheckpoint, events::checkpoint(trial.id, trial.iteration, to));
    }
    trial.config = exploit.config;
    store_->addExploit(record);
    emitEvent(events::type::kExploit,
              events::exploit(record.trialId, record.sourceTrialId, record.iteration,
                              record.sourceIteration, record.oldConfig, record.newConfig,
                              record.reason, floatPathsOf(spec_.searchSpace, record.oldConfig),
                              floatPathsOf(spec_.searchSpace, record.newConfig)));
    setStatus(live, TrialStatus::Pending, exploit.reason);
    applyRetention(live);
}

}  // namespace tunedeck
