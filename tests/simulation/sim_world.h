// The deterministic simulation's world: a virtual clock and one queue of timed events, simulated
// nodes and trial processes (core/loop_environment.h's effects, carried out as the worker agents
// would, on the scenario's behaviours), an in-memory history (with the recovery `resume` makes
// from it), and a disk of checkpoint folders. It drives the real ExperimentLoop and checks the
// invariants after every step; the first one broken is reported with the seed and the trace's
// last lines. Nothing reads the wall clock, so a seed replays bit for bit (FoundationDB's
// simulator, TigerBeetle's VOPR).
#pragma once

#include <QString>
#include <QStringList>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <set>
#include <vector>

#include "core/experiment_loop.h"
#include "core/loop_environment.h"
#include "scenario.h"

namespace tunedeck::sim {

struct Outcome {
    bool ok = true;
    QString violation;  // the first invariant broken
    QStringList trace;  // the last steps before it
    int exitCode = -1;
    std::int64_t trials = 0;
    std::int64_t results = 0;
    std::int64_t steps = 0;
    double virtualTime = 0;
    bool crashed = false;  // the engine was killed and resumed
    // Each trial's end: "t00003 TERMINATED 12" (status, last iteration), in id order.
    QStringList ends;
    std::uint64_t traceHash = 0;  // over every step: equal for equal runs
};

struct WorldOptions {
    bool withEngineCrash = true;  // false: the scenario's engine crash is left out
    std::int64_t mostSteps = 5000000;
    int traceLines = 40;
};

Outcome simulate(const Scenario& scenario, const WorldOptions& options = {});

// The in-memory history: what the loop wrote, as SQLite would hold it, and the recovery
// `resume` makes from it (runtime/recovery.cpp's rules over this store).
class MemoryHistory : public LoopHistory {
  public:
    struct StoredCheckpoint {
        QString trialId;
        std::int64_t iteration = 0;
        QString path;
        QJsonObject result;
        bool deleted = false;
    };
    struct StoredTrial {
        Trial trial;
        double startedAt = 0;
        double finishedAt = 0;
    };

    void saveTrial(const Trial& trial, double startedAt, double finishedAt) override;
    std::int64_t appendResult(const QString& trialId, std::int64_t iteration, double time,
                              const QJsonObject& result) override;
    void deleteResultsAfter(const QString& trialId, std::int64_t iteration) override;
    std::int64_t addCheckpoint(const QString& trialId, std::int64_t iteration, const QString& path,
                               const QJsonObject& result, double time) override;
    void markCheckpointDeleted(std::int64_t id) override;
    void addExploit(const ExploitRecord& exploit) override;
    void saveSearchState(const QJsonObject& searcher, const QJsonObject& scheduler) override;
    void setExperimentStatus(const QString& status, double finishedAt) override;
    std::int64_t appendEvent(const QString& type, const QString& trialId,
                             const QJsonObject& payload, double time) override;
    Status flush() override { return Status::ok(); }
    Status lastError() const override { return Status::ok(); }

    // `resume`: RUNNING trials wait again from their latest checkpoint still on `disk`, their
    // results after it are deleted, folders the history does not know are removed from `disk`.
    RecoveredRun recover(std::set<QString>& disk);

    // A result whose iteration is not the next of its trial breaks "recorded exactly once".
    const QString& problem() const { return problem_; }
    const std::map<QString, StoredTrial>& trials() const { return trials_; }
    const std::map<std::int64_t, StoredCheckpoint>& checkpoints() const { return checkpoints_; }
    std::int64_t resultCount() const { return resultCount_; }
    std::int64_t lastIteration(const QString& trialId) const;

  private:
    std::map<QString, StoredTrial> trials_;
    std::map<QString, std::int64_t> lastIteration_;  // per trial: its results are 1..this
    // Per trial: a checkpoint filed past its last result (a PBT copy from a trial further on),
    // from which its results go on.
    std::map<QString, std::int64_t> goesOnFrom_;
    std::map<std::int64_t, StoredCheckpoint> checkpoints_;
    std::int64_t nextCheckpointId_ = 1;
    std::int64_t seq_ = 0;
    std::int64_t resultCount_ = 0;
    QJsonObject searcherState_;
    QJsonObject schedulerState_;
    std::vector<LimitsChange> limits_;
    QString problem_;
};

}  // namespace tunedeck::sim
