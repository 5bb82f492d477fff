// Runs one experiment: asks the searcher for configs, places trials on nodes, starts them through
// the nodes' worker agents, applies the stop criteria, scheduler, checkpoint and failure policies
// to every message, and records everything in the experiment's SQLite history.
// One code path for fresh and resumed runs: start() always recovers from the store first.
// Thread-safety: lives on the thread of its event loop; every method is called from there.
#pragma once

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QTimer>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "cluster/node_link.h"
#include "cluster/node_provider.h"
#include "core/autoscaler.h"
#include "core/experiment_limits.h"
#include "core/experiment_spec.h"
#include "core/failure_policy.h"
#include "core/gang_placement.h"
#include "core/placement.h"
#include "core/scheduler.h"
#include "core/searcher.h"
#include "core/trial.h"
#include "core/trial_attempt.h"
#include "core/trial_queue.h"
#include "core/trial_report.h"
#include "core/trial_roster.h"
#include "runtime/node_pool.h"
#include "runtime/progress_reporter.h"
#include "runtime/trial_command.h"
#include "store/experiment_store.h"

namespace tunedeck {

class AutoscalerDriver;

// Exit codes of `run` and `resume` (README, --help).
inline constexpr int kExitFinished = 0;
inline constexpr int kExitTrialErrors = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInterrupted = 3;

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

class ExperimentRunner : public QObject {
    Q_OBJECT
  public:
    ExperimentRunner(ExperimentSpec spec, std::unique_ptr<ExperimentStore> store,
                     RunnerOptions options, QObject* parent = nullptr);
    ~ExperimentRunner() override;

    // Recovers from the store, opens the node links and starts scheduling. `finished` follows.
    void start();
    // Ctrl-C: stop every trial (each resumes later from its latest checkpoint), exit code 3.
    void interrupt();
    // A second Ctrl-C: stop waiting for trials; the history is flushed when the store closes.
    void quitNow();
    int exitCode() const { return exitCode_; }

    // The user's orders (the control API, through `run --control-stdin`); runner_orders.cpp.
    // A running trial obeys at its next report: stop ends it (TERMINATED), pause saves a
    // checkpoint and gives its slot back (PAUSED). A waiting trial is stopped at once, or held
    // (not started) until resumeTrial. Each returns why it cannot apply, naming the trial.
    Status stopTrial(const QString& id);
    Status pauseTrial(const QString& id);
    Status resumeTrial(const QString& id);
    // Ends the experiment early and for good: no new trials, waiting ones are TERMINATED,
    // running ones stop at their next report; then it finishes as if its budget were spent.
    void stopExperiment();
    // serve's fair queue (`--shared-slots`): at most `count` trials at once from now on, `why`
    // shown on the waiting ones; running trials beyond it are not stopped.
    void setSharedSlots(int count, const QString& why);
    // The control API's set_max_workers (runner_scaling.cpp): a new cap for one node type of an
    // autoscaled cluster; refused, saying why, for a listed cluster or an unknown type.
    Status setMaxWorkers(const QString& nodeType, int maxWorkers);
    // The control API's set_limits (runner_limits.cpp, core/experiment_limits.h): new
    // num_samples and/or max_concurrent_trials from now on, recorded as a `limits` event (and
    // flushed) so that resume keeps them; refused, naming the field, when the run cannot take it.
    Status setLimits(const LimitsChange& change);
    // The control API's set_trial_note (runner_orders.cpp, core/trial_note.h): a `trial_note`
    // event for any trial of the run, flushed before it returns.
    Status setTrialNote(const QString& id, const QString& note);

  signals:
    void finished(int exitCode);
    // After a scheduling pass that changed it, under `--shared-slots`.
    void slotDemandChanged(const tunedeck::SlotDemand& demand);

  private:
    // A trial as the runtime holds it: the core Trial value, its current attempt (the state
    // machine of core/trial_attempt.h), where it runs and its committed checkpoints.
    struct LiveTrial {
        Trial trial;
        TrialAttempt attempt;
        Placement placement;
        std::vector<CheckpointRecord> checkpoints;
        std::map<std::int64_t, QString> checkpointPaths;
        double startedAt = 0;  // first start, seconds since the epoch
        double finishedAt = 0;
        QElapsedTimer lastActivity;
        QElapsedTimer sinceReport;
        bool dirty = false;       // trial row changed since last saved
        bool heldByUser = false;  // paused by the user: not started until resumeTrial
        // A gang trial's ranks for the attempt that runs (rank 0 is `placement`, the trial's
        // own process); empty for a trial of one process (gang_ranks.cpp).
        GangPlacement gang;
        TrialLaunch gangLaunch;  // the launch the other ranks get once rank 0 has its port
    };
    // A rank other than 0 of a gang trial: a process of its own on its node, started after
    // rank 0 and stopped with it; its place is held until it has exited (gang_ranks.cpp).
    struct GangMember {
        QString trialId;
        int attempt = 0;
        int rank = 0;
        Placement placement;
        bool started = false;
    };

    // Seconds since the epoch: timestamps of results, checkpoints and events.
    static double now();

    // experiment_runner.cpp: lifecycle and scheduling
    Status recover();
    // runner_limits.cpp: the limits set_limits recorded, applied to spec_, the searcher and the
    // queue before anything else is recovered (nothing when there are none: a fresh run).
    Status applyRecordedLimits();
    void pump();
    // What the experiment runs and could start now (runner_orders.cpp): serve's queue and an
    // elastic cluster's autoscaler both size to it. `waiting`: trials created and waiting (not
    // held by the user); `future`: trials the searcher will still add, at most `mostFuture`. With
    // max_concurrent_trials, waiting + future never exceed the room it leaves. Empty while the
    // experiment stops or has ended.
    struct TrialDemand {
        std::int64_t running = 0;
        std::vector<QString> waiting;
        std::int64_t future = 0;
    };
    TrialDemand trialDemand(std::int64_t mostFuture) const;
    // Under `--shared-slots`: tells serve's queue what the experiment runs and wants now, when
    // that changed (runner_orders.cpp).
    void reportSlotDemand();
    // One more trial from the searcher: added (Config), the searcher is finished, or it waits.
    Suggestion::Kind askSearcher();
    // Tells the scheduler how many trials wait for a slot, when that changed.
    void tellSchedulerWhoWaits();
    LiveTrial& addTrial(QJsonObject config);
    void startTrial(LiveTrial& live);
    void setStatus(LiveTrial& live, TrialStatus status, const QString& reason);
    // Why a waiting trial is not running (shown to the user; an event when it changes).
    void setPendingReason(LiveTrial& live, const QString& reason);
    void tick();
    void maybeFinish();
    void finish(int exitCode, const QString& outcome);
    void failExperiment(int exitCode, const QString& message);
    void emitEvent(const QString& type, const QJsonObject& payload);
    // The --events file's line of an event already recorded with `seq`.
    void writeEventLine(const QString& type, std::int64_t seq, double time,
                        const QJsonObject& payload);
    void saveTrial(LiveTrial& live);
    // The searcher's and scheduler's state: `now` writes it at once (a scheduler decision that
    // moves trials, the end); otherwise it is written by the next tick, at most once a second,
    // because a model searcher's state grows with every trial.
    void savePolicyState(bool now = false);
    // PBT: make the source's latest checkpoint the trial's, switch its config, queue it again.
    void applyExploit(LiveTrial& live);
    ProgressSnapshot snapshot() const;

    // trial_endings.cpp: trials the experiment no longer runs
    // Ends waiting trials the scheduler has given up on (HyperBand's losers at a rung).
    void applyStopOrders();
    // Ends waiting trials whose checkpoint already meets a stop criterion or the scheduler's end
    // (a kill or Ctrl-C between the stop and the trial's exit): restarted, they would run on.
    void finishTrialsAtTheirEnd();
    // time_budget_s is spent: no new trials, waiting ones end, running ones are stopped now;
    // each is TERMINATED with that reason and the run finishes as usual.
    void spendTimeBudget();

    // runner_orders.cpp: the user's orders applied to a trial at its report, or at once
    LiveTrial* findTrialForOrder(const QString& id, Status* why);
    void terminateWaiting(LiveTrial& live, const QString& reason);

    // node_messages.cpp: the worker agents (their hello, what they relay, a node's loss) and
    // checkpoints travelling between a node and this machine
    void openNodes();
    NodeLink* linkOf(const LiveTrial& live) const;
    QString onNodePath(const LiveTrial& live, const QString& headPath) const;
    void sendToNode(const LiveTrial& live, const QJsonObject& op);
    void onNodeUp(const QString& nodeId, const QJsonObject& hello);
    void onNodeLost(const QString& nodeId, const QString& reason);
    void onNodeMessage(const QString& nodeId, const QJsonObject& message);
    void onNodeCommitted(LiveTrial& live, const QJsonObject& message);
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
    void pushCheckpointThenLaunch(LiveTrial& live, TrialLaunch launch);
    void launchOnNode(LiveTrial& live, const TrialLaunch& launch);
    // The start op of one process of a trial on `link`, paths mapped to that node; `extra`
    // fields (log_prefix, free_ports) are added as they are.
    static QJsonObject startOp(const NodeLink& link, const QString& id, const TrialLaunch& launch,
                               const QJsonObject& extra);
    void deleteCheckpointFolder(const LiveTrial& live, const QString& headPath);
    LiveTrial* findTrial(const QJsonObject& message);

    // gang_ranks.cpp: the ranks 1.. of gang trials (data-parallel training): booked with rank 0,
    // started once rank 0's node has picked its MASTER_PORT, stopped with it, and a failure of
    // any of them a failure of the trial
    void bookGang(LiveTrial& live, const GangPlacement& gang);
    // rank 0's launch, with the gang's environment; the others' are kept for startGangRanks.
    void addGangEnvironment(LiveTrial& live, TrialLaunch& launch);
    void startGangRanks(LiveTrial& live, const QJsonObject& started);
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
    // `ranks` of a gang trial's RUNNING event: each rank's node and cards.
    static QJsonArray gangRanksJson(const GangPlacement& gang);
    // Tells the scheduler how many ranks the nodes up hold, when that changed (resource_changing).
    void tellSchedulerWorkerSlots();
    void stopGangRanks(const LiveTrial& live, const QString& reason);
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

    // trial_messages.cpp: what a trial says and how it ends
    void onTrialMessage(LiveTrial& live, const QJsonObject& msg);
    void onReport(LiveTrial& live, const QJsonObject& msg);
    void onCheckpointWritten(LiveTrial& live, const QJsonObject& msg);
    void onCommitted(LiveTrial& live, const QJsonObject& message);
    void onTrialExited(LiveTrial& live, const QJsonObject& message);
    void onFailed(LiveTrial& live, const AttemptOutcome& outcome, const ExitFacts& exit);
    // Sends what the attempt answered to the trial's report (Save and Pause name the folder).
    void sendAnswer(LiveTrial& live, TrialAnswer answer);
    // `from` is a folder the trial named, unless `engineScratch` (the `.tmp` folder the engine
    // named for a save); the agent moves, copies or refuses it (engine/checkpoint/handover.h).
    void commitCheckpoint(LiveTrial& live, const QString& from, std::int64_t iteration,
                          const QJsonObject& result, bool engineScratch = false);
    QJsonObject checkpointManifest(const QString& trialId, std::int64_t iteration,
                                   const QJsonObject& result) const;
    // The folders, as the trial's node sees them, that a handed-over folder must not take along.
    QJsonArray protectedFolders(const LiveTrial& live) const;
    // Never silent: an event, a line on the console and a count in the summary.
    void checkpointNotKept(const LiveTrial& live, std::int64_t iteration, const QString& why);
    void applyRetention(LiveTrial& live);
    // Forgets the trial's checkpoint rows for `folder`, which a new checkpoint replaced.
    void supersedeCheckpointAt(LiveTrial& live, const QString& folder);
    // The attempt fails with `cause` (or, interrupt, ends without the trial's fault).
    void killTrial(LiveTrial& live, FailureCause cause, const QString& message);
    void interruptTrial(LiveTrial& live, const QString& message);
    // The roster learns a trial's standing: after every change of status, hold or first start.
    void restand(const LiveTrial& live);
    void holdForUser(LiveTrial& live, bool held);
    LiveTrial& byIndex(std::int64_t index);
    // A trial told to end that is still running past failure.stop_grace_s: its node ends it
    // (SIGTERM, then SIGKILL); the attempt keeps the ending it was given.
    void forceEnd(LiveTrial& live);
    // The attempt's exit, as its node said (nothing: the node was lost or never started it).
    void onTrialExited(LiveTrial& live, const ExitFacts& exit);
    // A report not taken: the trial fails, or (a mistake in the experiment) the run stops.
    void refuseReport(LiveTrial& live, const ReportProblem& problem);

    ExperimentSpec spec_;
    std::unique_ptr<ExperimentStore> store_;
    RunnerOptions options_;
    std::unique_ptr<Searcher> searcher_;
    std::unique_ptr<Scheduler> scheduler_;
    TrialQueue queue_;                        // which trial runs next (pump)
    std::unique_ptr<NodeProvider> provider_;  // where nodes come from (before pool_: it opens them)
    std::unique_ptr<NodePool> pool_;
    std::unique_ptr<AutoscalerDriver> autoscaler_;  // elastic clusters only
    std::map<QString, NodeCapacity> nodesSeen_;     // every node that said hello, empty
    std::map<QString, QString> gpuNotes_;           // per node, its agent's `gpu_note`
    std::map<QString, QJsonObject> latestUsage_;    // per node, its last node_usage sample
    // Checkpoints (this machine's paths) a node holds a copy of, for nodes without shared files.
    std::map<QString, std::set<QString>> checkpointsOnNode_;
    std::map<QString, LiveTrial> trials_;        // ids sort in creation order below t99999
    TrialRoster roster_;                         // where each trial stands (see restand)
    std::map<QString, GangMember> gangMembers_;  // by the id their node knows them by
    std::int64_t nextTrialIndex_ = 0;
    bool searcherFinished_ = false;
    int sharedSlots_ = -1;  // -1: not under serve's queue
    QString sharedSlotsWhy_;
    SlotDemand lastDemand_;
    int waitingTold_ = 0;       // what the scheduler was last told by tellSchedulerWhoWaits
    int workerSlotsTold_ = -1;  // and by tellSchedulerWorkerSlots
    bool policyStateDirty_ = false;
    std::vector<StopOrder> heldStopOrders_;  // for trials still pausing when ordered
    // Checkpoint folders an exploit will copy: retention leaves them alone until it has.
    std::map<QString, int> pinnedCheckpoints_;
    bool stopping_ = false;
    bool finished_ = false;
    int exitCode_ = kExitFinished;
    int pendingExitCode_ = kExitFinished;
    QString pendingOutcome_;
    std::int64_t resultCount_ = 0;
    int checkpointsNotKept_ = 0;
    QTimer tickTimer_;
    QTimer budgetTimer_;  // time_budget_s, from this run's start
    bool budgetSpent_ = false;
    QElapsedTimer stoppingFor_;  // since the experiment began to stop
    std::unique_ptr<QFile> eventsFile_;
    std::unique_ptr<ProgressReporter> reporter_;
};

}  // namespace tunedeck
