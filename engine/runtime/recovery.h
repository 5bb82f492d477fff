// Recovery first (Ray's GCS restart): before anything is scheduled, the runner loads every trial,
// checkpoint and policy state from SQLite. A fresh run is the same path with empty tables, so
// fresh and resumed runs cannot diverge. Not thread-safe; called once at start.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <map>
#include <vector>

#include "core/checkpoint_policy.h"
#include "core/run_folders.h"
#include "core/status.h"
#include "core/trial.h"
#include "store/experiment_store.h"

namespace tunedeck {

struct RecoveredTrial {
    Trial trial;
    std::vector<CheckpointRecord> checkpoints;        // committed and not deleted, by iteration
    std::map<std::int64_t, QString> checkpointPaths;  // id -> folder
    double startedAt = 0;
    double finishedAt = 0;  // for replaying completions in order
};

struct RecoveredExperiment {
    ExperimentRecord experiment;
    std::vector<RecoveredTrial> trials;  // creation order
    std::int64_t resultCount = 0;
    QStringList notices;  // what recovery left alone or could not clean, as warnings to show
};

// Loads the experiment and makes every unfinished trial restartable: RUNNING trials become
// PENDING, each unfinished trial points at its latest checkpoint that still exists on disk, and
// its results after that checkpoint are removed (they will be reported again). Checkpoint
// folders that SQLite does not know (written just before a crash) are removed, never through a
// symbolic link: links, and a checkpoints folder that is one, are left alone and noted.
Status recoverExperiment(ExperimentStore& store, const QString& experimentDir,
                         RecoveredExperiment* out);

// Copies a committed checkpoint folder to `to` with `manifest` as its manifest, durably (see
// engine/checkpoint); one already at `to` is replaced. Copied, not hard-linked: a trial restored
// from the copy may write into its folder, and the source must stay as it was.
Status copyCheckpoint(const QString& from, const QString& to, const QJsonObject& manifest);

// Removes a checkpoint folder of this machine (the head's copy of a node's checkpoint). Only a
// committed checkpoint or a leftover `.tmp` folder is removed, as the agent's delete_checkpoint.
Status removeCheckpoint(const QString& folder);

// Clears a staging folder of this machine (a name ending in .tmp) before a copy lands there; a
// symbolic link in its place is removed as a link, never followed.
Status removeStagingFolder(const QString& folder);

}  // namespace tunedeck
