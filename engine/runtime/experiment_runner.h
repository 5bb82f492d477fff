// Runs one experiment: carries out what the experiment loop (core/experiment_loop.h) decides, over
// the nodes' worker agents, the experiment's SQLite history and Qt's timers, and turns what the
// agents say into the loop's typed inputs. It decides nothing a test of the loop cannot script.
// One code path for fresh and resumed runs: start() always recovers from the store first.
// Thread-safety: lives on the thread of its event loop; every method is called from there.
#pragma once

#include <QFile>
#include <QJsonObject>
#include <QObject>
#include <QTimer>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "cluster/node_link.h"
#include "cluster/node_provider.h"
#include "core/autoscaler.h"
#include "core/experiment_loop.h"
#include "core/experiment_spec.h"
#include "core/gang_placement.h"
#include "runtime/explore_commands.h"
#include "runtime/gang_ranks.h"
#include "runtime/node_monitor.h"
#include "runtime/node_pool.h"
#include "runtime/progress_reporter.h"
#include "runtime/store_history.h"
#include "runtime/trial_command.h"
#include "runtime/trial_relay.h"
#include "store/experiment_store.h"

namespace tunedeck {

class AutoscalerDriver;

struct RunnerOptions {
    QString experimentDir;
    bool quiet = false;
    QString eventsFile;  // --events: every event as a JSON line
    QString workerPath;
    QString pythonSdkDir;
    bool acceptNewHostKeys = false;  // --accept-new-host-keys: trust unknown cluster nodes
    bool sharedSlots = false;        // --shared-slots: start trials only as serve's queue grants
};

// What an experiment under serve's fair queue asks of it: trials running, and how many more
// could start now if there were room (cpu and gpu are per trial).
struct SlotDemand {
    int running = 0;
    int wanted = 0;
    double cpu = 1;
    double gpu = 0;
    bool operator==(const SlotDemand&) const = default;
};

class ExperimentRunner : public QObject, private LoopClock, private LoopNodes, private LoopEffects {
    Q_OBJECT
  public:
    ExperimentRunner(ExperimentSpec spec, std::unique_ptr<ExperimentStore> store,
                     RunnerOptions options, QObject* parent = nullptr);
    ~ExperimentRunner() override;

    // Recovers from the store, opens the node links and starts scheduling. `finished` follows.
    void start();
    // Ctrl-C: stop every trial (each resumes later from its latest checkpoint), exit code 3.
    void interrupt() { loop_->interrupt(); }
    // A second Ctrl-C: stop waiting for trials; the history is flushed when the store closes.
    void quitNow();
    int exitCode() const { return loop_->exitCode(); }

    // The user's orders (the control API, through `run --control-stdin`), as the loop takes
    // them (core/experiment_loop.h): each returns why it cannot apply, naming the trial.
    Status stopTrial(const QString& id) { return loop_->stopTrial(id); }
    Status pauseTrial(const QString& id) { return loop_->pauseTrial(id); }
    Status resumeTrial(const QString& id) { return loop_->resumeTrial(id); }
    void stopExperiment() { loop_->stopExperiment(); }
    // serve's fair queue (`--shared-slots`): at most `count` trials at once from now on, `why`
    // shown on the waiting ones; running trials beyond it are not stopped.
    void setSharedSlots(int count, const QString& why) { loop_->setSharedSlots(count, why); }
    // The control API's set_max_workers: a new cap for one node type of an
    // autoscaled cluster; refused, saying why, for a listed cluster or an unknown type.
    Status setMaxWorkers(const QString& nodeType, int maxWorkers);
    Status setLimits(const LimitsChange& change) { return loop_->setLimits(change); }
    Status setTrialNote(const QString& id, const QString& note) {
        return loop_->setTrialNote(id, note);
    }

  signals:
    void finished(int exitCode);
    // After a scheduling pass that changed it, under `--shared-slots`.
    void slotDemandChanged(const tunedeck::SlotDemand& demand);

  private:
    // LoopClock, LoopNodes, LoopEffects: the loop's environment.
    double now() const override;
    std::vector<NodeCapacity>& capacities() override { return pool_->capacities(); }
    bool opened() const override { return pool_ != nullptr; }
    bool anyReady() const override { return pool_ && pool_->anyReady(); }
    bool elastic() const override { return autoscaler_ != nullptr; }
    bool allHeardFrom() const override { return pool_ && pool_->allHeardFrom(); }
    QString describeUnavailable() const override {
        return pool_ ? pool_->describeUnavailable() : QString();
    }
    Status startTrial(const Trial& trial, int attempt, const Placement& placement,
                      const GangPlacement& gang) override;
    void answer(const Trial& trial, const Placement& placement, TrialAnswer answer,
                const QString& scratch) override;
    void answerRequest(const Trial& trial, const Placement& placement,
                       const QJsonObject& answer) override;
    void endProcess(const Trial& trial, const Placement& placement, const QString& reason) override;
    void commitCheckpoint(const Trial& trial, const Placement& placement,
                          const CommitOrder& order) override;
    void discardScratch(const Placement& placement, const QString& scratch) override;
    void deleteCheckpoint(const Trial& trial, const Placement& placement,
                          const QString& folder) override;
    Status copyCheckpoint(const QString& from, const QString& to,
                          const QJsonObject& manifest) override;
    void attemptEnded(const Trial& trial, const GangPlacement& gang) override;
    void exploreConfig(const QString& trialId, const QStringList& command,
                       const QJsonObject& config) override;
    void eventRecorded(const QString& type, std::int64_t seq, double time,
                       const QJsonObject& payload) override;
    void resultRecorded(const QString& trialId, std::int64_t seq, double time,
                        const QJsonObject& result) override;
    void statusShown(const Trial& trial, const QString& reason) override;
    void warningShown(const QString& message) override;
    void noticeShown(const QString& message) override;
    void wakeAt(double time) override;
    void demandChanged() override;
    void runEnded(int exitCode, const QString& outcome) override;

    const ExperimentSpec& spec() const { return loop_->spec(); }
    LoopEnvironment environment();
    Status recover();
    void tick();
    // Runs `input` on the loop once the current one has returned (effects never re-enter it).
    void later(std::function<void()> input);
    // Under `--shared-slots`: tells serve's queue what the experiment runs and wants now, when
    // that changed.
    void reportSlotDemand();
    // The --events file's line of an event already recorded with `seq`.
    void writeEventLine(const QString& type, std::int64_t seq, double time,
                        const QJsonObject& payload);
    ProgressSnapshot snapshot() const;

    // The worker agents: their hello, what they say (trials' messages go to relay_), a node's
    // loss.
    void openNodes();
    void onNodeUp(const QString& nodeId, const node::Hello& hello);
    void onNodeLost(const QString& nodeId, const QString& reason);
    void onNodeMessage(const QString& nodeId, const node::Event& event);
    // Whether some node could ever fit a trial; stops the run (exit 2) once none can.
    bool checkRequestFits();
    // An elastic cluster's autoscaler, fed with the waiting trials and the trials the searcher
    // will still add; its decisions become events and console lines.
    void startAutoscaler();
    std::vector<WaitingTrial> scalingDemand() const;

    std::unique_ptr<ExperimentStore> store_;
    RunnerOptions options_;
    StoreHistory history_;
    std::unique_ptr<ExperimentLoop> loop_;
    std::unique_ptr<NodeProvider> provider_;  // where nodes come from (before pool_: it opens them)
    std::unique_ptr<NodePool> pool_;
    std::unique_ptr<AutoscalerDriver> autoscaler_;  // elastic clusters only
    TrialRelay relay_;  // the trials on the nodes: their messages, their checkpoints' copies
    GangRanks gangs_;
    NodeMonitor monitor_;
    SlotDemand lastDemand_;
    QTimer tickTimer_;
    QTimer wakeTimer_;  // the loop's next deadline between ticks
    std::unique_ptr<QFile> eventsFile_;
    std::unique_ptr<ProgressReporter> reporter_;
    std::unique_ptr<ExploreCommands> explores_;  // pbt's explore_command, made on first use
};

}  // namespace tunedeck
