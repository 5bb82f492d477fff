// A fake-clock world around the real experiment loop (core/experiment_loop.h), so the benchmark
// can race schedulers in-process: N worker slots, one time unit per training iteration, every
// decision (which trial starts, what a report is answered, pauses, stops, PBT exploits,
// retention) made by the loop the engine runs. The world carries out the loop's effects as a
// worker agent would, with SimTrainable objects for trial processes: a checkpoint is a copy of
// the object, taken when the loop asks for a save, so restoring one is exact.
// Single-threaded; one object per run.
#pragma once

#include <QJsonObject>
#include <QString>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "core/experiment_loop.h"
#include "core/experiment_spec.h"
#include "core/trial.h"
#include "counting_history.h"
#include "fixed_nodes.h"

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

class TrialSimulation : LoopClock, LoopEffects {
  public:
    // `spec` must have passed validateSearcher and validateScheduler.
    TrialSimulation(const ExperimentSpec& spec, int workers, TrainableFactory factory);
    ~TrialSimulation() override;

    // Called after every result, with the trial, the result as recorded (the engine's automatic
    // fields included) and the iterations run so far by all trials (this one's included).
    using ResultObserver =
        std::function<void(const Trial& trial, const QJsonObject& result, std::int64_t total)>;
    void setObserver(ResultObserver observer) { observer_ = std::move(observer); }

    // Runs until the run ends, or `iterationBudget` iterations have been run (0: no budget).
    SimOutcome run(std::int64_t iterationBudget = 0);

    // Fake time: one unit per training iteration of a trial; trials on different workers
    // advance together, so it is the wall-clock time the run would take.
    double now() const override { return now_; }

  private:
    struct Process {
        int attempt = 0;
        std::uint64_t id = 0;
        std::unique_ptr<SimTrainable> trainable;
        bool alive = true;
    };
    // Keeps the exploits the loop records.
    class History : public CountingHistory {
      public:
        explicit History(std::vector<SimExploit>* exploits) : exploits_(exploits) {}
        void addExploit(const ExploitRecord& e) override {
            exploits_->push_back(
                {e.trialId, e.sourceTrialId, e.iteration, e.sourceIteration, e.newConfig});
        }

      private:
        std::vector<SimExploit>* exploits_;
    };

    // LoopEffects, carried out as a worker agent would.
    Status startTrial(const Trial& trial, int attempt, const Placement&,
                      const GangPlacement&) override;
    void answer(const Trial& trial, const Placement&, TrialAnswer answer,
                const QString& scratch) override;
    // The simulated trainables take their whole config at the start; none asks for a value.
    void answerRequest(const Trial&, const Placement&, const QJsonObject&) override {}
    void endProcess(const Trial& trial, const Placement&, const QString&) override;
    void commitCheckpoint(const Trial& trial, const Placement&, const CommitOrder& order) override;
    void discardScratch(const Placement&, const QString& scratch) override { disk_.erase(scratch); }
    void deleteCheckpoint(const Trial&, const Placement&, const QString& folder) override {
        disk_.erase(folder);
    }
    Status copyCheckpoint(const QString& from, const QString& to, const QJsonObject&) override;
    void attemptEnded(const Trial&, const GangPlacement&) override {}
    // Its experiments set no explore_command.
    void exploreConfig(const QString&, const QStringList&, const QJsonObject&) override {}
    void eventRecorded(const QString&, std::int64_t, double, const QJsonObject&) override {}
    void resultRecorded(const QString& trialId, std::int64_t, double,
                        const QJsonObject& result) override;
    void statusShown(const Trial&, const QString&) override {}
    void warningShown(const QString&) override {}
    void noticeShown(const QString&) override {}
    void wakeAt(double time) override;
    void demandChanged() override {}
    void runEnded(int, const QString&) override {}

    // Runs `what` at fake time `time` (in the order scheduled, for equal times).
    void at(double time, std::function<void()> what);
    // The same, if the trial's process `processId` is still the one running then.
    void forProcess(const QString& trialId, std::uint64_t processId, double time,
                    std::function<void(Process&)> what);
    void report(const QString& trialId, Process& p);
    void exit(const QString& trialId, Process& p, int signal);

    int workers_;
    TrainableFactory factory_;
    ResultObserver observer_;
    SimOutcome outcome_;
    History history_{&outcome_.exploits};
    FixedNodes nodes_;  // one node with a CPU per worker
    std::unique_ptr<ExperimentLoop> loop_;
    std::map<QString, Process> processes_;
    // Checkpoint folders (the trials' saves and the committed copies): the state they hold.
    std::map<QString, std::shared_ptr<const SimTrainable>> disk_;
    std::multimap<std::pair<double, std::uint64_t>, std::function<void()>> events_;
    std::uint64_t nextSeq_ = 0;
    std::uint64_t nextProcessId_ = 1;
    std::int64_t budget_ = 0;
    double now_ = 0;
};

}  // namespace tunedeck::bench
