#include "core/experiment_loop.h"

#include <QDir>
#include <algorithm>
#include <limits>

#include "core/config_json.h"
#include "core/early_stop.h"
#include "core/events.h"
#include "core/experiment_end.h"
#include "core/pbt_options.h"
#include "core/run_folders.h"
#include "core/trial_note.h"
#include "core/trial_report.h"

namespace tunedeck {

namespace {

// A trial still running this long after the experiment began to stop is left to its node,
// which kills it on shutdown.
constexpr double kStoppingGraceS = 20;

}  // namespace

TrialLine decodeTrialLine(const QJsonObject& line) {
    TrialLine decoded;
    const QString type = line.value(QLatin1String("type")).toString();
    if (type == QLatin1String("report")) {
        decoded.kind = TrialLine::Kind::Report;
        decoded.metrics = line.value(QLatin1String("metrics"));
        decoded.path = line.value(QLatin1String("checkpoint")).toString();
        decoded.namesPath = !decoded.path.isEmpty();
    } else if (type == QLatin1String("checkpoint")) {
        decoded.kind = TrialLine::Kind::Checkpoint;
        const QJsonValue path = line.value(QLatin1String("path"));
        decoded.namesPath = path.isString() && !path.toString().isEmpty();
        decoded.path = path.toString();
    } else if (type == QLatin1String("log")) {
        decoded.kind = TrialLine::Kind::Log;
        decoded.text = line.value(QLatin1String("message")).toString();
    } else if (type == QLatin1String("done")) {
        decoded.kind = TrialLine::Kind::Done;
    } else if (type == QLatin1String("heartbeat")) {
        decoded.kind = TrialLine::Kind::Heartbeat;
    } else if (type == QLatin1String("suggest")) {
        decoded.kind = TrialLine::Kind::Suggest;
        decoded.request = line;
    } else {
        decoded.kind = TrialLine::Kind::Unknown;
        decoded.text = type;
    }
    return decoded;
}

ExperimentLoop::ExperimentLoop(ExperimentSpec spec, QString experimentDir, LoopEnvironment env,
                               bool sharedSlots)
    : spec_(std::move(spec)),
      experimentDir_(std::move(experimentDir)),
      env_(env),
      searcher_(makeSearcher(spec_)),
      scheduler_(makeScheduler(spec_)),
      parameterRequests_(spec_.search.name),
      queue_(*scheduler_, spec_) {
    if (sharedSlots) {
        sharedSlots_ = 0;  // none until serve's queue grants some
        sharedSlotsWhy_ = QStringLiteral("waiting for the server's first grant");
    }
}

ExperimentLoop::~ExperimentLoop() = default;

// ---- the run's start and end ---------------------------------------------------------------

Status ExperimentLoop::recover(RecoveredRun run) {
    for (const QString& notice : run.notices) {
        emitEvent(events::type::kWarning, events::warning(notice));
    }
    const bool resumed = !run.trials.empty() || !run.searcherState.isEmpty();
    if (!run.limits.empty()) {
        // Taken when they were made: only the created trials' check is left out (they only grew).
        for (const LimitsChange& change : run.limits) {
            if (Status s = applyLimitsChange(change, 0, &spec_); !s) {
                return s;
            }
        }
        searcher_ = makeSearcher(spec_);
        queue_.setMaxConcurrentTrials(spec_.maxConcurrentTrials);
    }
    if (!run.searcherState.isEmpty()) {
        if (Status s = searcher_->restoreState(run.searcherState); !s) {
            return s;
        }
    }
    if (!run.schedulerState.isEmpty()) {
        if (Status s = scheduler_->restoreState(run.schedulerState); !s) {
            return s;
        }
    }
    resultCount_ = run.resultCount;
    // The saved searcher state may be older than the history: replay what the history knows
    // (see Searcher::onTrialRecovered), completions in the order they happened.
    std::vector<const RecoveredLoopTrial*> completed;
    for (const RecoveredLoopTrial& rt : run.trials) {
        searcher_->onTrialRecovered(rt.trial.index, rt.trial.id, rt.trial.config);
        if (tunedeck::isFinished(rt.trial.status)) {
            completed.push_back(&rt);
        }
    }
    std::stable_sort(completed.begin(), completed.end(),
                     [](const RecoveredLoopTrial* a, const RecoveredLoopTrial* b) {
                         return a->finishedAt < b->finishedAt;
                     });
    for (const RecoveredLoopTrial* rt : completed) {
        searcher_->onComplete(rt->trial.id, rt->trial.lastResult,
                              rt->trial.status == TrialStatus::Error);
    }
    for (RecoveredLoopTrial& rt : run.trials) {
        LoopTrial live;
        live.trial = std::move(rt.trial);
        live.checkpoints = std::move(rt.checkpoints);
        live.checkpointPaths = std::move(rt.checkpointPaths);
        live.startedAt = rt.startedAt;
        live.finishedAt = rt.finishedAt;
        nextTrialIndex_ = std::max(nextTrialIndex_, live.trial.index + 1);
        scheduler_->onTrialAdd(live.trial);
        LoopTrial& added = trials_.add(std::move(live));
        restand(added);
        if (!tunedeck::isFinished(added.trial.status)) {
            saveTrial(added);
        }
    }
    tellSchedulerWhoWaits();
    for (const LoopTrial& live : trials_) {
        // What the history's last status event said of it (RUNNING, or PAUSED with the
        // experiment) is no longer so: a window watching sees it wait (runtime/recovery.cpp).
        if (live.trial.status == TrialStatus::Pending &&
            live.trial.pendingReason == QLatin1String("resumed")) {
            emitEvent(events::type::kTrialStatus, events::trialStatus(live.trial, "resumed"));
        }
    }
    env_.history->setExperimentStatus(QStringLiteral("running"), 0);
    emitEvent(events::type::kExperimentStarted,
              events::experimentStarted(spec_.name, experimentDir_, resumed));
    return Status::ok();
}

void ExperimentLoop::begin() {
    if (spec_.timeBudgetS) {
        budgetEndsAt_ = now() + *spec_.timeBudgetS;
        env_.effects->wakeAt(*budgetEndsAt_);
    }
}

void ExperimentLoop::schedule() {
    pump();
}

void ExperimentLoop::maybeFinish() {
    if (finished_) {
        return;
    }
    const RunEnd end =
        judgeRunEnd(roster_.counts(), stopping_, searcherFinished_, checkpointsNotKept_);
    switch (end.kind) {
        case RunEnd::Kind::NotYet:
            return;
        case RunEnd::Kind::Stopped:
            finish(pendingExitCode_, pendingOutcome_);
            return;
        case RunEnd::Kind::AllTerminated:
            finish(kExitFinished, end.summary);
            return;
        case RunEnd::Kind::TrialsErrored:
        case RunEnd::Kind::CheckpointsLost:
            finish(kExitTrialErrors, end.summary);
            return;
    }
}

void ExperimentLoop::finish(int exitCode, const QString& outcome) {
    finished_ = true;
    exitCode_ = exitCode;
    for (LoopTrial& live : trials_) {
        saveTrial(live);
    }
    // A run stopped to be resumed reads "paused" (interrupt()); "interrupted" is left for one
    // that ended without settling its trials (runtime's quitNow).
    const QString status = exitCode == kExitInterrupted ? QStringLiteral("paused")
                           : exitCode == kExitBadInput  ? QStringLiteral("failed")
                                                        : QStringLiteral("finished");
    savePolicyState(true);
    env_.history->setExperimentStatus(status, now());
    const StatusCounts& counts = roster_.counts();
    emitEvent(events::type::kExperimentFinished,
              events::experimentFinished(status, counts.of(TrialStatus::Terminated),
                                         counts.of(TrialStatus::Error)));
    env_.effects->runEnded(exitCode_, outcome);
}

void ExperimentLoop::fail(int exitCode, const QString& message) {
    if (finished_) {
        return;
    }
    if (!stopping_) {
        stopping_ = true;
        stoppingSince_ = now();
        pendingExitCode_ = exitCode;
        pendingOutcome_ = message;
        for (const std::int64_t index :
             std::vector(roster_.running().begin(), roster_.running().end())) {
            LoopTrial& live = byIndex(index);
            if (live.attempt.ending() == TrialAttempt::Ending::None) {
                interruptTrial(live, message);
            }
        }
        env_.effects->wakeAt(stoppingSince_ + kStoppingGraceS);
    }
    maybeFinish();
}

void ExperimentLoop::interrupt() {
    if (stopping_) {
        return;
    }
    const QString why = QString::fromLatin1(kExperimentPausedReason);
    for (const std::int64_t index :
         std::vector(roster_.running().begin(), roster_.running().end())) {
        LoopTrial& live = byIndex(index);
        if (live.attempt.ending() == TrialAttempt::Ending::Stop) {
            // Already told to stop (a stop criterion, the scheduler, the user): it ends
            // TERMINATED, so `resume` does not run it past its stop.
            env_.effects->endProcess(live.trial, live.placement, why);
            continue;
        }
        if (live.trial.status == TrialStatus::Running) {
            live.attempt.pauseWithExperiment(why);
            env_.effects->endProcess(live.trial, live.placement, why);
        }
    }
    fail(kExitInterrupted,
         QStringLiteral("Paused. Continue with: tunedeck-engine resume %1").arg(experimentDir_));
}

// ---- scheduling -----------------------------------------------------------------------------

void ExperimentLoop::pump() {
    LoopNodes& nodes = *env_.nodes;
    // An elastic cluster starts with no node: its waiting trials are what makes it grow.
    if (!nodes.opened() || (!nodes.anyReady() && !nodes.elastic()) || stopping_ || finished_) {
        maybeFinish();
        return;
    }
    applyStopOrders();
    applyExploitsDue();
    finishTrialsAtTheirEnd();
    if (budgetSpent_) {
        spendTimeBudget();  // a trial that paused or failed since waits no longer
        return;
    }
    if (spec_.placement == PlacementStrategy::Spread && !nodes.elastic() && !nodes.allHeardFrom()) {
        // Spread waits for every listed node's first answer: started now, each trial would go
        // to the node that answered first (RUNTIME.md, "Nodes and clusters").
        const QString reason =
            QStringLiteral("waiting for nodes still connecting (placement: spread): %1")
                .arg(nodes.describeUnavailable());
        for (const std::int64_t index :
             std::vector(roster_.waiting().begin(), roster_.waiting().end())) {
            LoopTrial& live = byIndex(index);
            if (live.trial.status == TrialStatus::Pending) {
                setPendingReason(live, reason);
            }
        }
        maybeFinish();
        return;
    }
    queue_.beginPass();
    for (;;) {
        QueueView view;
        view.waiting.reserve(roster_.waiting().size());
        for (const std::int64_t index : roster_.waiting()) {
            view.waiting.push_back(&byIndex(index).trial);
        }
        view.running = int(roster_.running().size());
        view.neverRunWaiting = roster_.waitingNew() > 0;
        view.searcherFinished = searcherFinished_;
        view.nodes = &nodes.capacities();
        view.sharedSlots = sharedSlots_;
        view.sharedSlotsWhy = sharedSlotsWhy_;
        QueueStep step = queue_.next(view);
        if (step.kind == QueueStep::Kind::Start) {
            LoopTrial& live = *trials_.find(step.trialId);
            live.placement = std::move(step.placement);
            live.gang = std::move(step.gang);
            startTrial(live);
        } else if (step.kind == QueueStep::Kind::Suggest) {
            queue_.searcherAnswered(askSearcher());
        } else if (step.kind == QueueStep::Kind::SearcherIdle) {
            scheduler_->onSearcherIdle();
            applyStopOrders();
        } else {
            if (step.cause == WaitCause::Resources) {
                if (const QString down = nodes.describeUnavailable(); !down.isEmpty()) {
                    step.reason += QStringLiteral("; nodes not up: %1").arg(down);
                }
            }
            if (step.cause != WaitCause::Nothing) {
                for (const Trial* t : view.waiting) {
                    setPendingReason(trials_.byIndex(t->index), step.reason);
                }
            }
            break;
        }
    }
    env_.effects->demandChanged();
    maybeFinish();
}

Suggestion::Kind ExperimentLoop::askSearcher() {
    Suggestion suggestion = searcher_->suggest(trialIdForIndex(nextTrialIndex_));
    if (suggestion.kind == Suggestion::Kind::Finished) {
        searcherFinished_ = true;
        // Brackets waiting for more trials are judged now; their winners may start.
        scheduler_->onSearcherIdle();
        applyStopOrders();
        savePolicyState(true);
        return Suggestion::Kind::Finished;
    }
    if (suggestion.kind == Suggestion::Kind::Wait) {
        return Suggestion::Kind::Wait;
    }
    addTrial(std::move(suggestion.config));
    return Suggestion::Kind::Config;
}

void ExperimentLoop::tellSchedulerWhoWaits() {
    const int waiting = int(roster_.waiting().size());
    if (waiting != waitingTold_) {
        waitingTold_ = waiting;
        scheduler_->onTrialsWaiting(waiting);
    }
}

LoopTrial& ExperimentLoop::addTrial(QJsonObject config) {
    LoopTrial live;
    live.trial.index = nextTrialIndex_++;
    live.trial.id = trialIdForIndex(live.trial.index);
    live.trial.config = std::move(config);
    live.trial.pendingReason = QStringLiteral("new");
    LoopTrial& added = trials_.add(std::move(live));
    restand(added);
    scheduler_->onTrialAdd(added.trial);
    saveTrial(added);
    savePolicyState();
    emitEvent(events::type::kTrialAdded,
              events::trialAdded(added.trial, floatPathsOf(spec_.searchSpace, added.trial.config)));
    tellSchedulerWhoWaits();
    return added;
}

void ExperimentLoop::startTrial(LoopTrial& live) {
    Trial& trial = live.trial;
    live.attempt.begin();
    trial.nodeId = live.placement.nodeId;
    if (Status s =
            env_.effects->startTrial(trial, live.attempt.number(), live.placement, live.gang);
        !s) {
        // Its launch cannot be put together (the trainable's program is missing): for good.
        live.placement = {};
        live.gang = {};
        trial.errorMessage = s.message();
        setStatus(live, TrialStatus::Error, s.message());
        return;
    }
    // Results after the checkpoint it restarts from are reported again by this attempt.
    env_.history->deleteResultsAfter(trial.id, trial.checkpointIteration);
    trial.iteration = trial.checkpointIteration;
    reserve(env_.nodes->capacities(), spec_.resourcesPerTrial, live.placement);
    live.lastActivityAt = now();
    live.lastReportAt = live.lastActivityAt;
    trial.pendingReason.clear();
    if (live.startedAt == 0) {
        live.startedAt = now();
    }
    setStatus(live, TrialStatus::Running,
              trial.checkpointPath.isEmpty()
                  ? QString()
                  : QStringLiteral("restored from iteration %1").arg(trial.checkpointIteration));
}

TrialDemand ExperimentLoop::demand(std::int64_t mostFuture) const {
    TrialDemand demand;
    if (stopping_ || finished_) {
        return demand;
    }
    demand.running = std::int64_t(roster_.running().size());
    for (const std::int64_t index : roster_.waiting()) {
        demand.waiting.push_back(trialIdForIndex(index));
    }
    // Trials are created one at a time, when none waits (RUNTIME.md, "Scheduling"): counted
    // alone, they would grow a cluster one node at a time, as Ray's capped pending trials do
    // (ray-project/ray #43451), and understate a queue's want. The searcher's remaining trials
    // are demand too, until it or the time budget is done.
    if (!searcherFinished_ && !budgetSpent_) {
        const std::optional<std::int64_t> total = searcher_->totalTrials();
        demand.future = std::min(
            mostFuture, total ? std::max<std::int64_t>(0, *total - nextTrialIndex_) : mostFuture);
    }
    if (spec_.maxConcurrentTrials > 0) {
        const auto room =
            std::size_t(std::max<std::int64_t>(0, spec_.maxConcurrentTrials - demand.running));
        if (demand.waiting.size() > room) {
            demand.waiting.resize(room);
        }
        demand.future =
            std::min(demand.future, std::int64_t(room) - std::int64_t(demand.waiting.size()));
    }
    return demand;
}

// ---- where a trial stands ---------------------------------------------------------------------

void ExperimentLoop::setStatus(LoopTrial& live, TrialStatus status, const QString& reason) {
    if (live.trial.status != status) {
        if (Status s = live.trial.transition(status); !s) {
            warn(s.message(), live.trial.id);
            return;
        }
        restand(live);
    }
    if (status == TrialStatus::Pending || status == TrialStatus::Paused) {
        live.trial.pendingReason = reason;
    }
    if (tunedeck::isFinished(status) && live.finishedAt == 0) {
        live.finishedAt = now();
    }
    saveTrial(live);
    // A running trial's event names the cards it was placed on (the app lists them per card).
    QJsonObject payload = events::trialStatus(
        live.trial, reason,
        status == TrialStatus::Running ? live.placement.gpuSlots : std::vector<int>{});
    if (status == TrialStatus::Running && live.gang.placed) {
        payload.insert(QStringLiteral("ranks"), events::gangRanks(live.gang));
    }
    emitEvent(events::type::kTrialStatus, payload);
    env_.effects->statusShown(live.trial, reason);
    tellSchedulerWhoWaits();
}

void ExperimentLoop::setPendingReason(LoopTrial& live, const QString& reason) {
    if (live.trial.pendingReason == reason) {
        return;
    }
    live.trial.pendingReason = reason;
    trials_.markDirty(live);
    emitEvent(events::type::kTrialStatus, events::trialStatus(live.trial, reason));
}

void ExperimentLoop::restand(const LoopTrial& live) {
    roster_.set(live.trial.index, {live.trial.status, live.heldByUser || live.awaitsExploitCopy,
                                   live.startedAt != 0});
}

void ExperimentLoop::holdForUser(LoopTrial& live, bool held) {
    live.heldByUser = held;
    restand(live);
}

void ExperimentLoop::saveTrial(LoopTrial& live) {
    env_.history->saveTrial(live.trial, live.startedAt, live.finishedAt);
    live.dirty = false;
}

void ExperimentLoop::savePolicyState(bool now) {
    if (!now) {
        policyStateDirty_ = true;
        return;
    }
    policyStateDirty_ = false;
    env_.history->saveSearchState(searcher_->saveState(), scheduler_->saveState());
}

void ExperimentLoop::emitEvent(const QString& type, const QJsonObject& payload) {
    const double t = now();
    const QString trialId = payload.value(QLatin1String("trial")).toString();
    const std::int64_t seq = env_.history->appendEvent(type, trialId, payload, t);
    env_.effects->eventRecorded(type, seq, t, payload);
}

void ExperimentLoop::recordEvent(const QString& type, const QJsonObject& payload) {
    emitEvent(type, payload);
}

void ExperimentLoop::warn(const QString& message, const QString& trialId) {
    emitEvent(events::type::kWarning, events::warning(message, trialId));
    env_.effects->warningShown(message);
}

const LoopTrial* ExperimentLoop::find(const QString& id) const {
    return trials_.find(id);
}

LoopTrial* ExperimentLoop::current(const QString& trialId, int attempt) {
    LoopTrial* live = trials_.find(trialId);
    if (live == nullptr || finished_ || live->trial.status != TrialStatus::Running ||
        live->attempt.number() != attempt) {
        return nullptr;
    }
    return live;
}

// ---- timeouts -----------------------------------------------------------------------------

void ExperimentLoop::tick() {
    if (finished_) {
        return;
    }
    const double t = now();
    if (policyStateDirty_) {
        savePolicyState(true);
    }
    applyDueVerdicts();
    for (const std::int64_t index :
         std::vector(roster_.running().begin(), roster_.running().end())) {
        LoopTrial& live = byIndex(index);
        if (live.trial.status != TrialStatus::Running) {
            continue;
        }
        // A trial whose checkpoint is still travelling to its node has not started yet.
        const bool silent = live.attempt.watchedForSilence() &&
                            t - live.lastActivityAt > spec_.failure.heartbeatTimeoutS;
        if (silent) {
            killTrial(live, FailureCause::TrialHung,
                      QStringLiteral("no message from the trial for %1 s "
                                     "(failure.heartbeat_timeout_s)")
                          .arg(spec_.failure.heartbeatTimeoutS));
        } else if (live.attempt.exitOverdue(t, spec_.failure.stopGraceS)) {
            forceEnd(live);
        }
    }
    for (LoopTrial* live : trials_.takeDirty()) {
        saveTrial(*live);
    }
    if (stopping_ && t - stoppingSince_ >= kStoppingGraceS) {
        for (const std::int64_t index :
             std::vector(roster_.running().begin(), roster_.running().end())) {
            LoopTrial& live = byIndex(index);
            live.attempt.abandonCommits();
            onTrialExited(live, ExitFacts{});  // as if its node were lost
        }
    }
    if (budgetEndsAt_ && t >= *budgetEndsAt_ && !budgetSpent_) {
        spendTimeBudget();
    }
    if (Status s = env_.history->lastError(); !s && !stopping_) {
        fail(kExitTrialErrors, QStringLiteral("cannot write the history: %1").arg(s.message()));
    }
}

void ExperimentLoop::applyDueVerdicts() {
    const double t = now();
    std::vector<Verdict> due;
    for (auto it = verdicts_.begin(); it != verdicts_.end();) {
        if (it->due <= t) {
            due.push_back(std::move(*it));
            it = verdicts_.erase(it);
        } else {
            ++it;
        }
    }
    for (const Verdict& verdict : due) {
        LoopTrial* live = current(verdict.trialId, verdict.attempt);
        if (live == nullptr) {
            continue;  // the node's loss decided, or the trial moved on
        }
        if (verdict.exit) {
            onTrialExited(*live, *verdict.exit);
        } else {
            onCommitted(*live, verdict.to, false, verdict.error);
        }
    }
}

// ---- trials the experiment no longer runs ---------------------------------------------------

void ExperimentLoop::applyStopOrders() {
    std::vector<StopOrder> orders = std::exchange(heldStopOrders_, {});
    for (StopOrder& order : scheduler_->takeStopOrders()) {
        orders.push_back(std::move(order));
    }
    for (const StopOrder& order : orders) {
        LoopTrial* found = trials_.find(order.trialId);
        if (found == nullptr) {
            continue;
        }
        LoopTrial& live = *found;
        const TrialStatus status = live.trial.status;
        if (status == TrialStatus::Running &&
            live.attempt.ending() == TrialAttempt::Ending::Pause) {
            heldStopOrders_.push_back(order);  // still saving its pause checkpoint
            continue;
        }
        if (status != TrialStatus::Paused && status != TrialStatus::Pending) {
            continue;  // running ones are stopped at their next result; finished ones are done
        }
        terminateWaiting(live, order.reason);
    }
    if (!orders.empty()) {
        savePolicyState(true);
    }
}

void ExperimentLoop::finishTrialsAtTheirEnd() {
    bool any = false;
    // Only waiting trials can be at their end: a copy, since ending one changes the roster.
    std::vector<std::int64_t> offRun(roster_.waiting().begin(), roster_.waiting().end());
    offRun.insert(offRun.end(), roster_.held().begin(), roster_.held().end());
    for (const std::int64_t index : offRun) {
        LoopTrial& live = byIndex(index);
        const Trial& trial = live.trial;
        if (trial.checkpointPath.isEmpty()) {
            continue;
        }
        // The result the trial would start from: the one reported with its latest checkpoint.
        const auto restored = std::find_if(
            live.checkpoints.rbegin(), live.checkpoints.rend(),
            [&](const CheckpointRecord& c) { return c.iteration == trial.checkpointIteration; });
        if (restored == live.checkpoints.rend()) {
            continue;
        }
        if (const std::optional<QString> why =
                endReachedAtCheckpoint(spec_.stop, *scheduler_, restored->result)) {
            terminateWaiting(live, *why);
            any = true;
        }
    }
    if (any) {
        savePolicyState(true);
    }
}

void ExperimentLoop::spendTimeBudget() {
    if (finished_ || stopping_) {
        return;
    }
    const QString reason = QStringLiteral("time_budget_s (%1 s) spent").arg(*spec_.timeBudgetS);
    if (!budgetSpent_) {
        budgetSpent_ = true;
        warn(QStringLiteral("%1: no new trials; running ones are stopped").arg(reason));
    }
    searcherFinished_ = true;
    for (LoopTrial& live : trials_) {
        if (live.trial.status == TrialStatus::Running) {
            // Ray stops them at once rather than at their next result, which may be long.
            if (live.attempt.stopNow(reason)) {
                env_.effects->endProcess(live.trial, live.placement, reason);
            }
        } else if (!tunedeck::isFinished(live.trial.status)) {
            terminateWaiting(live, reason);
        }
    }
    savePolicyState(true);
    maybeFinish();
}

void ExperimentLoop::terminateWaiting(LoopTrial& live, const QString& reason) {
    holdForUser(live, false);
    setStatus(live, TrialStatus::Terminated, reason);
    scheduler_->onComplete(live.trial, live.trial.lastResult);
    searcher_->onComplete(live.trial.id, live.trial.lastResult, false);
}

// ---- the user's orders ----------------------------------------------------------------------

LoopTrial* ExperimentLoop::findTrialForOrder(const QString& id, Status* why) {
    LoopTrial* live = trials_.find(id);
    if (live == nullptr) {
        *why = Status::invalid(
            QStringLiteral("there is no trial '%1' in experiment '%2'").arg(id, spec_.name));
        return nullptr;
    }
    if (tunedeck::isFinished(live->trial.status)) {
        *why = Status::invalid(QStringLiteral("trial %1 has already finished (%2)")
                                   .arg(id, trialStatusName(live->trial.status)));
        return nullptr;
    }
    if (finished_ || stopping_) {
        *why = Status::invalid(QStringLiteral("experiment '%1' is ending").arg(spec_.name));
        return nullptr;
    }
    *why = Status::ok();
    return live;
}

Status ExperimentLoop::stopTrial(const QString& id) {
    Status why;
    LoopTrial* live = findTrialForOrder(id, &why);
    if (!live) {
        return why;
    }
    if (live->trial.status == TrialStatus::Running) {
        live->attempt.orderAtNextReport(TrialAttempt::UserOrder::Stop);
    } else {
        terminateWaiting(*live, QString::fromLatin1(kStoppedByUserReason));
        savePolicyState(true);
        pump();
    }
    return Status::ok();
}

Status ExperimentLoop::pauseTrial(const QString& id) {
    Status why;
    LoopTrial* live = findTrialForOrder(id, &why);
    if (!live) {
        return why;
    }
    holdForUser(*live, true);
    tellSchedulerWhoWaits();
    if (live->trial.status == TrialStatus::Running) {
        live->attempt.orderAtNextReport(TrialAttempt::UserOrder::Pause);
    } else {
        setPendingReason(*live, QStringLiteral("paused by the user"));
        pump();  // its place goes to another trial
    }
    return Status::ok();
}

Status ExperimentLoop::resumeTrial(const QString& id) {
    Status why;
    LoopTrial* live = findTrialForOrder(id, &why);
    if (!live) {
        return why;
    }
    if (!live->heldByUser) {
        return Status::invalid(QStringLiteral("trial %1 is not paused by the user (it is %2)")
                                   .arg(id, trialStatusName(live->trial.status)));
    }
    holdForUser(*live, false);
    tellSchedulerWhoWaits();
    if (live->attempt.userOrder() == TrialAttempt::UserOrder::Pause) {
        // not carried out yet: it just goes on
        live->attempt.orderAtNextReport(TrialAttempt::UserOrder::None);
    }
    // Waiting for a slot again, as Ray's resume_trial: PENDING (before trials a scheduler
    // paused), not PAUSED.
    if (live->trial.status == TrialStatus::Paused) {
        setStatus(*live, TrialStatus::Pending, QStringLiteral("resumed by the user"));
    } else if (live->trial.status != TrialStatus::Running) {
        setPendingReason(*live, QStringLiteral("resumed by the user"));
    }
    pump();
    return Status::ok();
}

void ExperimentLoop::stopExperiment() {
    if (finished_ || stopping_) {
        return;
    }
    searcherFinished_ = true;
    emitEvent(events::type::kWarning,
              events::warning(QStringLiteral("experiment '%1' stopped by the user: no new "
                                             "trials; running ones stop at their next report")
                                  .arg(spec_.name)));
    for (LoopTrial& live : trials_) {
        if (live.trial.status == TrialStatus::Running) {
            live.attempt.orderAtNextReport(TrialAttempt::UserOrder::Stop);
        } else if (!tunedeck::isFinished(live.trial.status)) {
            terminateWaiting(live, QString::fromLatin1(kStoppedByUserReason));
        }
    }
    savePolicyState(true);
    maybeFinish();
}

Status ExperimentLoop::setLimits(const LimitsChange& change) {
    if (finished_ || stopping_) {
        return Status::invalid(
            QStringLiteral("set_limits: the experiment is ending; its limits stay"));
    }
    ExperimentSpec changed = spec_;
    if (Status s = applyLimitsChange(change, nextTrialIndex_, &changed); !s) {
        return Status::invalid(QStringLiteral("set_limits: %1").arg(s.message()));
    }
    if (changed.numSamples != spec_.numSamples) {
        Status why;
        std::unique_ptr<Searcher> searcher = searcherForLimits(*searcher_, changed, &why);
        if (!searcher) {
            return Status::invalid(QStringLiteral("set_limits: %1").arg(why.message()));
        }
        searcher_ = std::move(searcher);
        // It may have more to propose now; a searcher with no more says Finished again.
        searcherFinished_ = false;
    }
    const QString was = QStringLiteral("num_samples %1, max_concurrent_trials %2")
                            .arg(spec_.numSamples)
                            .arg(spec_.maxConcurrentTrials);
    spec_.numSamples = changed.numSamples;
    spec_.maxConcurrentTrials = changed.maxConcurrentTrials;
    queue_.setMaxConcurrentTrials(spec_.maxConcurrentTrials);
    emitEvent(events::type::kLimits, events::limits(change.numSamples, change.maxConcurrentTrials,
                                                    searcher_->totalTrials()));
    if (Status s = env_.history->flush(); !s) {
        return Status::ioError(
            QStringLiteral("set_limits: cannot record the change: %1").arg(s.message()));
    }
    env_.effects->noticeShown(QStringLiteral("limits changed (control request): num_samples %1, "
                                             "max_concurrent_trials %2; were %3")
                                  .arg(spec_.numSamples)
                                  .arg(spec_.maxConcurrentTrials)
                                  .arg(was));
    savePolicyState(true);
    pump();
    return Status::ok();
}

void ExperimentLoop::setSharedSlots(int count, const QString& why) {
    if (sharedSlots_ < 0) {
        return;
    }
    sharedSlots_ = std::max(0, count);
    sharedSlotsWhy_ = why;
    pump();
}

Status ExperimentLoop::setTrialNote(const QString& id, const QString& note) {
    if (trials_.find(id) == nullptr) {
        return Status::invalid(
            QStringLiteral("there is no trial '%1' in experiment '%2'").arg(id, spec_.name));
    }
    if (Status s = checkTrialNote(note); !s) {
        return s;
    }
    // Any trial, finished or not: a note is about the trial, not an order to it.
    emitEvent(events::type::kTrialNote, events::trialNote(id, note));
    if (Status s = env_.history->flush(); !s) {
        return Status::ioError(
            QStringLiteral("set_trial_note: cannot record the note: %1").arg(s.message()));
    }
    return Status::ok();
}

void ExperimentLoop::setWorkerSlots(int count) {
    scheduler_->onWorkerSlots(count);
}

// ---- what a trial's node says -----------------------------------------------------------------

void ExperimentLoop::processStarted(const QString& trialId, int attempt) {
    if (LoopTrial* live = current(trialId, attempt)) {
        live->attempt.processStarted();
        live->lastActivityAt = now();  // its silence counts from its start on the node
    }
}

void ExperimentLoop::trialLine(const QString& trialId, int attempt, const TrialLine& line) {
    LoopTrial* found = current(trialId, attempt);
    if (found == nullptr) {
        return;
    }
    LoopTrial& live = *found;
    live.lastActivityAt = now();
    switch (line.kind) {
        case TrialLine::Kind::Report:
            if (live.attempt.saidDone()) {
                // It said it has finished: a report after that is no iteration (PROTOCOL.md).
                sendAnswer(live, live.attempt.answer(SchedulerDecision::stop(
                                     QStringLiteral("the trial said done"))));
            } else {
                onReport(live, line);
            }
            break;
        case TrialLine::Kind::Checkpoint:
            onCheckpointWritten(live, line);
            break;
        case TrialLine::Kind::Log:
            emitEvent(events::type::kLog, events::log(live.trial.id, line.text));
            break;
        case TrialLine::Kind::Done:
            live.attempt.trialSaidDone();
            break;
        case TrialLine::Kind::Heartbeat:
            break;
        case TrialLine::Kind::Suggest:
            onSuggest(live, line);
            break;
        case TrialLine::Kind::Unknown:
            killTrial(live, FailureCause::ProtocolViolation,
                      QStringLiteral("the trial sent a message of unknown type '%1'")
                          .arg(line.text.left(40)));
            break;
    }
}

void ExperimentLoop::onReport(LoopTrial& live, const TrialLine& line) {
    if (!live.attempt.takesReports()) {
        return;  // already being stopped; the kill or the pending answer decides
    }
    Trial& trial = live.trial;
    std::int64_t iteration = 0;
    if (std::optional<ReportProblem> problem =
            checkReport(line.metrics, spec_, trial.id, trial.iteration, &iteration)) {
        refuseReport(live, *problem);
        return;
    }
    const double timestamp = now();
    const double thisIter = timestamp - live.lastReportAt;
    live.lastReportAt = timestamp;
    trial.timeTotalS += thisIter;
    trial.iteration = iteration;
    const std::int64_t sinceRestore = live.attempt.countReport();

    const QJsonObject result = withAutomaticFields(
        line.metrics.toObject(),
        {iteration, trial.id, timestamp, thisIter, trial.timeTotalS, sinceRestore});
    trial.lastResult = result;
    trials_.markDirty(live);

    const std::int64_t seq = env_.history->appendResult(trial.id, iteration, timestamp, result);
    ++resultCount_;
    env_.effects->resultRecorded(trial.id, seq, timestamp, result);
    searcher_->onResult(trial.id, result);

    if (line.namesPath) {
        commitCheckpoint(live, line.path, iteration, result);
    }
    if (std::optional<ReportProblem> problem =
            checkRequiredKeys(*scheduler_, spec_, trial.id, result)) {
        refuseReport(live, *problem);
        return;
    }
    SchedulerDecision decision = decideOnResult(spec_.stop, *scheduler_, trial, result);
    if (decision.action == SchedulerDecision::Action::Pause && decision.workers > 0) {
        // resource_changing: the trial pauses here and starts again with its new size.
        const int from = trial.workers > 0 ? trial.workers : spec_.gang.workers;
        trial.workers = decision.workers;
        emitEvent(
            events::type::kTrialResources,
            events::trialResources(trial.id, iteration, from, decision.workers, decision.reason));
    }
    ReportFacts facts;
    facts.trialId = trial.id;
    facts.iteration = iteration;
    facts.result = result;
    facts.namesCheckpoint = line.namesPath;
    if (decision.action == SchedulerDecision::Action::Exploit) {
        if (const LoopTrial* source = trials_.find(decision.source)) {
            facts.exploitSource = exploitSourceOf(*source);
            facts.exploitSourceOnItsWay = source->attempt.checkpointInFlight();
        }
    }
    const QString exploitFrom = decision.source;
    const ReportStep step = live.attempt.onReport(std::move(decision), facts, spec_.checkpoint);
    if (step.exploitDropped) {
        warnExploitDropped(trial.id, exploitFrom);
    }
    if (step.exploitsOther && live.attempt.exploitSource()) {
        exploitCopies_.pin(live.attempt.exploitSource()->path);  // until it is copied
    }
    if (step.policyChanged) {
        savePolicyState(true);
    }
    sendAnswer(live, step.answer);
    applyExploitsDue();  // the members waiting at a sync point, ranked by this report
}

void ExperimentLoop::onSuggest(LoopTrial& live, const TrialLine& line) {
    // Define-by-run: the parameter joins the trial's config, saved with its row, and the value
    // is answered at once; no report is involved.
    bool added = false;
    const QJsonObject answer =
        parameterRequests_.answer(*searcher_, live.trial, line.request.value(QLatin1String("name")),
                                  line.request.value(QLatin1String("distribution")), &added);
    if (added) {
        saveTrial(live);
        savePolicyState();  // the searcher's copy of the trial's config grew with it
    }
    env_.effects->answerRequest(live.trial, live.placement, answer);
}

void ExperimentLoop::refuseReport(LoopTrial& live, const ReportProblem& problem) {
    if (problem.kind == ReportProblem::Kind::TrialFault) {
        killTrial(live, FailureCause::ProtocolViolation, problem.message);
        return;
    }
    interruptTrial(live, problem.message);  // a mistake in the experiment, not the trial's fault
    fail(kExitBadInput, problem.message);
}

QString ExperimentLoop::scratchFolder(const LoopTrial& live) const {
    return checkpointFolder(experimentDir_, live.trial.id, live.attempt.savingIteration()) +
           QStringLiteral(".tmp");
}

void ExperimentLoop::sendAnswer(LoopTrial& live, TrialAnswer answer) {
    live.attempt.answerSent(answer, now());
    const bool saves = answer == TrialAnswer::Save || answer == TrialAnswer::Pause;
    // A checkpoint asked for: the node makes the folder, empty (removing what a dead attempt
    // left there); the trial's save function writes into it.
    env_.effects->answer(live.trial, live.placement, answer,
                         saves ? scratchFolder(live) : QString());
}

void ExperimentLoop::onCheckpointWritten(LoopTrial& live, const TrialLine& line) {
    const CheckpointStep step = live.attempt.onCheckpoint(line.namesPath);
    if (!step.asked) {
        // Unasked: taken at the trial's latest report.
        if (step.commit) {
            commitCheckpoint(live, line.path, live.trial.iteration, live.trial.lastResult);
        }
    } else {
        const std::int64_t iteration = live.attempt.savingIteration();
        const QString scratch = scratchFolder(live);
        // The folder the engine named is its own and is moved; any other the trial names
        // instead is taken by the handover rule, as in a report (paths as this machine sees
        // them: the runtime maps a node's).
        const bool ours = line.namesPath && QDir::cleanPath(line.path) == QDir::cleanPath(scratch);
        if (step.commit) {
            commitCheckpoint(live, ours ? scratch : line.path, iteration,
                             live.attempt.savingResult(), ours);
        }
        if (!ours) {
            env_.effects->discardScratch(live.placement, scratch);
        }
        if (step.cannotSave) {
            const QString why = QStringLiteral(
                                    "trial %1 cannot save a checkpoint on request "
                                    "(register a save function with tunedeck.on_save)")
                                    .arg(live.trial.id);
            emitEvent(events::type::kWarning,
                      events::warning(step.pauseDropped
                                          ? QStringLiteral("%1: it keeps its slot instead of "
                                                           "giving way, so as not to start again "
                                                           "from an older checkpoint")
                                                .arg(why)
                                          : why,
                                      live.trial.id));
        }
    }
    if (step.answer) {
        sendAnswer(live, *step.answer);
    }
}

QJsonObject ExperimentLoop::checkpointManifest(const QString& trialId, std::int64_t iteration,
                                               const QJsonObject& result) const {
    return QJsonObject{{QStringLiteral("experiment"), spec_.name},
                       {QStringLiteral("trial"), trialId},
                       {QStringLiteral("iteration"), qint64(iteration)},
                       {QStringLiteral("result"), result},
                       {QStringLiteral("created_at"), now()}};
}

void ExperimentLoop::commitCheckpoint(LoopTrial& live, const QString& from, std::int64_t iteration,
                                      const QJsonObject& result, bool engineScratch) {
    CommitOrder order;
    order.from = from;
    order.to = checkpointFolder(experimentDir_, live.trial.id, iteration);
    order.iteration = iteration;
    order.manifest = checkpointManifest(live.trial.id, iteration, result);
    order.engineScratch = engineScratch;
    live.attempt.commitSent(order.to, iteration, result);
    env_.effects->commitCheckpoint(live.trial, live.placement, order);
}

void ExperimentLoop::committed(const QString& trialId, int attempt, const QString& to, bool ok,
                               const QString& error, double settleS) {
    LoopTrial* live = current(trialId, attempt);
    if (live == nullptr) {
        return;
    }
    if (!ok && settleS > 0) {
        // A copy cut off by the node's death is node loss, and the node's loss may be noticed
        // a moment after the copy's: the verdict waits that moment (TrialAttempt::nodeLost).
        verdicts_.push_back({trialId, attempt, now() + settleS, std::nullopt, to, error});
        env_.effects->wakeAt(now() + settleS);
        return;
    }
    onCommitted(*live, to, ok, error);
}

void ExperimentLoop::onCommitted(LoopTrial& live, const QString& to, bool ok,
                                 const QString& error) {
    const std::optional<PendingCommit> pending = live.attempt.commitAnswered(to);
    if (!pending) {
        return;
    }
    const std::int64_t iteration = pending->iteration;
    const QJsonObject& result = pending->result;
    if (ok) {
        supersedeCheckpointAt(live, to);
        const std::int64_t id =
            env_.history->addCheckpoint(live.trial.id, iteration, to, result, now());
        live.checkpoints.push_back({id, iteration, result});
        live.checkpointPaths[id] = to;
        if (iteration >= live.trial.checkpointIteration) {
            live.trial.checkpointPath = to;
            live.trial.checkpointIteration = iteration;
        }
        trials_.markDirty(live);
        emitEvent(events::type::kCheckpoint, events::checkpoint(live.trial.id, iteration, to));
        releaseExploitsAwaiting(live);  // they copy it before retention may take it
        applyRetention(live);
    } else {
        checkpointNotKept(live, iteration, error);
        releaseExploitsAwaiting(live);
    }
    if (std::optional<ExitFacts> exit = live.attempt.takeDeferredExit()) {
        onTrialExited(live, *exit);
    }
}

void ExperimentLoop::checkpointNotKept(const LoopTrial& live, std::int64_t iteration,
                                       const QString& why) {
    ++checkpointsNotKept_;
    warn(QStringLiteral("checkpoint of trial %1 at iteration %2 was not kept: %3")
             .arg(live.trial.id)
             .arg(iteration)
             .arg(why),
         live.trial.id);
}

void ExperimentLoop::supersedeCheckpointAt(LoopTrial& live, const QString& folder) {
    // The folder now holds a newer checkpoint (a PBT exploit's copy over the checkpoint the
    // trial reported at the same iteration, a retried attempt's save): the older row goes from
    // the history without its folder, so retention never deletes the folder for it.
    for (auto it = live.checkpointPaths.begin(); it != live.checkpointPaths.end();) {
        if (it->second != folder) {
            ++it;
            continue;
        }
        const std::int64_t id = it->first;
        env_.history->markCheckpointDeleted(id);
        std::erase_if(live.checkpoints, [id](const CheckpointRecord& c) { return c.id == id; });
        it = live.checkpointPaths.erase(it);
    }
}

void ExperimentLoop::applyRetention(LoopTrial& live) {
    const std::vector<std::int64_t> doomed =
        checkpointsToDelete(spec_.checkpoint, live.checkpoints, {});
    if (doomed.empty()) {
        return;
    }
    // The checkpoint that replaces them must be durable before they go.
    if (Status s = env_.history->flush(); !s) {
        return;
    }
    for (std::int64_t id : doomed) {
        const QString folder = live.checkpointPaths[id];
        if (exploitCopies_.pinned(folder)) {
            continue;  // an exploit will copy it; the next retention pass removes it
        }
        env_.effects->deleteCheckpoint(live.trial, live.placement, folder);
        env_.history->markCheckpointDeleted(id);
        live.checkpointPaths.erase(id);
        std::erase_if(live.checkpoints, [id](const CheckpointRecord& c) { return c.id == id; });
    }
}

// ---- how an attempt ends --------------------------------------------------------------------

void ExperimentLoop::failAttempt(const QString& trialId, int attempt, FailureCause cause,
                                 const QString& message) {
    if (LoopTrial* live = current(trialId, attempt)) {
        killTrial(*live, cause, message);
    }
}

void ExperimentLoop::attemptLost(const QString& trialId, int attempt, const QString& message) {
    if (LoopTrial* live = current(trialId, attempt)) {
        live->attempt.nodeLost(message);
        onTrialExited(*live, ExitFacts{});
    }
}

void ExperimentLoop::nodeLost(const QString& nodeId, const QString& reason) {
    if (finished_) {
        return;
    }
    for (const std::int64_t index :
         std::vector(roster_.running().begin(), roster_.running().end())) {
        LoopTrial& live = byIndex(index);
        if (live.trial.status == TrialStatus::Running && live.placement.nodeId == nodeId) {
            // Copies from that node will not arrive.
            live.attempt.nodeLost(QStringLiteral("node %1 lost: %2").arg(nodeId, reason));
            onTrialExited(live, ExitFacts{});
        }
    }
    if (stopping_) {
        maybeFinish();
    }
}

void ExperimentLoop::killTrial(LoopTrial& live, FailureCause cause, const QString& message) {
    if (live.trial.status != TrialStatus::Running) {
        return;
    }
    live.attempt.kill(cause, message);
    env_.effects->endProcess(live.trial, live.placement, message);
}

void ExperimentLoop::interruptTrial(LoopTrial& live, const QString& message) {
    if (live.trial.status != TrialStatus::Running) {
        return;
    }
    live.attempt.interrupt(message);
    env_.effects->endProcess(live.trial, live.placement, message);
}

void ExperimentLoop::forceEnd(LoopTrial& live) {
    live.attempt.forcedToEnd();
    const QString message = QStringLiteral(
                                "trial %1 was told to end and is still running %2 s "
                                "later (failure.stop_grace_s): ending it with SIGTERM, "
                                "then SIGKILL")
                                .arg(live.trial.id)
                                .arg(spec_.failure.stopGraceS);
    warn(message, live.trial.id);
    env_.effects->endProcess(live.trial, live.placement, message);
}

void ExperimentLoop::exited(const QString& trialId, int attempt, const ExitFacts& exit,
                            double settleS) {
    LoopTrial* live = current(trialId, attempt);
    if (live == nullptr) {
        return;
    }
    // The end of a Slurm allocation (scancel, its time limit, a preemption) signals every
    // process of its step, the trial's too, and the trial's exit can reach the engine a moment
    // before srun's end does. On an elastic cluster's node, an exit the engine did not ask for
    // waits that moment: when the node is lost meanwhile, the loss decides (no failure counted).
    if (settleS > 0 && !exit.isClean() && live->attempt.ending() == TrialAttempt::Ending::None) {
        verdicts_.push_back({trialId, attempt, now() + settleS, exit, {}, {}});
        env_.effects->wakeAt(now() + settleS);
        return;
    }
    onTrialExited(*live, exit);
}

void ExperimentLoop::onTrialExited(LoopTrial& live, const ExitFacts& exit) {
    Trial& trial = live.trial;
    if (trial.status != TrialStatus::Running) {
        return;
    }
    const AttemptOutcome outcome = live.attempt.onExit(exit, spec_.failure, trial.failures);
    if (outcome.kind == AttemptOutcome::Kind::Deferred) {
        return;  // onCommitted comes back here once the checkpoints it sent first are in
    }
    releaseExploitsAwaiting(live);  // nothing more of its is on its way
    release(env_.nodes->capacities(), spec_.resourcesPerTrial, live.placement);
    live.placement = {};
    env_.effects->attemptEnded(trial, live.gang);  // the rest of a gang stops
    live.gang = {};
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
            exploreThenCopy(live, live.attempt.exploit(), live.attempt.exploitSource());
            break;
        case Kind::Retry:
        case Kind::Error:
            onFailed(live, outcome, exit);
            break;
    }
    savePolicyState();
    pump();
}

void ExperimentLoop::onFailed(LoopTrial& live, const AttemptOutcome& outcome,
                              const ExitFacts& exit) {
    Trial& trial = live.trial;
    if (outcome.countsFailure) {
        ++trial.failures;
    }
    trial.errorMessage = outcome.why;
    if (!exit.logTail.isEmpty()) {
        trial.errorMessage +=
            QStringLiteral("\n--- last lines of %1/trial.log ---\n%2")
                .arg(trialFolder(experimentDir_, trial.id), exit.logTail.join('\n'));
    }
    emitEvent(
        events::type::kWarning,
        events::warning(QStringLiteral("trial %1 failed: %2").arg(trial.id, trial.errorMessage),
                        trial.id));
    setStatus(live, outcome.status, outcome.reason);
    if (outcome.kind != AttemptOutcome::Kind::Error) {
        return;
    }
    scheduler_->onError(trial);
    searcher_->onComplete(trial.id, trial.lastResult, true);
    if (outcome.stopsExperiment) {
        // `raise`: the trial's error as Ray raises it, its log's last lines included.
        fail(kExitTrialErrors,
             QStringLiteral("fail_fast: trial %1 failed: %2")
                 .arg(trial.id, spec_.failure.failFastRaise ? trial.errorMessage : outcome.why));
    }
}

std::optional<ExploitSource> ExperimentLoop::exploitSourceOf(const LoopTrial& source) const {
    const Trial& trial = source.trial;
    const std::int64_t end =
        spec_.stop.trainingIteration.value_or(std::numeric_limits<std::int64_t>::max());
    if (trial.checkpointPath.isEmpty() || trial.checkpointIteration < end) {
        return trial.checkpointPath.isEmpty()
                   ? std::nullopt
                   : std::optional(ExploitSource{trial.checkpointPath, trial.checkpointIteration});
    }
    std::optional<ExploitSource> newest;
    for (const CheckpointRecord& c : source.checkpoints) {
        const auto path = source.checkpointPaths.find(c.id);
        if (c.iteration < end && path != source.checkpointPaths.end() &&
            (!newest || c.iteration > newest->iteration)) {
            newest = ExploitSource{path->second, c.iteration};
        }
    }
    return newest;
}

void ExperimentLoop::exploitWhenCopyable(LoopTrial& live, const SchedulerDecision& decision,
                                         const std::optional<ExploitSource>& decided) {
    if (decision.source == live.trial.id) {
        applyExploit(live, decision, std::nullopt);  // keeps its own checkpoint
        return;
    }
    const LoopTrial* from = trials_.find(decision.source);
    if (from && from->attempt.checkpointInFlight()) {
        exploitCopies_.awaitSource({live.trial.id, decision, decided});
        if (live.trial.status != TrialStatus::Running) {
            live.awaitsExploitCopy = true;  // not started before the copy
            restand(live);
        }
        return;
    }
    copyNewest(live, decision, decided);
}

void ExperimentLoop::copyNewest(LoopTrial& live, const SchedulerDecision& decision,
                                const std::optional<ExploitSource>& decided) {
    // The source's newest checkpoint short of the end, which may be newer than the one the
    // exploit was decided with (no longer pinned: the copy is made now).
    const LoopTrial* from = trials_.find(decision.source);
    std::optional<ExploitSource> newest = from ? exploitSourceOf(*from) : std::nullopt;
    if (decided) {
        exploitCopies_.unpin(decided->path);
        newest = newest ? newest : decided;
    }
    if (newest) {
        applyExploit(live, decision, newest);
        return;
    }
    // The source's first checkpoint, awaited, was not kept: the trial goes on unchanged.
    warnExploitDropped(live.trial.id, decision.source);
    if (live.trial.status == TrialStatus::Running) {
        setStatus(live, TrialStatus::Pending, QStringLiteral("exploit dropped; resuming"));
    }
}

void ExperimentLoop::releaseExploitsAwaiting(const LoopTrial& source) {
    if (source.attempt.checkpointInFlight()) {
        return;
    }
    const std::vector<ExploitCopies::Waiting> waiting =
        exploitCopies_.takeAwaiting(source.trial.id);
    for (const ExploitCopies::Waiting& w : waiting) {
        LoopTrial* live = trials_.find(w.trialId);
        if (live && stillExploiting(*live)) {
            copyNewest(*live, w.decision, w.source);
        } else if (w.source) {
            exploitCopies_.unpin(w.source->path);  // ended otherwise meanwhile (a stop order)
        }
    }
    if (!waiting.empty()) {
        savePolicyState();
        pump();
    }
}

bool ExperimentLoop::stillExploiting(LoopTrial& live) {
    const TrialStatus status = live.trial.status;
    const bool attemptEnded =
        status == TrialStatus::Running && live.attempt.ending() == TrialAttempt::Ending::Exploit;
    const bool stillWaits =
        live.awaitsExploitCopy && (status == TrialStatus::Paused || status == TrialStatus::Pending);
    if (live.awaitsExploitCopy) {
        live.awaitsExploitCopy = false;
        restand(live);
    }
    return attemptEnded || stillWaits;
}

void ExperimentLoop::exploreThenCopy(LoopTrial& live, const SchedulerDecision& decision,
                                     const std::optional<ExploitSource>& decided) {
    const QStringList command = pbtExploreCommand(spec_);
    if (command.isEmpty()) {
        exploitWhenCopyable(live, decision, decided);
        return;
    }
    // Ray's custom_explore_fn, as a program: the copy waits for the config it prints (the
    // decided source stays pinned meanwhile).
    exploitCopies_.exploring({live.trial.id, decision, decided});
    if (live.trial.status != TrialStatus::Running) {
        live.awaitsExploitCopy = true;
        restand(live);
    }
    env_.effects->exploreConfig(live.trial.id, command, decision.config);
}

void ExperimentLoop::explored(const QString& trialId, const QJsonObject& config,
                              const QString& error) {
    std::optional<ExploitCopies::Waiting> w = exploitCopies_.takeExploring(trialId);
    if (!w) {
        return;
    }
    LoopTrial* live = trials_.find(trialId);
    if (!live || !stillExploiting(*live)) {
        if (w->source) {
            exploitCopies_.unpin(w->source->path);  // ended otherwise meanwhile (a stop order)
        }
        return;
    }
    SchedulerDecision decision = std::move(w->decision);
    if (error.isEmpty()) {
        decision.config = config;
    } else {
        warn(QStringLiteral("explore_command for trial %1: %2; it goes on with the config PBT "
                            "explored")
                 .arg(trialId, error),
             trialId);
    }
    exploitWhenCopyable(*live, decision, w->source);
    savePolicyState();
    pump();
}

void ExperimentLoop::applyExploitsDue() {
    for (const QString& id : scheduler_->exploitsDue()) {
        LoopTrial* live = trials_.find(id);
        if (!live ||
            (live->trial.status != TrialStatus::Paused &&
             live->trial.status != TrialStatus::Pending) ||
            live->awaitsExploitCopy) {
            continue;  // a running one gets it at its next result
        }
        const std::optional<SchedulerDecision> decision = scheduler_->takeExploitDue(id);
        if (!decision) {
            continue;
        }
        const LoopTrial* from = trials_.find(decision->source);
        const std::optional<ExploitSource> source =
            from && from != live ? exploitSourceOf(*from) : std::nullopt;
        if (from && from != live && !source && !from->attempt.checkpointInFlight()) {
            warnExploitDropped(id, decision->source);
            continue;
        }
        if (source) {
            exploitCopies_.pin(source->path);  // until it is copied
        }
        exploreThenCopy(*live, *decision, source);
        savePolicyState(true);
    }
}

void ExperimentLoop::warnExploitDropped(const QString& trialId, const QString& sourceId) {
    emitEvent(events::type::kWarning,
              events::warning(QStringLiteral("trial %1 cannot copy trial %2: it has no "
                                             "checkpoint before its end yet (the trial "
                                             "continues unchanged)")
                                  .arg(trialId, sourceId),
                              trialId));
}

void ExperimentLoop::applyExploit(LoopTrial& live, const SchedulerDecision& exploit,
                                  const std::optional<ExploitSource>& source) {
    Trial& trial = live.trial;
    const bool self = !source.has_value();
    const QString copied = source ? source->path : QString();
    ExploitRecord record;
    record.trialId = trial.id;
    record.sourceTrialId = exploit.source;
    // The iteration the trial goes on from: its own, or a source's further on (below), so the
    // record says where its new weights start (pbt-replay's schedule is computed from it).
    record.iteration = self ? trial.iteration : std::max(trial.iteration, source->iteration);
    record.sourceIteration = self ? trial.checkpointIteration : source->iteration;
    record.oldConfig = trial.config;
    record.newConfig = exploit.config;
    record.reason = exploit.reason;
    record.timestamp = now();
    if (!self) {
        // The copy becomes this trial's checkpoint. A source further on carries the trial on to
        // its iteration, as Ray restores the iteration with the checkpoint: a program that
        // counts its own steps from the checkpoint ends where the stop rule says. A source
        // behind leaves the trial at its own iteration, so nothing it reported is replaced.
        // (exploitSourceOf takes a source short of `stop: training_iteration`, so the trial
        // reports again under its new config; Ray's copies one from a perturbation, never the
        // end.)
        const std::int64_t at = record.iteration;
        const QString to = checkpointFolder(experimentDir_, trial.id, at);
        QJsonObject manifest = checkpointManifest(trial.id, at, trial.lastResult);
        manifest.insert(QStringLiteral("copied_from"), exploit.source);
        const Status copiedOk = env_.effects->copyCheckpoint(copied, to, manifest);
        if (!copiedOk) {
            emitEvent(events::type::kWarning,
                      events::warning(QStringLiteral("trial %1 could not copy the checkpoint of "
                                                     "trial %2: %3; it continues from its own")
                                          .arg(trial.id, exploit.source, copiedOk.message()),
                                      trial.id));
            setStatus(live, TrialStatus::Pending, QStringLiteral("exploit failed; resuming"));
            return;
        }
        const QJsonObject result = trial.lastResult;
        supersedeCheckpointAt(live, to);
        const std::int64_t id = env_.history->addCheckpoint(trial.id, at, to, result, now());
        live.checkpoints.push_back({id, at, result});
        live.checkpointPaths[id] = to;
        trial.checkpointPath = to;
        trial.checkpointIteration = at;
        emitEvent(events::type::kCheckpoint, events::checkpoint(trial.id, at, to));
    }
    trial.config = exploit.config;
    env_.history->addExploit(record);
    emitEvent(events::type::kExploit,
              events::exploit(record.trialId, record.sourceTrialId, record.iteration,
                              record.sourceIteration, record.oldConfig, record.newConfig,
                              record.reason, floatPathsOf(spec_.searchSpace, record.oldConfig),
                              floatPathsOf(spec_.searchSpace, record.newConfig)));
    setStatus(live, TrialStatus::Pending, exploit.reason);
    applyRetention(live);
}

}  // namespace tunedeck
