// A fake-clock stand-in for the runtime's event loop (engine/runtime/experiment_runner.cpp and
// trial_messages.cpp), so the benchmark can race schedulers in-process: N worker slots, one
// time unit per training iteration, and the searcher's and scheduler's decisions applied by the
// runtime's own trial loop (core/trial_queue.h decides which trial starts and when the searcher
// is asked; core/trial_attempt.h what each report is answered and what an attempt's end makes
// of the trial): Pause keeps a checkpoint and frees the slot, Stop and stop orders end trials,
// Exploit copies the source's latest checkpoint and restarts the trial.
// Single-threaded; one object per run.
#pragma once

#include <QJsonObject>
#include <QString>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "core/experiment_spec.h"
#include "core/scheduler.h"
#include "core/searcher.h"
#include "core/trial.h"
#include "core/trial_attempt.h"
#include "core/trial_queue.h"

namespace tunedeck::bench {

// What one trial trains. A checkpoint is a copy of the object (clone()), so restoring one is
// exact, as a real checkpoint of a deterministic trainable would be.
class SimTrainable {
  public:
    virtual ~SimTrainable() = default;
    // One training iteration; returns its metrics (the simulation adds training_iteration).
    virtual QJsonObject step() = 0;
    // True once the trainable has nothing more to train (it exits cleanly, as `done`).
    virtual bool finished() const = 0;
    virtual std::unique_ptr<SimTrainable> clone() const = 0;
    // Exploit: the trial goes on from a copied state with a new config.
    virtual void setConfig(const QJsonObject& config) { (void)config; }
};

using TrainableFactory = std::function<std::unique_ptr<SimTrainable>(const QJsonObject& config)>;

// One exploit as applied: `trialId` took `source`'s checkpoint of `sourceIteration` at its own
// `iteration`, and went on with `config`.
struct SimExploit {
    QString trialId;
    QString source;
    std::int64_t iteration = 0;
    std::int64_t sourceIteration = 0;
    QJsonObject config;
};

struct SimOutcome {
    std::int64_t iterations = 0;  // training iterations run by all trials together
    std::int64_t trialsStarted = 0;
    double fakeTime = 0;  // time units until the run ended
    // Set when the run ended with trials waiting that nothing would start (a scheduler or
    // runtime bug the benchmark would otherwise hide), or budget when the budget ended it.
    QString stalled;
    bool budgetReached = false;
    std::vector<SimExploit> exploits;
    std::vector<Trial> trials;  // every trial, final state, in creation order
};

class TrialSimulation {
  public:
    // `spec` must have passed validateSearcher and validateScheduler.
    TrialSimulation(const ExperimentSpec& spec, int workers, TrainableFactory factory);

    // Called after every result, with the trial, the result and the iterations run so far by
    // all trials (this one's included).
    using ResultObserver =
        std::function<void(const Trial& trial, const QJsonObject& result, std::int64_t total)>;
    void setObserver(ResultObserver observer) { observer_ = std::move(observer); }

    // Runs until every trial has finished, or `iterationBudget` iterations have been run
    // (0: no budget).
    SimOutcome run(std::int64_t iterationBudget = 0);

    // Fake time: one unit per training iteration of a trial; trials on different workers
    // advance together, so it is the wall-clock time the run would take.
    double now() const { return now_; }

  private:
    struct Checkpoint {
        std::int64_t iteration = 0;
        std::shared_ptr<const SimTrainable> state;
    };
    struct SimTrial {
        Trial trial;
        std::unique_ptr<SimTrainable> trainable;
        double nextResultAt = 0;  // fake time of its next result while RUNNING
        std::optional<Checkpoint> checkpoint;
        bool everStarted = false;
        TrialAttempt attempt;
    };

    void pump();
    Suggestion::Kind suggest();  // one more trial from the searcher, added when it gives one
    void start(SimTrial& sim);
    void onResult(SimTrial& sim);
    void exit(SimTrial& sim);  // its process exits cleanly: the attempt's outcome is applied
    void applyExploit(SimTrial& sim);
    void save(SimTrial& sim);
    void complete(SimTrial& sim);
    void takeStopOrders();

    ExperimentSpec spec_;
    int workers_;
    TrainableFactory factory_;
    std::unique_ptr<Searcher> searcher_;
    std::unique_ptr<Scheduler> scheduler_;
    TrialQueue queue_;
    std::vector<NodeCapacity> nodes_;
    ResultObserver observer_;
    std::map<QString, SimTrial> trials_;  // ids sort in creation order
    std::int64_t nextIndex_ = 0;
    bool searcherFinished_ = false;
    double now_ = 0;
    SimOutcome outcome_;
};

}  // namespace tunedeck::bench
