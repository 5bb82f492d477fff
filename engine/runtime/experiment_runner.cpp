#include "runtime/experiment_runner.h"

#include <QDateTime>
#include <QDir>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <algorithm>

#include "api/events.h"
#include "core/experiment_end.h"
#include "runtime/autoscaler_driver.h"
#include "runtime/progress_snapshot.h"
#include "runtime/recovery.h"
#include "runtime/trial_command.h"

namespace tunedeck {

namespace {

constexpr int kTickMs = 1000;  // trial heartbeats, trial-row saves, node liveness
constexpr double kLongestTimerMs = 2147483647.0;  // a QTimer's interval is an int (24.8 days)
constexpr double kStopGraceS = 20;  // a trial still running this long after the experiment began
                                    // to stop is left to its agent, which kills it on shutdown

}  // namespace

double ExperimentRunner::now() {
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

ExperimentRunner::ExperimentRunner(ExperimentSpec spec, std::unique_ptr<ExperimentStore> store,
                                   RunnerOptions options, QObject* parent)
    : QObject(parent),
      spec_(std::move(spec)),
      store_(std::move(store)),
      options_(std::move(options)),
      searcher_(makeSearcher(spec_)),
      scheduler_(makeScheduler(spec_)),
      queue_(*scheduler_, spec_) {
    reporter_ = std::make_unique<ProgressReporter>(
        spec_, options_.experimentDir, ProgressReporter::styleFor(stdout, options_.quiet));
    // serve's queue shares this machine; an experiment on its own cluster's nodes is not in it.
    options_.sharedSlots =
        options_.sharedSlots &&
        (!spec_.clusterSpec || spec_.clusterSpec->provider == ClusterProvider::Local);
    if (options_.sharedSlots) {
        sharedSlots_ = 0;  // none until serve's queue grants some
        sharedSlotsWhy_ = tr("waiting for the server's first grant");
    }
    tickTimer_.setInterval(kTickMs);
    connect(&tickTimer_, &QTimer::timeout, this, &ExperimentRunner::tick);
    budgetTimer_.setSingleShot(true);
    connect(&budgetTimer_, &QTimer::timeout, this, &ExperimentRunner::spendTimeBudget);
}

ExperimentRunner::~ExperimentRunner() {
    // The link may still report the agent's exit while it shuts down; nobody listens any more.
    autoscaler_.reset();
    if (pool_) {
        pool_->disconnect(this);
        pool_.reset();
    }
}

void ExperimentRunner::start() {
    if (!options_.eventsFile.isEmpty()) {
        eventsFile_ = std::make_unique<QFile>(options_.eventsFile);
        if (!eventsFile_->open(QIODevice::WriteOnly | QIODevice::Append)) {
            failExperiment(kExitBadInput,
                           tr("cannot write the events file %1: %2")
                               .arg(options_.eventsFile, eventsFile_->errorString()));
            return;
        }
    }
    if (Status s = recover(); !s) {
        failExperiment(kExitBadInput, tr("cannot recover the experiment: %1").arg(s.message()));
        return;
    }
    tickTimer_.start();
    if (spec_.timeBudgetS) {
        budgetTimer_.start(int(std::min(*spec_.timeBudgetS * 1000.0, kLongestTimerMs)));
    }
    openNodes();
}

Status ExperimentRunner::recover() {
    RecoveredExperiment recovered;
    if (Status s = recoverExperiment(*store_, options_.experimentDir, &recovered); !s) {
        return s;
    }
    for (const QString& notice : recovered.notices) {
        emitEvent(events::type::kWarning, events::warning(notice));
    }
    const bool resumed = !recovered.trials.empty() || !recovered.experiment.searcherState.isEmpty();
    if (Status s = applyRecordedLimits(); !s) {
        return s;
    }
    if (!recovered.experiment.searcherState.isEmpty()) {
        if (Status s = searcher_->restoreState(recovered.experiment.searcherState); !s) {
            return s;
        }
    }
    if (!recovered.experiment.schedulerState.isEmpty()) {
        if (Status s = scheduler_->restoreState(recovered.experiment.schedulerState); !s) {
            return s;
        }
    }
    resultCount_ = recovered.resultCount;
    // The saved searcher state may be older than the history: replay what the history knows
    // (see Searcher::onTrialRecovered), completions in the order they happened.
    std::vector<const RecoveredTrial*> completed;
    for (const RecoveredTrial& rt : recovered.trials) {
        searcher_->onTrialRecovered(rt.trial.index, rt.trial.id, rt.trial.config);
        if (isFinished(rt.trial.status)) {
            completed.push_back(&rt);
        }
    }
    std::stable_sort(completed.begin(), completed.end(),
                     [](const RecoveredTrial* a, const RecoveredTrial* b) {
                         return a->finishedAt < b->finishedAt;
                     });
    for (const RecoveredTrial* rt : completed) {
        searcher_->onComplete(rt->trial.id, rt->trial.lastResult,
                              rt->trial.status == TrialStatus::Error);
    }
    for (RecoveredTrial& rt : recovered.trials) {
        LiveTrial live;
        live.trial = std::move(rt.trial);
        live.checkpoints = std::move(rt.checkpoints);
        live.checkpointPaths = std::move(rt.checkpointPaths);
        live.startedAt = rt.startedAt;
        live.finishedAt = rt.finishedAt;
        nextTrialIndex_ = std::max(nextTrialIndex_, live.trial.index + 1);
        scheduler_->onTrialAdd(live.trial);
        const QString id = live.trial.id;
        auto [it, inserted] = trials_.emplace(id, std::move(live));
        (void)inserted;
        restand(it->second);
        if (!isFinished(it->second.trial.status)) {
            saveTrial(it->second);
        }
    }
    tellSchedulerWhoWaits();
    store_->setExperimentStatus(QStringLiteral("running"));
    emitEvent(events::type::kExperimentStarted,
              events::experimentStarted(spec_.name, options_.experimentDir, resumed));
    return Status::ok();
}

void ExperimentRunner::pump() {
    // An elastic cluster starts with no node: its waiting trials are what makes it grow.
    if (!pool_ || (!pool_->anyReady() && !autoscaler_) || stopping_ || finished_) {
        maybeFinish();
        return;
    }
    applyStopOrders();
    finishTrialsAtTheirEnd();
    if (budgetSpent_) {
        spendTimeBudget();  // a trial that paused or failed since waits no longer
        return;
    }
    if (spec_.placement == PlacementStrategy::Spread && !autoscaler_ && !pool_->allHeardFrom()) {
        // Spread waits for every listed node's first answer: started now, each trial would go
        // to the node that answered first (RUNTIME.md, "Nodes and clusters").
        const QString reason = tr("waiting for nodes still connecting (placement: spread): %1")
                                   .arg(pool_->describeUnavailable());
        for (const std::int64_t index :
             std::vector(roster_.waiting().begin(), roster_.waiting().end())) {
            LiveTrial& live = byIndex(index);
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
        view.nodes = &pool_->capacities();
        view.sharedSlots = sharedSlots_;
        view.sharedSlotsWhy = sharedSlotsWhy_;
        QueueStep step = queue_.next(view);
        if (step.kind == QueueStep::Kind::Start) {
            LiveTrial& live = trials_[step.trialId];
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
                if (const QString down = pool_->describeUnavailable(); !down.isEmpty()) {
                    step.reason += tr("; nodes not up: %1").arg(down);
                }
            }
            if (step.cause != WaitCause::Nothing) {
                for (const Trial* t : view.waiting) {
                    setPendingReason(trials_[t->id], step.reason);
                }
            }
            break;
        }
    }
    reportSlotDemand();
    if (autoscaler_) {
        autoscaler_->demandChanged();
    }
    maybeFinish();
}

Suggestion::Kind ExperimentRunner::askSearcher() {
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

void ExperimentRunner::tellSchedulerWhoWaits() {
    const int waiting = int(roster_.waiting().size());
    if (waiting != waitingTold_) {
        waitingTold_ = waiting;
        scheduler_->onTrialsWaiting(waiting);
    }
}

ExperimentRunner::LiveTrial& ExperimentRunner::addTrial(QJsonObject config) {
    LiveTrial live;
    live.trial.index = nextTrialIndex_++;
    live.trial.id = trialIdForIndex(live.trial.index);
    live.trial.config = std::move(config);
    live.trial.pendingReason = tr("new");
    const QString id = live.trial.id;
    LiveTrial& added = trials_.emplace(id, std::move(live)).first->second;
    restand(added);
    scheduler_->onTrialAdd(added.trial);
    saveTrial(added);
    savePolicyState();
    emitEvent(events::type::kTrialAdded,
              events::trialAdded(added.trial, floatPathsOf(spec_.searchSpace, added.trial.config)));
    tellSchedulerWhoWaits();
    return added;
}

void ExperimentRunner::startTrial(LiveTrial& live) {
    Trial& trial = live.trial;
    TrialLaunchContext context;
    context.experimentName = spec_.name;
    context.trialDir = trialFolder(options_.experimentDir, trial.id);
    context.restoreDir = trial.checkpointPath;
    context.iteration = trial.checkpointIteration;
    context.pythonSdkDir = options_.pythonSdkDir;
    context.inheritedPythonPath = qEnvironmentVariable("PYTHONPATH");
    context.cudaVisibleDevices = cudaDevicesOf(live.placement);
    TrialLaunch launch;
    if (Status s = buildTrialLaunch(spec_, trial, context, &launch); !s) {
        trial.errorMessage = s.message();
        setStatus(live, TrialStatus::Error, s.message());
        return;
    }
    // Results after the checkpoint it restarts from are reported again by this attempt.
    store_->deleteResultsAfter(trial.id, trial.checkpointIteration);
    trial.iteration = trial.checkpointIteration;
    trial.nodeId = live.placement.nodeId;
    reserve(pool_->capacities(), spec_.resourcesPerTrial, live.placement);
    live.attempt.begin();
    if (live.gang.placed) {
        bookGang(live, live.gang);
        addGangEnvironment(live, launch);
    }
    live.lastActivity.start();
    live.sinceReport.start();
    trial.pendingReason.clear();
    if (live.startedAt == 0) {
        live.startedAt = now();
    }

    setStatus(live, TrialStatus::Running,
              trial.checkpointPath.isEmpty()
                  ? QString()
                  : tr("restored from iteration %1").arg(trial.checkpointIteration));
    // The agent starts trials with its own environment plus the launch's variables.
    pushCheckpointThenLaunch(live, std::move(launch));
}

void ExperimentRunner::setStatus(LiveTrial& live, TrialStatus status, const QString& reason) {
    if (live.trial.status != status) {
        if (Status s = live.trial.transition(status); !s) {
            qWarning("%s", qPrintable(s.message()));
            return;
        }
        restand(live);
    }
    if (status == TrialStatus::Pending || status == TrialStatus::Paused) {
        live.trial.pendingReason = reason;
    }
    if (isFinished(status) && live.finishedAt == 0) {
        live.finishedAt = now();
    }
    saveTrial(live);
    // A running trial's event names the cards it was placed on (the app lists them per card).
    QJsonObject payload = events::trialStatus(
        live.trial, reason,
        status == TrialStatus::Running ? live.placement.gpuSlots : std::vector<int>{});
    if (status == TrialStatus::Running && live.gang.placed) {
        payload.insert("ranks", gangRanksJson(live.gang));  // a gang: where each rank runs
    }
    emitEvent(events::type::kTrialStatus, payload);
    reporter_->trialStatusChanged(live.trial, reason);
    tellSchedulerWhoWaits();
}

void ExperimentRunner::restand(const LiveTrial& live) {
    roster_.set(live.trial.index, {live.trial.status, live.heldByUser, live.startedAt != 0});
}

void ExperimentRunner::holdForUser(LiveTrial& live, bool held) {
    live.heldByUser = held;
    restand(live);
}

ExperimentRunner::LiveTrial& ExperimentRunner::byIndex(std::int64_t index) {
    return trials_.at(trialIdForIndex(index));
}

void ExperimentRunner::setPendingReason(LiveTrial& live, const QString& reason) {
    if (live.trial.pendingReason == reason) {
        return;
    }
    live.trial.pendingReason = reason;
    live.dirty = true;
    emitEvent(events::type::kTrialStatus, events::trialStatus(live.trial, reason));
}

void ExperimentRunner::saveTrial(LiveTrial& live) {
    TrialRecord record;
    record.trial = live.trial;
    record.configFloats = floatPathsOf(spec_.searchSpace, live.trial.config);
    record.startedAt = live.startedAt;
    record.finishedAt = live.finishedAt;
    store_->saveTrial(record);
    live.dirty = false;
}

void ExperimentRunner::savePolicyState(bool now) {
    if (!now) {
        policyStateDirty_ = true;
        return;
    }
    policyStateDirty_ = false;
    store_->saveSearchState(searcher_->saveState(), scheduler_->saveState());
}

void ExperimentRunner::tick() {
    if (policyStateDirty_) {
        savePolicyState(true);
    }
    for (auto& [id, live] : trials_) {
        if (live.dirty) {
            saveTrial(live);
        }
        // A trial whose checkpoint is still travelling to its node has not started yet.
        const bool silent = live.trial.status == TrialStatus::Running &&
                            live.attempt.watchedForSilence() &&
                            live.lastActivity.elapsed() > spec_.failure.heartbeatTimeoutS * 1000;
        if (silent) {
            killTrial(live, FailureCause::TrialHung,
                      tr("no message from the trial for %1 s (failure.heartbeat_timeout_s)")
                          .arg(spec_.failure.heartbeatTimeoutS));
        } else if (live.trial.status == TrialStatus::Running &&
                   live.attempt.exitOverdue(now(), spec_.failure.stopGraceS)) {
            forceEnd(live);
        }
    }
    if (stopping_ && stoppingFor_.elapsed() > kStopGraceS * 1000) {
        for (auto& [id, live] : trials_) {
            if (live.trial.status == TrialStatus::Running) {
                live.attempt.abandonCommits();
                onTrialExited(live, ExitFacts{});  // as if its node were lost
            }
        }
    }
    if (pool_) {
        pool_->checkLiveness();
    }
    if (Status s = store_->lastError(); !s && !stopping_) {
        failExperiment(kExitTrialErrors, tr("cannot write the history: %1").arg(s.message()));
        return;
    }
    reporter_->update(snapshot());
}

void ExperimentRunner::maybeFinish() {
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

void ExperimentRunner::interrupt() {
    if (stopping_) {
        return;
    }
    for (auto& [id, live] : trials_) {
        if (live.trial.status != TrialStatus::Running) {
            continue;
        }
        if (live.attempt.ending() == TrialAttempt::Ending::Stop) {
            // Already told to stop (a stop criterion, the scheduler, the user): it ends
            // TERMINATED, so `resume` does not run it past its stop.
            sendToNode(live,
                       QJsonObject{{"op", "kill"}, {"trial", id}, {"reason", tr("interrupted")}});
            continue;
        }
        interruptTrial(live, tr("interrupted"));
    }
    failExperiment(
        kExitInterrupted,
        tr("Interrupted. Continue with: tunedeck-engine resume %1").arg(options_.experimentDir));
}

void ExperimentRunner::quitNow() {
    if (pool_) {
        pool_->disconnect(this);
        pool_->abort();
    }
    store_->setExperimentStatus(QStringLiteral("interrupted"), now());
    store_->flush();
}

void ExperimentRunner::failExperiment(int exitCode, const QString& message) {
    if (finished_) {
        return;
    }
    if (!stopping_) {
        stopping_ = true;
        stoppingFor_.start();
        pendingExitCode_ = exitCode;
        pendingOutcome_ = message;
        for (auto& [id, live] : trials_) {
            if (live.trial.status == TrialStatus::Running &&
                live.attempt.ending() == TrialAttempt::Ending::None) {
                interruptTrial(live, message);
            }
        }
    }
    maybeFinish();
}

void ExperimentRunner::finish(int exitCode, const QString& outcome) {
    finished_ = true;
    exitCode_ = exitCode;
    tickTimer_.stop();
    int terminated = 0;
    int errored = 0;
    for (auto& [id, live] : trials_) {
        terminated += live.trial.status == TrialStatus::Terminated ? 1 : 0;
        errored += live.trial.status == TrialStatus::Error ? 1 : 0;
        saveTrial(live);
    }
    const QString status = exitCode == kExitInterrupted ? QStringLiteral("interrupted")
                           : exitCode == kExitBadInput  ? QStringLiteral("failed")
                                                        : QStringLiteral("finished");
    savePolicyState(true);
    store_->setExperimentStatus(status, now());
    emitEvent(events::type::kExperimentFinished,
              events::experimentFinished(status, terminated, errored));
    const Status flushed = store_->flush();
    if (pool_) {
        pool_->shutdown();
    }
    if (autoscaler_) {
        autoscaler_->shutdown();  // nothing stays allocated (or queued) after the run
    }
    reporter_->finish(snapshot(), outcome);
    if (!flushed) {
        std::fprintf(stderr, "error: the history could not be saved completely: %s\n",
                     qPrintable(flushed.message()));
    }
    if (eventsFile_) {
        eventsFile_->flush();
    }
    emit finished(exitCode_);
}

void ExperimentRunner::emitEvent(const QString& type, const QJsonObject& payload) {
    const double t = now();
    const QString trialId = payload.value("trial").toString();
    const std::int64_t seq = store_->appendEvent(type, trialId, payload, t);
    writeEventLine(type, seq, t, payload);
}

void ExperimentRunner::writeEventLine(const QString& type, std::int64_t seq, double time,
                                      const QJsonObject& payload) {
    if (eventsFile_) {
        QByteArray line = QJsonDocument(events::envelope(type, seq, time, payload))
                              .toJson(QJsonDocument::Compact);
        line.append('\n');
        eventsFile_->write(line);
    }
}

ProgressSnapshot ExperimentRunner::snapshot() const {
    std::vector<const Trial*> trials;
    trials.reserve(trials_.size());
    for (const auto& [id, live] : trials_) {
        trials.push_back(&live.trial);
    }
    std::vector<QJsonObject> usage;
    for (const auto& [node, sample] : latestUsage_) {
        usage.push_back(sample);
    }
    ProgressSnapshot s = snapshotProgress(spec_, std::move(trials),
                                          pool_ ? pool_->capacities() : std::vector<NodeCapacity>{},
                                          resultCount_, searcher_->totalTrials(), std::move(usage));
    s.checkpointsNotKept = checkpointsNotKept_;
    return s;
}

}  // namespace tunedeck
