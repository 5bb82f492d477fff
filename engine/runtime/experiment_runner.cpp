#include "runtime/experiment_runner.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <algorithm>
#include <cmath>

#include "checkpoint/file_identity.h"
#include "core/events.h"
#include "core/gang_placement.h"
#include "runtime/autoscaler_driver.h"
#include "runtime/node_plans.h"
#include "runtime/progress_snapshot.h"
#include "runtime/recovery.h"
#include "runtime/trial_command.h"

namespace tunedeck {

namespace {

constexpr int kTickMs = 1000;  // trial heartbeats, trial-row saves, node liveness
constexpr double kLongestTimerMs = 2147483647.0;  // a QTimer's interval is an int (24.8 days)
// Trials the searcher has not proposed yet count as an autoscaler's demand, up to this many:
// enough for any cluster a step can start, few enough that a step stays cheap with
// num_samples: -1.
constexpr std::int64_t kMostFutureTrials = 1000;

// serve's queue shares this machine; an experiment on its own cluster's nodes is not in it.
bool underSharedSlots(const ExperimentSpec& spec, const RunnerOptions& options) {
    return options.sharedSlots &&
           (!spec.clusterSpec || spec.clusterSpec->provider == ClusterProvider::Local);
}

// Where what trials leave on nodes without this machine's files is brought back: the
// experiment's folder, unless this engine acts for another user (a root engine of `serve`),
// which writes nothing into that user's folders as itself.
QString trialFoldersBackTo(const RunnerOptions& options) {
    std::string failure;
    return checkpoint::ownerFromEnvironment(&failure) || !failure.empty() ? QString()
                                                                          : options.experimentDir;
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
      relay_(
          *loop_, [this](const QString& nodeId) { return pool_ ? pool_->link(nodeId) : nullptr; },
          [this] { return autoscaler_ != nullptr; }, trialFoldersBackTo(options_)),
      gangs_(loop_->spec(), *loop_, relay_.checkpoints()),
      monitor_(loop_->spec(), *loop_, *store_, *this, gangs_,
               [this](const QString& type, std::int64_t seq, double time,
                      const QJsonObject& payload) { writeEventLine(type, seq, time, payload); }) {
    options_.sharedSlots = underSharedSlots(loop_->spec(), options_);
    relay_.attach(&gangs_);
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

// ---- the worker agents ------------------------------------------------------------------------

void ExperimentRunner::openNodes() {
    NodePlanContext context;
    context.experimentDir = options_.experimentDir;
    context.workerPath = options_.workerPath;
    context.pythonSdkDir = options_.pythonSdkDir;
    context.acceptNewHostKeys = options_.acceptNewHostKeys;
    provider_ = makeNodeProvider(spec(), context);
    std::vector<NodePlan> plans;
    if (!provider_->elastic()) {
        for (const ProviderNode& node : provider_->listNodes()) {
            plans.push_back(planNode(*provider_, node));
        }
    }
    pool_ = std::make_unique<NodePool>(std::move(plans), spec().clusterSpec
                                                             ? spec().clusterSpec->nodeTimeoutS
                                                             : kLocalNodeTimeoutS);
    connect(pool_.get(), &NodePool::nodeUp, this, &ExperimentRunner::onNodeUp);
    connect(pool_.get(), &NodePool::nodeLost, this, &ExperimentRunner::onNodeLost);
    connect(pool_.get(), &NodePool::message, this, &ExperimentRunner::onNodeMessage);
    // A node that cannot be reached has answered too: placement: spread waits no longer for it.
    connect(pool_.get(), &NodePool::nodeUnreachable, this, [this] { loop_->schedule(); });
    gangs_.attach(pool_.get());
    monitor_.attach(pool_.get());
    pool_->open();
    if (provider_->elastic()) {
        startAutoscaler();
    }
}

void ExperimentRunner::onNodeMessage(const QString& nodeId, const node::Event& event) {
    if (const auto* usage = std::get_if<node::Usage>(&event)) {
        monitor_.onUsage(nodeId, *usage);
    } else if (const auto* lost = std::get_if<node::GpuLost>(&event)) {
        monitor_.onGpuLost(nodeId, *lost);
    } else if (const auto* sharing = std::get_if<node::GpuSharing>(&event)) {
        monitor_.onGpuSharing(nodeId, *sharing);
    } else if (const auto* error = std::get_if<node::Error>(&event)) {
        loop_->recordEvent(
            events::type::kWarning,
            events::warning(QStringLiteral("worker agent on %1: %2")
                                .arg(nodeId, QString::fromStdString(error->message))));
    } else if (!gangs_.onMessage(nodeId, event)) {  // not a rank other than 0 of a gang trial
        relay_.onTrialEvent(nodeId, event);
    }
}

void ExperimentRunner::onNodeUp(const QString& nodeId, const node::Hello& hello) {
    loop_->recordEvent(events::type::kNode,
                       events::node(nodeId, QStringLiteral("up"), jsonOf(hello)));
    monitor_.nodeUp(nodeId, hello);
    gangs_.tellWorkerSlots();
    if (!checkRequestFits()) {
        return;
    }
    loop_->schedule();
}

bool ExperimentRunner::checkRequestFits() {
    if (autoscaler_) {
        return true;  // node types, not the nodes up now, decide (the autoscaler)
    }
    const std::vector<NodeCapacity> seen = monitor_.seenNodes();
    if (!pool_->allHeardFrom() || seen.empty()) {
        return true;  // a node still connecting may be the one that fits
    }
    QString why;
    if (trialFitsEver(spec().resourcesPerTrial, spec().gang, seen, &why)) {
        return true;
    }
    if (spec().resourcesPerTrial.gpu > 0) {
        why += monitor_.gpuNotes();
    }
    loop_->fail(kExitBadInput, QStringLiteral("%1: resources_per_trial: %2")
                                   .arg(spec().locationOf("resources_per_trial").toString(), why));
    return false;
}

void ExperimentRunner::onNodeLost(const QString& nodeId, const QString& reason) {
    relay_.nodeLost(nodeId);
    gangs_.nodeLost(nodeId, reason);
    monitor_.nodeLost(nodeId);
    if (loop_->isFinished()) {
        return;
    }
    loop_->recordEvent(events::type::kNode,
                       events::node(nodeId, QStringLiteral("lost"), {{"reason", reason}}));
    gangs_.tellWorkerSlots();
    loop_->nodeLost(nodeId, reason);
    if (loop_->stopping() || loop_->isFinished()) {
        return;
    }
    if (checkRequestFits()) {
        loop_->schedule();
    }
}

// ---- an elastic cluster's autoscaler -----------------------------------------------------------

Status ExperimentRunner::setMaxWorkers(const QString& nodeType, int maxWorkers) {
    if (!autoscaler_) {
        return Status::invalid(
            tr("set_max_workers: this experiment's cluster is not autoscaled "
               "(its nodes are listed)"));
    }
    return autoscaler_->setMaxWorkers(nodeType, maxWorkers);
}

void ExperimentRunner::startAutoscaler() {
    AutoscalerDriver::Hooks hooks;
    hooks.demand = [this] { return scalingDemand(); };
    hooks.record = [this](const QString& nodeId, const QString& state, const QString& message,
                          const QJsonObject& details) {
        loop_->recordEvent(events::type::kNode, events::node(nodeId, state, details));
        if (!message.isEmpty()) {
            reporter_->notice(message);
        }
    };
    hooks.infeasible = [this](const ScalingPlan::Infeasible& infeasible) {
        loop_->fail(kExitBadInput,
                    QStringLiteral("%1: resources_per_trial: no node type can hold trial %2: %3")
                        .arg(spec().locationOf("resources_per_trial").toString(),
                             infeasible.trialId, infeasible.why));
    };
    autoscaler_ = std::make_unique<AutoscalerDriver>(autoscalerSpecOf(*spec().clusterSpec),
                                                     *provider_, *pool_, std::move(hooks));
    autoscaler_->start();
}

std::vector<WaitingTrial> ExperimentRunner::scalingDemand() const {
    const TrialDemand now = loop_->demand(kMostFutureTrials);
    std::vector<WaitingTrial> demand;
    for (const QString& id : now.waiting) {
        demand.push_back({id, spec().resourcesPerTrial});
    }
    // The trials the searcher will still add get the ids it will give them.
    const std::int64_t next = std::int64_t(loop_->trials().size());
    for (std::int64_t i = 0; i < now.future; ++i) {
        demand.push_back({trialIdForIndex(next + i), spec().resourcesPerTrial});
    }
    return demand;
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
        relay_.launch(id, attempt, std::move(launch));
    });
    return Status::ok();
}

void ExperimentRunner::answer(const Trial& trial, const Placement& placement, TrialAnswer answer,
                              const QString& scratch) {
    NodeLink* link = relay_.linkOn(placement);
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
    if (NodeLink* link = relay_.linkOn(placement)) {
        link->send(
            node::AnswerOp{trial.id.toStdString(),
                           QJsonDocument(answer).toJson(QJsonDocument::Compact).toStdString(),
                           {}});
    }
}

void ExperimentRunner::endProcess(const Trial& trial, const Placement& placement,
                                  const QString& reason) {
    if (NodeLink* link = relay_.linkOn(placement)) {
        link->send(node::KillOp{trial.id.toStdString(), reason.toStdString()});
    }
}

void ExperimentRunner::commitCheckpoint(const Trial& trial, const Placement& placement,
                                        const CommitOrder& order) {
    NodeLink* link = relay_.linkOn(placement);
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
    if (NodeLink* link = relay_.linkOn(placement)) {
        link->send(node::DeleteCheckpointOp{link->paths().toNode(scratch).toStdString()});
    }
}

void ExperimentRunner::deleteCheckpoint(const Trial& trial, const Placement& placement,
                                        const QString& folder) {
    NodeLink* link = relay_.linkOn(placement);
    const bool nodeSharesFiles = link != nullptr && link->files() == nullptr;
    if (nodeSharesFiles) {
        link->send(node::DeleteCheckpointOp{folder.toStdString()});
        return;  // the agent removes it without holding up the engine
    }
    if (link != nullptr && relay_.checkpoints().forget(placement.nodeId, folder)) {
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

void ExperimentRunner::exploreConfig(const QString& trialId, const QStringList& command,
                                     const QJsonObject& config) {
    if (!explores_) {
        explores_ = std::make_unique<ExploreCommands>(
            spec().trainable.workingDir, spec().trainable.env,
            [this](const QString& id, const QJsonObject& explored, const QString& error) {
                later([this, id, explored, error] { loop_->explored(id, explored, error); });
            });
    }
    explores_->run(trialId, command, config);
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
