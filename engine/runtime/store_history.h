// The experiment loop's history (core/loop_environment.h) kept in the experiment's SQLite file:
// each write goes to ExperimentStore's writer thread, as the runtime's own writes do.
// Not thread-safe: the runtime's event loop only.
#pragma once

#include "core/loop_environment.h"
#include "core/search_space.h"
#include "store/experiment_store.h"

namespace tunedeck {

class StoreHistory : public LoopHistory {
  public:
    // `space`: which numbers of a config are floats (saved beside it).
    StoreHistory(ExperimentStore& store, SearchSpace space);

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
    Status flush() override;
    Status lastError() const override;

  private:
    ExperimentStore& store_;
    SearchSpace space_;
};

}  // namespace tunedeck
