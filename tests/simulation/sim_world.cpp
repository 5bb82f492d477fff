#include "sim_world.h"

#include <QJsonDocument>
#include <QJsonValue>
#include <cmath>

#include "config/experiment_loader.h"
#include "core/events.h"
#include "core/run_folders.h"

namespace tunedeck::sim {

// ---- the in-memory history ------------------------------------------------------------------

void MemoryHistory::saveTrial(const Trial& trial, double startedAt, double finishedAt) {
    trials_[trial.id] = {trial, startedAt, finishedAt};
}

std::int64_t MemoryHistory::appendResult(const QString& trialId, std::int64_t iteration, double,
                                         const QJsonObject&) {
    std::int64_t& last = lastIteration_[trialId];
    const auto from = goesOnFrom_.find(trialId);
    if (from != goesOnFrom_.end()) {
        if (iteration == from->second + 1) {
            last = from->second;
        }
        goesOnFrom_.erase(from);
    }
    if (iteration != last + 1 && problem_.isEmpty()) {
        problem_ = QStringLiteral(
                       "trial %1 recorded iteration %2 after iteration %3: an "
                       "iteration recorded twice or skipped")
                       .arg(trialId)
                       .arg(iteration)
                       .arg(last);
    }
    last = iteration;
    ++resultCount_;
    return ++seq_;
}

void MemoryHistory::deleteResultsAfter(const QString& trialId, std::int64_t iteration) {
    std::int64_t& last = lastIteration_[trialId];
    last = std::min(last, iteration);
}

std::int64_t MemoryHistory::addCheckpoint(const QString& trialId, std::int64_t iteration,
                                          const QString& path, const QJsonObject& result, double) {
    const std::int64_t id = nextCheckpointId_++;
    checkpoints_[id] = {trialId, iteration, path, result, false};
    if (iteration > lastIteration(trialId)) {
        goesOnFrom_[trialId] = iteration;
    }
    return id;
}

void MemoryHistory::markCheckpointDeleted(std::int64_t id) {
    checkpoints_[id].deleted = true;
}

void MemoryHistory::addExploit(const ExploitRecord&) {}

void MemoryHistory::saveSearchState(const QJsonObject& searcher, const QJsonObject& scheduler) {
    searcherState_ = searcher;
    schedulerState_ = scheduler;
}

void MemoryHistory::setExperimentStatus(const QString&, double) {}

std::int64_t MemoryHistory::appendEvent(const QString& type, const QString&,
                                        const QJsonObject& payload, double) {
    if (type == events::type::kLimits) {
        LimitsChange change;
        if (parseLimitsChange(payload, &change).isOk()) {
            limits_.push_back(change);
        }
    }
    return ++seq_;
}

std::int64_t MemoryHistory::lastIteration(const QString& trialId) const {
    auto it = lastIteration_.find(trialId);
    return it == lastIteration_.end() ? 0 : it->second;
}

RecoveredRun MemoryHistory::recover(std::set<QString>& disk) {
    RecoveredRun run;
    run.searcherState = searcherState_;
    run.schedulerState = schedulerState_;
    run.limits = limits_;
    std::map<QString, std::vector<std::int64_t>> byTrial;  // ids in iteration order
    for (const auto& [id, c] : checkpoints_) {
        if (!c.deleted) {
            byTrial[c.trialId].push_back(id);
        }
    }
    std::set<QString> known;
    for (auto& [trialId, ids] : byTrial) {
        std::stable_sort(ids.begin(), ids.end(), [this](std::int64_t a, std::int64_t b) {
            return checkpoints_[a].iteration < checkpoints_[b].iteration;
        });
    }
    for (auto& [id, stored] : trials_) {
        RecoveredLoopTrial rt;
        rt.trial = stored.trial;
        rt.startedAt = stored.startedAt;
        rt.finishedAt = stored.finishedAt;
        const StoredCheckpoint* latest = nullptr;
        for (const std::int64_t cid : byTrial[id]) {
            StoredCheckpoint& c = checkpoints_[cid];
            if (disk.count(c.path) == 0) {
                c.deleted = true;  // gone from disk: nothing to restore
                continue;
            }
            known.insert(c.path);
            rt.checkpoints.push_back({cid, c.iteration, c.result});
            rt.checkpointPaths[cid] = c.path;
            latest = &c;
        }
        Trial& trial = rt.trial;
        if (!isFinished(trial.status)) {
            if (trial.status == TrialStatus::Running) {
                trial.status = TrialStatus::Pending;
                trial.pendingReason = QStringLiteral("resumed");
            }
            trial.checkpointPath = latest ? latest->path : QString();
            trial.checkpointIteration = latest ? latest->iteration : 0;
            trial.iteration = trial.checkpointIteration;
            trial.timeTotalS = latest ? latest->result.value("time_total_s").toDouble() : 0;
            trial.lastResult = latest ? latest->result : QJsonObject();
            deleteResultsAfter(id, trial.checkpointIteration);
        }
        run.trials.push_back(std::move(rt));
    }
    // Folders the history does not know (committed just before the crash) are swept.
    for (auto it = disk.begin(); it != disk.end();) {
        it = known.count(*it) ? std::next(it) : disk.erase(it);
    }
    run.resultCount = resultCount_;
    return run;
}

namespace {

// Trial ids sort in creation order below t99999: "t00012" -> 12.
std::int64_t indexOf(const QString& trialId) {
    return trialId.mid(1).toLongLong();
}

// ---- the world ----------------------------------------------------------------------------

class World : public LoopClock, public LoopNodes, public LoopEffects {
  public:
    World(const Scenario& scenario, const WorldOptions& options, ExperimentSpec spec)
        : scenario_(scenario), options_(options), spec_(std::move(spec)) {
        for (int n = 0; n < scenario_.nodes; ++n) {
            NodeCapacity node;
            node.nodeId = QStringLiteral("n%1").arg(n);
            node.cpuTotalMilli = std::int64_t(scenario_.slotsPerNode) * 1000;
            nodes_.push_back(node);
        }
    }

    Outcome run();

    // LoopClock, LoopNodes
    double now() const override { return now_; }
    std::vector<NodeCapacity>& capacities() override { return nodes_; }
    bool opened() const override { return true; }
    bool anyReady() const override {
        return std::any_of(nodes_.begin(), nodes_.end(),
                           [](const NodeCapacity& n) { return n.alive; });
    }
    bool elastic() const override { return false; }
    bool allHeardFrom() const override { return true; }
    QString describeUnavailable() const override {
        QStringList down;
        for (const NodeCapacity& n : nodes_) {
            if (!n.alive) {
                down << n.nodeId + QStringLiteral(" (lost)");
            }
        }
        return down.join(QStringLiteral(", "));
    }

    // LoopEffects: what the nodes' agents and trial processes do
    Status startTrial(const Trial& trial, int attempt, const Placement& placement,
                      const GangPlacement&) override;
    void answer(const Trial& trial, const Placement&, TrialAnswer answer,
                const QString& scratch) override;
    void answerRequest(const Trial& trial, const Placement&, const QJsonObject& answer) override;
    void endProcess(const Trial& trial, const Placement&, const QString& reason) override;
    void commitCheckpoint(const Trial& trial, const Placement& placement,
                          const CommitOrder& order) override;
    void discardScratch(const Placement&, const QString&) override {}
    void deleteCheckpoint(const Trial& trial, const Placement&, const QString& folder) override {
        note(QStringLiteral("%1 deletes %2").arg(trial.id, folder.section(QLatin1Char('/'), -1)));
        disk_.erase(folder);
    }
    Status copyCheckpoint(const QString& from, const QString& to, const QJsonObject&) override {
        if (disk_.count(from) == 0) {
            breaks(QStringLiteral("an exploit copied %1, which was deleted").arg(from));
            return Status::ioError(QStringLiteral("%1: no such folder").arg(from));
        }
        disk_.insert(to);
        stepIn_[to] = stepIn_[from];
        note(QStringLiteral("copy %1 -> %2")
                 .arg(from.section(QLatin1Char('/'), -3), to.section(QLatin1Char('/'), -3)));
        return Status::ok();
    }
    void attemptEnded(const Trial& trial, const GangPlacement&) override {
        note(QStringLiteral("%1 attempt ended").arg(trial.id));
    }
    // pbt's explore_command: halves lr above 0.5 (a user's clamp), a moment later; every fifth
    // run fails.
    void exploreConfig(const QString& trialId, const QStringList&,
                       const QJsonObject& config) override {
        const bool fails = ++explores_ % 5 == 0;
        QJsonObject out = config;
        if (out.value("lr").toDouble() > 0.5) {
            out.insert("lr", out.value("lr").toDouble() / 2);
        }
        note(QStringLiteral("%1 explore%2").arg(trialId, fails ? " fails" : ""));
        at(now_ + 0.05, [this, trialId, out, fails] {
            if (fails) {
                exploredFor_.erase(trialId);
            } else {
                exploredFor_[trialId] = out;
            }
            loop_->explored(trialId, fails ? QJsonObject() : out,
                            fails ? QStringLiteral("sim: it exited with code 1") : QString());
        });
    }
    void eventRecorded(const QString& type, std::int64_t, double,
                       const QJsonObject& payload) override;
    void resultRecorded(const QString& trialId, std::int64_t, double,
                        const QJsonObject& result) override;
    void statusShown(const Trial& trial, const QString& reason) override;
    void warningShown(const QString& message) override { note(QStringLiteral("! ") + message); }
    void noticeShown(const QString&) override {}
    void wakeAt(double time) override {
        at(time, [this] { loop_->tick(); });
    }
    void demandChanged() override {}
    void runEnded(int exitCode, const QString& outcome) override {
        note(QStringLiteral("run ended %1: %2").arg(exitCode).arg(outcome.left(120)));
    }

  private:
    // A trial's process, for the attempt that runs.
    struct Process {
        int attempt = 0;
        QString node;
        std::int64_t iteration = 0;
        TrialBehaviour behaviour;
        bool firstAttempt = true;
        bool alive = true;
        bool hung = false;
        bool killScheduled = false;
        std::optional<double> toldToEndAt;
        std::uint64_t id = 0;  // events of an older process are dropped
    };
    struct Event {
        double time;
        std::uint64_t order;
        std::function<void()> run;
        bool engine;  // gone with the engine when it is killed
        bool operator>(const Event& other) const {
            return time != other.time ? time > other.time : order > other.order;
        }
    };

    void at(double time, std::function<void()> run, bool engine = true) {
        queue_.push({time, nextOrder_++, std::move(run), engine});
    }
    // Runs `run` at `time` if the process is still the one that runs.
    void forProcess(const QString& trialId, std::uint64_t processId, double time,
                    std::function<void(Process&)> run) {
        at(time, [this, trialId, processId, run = std::move(run)] {
            auto it = processes_.find(trialId);
            if (it != processes_.end() && it->second.id == processId && it->second.alive) {
                run(it->second);
            }
        });
    }
    void note(const QString& line) {
        const QString stamped = QStringLiteral("%1 %2").arg(now_, 0, 'f', 3).arg(line);
        for (const QChar c : stamped) {
            traceHash_ = (traceHash_ ^ c.unicode()) * 1099511628211ull;
        }
        trace_.push_back(stamped);
        if (int(trace_.size()) > options_.traceLines) {
            trace_.pop_front();
        }
    }
    void breaks(const QString& what) {
        if (violation_.isEmpty()) {
            violation_ = what;
        }
    }

    void newLoop();
    void report(const QString& trialId, Process& p);
    void exit(const QString& trialId, Process& p, ExitFacts facts, const QString& why);
    void save(const QString& trialId, Process& p, const QString& scratch, bool thenExit);
    void loseNode(int n);
    void crashEngine();
    void checkStopGrace();
    QJsonObject metricsAt(const Process& p) const;

    const Scenario& scenario_;
    const WorldOptions& options_;
    ExperimentSpec spec_;
    double now_ = 0;
    std::vector<NodeCapacity> nodes_;
    MemoryHistory history_;
    std::unique_ptr<ExperimentLoop> loop_;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> queue_;
    std::uint64_t nextOrder_ = 0;
    std::map<QString, Process> processes_;
    std::map<QString, int> attemptsStarted_;      // per trial, over engine restarts
    std::map<QString, double> askedValue_;        // define-by-run: the value each trial was given
    std::map<QString, QJsonObject> exploredFor_;  // explore_command's answer, until applied
    std::uint64_t explores_ = 0;
    std::set<QString> commitFailedIn_;  // trials whose attempt lost a checkpoint
    std::set<QString> disk_;            // checkpoint folders in place
    // The step each checkpoint folder holds: a program counts its own steps from it, as Ray's
    // PBT examples do (`step = state["step"]`), whatever iteration the engine files it under.
    std::map<QString, std::int64_t> stepIn_;
    std::uint64_t nextProcessId_ = 1;
    std::deque<QString> trace_;
    std::uint64_t traceHash_ = 1469598103934665603ull;
    QString violation_;
    bool crashed_ = false;
    std::int64_t statusChanges_ = 0;
    std::uint64_t commits_ = 0;
};

void World::newLoop() {
    LoopEnvironment env;
    env.clock = this;
    env.history = &history_;
    env.nodes = this;
    env.effects = this;
    loop_ = std::make_unique<ExperimentLoop>(spec_, QStringLiteral("/sim"), env, false);
    if (Status s = loop_->recover(history_.recover(disk_)); !s) {
        breaks(QStringLiteral("recovery failed: %1").arg(s.message()));
        return;
    }
    loop_->begin();
    loop_->schedule();
}

Outcome World::run() {
    newLoop();
    // The runtime ticks every second.
    std::function<void()> tick = [this, &tick] {
        if (!loop_->isFinished()) {
            loop_->tick();
            checkStopGrace();
            at(now_ + 1, tick);
        }
    };
    at(1, tick);
    if (scenario_.nodeLossAt > 0) {
        at(
            scenario_.nodeLossAt, [this] { loseNode(scenario_.nodes - 1); }, false);
    }
    if (scenario_.engineCrashAt > 0 && options_.withEngineCrash) {
        at(
            scenario_.engineCrashAt,
            [this, &tick] {
                crashEngine();
                at(now_ + 1, tick);
            },
            false);
    }
    Outcome outcome;
    const double stallS =
        spec_.failure.stopGraceS + spec_.failure.heartbeatTimeoutS + scenario_.nodeBackAfterS + 120;
    std::int64_t lastResults = 0;
    std::int64_t lastChanges = 0;
    double lastProgressAt = 0;
    while (violation_.isEmpty() && !loop_->isFinished()) {
        if (queue_.empty()) {
            breaks(QStringLiteral("the run stalled: nothing in flight and the run not over"));
            break;
        }
        Event event = queue_.top();
        queue_.pop();
        now_ = event.time;
        event.run();
        ++outcome.steps;
        if (!history_.problem().isEmpty()) {
            breaks(history_.problem());
        }
        // Progress: a result or a change of status. Nothing for longer than any timeout of the
        // run (a hang found, a stop forced, a node back) means it is stuck.
        if (history_.resultCount() != lastResults || statusChanges_ != lastChanges) {
            lastResults = history_.resultCount();
            lastChanges = statusChanges_;
            lastProgressAt = now_;
        } else if (now_ - lastProgressAt > stallS) {
            breaks(QStringLiteral("the run made no progress for %1 s of virtual time").arg(stallS));
        }
        if (outcome.steps > options_.mostSteps) {
            breaks(QStringLiteral("the run did not end within %1 steps").arg(options_.mostSteps));
        }
    }
    // Every trial ends: a run that finished (not interrupted, not refused) left none behind.
    if (violation_.isEmpty() &&
        (loop_->exitCode() == kExitFinished || loop_->exitCode() == kExitTrialErrors)) {
        for (const LoopTrial& live : loop_->trials()) {
            const QString& id = live.trial.id;
            if (!isFinished(live.trial.status)) {
                breaks(QStringLiteral("the run ended with trial %1 %2")
                           .arg(id, trialStatusName(live.trial.status)));
            }
        }
    }
    // What the history points at exists.
    for (const LoopTrial& live : loop_->trials()) {
        const QString& id = live.trial.id;
        if (!live.trial.checkpointPath.isEmpty() && !disk_.count(live.trial.checkpointPath) &&
            !isFinished(live.trial.status)) {
            breaks(QStringLiteral("trial %1 points at %2, which is not on disk")
                       .arg(id, live.trial.checkpointPath));
        }
        outcome.ends << QStringLiteral("%1 %2 %3")
                            .arg(id, trialStatusName(live.trial.status))
                            .arg(history_.lastIteration(id));
    }
    outcome.ok = violation_.isEmpty();
    outcome.violation = violation_;
    outcome.trace = QStringList(trace_.begin(), trace_.end());
    outcome.exitCode = loop_->exitCode();
    outcome.trials = std::int64_t(loop_->trials().size());
    outcome.results = history_.resultCount();
    outcome.virtualTime = now_;
    outcome.crashed = crashed_;
    outcome.traceHash = traceHash_;
    return outcome;
}

QJsonObject World::metricsAt(const Process& p) const {
    const double x = double(p.iteration);
    const double value = p.behaviour.quality * (1 - std::exp(-x / 6.0)) +
                         0.01 * std::sin(x * (1 + p.behaviour.quality * 10));
    return QJsonObject{{scenario_.metric, scenario_.minimize ? 1 - value : value}};
}

Status World::startTrial(const Trial& trial, int attempt, const Placement& placement,
                         const GangPlacement&) {
    if (!trial.checkpointPath.isEmpty() && disk_.count(trial.checkpointPath) == 0) {
        breaks(QStringLiteral("trial %1 restored from %2, which was deleted")
                   .arg(trial.id, trial.checkpointPath));
    }
    Process p;
    p.attempt = attempt;
    p.node = placement.nodeId;
    const auto step = stepIn_.find(trial.checkpointPath);
    p.iteration = trial.checkpointPath.isEmpty() ? 0
                  : step != stepIn_.end()        ? step->second
                                                 : trial.checkpointIteration;
    p.behaviour = behaviourOf(scenario_, indexOf(trial.id));
    p.firstAttempt = attemptsStarted_[trial.id]++ == 0;
    p.id = nextProcessId_++;
    commitFailedIn_.erase(trial.id);
    note(QStringLiteral("%1 start attempt %2 on %3 from iteration %4")
             .arg(trial.id)
             .arg(attempt)
             .arg(p.node)
             .arg(p.iteration));
    const QString id = trial.id;
    const std::uint64_t pid = p.id;
    processes_[id] = p;
    forProcess(id, pid, now_ + 0.01, [this, id](Process& proc) {
        loop_->processStarted(id, proc.attempt);
        if (scenario_.asksParameters) {
            // Every attempt asks again, as an Optuna objective run again from its start does.
            loop_->trialLine(
                id, proc.attempt,
                decodeTrialLine(QJsonObject{
                    {"type", "suggest"},
                    {"name", "asked_rate"},
                    {"distribution",
                     QJsonObject{
                         {"type", "float"}, {"low", 1e-4}, {"high", 0.1}, {"log", true}}}}));
        }
        forProcess(id, proc.id, now_ + proc.behaviour.stepS,
                   [this, id](Process& q) { report(id, q); });
    });
    return Status::ok();
}

void World::answerRequest(const Trial& trial, const Placement&, const QJsonObject& answer) {
    const QJsonValue value = answer.value(QLatin1String("value"));
    note(QStringLiteral("%1 is given asked_rate %2").arg(trial.id).arg(value.toDouble()));
    if (answer.value(QLatin1String("action")).toString() != QLatin1String("value")) {
        breaks(QStringLiteral("%1 asked for asked_rate and was refused: %2")
                   .arg(trial.id, answer.value(QLatin1String("message")).toString()));
        return;
    }
    const double lr = value.toDouble();
    if (!(lr >= 1e-4 && lr <= 0.1) || trial.config.value(QLatin1String("asked_rate")) != value) {
        breaks(QStringLiteral("%1 was given asked_rate %2, outside the range or not in its config")
                   .arg(trial.id)
                   .arg(lr));
    }
    // A retried attempt, or one after the engine's restart, gets the value the trial has (until
    // a PBT exploit gives it another config).
    const auto [known, fresh] = askedValue_.emplace(trial.id, lr);
    if (!fresh && known->second != lr) {
        breaks(QStringLiteral("%1 was given asked_rate %2, then %3")
                   .arg(trial.id)
                   .arg(known->second)
                   .arg(lr));
    }
}

void World::report(const QString& trialId, Process& p) {
    if (p.iteration >= p.behaviour.epochs) {
        ExitFacts done;  // its last epoch is behind it: it ends on its own
        done.code = 0;
        exit(trialId, p, done, QStringLiteral("finished its epochs"));
        return;
    }
    ++p.iteration;
    const TrialBehaviour& b = p.behaviour;
    if (p.firstAttempt && b.crashAt > 0 && p.iteration >= b.crashAt) {
        ExitFacts crash;
        crash.code = 1;
        exit(trialId, p, crash, QStringLiteral("crashed"));
        return;
    }
    if (p.firstAttempt && b.hangAt > 0 && p.iteration >= b.hangAt) {
        p.hung = true;
        note(QStringLiteral("%1 hangs").arg(trialId));
        return;
    }
    TrialLine line;
    if (p.firstAttempt && b.badLineAt > 0 && p.iteration == b.badLineAt) {
        line.kind = TrialLine::Kind::Unknown;
        line.text = QStringLiteral("bogus");
        loop_->trialLine(trialId, p.attempt, line);
        return;
    }
    line.kind = TrialLine::Kind::Report;
    line.metrics = metricsAt(p);
    if (b.saves == TrialBehaviour::Saves::ThroughReports &&
        p.iteration % b.reportCheckpointEvery == 1 % b.reportCheckpointEvery) {
        line.path = trialFolder(QStringLiteral("/sim"), trialId) +
                    QStringLiteral("/own_%1").arg(p.iteration);
        line.namesPath = true;
    }
    note(QStringLiteral("%1 reports %2%3")
             .arg(trialId)
             .arg(p.iteration)
             .arg(line.namesPath ? QStringLiteral(" with a checkpoint") : QString()));
    loop_->trialLine(trialId, p.attempt, line);
}

void World::answer(const Trial& trial, const Placement&, TrialAnswer answer,
                   const QString& scratch) {
    auto it = processes_.find(trial.id);
    if (it == processes_.end() || !it->second.alive) {
        return;
    }
    Process& p = it->second;
    const QString id = trial.id;
    const char* names[] = {"continue", "stop", "save", "pause"};
    note(QStringLiteral("%1 answered %2").arg(id, names[int(answer)]));
    switch (answer) {
        case TrialAnswer::Continue:
            if (p.iteration >= p.behaviour.epochs) {
                forProcess(id, p.id, now_ + 0.001, [this, id](Process& q) {
                    ExitFacts done;
                    done.code = 0;
                    exit(id, q, done, QStringLiteral("finished its epochs"));
                });
            } else {
                forProcess(id, p.id, now_ + p.behaviour.stepS,
                           [this, id](Process& q) { report(id, q); });
            }
            break;
        case TrialAnswer::Stop:
            p.toldToEndAt = p.toldToEndAt.value_or(now_);
            if (!p.behaviour.ignoresStop) {
                forProcess(id, p.id, now_ + 0.001, [this, id](Process& q) {
                    ExitFacts done;
                    done.code = 0;
                    exit(id, q, done, QStringLiteral("stopped"));
                });
            }
            break;
        case TrialAnswer::Save:
            save(id, p, scratch, false);
            break;
        case TrialAnswer::Pause:
            p.toldToEndAt = p.toldToEndAt.value_or(now_);
            save(id, p, scratch, true);
            break;
    }
}

void World::save(const QString& trialId, Process& p, const QString& scratch, bool thenExit) {
    forProcess(trialId, p.id, now_ + scenario_.slowSaveS,
               [this, trialId, scratch, thenExit](Process& q) {
                   TrialLine line;
                   line.kind = TrialLine::Kind::Checkpoint;
                   if (q.behaviour.saves == TrialBehaviour::Saves::OnRequest) {
                       line.path = scratch;
                       line.namesPath = true;
                   }
                   note(QStringLiteral("%1 saves%2")
                            .arg(trialId, line.namesPath ? QString() : QStringLiteral(" nothing")));
                   loop_->trialLine(trialId, q.attempt, line);
                   if (thenExit && !q.behaviour.ignoresStop) {
                       forProcess(trialId, q.id, now_ + 0.001, [this, trialId](Process& r) {
                           ExitFacts done;
                           done.code = 0;
                           exit(trialId, r, done, QStringLiteral("paused"));
                       });
                   }
               });
}

void World::endProcess(const Trial& trial, const Placement&, const QString& reason) {
    auto it = processes_.find(trial.id);
    if (it == processes_.end() || !it->second.alive) {
        return;
    }
    Process& p = it->second;
    p.toldToEndAt = p.toldToEndAt.value_or(now_);
    note(QStringLiteral("%1 SIGTERM: %2").arg(trial.id, reason.left(80)));
    const QString id = trial.id;
    if (!p.behaviour.ignoresStop) {
        forProcess(id, p.id, now_ + 0.01, [this, id](Process& q) {
            ExitFacts killed;
            killed.signal = 15;
            exit(id, q, killed, QStringLiteral("SIGTERM"));
        });
    } else if (!p.killScheduled) {
        p.killScheduled = true;  // the agent's SIGKILL, 5 s after SIGTERM
        forProcess(id, p.id, now_ + 5, [this, id](Process& q) {
            ExitFacts killed;
            killed.signal = 9;
            exit(id, q, killed, QStringLiteral("SIGKILL"));
        });
    }
}

void World::exit(const QString& trialId, Process& p, ExitFacts facts, const QString& why) {
    p.alive = false;
    const LoopTrial* live = loop_->find(trialId);
    if (facts.code == 0 && p.iteration >= p.behaviour.epochs && live &&
        live->trial.iteration < p.iteration) {
        // A program that ran to its last step is shown short of it (a PBT copy from further on
        // left the trial counting from its own iteration).
        breaks(QStringLiteral("trial %1 ran its program to step %2 and is recorded at iteration %3")
                   .arg(trialId)
                   .arg(p.iteration)
                   .arg(live->trial.iteration));
    }
    note(QStringLiteral("%1 exits (%2)").arg(trialId, why));
    loop_->exited(trialId, p.attempt, facts);
}

void World::commitCheckpoint(const Trial& trial, const Placement& placement,
                             const CommitOrder& order) {
    const LoopTrial* live = loop_->find(trial.id);
    const int attempt = live ? live->attempt.number() : 0;
    const QString id = trial.id;
    const QString node = placement.nodeId;
    const auto process = processes_.find(id);
    const std::int64_t step =
        process != processes_.end() ? process->second.iteration : trial.iteration;
    // Whether the disk is full is decided now, from the seed, the folder and the commit's
    // number, so replays agree; a full disk is a passing state (a disk that stays full would
    // make every save fail, and the run go round, for ever).
    const std::uint64_t h = (std::hash<std::string>{}(order.to.toStdString()) ^ scenario_.seed) +
                            0x9E3779B97F4A7C15ull * ++commits_;
    const bool full = scenario_.diskFullProbability > 0 &&
                      double((h >> 11) % 1000) / 1000.0 < scenario_.diskFullProbability;
    at(now_ + 0.02, [this, id, attempt, node, to = order.to, full, step] {
        const auto n = std::find_if(nodes_.begin(), nodes_.end(),
                                    [&](const NodeCapacity& c) { return c.nodeId == node; });
        if (n == nodes_.end() || !n->alive) {
            return;  // the node's loss decides
        }
        if (full) {
            commitFailedIn_.insert(id);
            loop_->committed(id, attempt, to, false, QStringLiteral("No space left on device"));
            return;
        }
        disk_.insert(to);
        stepIn_[to] = step;
        loop_->committed(id, attempt, to, true, {});
    });
}

void World::eventRecorded(const QString& type, std::int64_t, double, const QJsonObject& payload) {
    if (type == events::type::kExploit || type == events::type::kCheckpoint) {
        note(QStringLiteral("%1 %2").arg(type, payload.value("trial").toString()));
    }
    if (type != events::type::kExploit) {
        return;
    }
    const QString trial = payload.value("trial").toString();
    const QString source = payload.value("source").toString();
    askedValue_.erase(trial);  // PBT changed its config
    // An exploit copies its source's newest checkpoint, never while one of the source's is on
    // its way (asked at the perturbation the exploit was decided at, as Ray's synchronous PBT
    // copies the checkpoint the top trial saves at the same sync point).
    const LoopTrial* donor = source == trial ? nullptr : loop_->find(source);
    if (donor && donor->attempt.checkpointInFlight()) {
        breaks(QStringLiteral("trial %1 copied trial %2's checkpoint of iteration %3 while %2's "
                              "next was on its way")
                   .arg(trial, source)
                   .arg(payload.value("source_iteration").toInteger()));
    }
    // The config the trial goes on with is explore_command's answer, when it gave one.
    if (const auto explored = exploredFor_.find(trial); explored != exploredFor_.end()) {
        const auto text = [](const QJsonObject& config) {
            return QString::fromUtf8(QJsonDocument(config).toJson(QJsonDocument::Compact));
        };
        if (payload.value("new_config").toObject() != explored->second) {
            breaks(QStringLiteral("trial %1 went on with %2, not explore_command's %3")
                       .arg(trial, text(payload.value("new_config").toObject()),
                            text(explored->second)));
        }
        exploredFor_.erase(explored);
    }
}

void World::resultRecorded(const QString& trialId, std::int64_t, double,
                           const QJsonObject& result) {
    const std::int64_t iteration = result.value("training_iteration").toInteger();
    if (scenario_.stopIteration > 0 && iteration > scenario_.stopIteration) {
        breaks(QStringLiteral("trial %1 recorded iteration %2 past stop: training_iteration %3")
                   .arg(trialId)
                   .arg(iteration)
                   .arg(scenario_.stopIteration));
    }
    if (scenario_.maxT > 0 && iteration > scenario_.maxT) {
        breaks(QStringLiteral("trial %1 recorded iteration %2 past the scheduler's max_t %3")
                   .arg(trialId)
                   .arg(iteration)
                   .arg(scenario_.maxT));
    }
}

void World::statusShown(const Trial& trial, const QString& reason) {
    ++statusChanges_;
    note(QStringLiteral("%1 -> %2 %3")
             .arg(trial.id, trialStatusName(trial.status), reason.left(100)));
    // A pause to give way never costs progress: a trial that cannot keep its place goes on.
    const bool givesWay = reason.contains(QLatin1String("giving way")) ||
                          reason.contains(QLatin1String("giving the slot")) ||
                          reason.contains(QLatin1String("waiting for every trial"));
    if (trial.status == TrialStatus::Paused && givesWay &&
        trial.checkpointIteration < trial.iteration && !commitFailedIn_.count(trial.id)) {
        breaks(QStringLiteral("trial %1 gave way at iteration %2 and would start again from "
                              "iteration %3")
                   .arg(trial.id)
                   .arg(trial.iteration)
                   .arg(trial.checkpointIteration));
    }
}

void World::checkStopGrace() {
    // A trial told to end is gone within stop_grace_s, the agent's SIGKILL delay and a tick.
    const double bound = spec_.failure.stopGraceS + 5 + 2;
    for (const auto& [id, p] : processes_) {
        if (p.alive && p.toldToEndAt && now_ - *p.toldToEndAt > bound) {
            breaks(QStringLiteral("trial %1 was told to end at %2 s and still runs at %3 s")
                       .arg(id)
                       .arg(*p.toldToEndAt, 0, 'f', 1)
                       .arg(now_, 0, 'f', 1));
        }
    }
}

void World::loseNode(int n) {
    NodeCapacity& node = nodes_[std::size_t(n)];
    note(QStringLiteral("node %1 lost").arg(node.nodeId));
    node.alive = false;
    for (auto& [id, p] : processes_) {
        if (p.alive && p.node == node.nodeId) {
            p.alive = false;  // dies with its node, unheard
        }
    }
    loop_->nodeLost(node.nodeId, QStringLiteral("simulated loss"));
    if (!loop_->stopping()) {
        loop_->schedule();
    }
    at(
        now_ + scenario_.nodeBackAfterS,
        [this, n] {
            NodeCapacity& back = nodes_[std::size_t(n)];
            back = emptyCapacity(back);
            back.alive = true;
            note(QStringLiteral("node %1 back").arg(back.nodeId));
            if (!loop_->isFinished()) {
                loop_->schedule();
            }
        },
        false);
}

void World::crashEngine() {
    if (loop_->isFinished()) {
        return;
    }
    note(QStringLiteral("the engine is killed (kill -9) and resumed"));
    crashed_ = true;
    // Its trials die with it; what the engine had queued is lost (its explore runs too).
    processes_.clear();
    exploredFor_.clear();
    std::vector<Event> kept;
    while (!queue_.empty()) {
        if (!queue_.top().engine) {
            kept.push_back(queue_.top());
        }
        queue_.pop();
    }
    for (Event& e : kept) {
        queue_.push(std::move(e));
    }
    for (NodeCapacity& node : nodes_) {
        const bool alive = node.alive;
        node = emptyCapacity(node);
        node.alive = alive;
    }
    newLoop();
}

}  // namespace

Outcome simulate(const Scenario& scenario, const WorldOptions& options) {
    LoadResult<ExperimentSpec> loaded =
        loadExperimentText(scenario.yaml, QStringLiteral("sim-%1.yaml").arg(scenario.seed));
    if (!loaded.isOk()) {
        Outcome refused;
        refused.ok = false;
        refused.violation = QStringLiteral("the scenario's experiment file was refused: %1")
                                .arg(loaded.errorLines().join(QStringLiteral("; ")));
        return refused;
    }
    World world(scenario, options, std::move(*loaded.spec));
    return world.run();
}

}  // namespace tunedeck::sim
