// A history that keeps nothing but numbers, for benchmarks that drive the experiment loop: the
// loop's own cost is what they measure. Subclasses keep what they need (an exploit, a result).
#pragma once

#include <cstdint>

#include "core/loop_environment.h"
#include "core/pbt_replay.h"

namespace tunedeck {

class CountingHistory : public LoopHistory {
  public:
    void saveTrial(const Trial&, double, double) override {}
    std::int64_t appendResult(const QString&, std::int64_t, double, const QJsonObject&) override {
        return ++seq_;
    }
    void deleteResultsAfter(const QString&, std::int64_t) override {}
    std::int64_t addCheckpoint(const QString&, std::int64_t, const QString&, const QJsonObject&,
                               double) override {
        return ++seq_;
    }
    void markCheckpointDeleted(std::int64_t) override {}
    void addExploit(const ExploitRecord&) override {}
    void saveSearchState(const QJsonObject&, const QJsonObject&) override {}
    void setExperimentStatus(const QString&, double) override {}
    std::int64_t appendEvent(const QString&, const QString&, const QJsonObject&, double) override {
        return ++seq_;
    }
    Status flush() override { return Status::ok(); }
    Status lastError() const override { return Status::ok(); }

  private:
    std::int64_t seq_ = 0;
};

}  // namespace tunedeck
