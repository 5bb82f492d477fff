// The writes an ExperimentStore queues for its writer thread, one value per public write call.
// Values are built on the caller's thread and moved to the writer thread; the Qt members are
// implicitly shared, which is safe to hand between threads.
#pragma once

#include <QJsonObject>
#include <QString>
#include <cstdint>
#include <memory>
#include <variant>

#include "store/experiment_store.h"

namespace tunedeck::store {

// Rare, large records travel behind a pointer so the frequent ops keep the variant small.
struct SaveExperimentOp {
    std::unique_ptr<ExperimentRecord> record;
};

struct SetExperimentStatusOp {
    QString status;
    double finishedAt = 0;
};

struct SaveSearchStateOp {
    QJsonObject searcherState;
    QJsonObject schedulerState;
};

struct SaveTrialOp {
    std::unique_ptr<TrialRecord> record;
};

// The result object is serialised on the writer thread: that keeps appendResult at a refcount
// increment on the caller's thread (see the throughput test for the measured figures).
struct AppendResultOp {
    std::int64_t seq = 0;
    std::int64_t iteration = 0;
    double timestamp = 0;
    QString trialId;
    QJsonObject result;
};

struct DeleteResultsAfterOp {
    QString trialId;
    std::int64_t iteration = 0;
    std::int64_t highestSeq = 0;  // the last seq handed out when the delete was queued
};

struct AddCheckpointOp {
    std::int64_t id = 0;
    std::int64_t iteration = 0;
    double createdAt = 0;
    QString trialId;
    QString path;
    QJsonObject result;
};

struct MarkCheckpointDeletedOp {
    std::int64_t id = 0;
};

// The record's id is the one addExploit handed out.
struct AddExploitOp {
    std::unique_ptr<ExploitRecord> record;
};

struct AppendEventOp {
    std::int64_t seq = 0;
    double timestamp = 0;
    QString type;
    QString trialId;
    QJsonObject payload;
};

// A node usage sample; the payload is serialised on the writer thread, as a result's.
struct AppendNodeUsageOp {
    std::int64_t seq = 0;
    double timestamp = 0;
    QString node;
    QJsonObject payload;
};

// Keeps the first sample per node and per `stepS` (aligned on Unix time) among those with
// fromTime <= timestamp < toTime; both bounds are multiples of the step (usage_retention.h).
struct ThinNodeUsageOp {
    double fromTime = 0;
    double toTime = 0;
    double stepS = 0;
    std::int64_t highestSeq = 0;  // the last seq handed out when the thinning was queued
};

using WriteOp =
    std::variant<SaveExperimentOp, SetExperimentStatusOp, SaveSearchStateOp, SaveTrialOp,
                 AppendResultOp, DeleteResultsAfterOp, AddCheckpointOp, MarkCheckpointDeletedOp,
                 AddExploitOp, AppendEventOp, AppendNodeUsageOp, ThinNodeUsageOp>;

}  // namespace tunedeck::store
