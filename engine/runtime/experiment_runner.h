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
#include <set>
#include <vector>

#include "cluster/node_link.h"
#include "cluster/node_provider.h"
#include "core/autoscaler.h"
#include "core/experiment_loop.h"
#include "core/experiment_spec.h"
#include "core/gang_placement.h"
#include "runtime/node_pool.h"
#include "runtime/progress_reporter.h"
#include "runtime/store_history.h"
#include "runtime/trial_command.h"
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
    // The control API's set_max_workers (runner_scaling.cpp): a new cap for one node type of an
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
    // A rank other than 0 of a gang trial: a process of its own on its node, started after
    // rank 0 and stopped with it; its place is held until it has exited (gang_ranks.cpp).
    struct GangMember {
        QString trialId;
        int attempt = 0;
        int rank = 0;
        Placement placement;
        bool started = false;
    };
    // What the runtime keeps of gang trials: their ranks 1.., by the id their node knows them
    // by, the launch those ranks get once rank 0 has its port, and what the scheduler was last
    // told of the ranks the nodes hold.
    struct Gangs {
        std::map<QString, GangMember> members;
        std::map<QString, TrialLaunch> launches;  // by trial id
        int workerSlotsTold = -1;
    };
    // What the nodes said of themselves: every node that said hello (empty), its agent's
    // `gpu_note`, its last usage sample.
    struct NodeNotes {
        std::map<QString, NodeCapacity> seen;
        std::map<QString, QString> gpuNotes;
        std::map<QString, QJsonObject> latestUsage;
    };

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
    void endProcess(const Trial& trial, const Placement& placement, const QString& reason) override;
    void commitCheckpoint(const Trial& trial, const Placement& placement,
                          const CommitOrder& order) override;
    void discardScratch(const Placement& placement, const QString& scratch) override;
    void deleteCheckpoint(const Trial& trial, const Placement& placement,
                          const QString& folder) override;
    Status copyCheckpoint(const QString& from, const QString& to,
                          const QJsonObject& manifest) override;
    void attemptEnded(const Trial& trial, const GangPlacement& gang) override;
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

    // node_messages.cpp: the worker agents (their hello, what they relay, a node's loss) and
    // checkpoints travelling between a node and this machine
    void openNodes();
    NodeLink* linkOn(const Placement& placement) const;
    QString onNodePath(const Placement& placement, const QString& headPath) const;
    void onNodeUp(const QString& nodeId, const QJsonObject& hello);
    void onNodeLost(const QString& nodeId, const QString& reason);
    void onNodeMessage(const QString& nodeId, const QJsonObject& message);
    void onNodeCommitted(const LoopTrial& live, const QJsonObject& message);
    // runner_scaling.cpp: an elastic cluster's autoscaler, fed with the waiting trials and the
    // trials the searcher will still add; its decisions become events and console lines.
    void startAutoscaler();
    std::vector<WaitingTrial> scalingDemand() const;
    // Whether some node could ever fit a trial; stops the run (exit 2) once none can.
    bool checkRequestFits();
    // Whether a process on `nodeId` restoring from `checkpoint` needs it copied there first (a
    // node without the head's files that does not hold it yet), and that copy: `done` runs when
    // it ends, the checkpoint remembered as on the node when it succeeded.
    bool checkpointMissingOn(const QString& nodeId, const QString& checkpoint);
    void pushCheckpoint(const QString& nodeId, const QString& checkpoint, NodeFiles::Done done);
    void pushCheckpointThenLaunch(const QString& trialId, int attempt, TrialLaunch launch);
    void launchOnNode(const QString& trialId, int attempt, const TrialLaunch& launch);
    // The start op of one process of a trial on `link`, paths mapped to that node; `extra`
    // fields (log_prefix, free_ports) are added as they are.
    static QJsonObject startOp(const NodeLink& link, const QString& id, const TrialLaunch& launch,
                               const QJsonObject& extra);

    // gang_ranks.cpp: the ranks 1.. of gang trials (data-parallel training): booked with rank 0,
    // started once rank 0's node has picked its MASTER_PORT, stopped with it, and a failure of
    // any of them a failure of the trial
    void bookGang(const QString& trialId, int attempt, const GangPlacement& gang);
    // rank 0's launch, with the gang's environment; the others' are kept for startGangRanks.
    void addGangEnvironment(const QString& trialId, const GangPlacement& gang, TrialLaunch& launch);
    void startGangRanks(const LoopTrial& live, const QJsonObject& started);
    // Starts rank `id` on its node, once rank 0's checkpoint is there (nodes without shared
    // files get a copy first, as rank 0's node does in pushCheckpointThenLaunch).
    void pushCheckpointThenStartRank(const QString& checkpoint, const QString& id,
                                     TrialLaunch launch, const QString& peer);
    // A node's address as the other nodes reach it (an SSH node's host), and the address a
    // rank's node must reach the gang through (its agent then picks the interface gloo and NCCL
    // use): rank 0's node for the others, another rank's node for rank 0; empty on one node.
    QString nodeAddress(const QString& nodeId) const;
    QString peerAddress(const GangPlacement& gang, int rank) const;
    // A usage sample with each rank's own id replaced by its trial's (and `rank` beside it).
    QJsonObject withGangRanksNamed(QJsonObject usage) const;
    // Tells the scheduler how many ranks the nodes up hold, when that changed (resource_changing).
    void tellSchedulerWorkerSlots();
    void stopGangRanks(const QString& trialId, const QString& reason);
    // A message from a rank other than 0; false when `message` is not one.
    bool onGangMemberMessage(const QString& nodeId, const QJsonObject& message);
    void onGangNodeLost(const QString& nodeId, const QString& reason);
    QString masterAddress(const GangPlacement& gang) const;
    // CUDA_VISIBLE_DEVICES of a process placed there: the UUIDs of its cards.
    QString cudaDevicesOf(const Placement& placement) const;

    // node_usage.cpp: what the agents measure: usage samples (recorded, streamed, and each
    // card's free memory for placement) and cards that stop answering; how cards are shared
    void startMonitoring(const QString& nodeId, const QJsonObject& hello);
    void onNodeUsage(const QString& nodeId, const QJsonObject& sample);
    void onGpuLost(const QString& nodeId, const QJsonObject& message);
    void onGpuSharing(const QString& nodeId, const QJsonObject& message);
    // The agents' reasons for offering fewer GPUs than asked for ("local: no NVIDIA driver"),
    // appended to a refusal of a GPU request; empty when there are none.
    QString gpuNotes() const;

    std::unique_ptr<ExperimentStore> store_;
    RunnerOptions options_;
    StoreHistory history_;
    std::unique_ptr<ExperimentLoop> loop_;
    std::unique_ptr<NodeProvider> provider_;  // where nodes come from (before pool_: it opens them)
    std::unique_ptr<NodePool> pool_;
    std::unique_ptr<AutoscalerDriver> autoscaler_;  // elastic clusters only
    NodeNotes nodeNotes_;
    // Checkpoints (this machine's paths) a node holds a copy of, for nodes without shared files.
    std::map<QString, std::set<QString>> checkpointsOnNode_;
    Gangs gangs_;
    SlotDemand lastDemand_;
    QTimer tickTimer_;
    QTimer wakeTimer_;  // the loop's next deadline between ticks
    std::unique_ptr<QFile> eventsFile_;
    std::unique_ptr<ProgressReporter> reporter_;
};

}  // namespace tunedeck
