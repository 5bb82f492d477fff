// What the experiment loop (core/experiment_loop.h) acts on, as interfaces it is given: the
// history it records into, the nodes it places trials on, the clock, and the effects it asks
// for (start a trial, answer its report, end it, commit, copy or delete a checkpoint, show a
// line, wake me at). The runtime implements them over SQLite, the worker agents and Qt's timers
// (engine/runtime); the simulation (tests/simulation) over an in-memory history, simulated nodes
// and a virtual clock. LevelDB's `Env` is the model: nothing in the loop reaches the world but
// through these.
#pragma once

#include <QJsonObject>
#include <QString>
#include <cstdint>
#include <vector>

#include "core/gang_placement.h"
#include "core/pbt_replay.h"
#include "core/placement.h"
#include "core/status.h"
#include "core/trial.h"

namespace tunedeck {

enum class TrialAnswer;

// Seconds since the epoch: timestamps of results, checkpoints and events, and every timeout.
class LoopClock {
  public:
    virtual ~LoopClock() = default;
    virtual double now() const = 0;
};

// The experiment's history, as the loop writes it. Writes are queued and committed in batches;
// flush() waits for them (the loop flushes before it deletes a checkpoint a newer one replaced).
class LoopHistory {
  public:
    virtual ~LoopHistory() = default;
    virtual void saveTrial(const Trial& trial, double startedAt, double finishedAt) = 0;
    // Returns the result's sequence number (shared with events).
    virtual std::int64_t appendResult(const QString& trialId, std::int64_t iteration, double time,
                                      const QJsonObject& result) = 0;
    virtual void deleteResultsAfter(const QString& trialId, std::int64_t iteration) = 0;
    // Returns the checkpoint's id.
    virtual std::int64_t addCheckpoint(const QString& trialId, std::int64_t iteration,
                                       const QString& path, const QJsonObject& result,
                                       double time) = 0;
    virtual void markCheckpointDeleted(std::int64_t id) = 0;
    virtual void addExploit(const ExploitRecord& exploit) = 0;
    virtual void saveSearchState(const QJsonObject& searcher, const QJsonObject& scheduler) = 0;
    virtual void setExperimentStatus(const QString& status, double finishedAt) = 0;
    // Returns the event's sequence number.
    virtual std::int64_t appendEvent(const QString& type, const QString& trialId,
                                     const QJsonObject& payload, double time) = 0;
    virtual Status flush() = 0;
    virtual Status lastError() const = 0;  // the first write error, sticky
};

// The nodes up, as placement sees them: capacities the loop reserves from and releases to.
class LoopNodes {
  public:
    virtual ~LoopNodes() = default;
    virtual std::vector<NodeCapacity>& capacities() = 0;
    virtual bool opened() const = 0;        // the node links have been opened
    virtual bool anyReady() const = 0;      // some node is up
    virtual bool elastic() const = 0;       // nodes come and go with demand (an autoscaler)
    virtual bool allHeardFrom() const = 0;  // every listed node answered (up or unreachable)
    virtual QString describeUnavailable() const = 0;  // "n2 (connecting)", empty when none
};

// A checkpoint the trial's node is to put in place (engine/checkpoint/handover.h).
struct CommitOrder {
    QString from;  // as the trial named it, or the engine's scratch folder
    QString to;    // this machine's path of the checkpoint folder
    std::int64_t iteration = 0;
    QJsonObject manifest;
    bool engineScratch = false;  // `from` is the `.tmp` folder the engine named for a save
};

// What the loop asks the runtime to carry out. Calls are made while the loop is inside one of its
// inputs; an implementation must not call back into the loop from them (it queues instead).
class LoopEffects {
  public:
    virtual ~LoopEffects() = default;
    // Start attempt `attempt` of the trial (its placement, gang and checkpoint are set); the
    // runtime answers later with ExperimentLoop::processStarted or attemptLost, or at once with
    // an error when it cannot put the launch together (the trial then fails for good).
    virtual Status startTrial(const Trial& trial, int attempt, const Placement& placement,
                              const GangPlacement& gang) = 0;
    // The answer to the trial's report; `scratch` names the folder to save into (Save, Pause).
    virtual void answer(const Trial& trial, const Placement& placement, TrialAnswer answer,
                        const QString& scratch) = 0;
    // The answer to a request of the trial that is not a report (a `suggest`): the object is
    // written to the trial's channel as it is.
    virtual void answerRequest(const Trial& trial, const Placement& placement,
                               const QJsonObject& answer) = 0;
    // End the trial's process (SIGTERM, then SIGKILL): its exit follows as usual.
    virtual void endProcess(const Trial& trial, const Placement& placement,
                            const QString& reason) = 0;
    virtual void commitCheckpoint(const Trial& trial, const Placement& placement,
                                  const CommitOrder& order) = 0;
    // A scratch folder the trial did not use, removed on its node.
    virtual void discardScratch(const Placement& placement, const QString& scratch) = 0;
    // A committed checkpoint retention no longer keeps (this machine's path).
    virtual void deleteCheckpoint(const Trial& trial, const Placement& placement,
                                  const QString& folder) = 0;
    // A PBT exploit's copy of another trial's checkpoint, durably, with its manifest.
    virtual Status copyCheckpoint(const QString& from, const QString& to,
                                  const QJsonObject& manifest) = 0;
    // Runs pbt's explore_command for an exploit of `trialId`, with `config` (the explored
    // config) as JSON on its standard input; its answer comes back through
    // ExperimentLoop::explored, always (a failure or a timeout with its message).
    virtual void exploreConfig(const QString& trialId, const QStringList& command,
                               const QJsonObject& config) = 0;
    // The trial's attempt is over and its places are released: the rest of a gang stops.
    virtual void attemptEnded(const Trial& trial, const GangPlacement& gang) = 0;
    // An event, recorded with `seq` at `time` (the --events file, subscribers).
    virtual void eventRecorded(const QString& type, std::int64_t seq, double time,
                               const QJsonObject& payload) = 0;
    // A result, recorded with `seq` at `time` (the hot path: no event object is built for it).
    virtual void resultRecorded(const QString& trialId, std::int64_t seq, double time,
                                const QJsonObject& result) = 0;
    // For the console: a trial's new status, a warning, a notice.
    virtual void statusShown(const Trial& trial, const QString& reason) = 0;
    virtual void warningShown(const QString& message) = 0;
    virtual void noticeShown(const QString& message) = 0;
    // Wake the loop (ExperimentLoop::tick) at `time`, besides its regular ticks.
    virtual void wakeAt(double time) = 0;
    // What runs and waits changed (serve's fair queue, an elastic cluster's autoscaler).
    virtual void demandChanged() = 0;
    // The run is over: its history is flushed and its nodes may be shut down.
    virtual void runEnded(int exitCode, const QString& outcome) = 0;
};

// Everything the loop is given.
struct LoopEnvironment {
    LoopClock* clock = nullptr;
    LoopHistory* history = nullptr;
    LoopNodes* nodes = nullptr;
    LoopEffects* effects = nullptr;
};

}  // namespace tunedeck
