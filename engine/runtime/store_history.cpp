#include "runtime/store_history.h"

#include "core/config_json.h"

namespace tunedeck {

StoreHistory::StoreHistory(ExperimentStore& store, SearchSpace space)
    : store_(store), space_(std::move(space)) {}

void StoreHistory::saveTrial(const Trial& trial, double startedAt, double finishedAt) {
    TrialRecord record;
    record.trial = trial;
    record.configFloats = floatPathsOf(space_, trial.config);
    record.startedAt = startedAt;
    record.finishedAt = finishedAt;
    store_.saveTrial(record);
}

std::int64_t StoreHistory::appendResult(const QString& trialId, std::int64_t iteration, double time,
                                        const QJsonObject& result) {
    return store_.appendResult(trialId, iteration, time, result);
}

void StoreHistory::deleteResultsAfter(const QString& trialId, std::int64_t iteration) {
    store_.deleteResultsAfter(trialId, iteration);
}

std::int64_t StoreHistory::addCheckpoint(const QString& trialId, std::int64_t iteration,
                                         const QString& path, const QJsonObject& result,
                                         double time) {
    return store_.addCheckpoint(trialId, iteration, path, result, time);
}

void StoreHistory::markCheckpointDeleted(std::int64_t id) {
    store_.markCheckpointDeleted(id);
}

void StoreHistory::addExploit(const ExploitRecord& exploit) {
    store_.addExploit(exploit);
}

void StoreHistory::saveSearchState(const QJsonObject& searcher, const QJsonObject& scheduler) {
    store_.saveSearchState(searcher, scheduler);
}

void StoreHistory::setExperimentStatus(const QString& status, double finishedAt) {
    store_.setExperimentStatus(status, finishedAt);
}

std::int64_t StoreHistory::appendEvent(const QString& type, const QString& trialId,
                                       const QJsonObject& payload, double time) {
    return store_.appendEvent(type, trialId, payload, time);
}

Status StoreHistory::flush() {
    return store_.flush();
}

Status StoreHistory::lastError() const {
    return store_.lastError();
}

}  // namespace tunedeck
