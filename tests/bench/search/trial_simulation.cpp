#include "trial_simulation.h"

#include <algorithm>

#include "core/trial_attempt.h"

namespace tunedeck::bench {

namespace {

// The workers are the concurrency limit: one CPU per trial on one node of `workers` CPUs.
ExperimentSpec loopSpec(ExperimentSpec spec, int workers) {
    spec.maxConcurrentTrials =
        spec.maxConcurrentTrials > 0 ? std::min(spec.maxConcurrentTrials, workers) : workers;
    spec.resourcesPerTrial = ResourceRequest{};
    return spec;
}

}  // namespace

TrialSimulation::TrialSimulation(const ExperimentSpec& spec, int workers, TrainableFactory factory)
    : workers_(std::max(1, workers)),
      factory_(std::move(factory)),
      nodes_({nodeOfCpus(QStringLiteral("simulation"), workers_)}),
      loop_(std::make_unique<ExperimentLoop>(loopSpec(spec, workers_), QStringLiteral("/bench"),
                                             LoopEnvironment{this, &history_, &nodes_, this},
                                             false)) {}

TrialSimulation::~TrialSimulation() = default;

SimOutcome TrialSimulation::run(std::int64_t iterationBudget) {
    budget_ = iterationBudget;
    if (Status s = loop_->recover({}); !s) {
        outcome_.stalled = s.message();
        return outcome_;
    }
    loop_->begin();
    loop_->schedule();
    while (!events_.empty() && !loop_->isFinished() && !outcome_.budgetReached) {
        auto next = events_.begin();
        now_ = next->first.first;
        const std::function<void()> what = std::move(next->second);
        events_.erase(next);
        what();
    }
    if (!outcome_.budgetReached && !loop_->isFinished()) {
        const TrialDemand demand = loop_->demand(0);
        outcome_.stalled =
            demand.waiting.empty()
                ? QStringLiteral("the searcher waited with no trial running")
                : QStringLiteral("%1 trial(s) left waiting that the scheduler never chose to run")
                      .arg(demand.waiting.size());
    }
    outcome_.fakeTime = now_;
    for (const LoopTrial& live : loop_->trials()) {
        outcome_.trials.push_back(live.trial);
    }
    return outcome_;
}

void TrialSimulation::at(double time, std::function<void()> what) {
    events_.emplace(std::make_pair(time, nextSeq_++), std::move(what));
}

void TrialSimulation::forProcess(const QString& trialId, std::uint64_t processId, double time,
                                 std::function<void(Process&)> what) {
    at(time, [this, trialId, processId, what = std::move(what)] {
        auto it = processes_.find(trialId);
        if (it != processes_.end() && it->second.alive && it->second.id == processId) {
            what(it->second);
        }
    });
}

void TrialSimulation::wakeAt(double time) {
    at(std::max(time, now_), [this] { loop_->tick(); });
}

// The trial's process: a new trainable, or the one its checkpoint holds (an exploit's copy
// included), told the config it runs with.
Status TrialSimulation::startTrial(const Trial& trial, int attempt, const Placement&,
                                   const GangPlacement&) {
    Process p;
    p.attempt = attempt;
    p.id = nextProcessId_++;
    if (trial.checkpointPath.isEmpty()) {
        p.trainable = factory_(trial.config);
        ++outcome_.trialsStarted;
    } else {
        const auto saved = disk_.find(trial.checkpointPath);
        if (saved == disk_.end()) {
            return Status::invalid(QStringLiteral("checkpoint %1 is not on the simulated disk")
                                       .arg(trial.checkpointPath));
        }
        p.trainable = saved->second->clone();
        p.trainable->setConfig(trial.config);
    }
    const QString id = trial.id;
    const std::uint64_t pid = p.id;
    processes_[id] = std::move(p);
    forProcess(id, pid, now_, [this, id](Process& q) {
        loop_->processStarted(id, q.attempt);
        if (q.trainable->finished()) {
            exit(id, q, 0);  // restored at its very end: it exits at once, cleanly
        } else {
            forProcess(id, q.id, now_ + 1, [this, id](Process& r) { report(id, r); });
        }
    });
    return Status::ok();
}

void TrialSimulation::report(const QString& trialId, Process& p) {
    TrialLine line;
    line.kind = TrialLine::Kind::Report;
    line.metrics = p.trainable->step();
    ++outcome_.iterations;
    loop_->trialLine(trialId, p.attempt, line);
}

void TrialSimulation::resultRecorded(const QString& trialId, std::int64_t, double,
                                     const QJsonObject& result) {
    if (observer_) {
        if (const LoopTrial* live = loop_->find(trialId)) {
            observer_(live->trial, result, outcome_.iterations);
        }
    }
    if (budget_ > 0 && outcome_.iterations >= budget_) {
        outcome_.budgetReached = true;
    }
}

void TrialSimulation::answer(const Trial& trial, const Placement&, TrialAnswer answer,
                             const QString& scratch) {
    auto it = processes_.find(trial.id);
    if (it == processes_.end() || !it->second.alive) {
        return;
    }
    Process& p = it->second;
    const QString id = trial.id;
    if (answer == TrialAnswer::Save || answer == TrialAnswer::Pause) {
        // The save is a copy of the trainable, put where the loop asked for it.
        disk_[scratch] = p.trainable->clone();
        TrialLine line;
        line.kind = TrialLine::Kind::Checkpoint;
        line.path = scratch;
        line.namesPath = true;
        forProcess(id, p.id, now_,
                   [this, id, line](Process& q) { loop_->trialLine(id, q.attempt, line); });
    }
    if (answer == TrialAnswer::Continue && !p.trainable->finished()) {
        forProcess(id, p.id, now_ + 1, [this, id](Process& q) { report(id, q); });
    } else if (answer != TrialAnswer::Save) {
        // Stopped, paused after its save, or it has nothing more to train.
        forProcess(id, p.id, now_, [this, id](Process& q) { exit(id, q, 0); });
    }
}

void TrialSimulation::endProcess(const Trial& trial, const Placement&, const QString&) {
    const QString id = trial.id;
    auto it = processes_.find(id);
    if (it != processes_.end() && it->second.alive) {
        forProcess(id, it->second.id, now_, [this, id](Process& q) { exit(id, q, 15); });
    }
}

void TrialSimulation::exit(const QString& trialId, Process& p, int signal) {
    p.alive = false;
    p.trainable.reset();
    ExitFacts facts;
    if (signal == 0) {
        facts.code = 0;
    } else {
        facts.signal = signal;
    }
    loop_->exited(trialId, p.attempt, facts);
}

void TrialSimulation::commitCheckpoint(const Trial& trial, const Placement&,
                                       const CommitOrder& order) {
    const LoopTrial* live = loop_->find(trial.id);
    const int attempt = live ? live->attempt.number() : 0;
    const QString id = trial.id;
    at(now_, [this, id, attempt, order] {
        const auto saved = disk_.find(order.from);
        if (saved == disk_.end()) {
            loop_->committed(id, attempt, order.to, false,
                             QStringLiteral("%1 was not saved").arg(order.from));
            return;
        }
        disk_[order.to] = saved->second;
        if (order.engineScratch) {
            disk_.erase(order.from);
        }
        loop_->committed(id, attempt, order.to, true, {});
    });
}

Status TrialSimulation::copyCheckpoint(const QString& from, const QString& to, const QJsonObject&) {
    const auto saved = disk_.find(from);
    if (saved == disk_.end()) {
        return Status::invalid(QStringLiteral("%1 is not on the simulated disk").arg(from));
    }
    disk_[to] = saved->second;
    return Status::ok();
}

}  // namespace tunedeck::bench
