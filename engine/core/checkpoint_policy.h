// When to ask a trial for a checkpoint and which checkpoints to keep (Ray's CheckpointConfig:
// checkpoint_frequency, checkpoint_at_end, num_to_keep, checkpoint_score_attribute).
// The latest checkpoint is always kept (it is what a retry or resume restores from), and so is
// every checkpoint someone still needs (`pinned`, e.g. a pending PBT exploit). Pure.
#pragma once

#include <QJsonObject>
#include <QString>
#include <cstdint>
#include <set>
#include <vector>

#include "core/experiment_spec.h"

namespace tunedeck {

struct CheckpointRecord {
    std::int64_t id = 0;         // store row id
    std::int64_t iteration = 0;  // training_iteration it was taken at
    QJsonObject result;          // the result reported with it (for `score`)
};

// Whether the engine asks for a save after the result of `iteration`.
bool shouldRequestCheckpoint(const CheckpointSpec& spec, std::int64_t iteration);

// How many reports a trial may send before it waits for the answer of the oldest
// (engine/sdk/PROTOCOL.md, "Report windows"; the trial opts in). A window delays every answer,
// so it is granted only where no answer but `continue` and `stop` can come, as Ray Tune buffers
// results only for schedulers that support it and never with checkpoint_at_end
// (TUNE_RESULT_BUFFER_LENGTH): 1 when the engine asks for checkpoints at reports (`frequency`,
// `at_end`) or the scheduler pauses or exploits trials (hyperband, pbt, pb2, pbt_replay, median
// without hard_stop); kMaxReportWindow otherwise.
inline constexpr int kMaxReportWindow = 1024;  // bounds what a trial may leave unanswered
int reportWindowLimit(const ExperimentSpec& spec);

// Ids of checkpoints that may be deleted now. Checkpoints lacking a numeric `score` key rank
// below all others.
std::vector<std::int64_t> checkpointsToDelete(const CheckpointSpec& spec,
                                              const std::vector<CheckpointRecord>& checkpoints,
                                              const std::set<std::int64_t>& pinned);

}  // namespace tunedeck
