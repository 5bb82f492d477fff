#include "runtime/experiment_runner.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <algorithm>
#include <cmath>

#include "core/events.h"
#include "runtime/autoscaler_driver.h"
#include "runtime/progress_snapshot.h"
#include "runtime/recovery.h"
#include "runtime/trial_command.h"

namespace tunedeck {

namespace {

constexpr int kTickMs = 1000;  // trial heartbeats, trial-row saves, node liveness
constexpr double kLongestTimerMs = 2147483647.0;  // a QTimer's interval is an int (24.8 days)

// serve's queue shares this machine; an experiment on its own cluster's nodes is not in it.
bool underSharedSlots(const ExperimentSpec& spec, const RunnerOptions& options) {
    return options.sharedSlots &&
           (!spec.clusterSpec || spec.clusterSpec->provider == ClusterProvider::Local);
}

}  // namespace

ExperimentRunner::ExperimentRunner(ExperimentSpec spec, std::unique_ptr<ExperimentStore> store,
                                   RunnerOptions options, QObject* parent)
    : QObject(parent),
      store_(std::move(store)),
      options_(std::move(options)),
      history_(*store_, spec.searchSpace),
      loop_(std::make_unique<ExperimentLoop>(std::move(spec), options_.experimentDir, environment(),
                                             underSharedSlots(spec, options_))),
      nodeCheckpoints_(
          [this](const QString& nodeId) { return pool_ ? pool_->link(nodeId) : nullptr; }),
      gangs_(loop_->spec(), *loop_, nodeCheckpoints_),
      monitor_(loop_->spec(), *loop_, *store_, *this, gangs_,
               [this](const QString& type, std::int64_t seq, double time,
                      const QJsonObject& payload) { writeEventLine(type, seq, time, payload); }) {
    options_.sharedSlots = underSharedSlots(loop_->spec(), options_);
    reporter_ = std::make_unique<ProgressReporter>(
        loop_->spec(), options_.experimentDir, ProgressReporter::styleFor(stdout, options_.quiet));
    tickTimer_.setInterval(kTickMs);
    connect(&tickTimer_, &QTimer::timeout, this, &ExperimentRunner::tick);
    wakeTimer_.setSingleShot(true);
    connect(&wakeTimer_, &QTimer::timeout, this, [this] { loop_->tick(); });
}

LoopEnvironment ExperimentRunner::environment() {
    LoopEnvironment env;
    env.clock = this;
    env.history = &history_;
    env.nodes = this;
    env.effects = this;
    return env;
}

ExperimentRunner::~ExperimentRunner() {
    // The link may still report the agent's exit while it shuts down; nobody listens any more.
    autoscaler_.reset();
    if (pool_) {
        pool_->disconnect(this);
        pool_.reset();
    }
}

double ExperimentRunner::now() const {
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

void ExperimentRunner::later(std::function<void()> input) {
    QMetaObject::invokeMethod(
        this,
        [this, input = std::move(input)] {
            if (!loop_->isFinished()) {
                input();
            }
        },
        Qt::QueuedConnection);
}

void ExperimentRunner::start() {
    if (!options_.eventsFile.isEmpty()) {
        eventsFile_ = std::make_unique<QFile>(options_.eventsFile);
        if (!eventsFile_->open(QIODevice::WriteOnly | QIODevice::Append)) {
            loop_->fail(kExitBadInput, tr("cannot write the events file %1: %2")
                                           .arg(options_.eventsFile, eventsFile_->errorString()));
            return;
        }
    }
    if (Status s = recover(); !s) {
        loop_->fail(kExitBadInput, tr("cannot recover the experiment: %1").arg(s.message()));
        return;
    }
    tickTimer_.start();
    loop_->begin();
    openNodes();
}

Status ExperimentRunner::recover() {
    RecoveredExperiment recovered;
    if (Status s = recoverExperiment(*store_, options_.experimentDir, &recovered); !s) {
        return s;
    }
    RecoveredRun run;
    for (const EventRecord& recorded : store_->loadEventsOfType(events::type::kLimits)) {
        LimitsChange change;
        if (Status s = parseLimitsChange(recorded.payload, &change); !s) {
            return Status::corruption(tr("limits event %1: %2").arg(recorded.seq).arg(s.message()));
        }
        run.limits.push_back(change);
    }
    run.searcherState = recovered.experiment.searcherState;
    run.schedulerState = recovered.experiment.schedulerState;
    run.resultCount = recovered.resultCount;
    run.notices = recovered.notices;
    for (RecoveredTrial& rt : recovered.trials) {
        run.trials.push_back({std::move(rt.trial), std::move(rt.checkpoints),
                              std::move(rt.checkpointPaths), rt.startedAt, rt.finishedAt});
    }
    return loop_->recover(std::move(run));
}

void ExperimentRunner::tick() {
    loop_->tick();
    if (loop_->isFinished()) {
        return;
    }
    if (pool_) {
        pool_->checkLiveness();
    }
    reporter_->update(snapshot());
}

void ExperimentRunner::quitNow() {
    if (pool_) {
        pool_->disconnect(this);
        pool_->abort();
    }
    store_->setExperimentStatus(QStringLiteral("interrupted"), now());
    store_->flush();
}

// ---- the loop's effects -----------------------------------------------------------------------

Status ExperimentRunner::startTrial(const Trial& trial, int attempt, const Placement& placement,
                                    const GangPlacement& gang) {
    TrialLaunchContext context;
    context.experimentName = spec().name;
    context.trialDir = trialFolder(options_.experimentDir, trial.id);
    context.restoreDir = trial.checkpointPath;
    context.iteration = trial.checkpointIteration;
    context.pythonSdkDir = options_.pythonSdkDir;
    context.inheritedPythonPath = qEnvironmentVariable("PYTHONPATH");
    context.cudaVisibleDevices = gangs_.cudaDevicesOf(placement);
    TrialLaunch launch;
    if (Status s = buildTrialLaunch(spec(), trial, context, &launch); !s) {
        return s;
    }
    if (gang.placed) {
        gangs_.book(trial.id, attempt, gang, launch);
    }
    // The agent starts trials with its own environment plus the launch's variables; the launch
    // waits until the loop has taken the trial as RUNNING.
    later([this, id = trial.id, attempt, launch = std::move(launch)]() mutable {
        pushCheckpointThenLaunch(id, attempt, std::move(launch));
    });
    return Status::ok();
}

void ExperimentRunner::answer(const Trial& trial, const Placement& placement, TrialAnswer answer,
                              const QString& scratch) {
    NodeLink* link = linkOn(placement);
    if (link == nullptr) {
        return;
    }
    if (answer == TrialAnswer::Continue || answer == TrialAnswer::Stop) {
        // The hot path of every result: the answer is put together without a JSON document.
        link->send(node::AnswerOp{
            trial.id.toStdString(),
            answer == TrialAnswer::Stop ? R"({"action":"stop"})" : R"({"action":"continue"})",
            {}});
        return;
    }
    const QJsonObject save{
        {"action", answer == TrialAnswer::Pause ? QStringLiteral("pause") : QStringLiteral("save")},
        {"path", link->paths().toNode(scratch)}};
    link->send(node::AnswerOp{trial.id.toStdString(),
                              QJsonDocument(save).toJson(QJsonDocument::Compact).toStdString(),
                              {}});
}

void ExperimentRunner::answerRequest(const Trial& trial, const Placement& placement,
                                     const QJsonObject& answer) {
    if (NodeLink* link = linkOn(placement)) {
        link->send(
            node::AnswerOp{trial.id.toStdString(),
                           QJsonDocument(answer).toJson(QJsonDocument::Compact).toStdString(),
                           {}});
    }
}

void ExperimentRunner::endProcess(const Trial& trial, const Placement& placement,
                                  const QString& reason) {
    if (NodeLink* link = linkOn(placement)) {
        link->send(node::KillOp{trial.id.toStdString(), reason.toStdString()});
    }
}

void ExperimentRunner::commitCheckpoint(const Trial& trial, const Placement& placement,
                                        const CommitOrder& order) {
    NodeLink* link = linkOn(placement);
    if (link == nullptr) {
        return;
    }
    const PathMap& paths = link->paths();
    node::CommitCheckpointOp op;
    op.trial = node::TrialId(trial.id.toStdString());
    op.from = paths.toNode(order.from).toStdString();
    op.to = paths.toNode(order.to).toStdString();
    op.manifest = QJsonDocument(order.manifest).toJson(QJsonDocument::Compact).toStdString();
    op.handover = order.engineScratch ? "engine" : "trial";
    if (!order.engineScratch) {
        // The folders a handed-over folder must not take along (engine/checkpoint/handover.h).
        const auto add = [&](const QString& headPath, const QString& what) {
            if (!headPath.isEmpty()) {
                op.protect.push_back({paths.toNode(headPath).toStdString(), what.toStdString()});
            }
        };
        add(spec().trainable.workingDir, tr("the trial's working directory"));
        add(options_.experimentDir, tr("the experiment folder"));
        add(QFileInfo(options_.experimentDir).absolutePath(), tr("the results root"));
        op.trialDir = paths.toNode(trialFolder(options_.experimentDir, trial.id)).toStdString();
    }
    link->send(op);
}

void ExperimentRunner::discardScratch(const Placement& placement, const QString& scratch) {
    if (NodeLink* link = linkOn(placement)) {
        link->send(node::DeleteCheckpointOp{link->paths().toNode(scratch).toStdString()});
    }
}

void ExperimentRunner::deleteCheckpoint(const Trial& trial, const Placement& placement,
                                        const QString& folder) {
    NodeLink* link = linkOn(placement);
    const bool nodeSharesFiles = link != nullptr && link->files() == nullptr;
    if (nodeSharesFiles) {
        link->send(node::DeleteCheckpointOp{folder.toStdString()});
        return;  // the agent removes it without holding up the engine
    }
    if (link != nullptr && nodeCheckpoints_.forget(placement.nodeId, folder)) {
        link->send(node::DeleteCheckpointOp{link->paths().toNode(folder).toStdString()});
    }
    if (Status s = removeCheckpoint(folder); !s) {
        loop_->recordEvent(events::type::kWarning, events::warning(s.message(), trial.id));
    }
}

Status ExperimentRunner::copyCheckpoint(const QString& from, const QString& to,
                                        const QJsonObject& manifest) {
    return tunedeck::copyCheckpoint(from, to, manifest);
}

void ExperimentRunner::attemptEnded(const Trial& trial, const GangPlacement& gang) {
    if (gang.placed) {
        gangs_.stop(trial.id, tr("rank 0 has ended"));  // their places return with their exits
    }
}

void ExperimentRunner::eventRecorded(const QString& type, std::int64_t seq, double time,
                                     const QJsonObject& payload) {
    writeEventLine(type, seq, time, payload);
}

void ExperimentRunner::resultRecorded(const QString& trialId, std::int64_t seq, double time,
                                      const QJsonObject& result) {
    if (eventsFile_) {
        writeEventLine(events::type::kResult, seq, time, events::result(trialId, result));
    }
}

void ExperimentRunner::statusShown(const Trial& trial, const QString& reason) {
    reporter_->trialStatusChanged(trial, reason);
}

void ExperimentRunner::warningShown(const QString& message) {
    reporter_->warning(message);
}

void ExperimentRunner::noticeShown(const QString& message) {
    reporter_->notice(message);
}

void ExperimentRunner::wakeAt(double time) {
    const double ms = std::clamp(std::ceil((time - now()) * 1000.0), 0.0, kLongestTimerMs);
    if (!wakeTimer_.isActive() || ms < wakeTimer_.remainingTime()) {
        wakeTimer_.start(int(ms));
    }
}

void ExperimentRunner::demandChanged() {
    reportSlotDemand();
    if (autoscaler_) {
        autoscaler_->demandChanged();
    }
}

void ExperimentRunner::runEnded(int exitCode, const QString& outcome) {
    tickTimer_.stop();
    wakeTimer_.stop();
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
    // After the loop's input has returned: a receiver may delete the runner.
    QMetaObject::invokeMethod(
        this, [this, exitCode] { emit finished(exitCode); }, Qt::QueuedConnection);
}

void ExperimentRunner::reportSlotDemand() {
    if (!options_.sharedSlots) {
        return;
    }
    // The queue hands out room one trial at a time; room granted and not taken is given back
    // at the next report.
    constexpr std::int64_t kUnbounded = 1 << 20;
    const TrialDemand now = loop_->demand(kUnbounded);
    SlotDemand demand;
    demand.running = int(now.running);
    demand.wanted = int(std::min(kUnbounded, std::int64_t(now.waiting.size()) + now.future));
    demand.cpu = spec().resourcesPerTrial.cpu;
    demand.gpu = spec().resourcesPerTrial.gpu;
    if (!(demand == lastDemand_)) {
        lastDemand_ = demand;
        emit slotDemandChanged(demand);
    }
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
    trials.reserve(loop_->trials().size());
    for (const LoopTrial& live : loop_->trials()) {
        trials.push_back(&live.trial);
    }
    std::vector<NodeUsageSample> usage = monitor_.latestUsage();
    ProgressSnapshot s = snapshotProgress(
        spec(), std::move(trials), pool_ ? pool_->capacities() : std::vector<NodeCapacity>{},
        loop_->resultCount(), loop_->totalTrials(), std::move(usage));
    s.checkpointsNotKept = loop_->checkpointsNotKept();
    return s;
}

}  // namespace tunedeck
