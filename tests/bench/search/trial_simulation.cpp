#include "trial_simulation.h"

#include <QJsonValue>
#include <algorithm>
#include <limits>

#include "core/checkpoint_policy.h"
#include "core/trial_report.h"

namespace tunedeck::bench {

namespace {

// The workers are the concurrency limit; every trial fits the one simulated node.
ExperimentSpec queueSpec(ExperimentSpec spec, int workers) {
    spec.maxConcurrentTrials =
        spec.maxConcurrentTrials > 0 ? std::min(spec.maxConcurrentTrials, workers) : workers;
    spec.resourcesPerTrial = ResourceRequest{};
    return spec;
}

NodeCapacity simulatedNode() {
    NodeCapacity node;
    node.nodeId = QStringLiteral("simulation");
    node.cpuTotalMilli = std::numeric_limits<std::int32_t>::max();
    return node;
}

}  // namespace

TrialSimulation::TrialSimulation(const ExperimentSpec& spec, int workers, TrainableFactory factory)
    : spec_(spec),
      workers_(std::max(1, workers)),
      factory_(std::move(factory)),
      searcher_(makeSearcher(spec)),
      scheduler_(makeScheduler(spec)),
      queue_(*scheduler_, queueSpec(spec, workers_)),
      nodes_{simulatedNode()} {}

SimOutcome TrialSimulation::run(std::int64_t iterationBudget) {
    pump();
    for (;;) {
        SimTrial* next = nullptr;
        for (auto& [id, sim] : trials_) {
            if (sim.trial.status == TrialStatus::Running &&
                (!next || sim.nextResultAt < next->nextResultAt)) {
                next = &sim;
            }
        }
        if (!next) {
            break;
        }
        now_ = next->nextResultAt;
        onResult(*next);
        if (iterationBudget > 0 && outcome_.iterations >= iterationBudget) {
            outcome_.budgetReached = true;
            break;
        }
        pump();
    }
    if (!outcome_.budgetReached) {
        int waiting = 0;
        for (const auto& [id, sim] : trials_) {
            waiting += (sim.trial.status == TrialStatus::Pending ||
                        sim.trial.status == TrialStatus::Paused)
                           ? 1
                           : 0;
        }
        if (waiting > 0) {
            outcome_.stalled =
                QStringLiteral("%1 trial(s) left waiting that the scheduler never chose to run")
                    .arg(waiting);
        } else if (!searcherFinished_) {
            outcome_.stalled = QStringLiteral("the searcher waited with no trial running");
        }
    }
    outcome_.fakeTime = now_;
    for (auto& [id, sim] : trials_) {
        outcome_.trials.push_back(sim.trial);
    }
    return outcome_;
}

// The runtime's scheduling pass (ExperimentRunner::pump): the same TrialQueue decides, on one
// node as large as the workers.
void TrialSimulation::pump() {
    takeStopOrders();
    queue_.beginPass();
    for (;;) {
        QueueView view;
        for (const auto& [id, sim] : trials_) {
            view.add(sim.trial, false, sim.everStarted);
        }
        view.searcherFinished = searcherFinished_;
        view.nodes = &nodes_;
        const QueueStep step = queue_.next(view);
        if (step.kind == QueueStep::Kind::Start) {
            auto it = trials_.find(step.trialId);
            if (it == trials_.end()) {
                break;
            }
            start(it->second);
        } else if (step.kind == QueueStep::Kind::Suggest) {
            queue_.searcherAnswered(suggest());
        } else if (step.kind == QueueStep::Kind::SearcherIdle) {
            scheduler_->onSearcherIdle();
            takeStopOrders();
        } else {
            break;
        }
    }
}

Suggestion::Kind TrialSimulation::suggest() {
    const QString id = trialIdForIndex(nextIndex_);
    Suggestion suggestion = searcher_->suggest(id);
    if (suggestion.kind == Suggestion::Kind::Finished) {
        searcherFinished_ = true;
        scheduler_->onSearcherIdle();
        takeStopOrders();
    } else if (suggestion.kind == Suggestion::Kind::Config) {
        SimTrial& sim = trials_[id];
        sim.trial.id = id;
        sim.trial.index = nextIndex_++;
        sim.trial.config = std::move(suggestion.config);
        scheduler_->onTrialAdd(sim.trial);
    }
    return suggestion.kind;
}

void TrialSimulation::start(SimTrial& sim) {
    Trial& trial = sim.trial;
    if (sim.checkpoint) {
        sim.trainable = sim.checkpoint->state->clone();
        trial.iteration = sim.checkpoint->iteration;
    } else {
        sim.trainable = factory_(trial.config);
        trial.iteration = 0;
        ++outcome_.trialsStarted;
    }
    (void)trial.transition(TrialStatus::Running);
    sim.attempt.begin();
    sim.everStarted = true;
    sim.nextResultAt = now_ + 1;
    if (sim.trainable->finished()) {
        exit(sim);  // resumed at its very end: the process exits at once, cleanly
    }
}

void TrialSimulation::save(SimTrial& sim) {
    Trial& trial = sim.trial;
    sim.checkpoint = Checkpoint{trial.iteration, sim.trainable->clone()};
    trial.checkpointPath = QStringLiteral("sim/%1/%2").arg(trial.id).arg(trial.iteration);
    trial.checkpointIteration = trial.iteration;
}

void TrialSimulation::complete(SimTrial& sim) {
    (void)sim.trial.transition(TrialStatus::Terminated);
    scheduler_->onComplete(sim.trial, sim.trial.lastResult);
    searcher_->onComplete(sim.trial.id, sim.trial.lastResult, false);
    sim.trainable.reset();
}

// ExperimentRunner::onReport: the same TrialAttempt decides what the trial is answered, with the
// checkpoint round trip taking no time and every process exiting cleanly.
void TrialSimulation::onResult(SimTrial& sim) {
    Trial& trial = sim.trial;
    QJsonObject result = sim.trainable->step();
    ++trial.iteration;
    ++outcome_.iterations;
    trial.timeTotalS += 1;
    result.insert(QStringLiteral("training_iteration"), qint64(trial.iteration));
    result.insert(QStringLiteral("time_total_s"), trial.timeTotalS);
    result.insert(QStringLiteral("trial_id"), trial.id);
    trial.lastResult = result;
    if (observer_) {
        observer_(trial, result, outcome_.iterations);
    }
    searcher_->onResult(trial.id, result);

    SchedulerDecision decision = decideOnResult(spec_.stop, *scheduler_, trial, result);
    ReportFacts facts;
    facts.trialId = trial.id;
    facts.iteration = trial.iteration;
    facts.result = result;
    if (decision.action == SchedulerDecision::Action::Exploit) {
        auto source = trials_.find(decision.source);
        if (source != trials_.end() && source->second.checkpoint) {
            facts.exploitSource = ExploitSource{source->second.trial.checkpointPath,
                                                source->second.checkpoint->iteration};
        }
    }
    std::optional<TrialAnswer> answer =
        sim.attempt.onReport(std::move(decision), facts, spec_.checkpoint).answer;
    if (answer == TrialAnswer::Save || answer == TrialAnswer::Pause) {
        save(sim);
        answer = sim.attempt.onCheckpoint(true).answer;
    }
    if (answer == TrialAnswer::Continue && !sim.trainable->finished()) {
        sim.nextResultAt = now_ + 1;
        return;
    }
    exit(sim);  // stopped, paused, exploited, or it has nothing more to train
}

void TrialSimulation::exit(SimTrial& sim) {
    Trial& trial = sim.trial;
    ExitFacts clean;
    clean.code = 0;
    const AttemptOutcome outcome = sim.attempt.onExit(clean, spec_.failure, trial.failures);
    switch (outcome.kind) {
        case AttemptOutcome::Kind::Paused:
            (void)trial.transition(TrialStatus::Paused);
            sim.trainable.reset();
            return;
        case AttemptOutcome::Kind::Exploit:
            applyExploit(sim);
            return;
        default:
            complete(sim);
            return;
    }
}

// ExperimentRunner::applyExploit: another trial's latest checkpoint becomes this trial's, at its
// own iteration; a self-exploit (pbt-replay) keeps its own state and changes only the config.
void TrialSimulation::applyExploit(SimTrial& sim) {
    Trial& trial = sim.trial;
    const SchedulerDecision& exploit = sim.attempt.exploit();
    const std::optional<ExploitSource>& source = sim.attempt.exploitSource();
    if (source) {
        sim.trainable = trials_[exploit.source].checkpoint->state->clone();
    }
    sim.trainable->setConfig(exploit.config);
    trial.config = exploit.config;
    outcome_.exploits.push_back({trial.id, exploit.source, trial.iteration,
                                 source ? source->iteration : trial.iteration, exploit.config});
    save(sim);
    (void)trial.transition(TrialStatus::Pending);
    sim.trainable.reset();
}

void TrialSimulation::takeStopOrders() {
    for (const StopOrder& order : scheduler_->takeStopOrders()) {
        auto it = trials_.find(order.trialId);
        if (it == trials_.end()) {
            continue;
        }
        const TrialStatus status = it->second.trial.status;
        if (status == TrialStatus::Pending || status == TrialStatus::Paused) {
            complete(it->second);
        }
    }
}

}  // namespace tunedeck::bench
