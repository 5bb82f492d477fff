// The trial state machine (Ray Tune's Trial statuses) and the value the runtime keeps per trial.
// Pure; value types.
//
//   PENDING ──start──▶ RUNNING ──done/stop──▶ TERMINATED
//      ▲                 │  │
//      └──retry/resume───┘  └──pause──▶ PAUSED ──(scheduler picks it)──▶ PENDING
//                         └──failures exhausted──▶ ERROR
#pragma once

#include <QJsonObject>
#include <QString>
#include <cstdint>
#include <optional>

#include "core/status.h"

namespace tunedeck {

enum class TrialStatus { Pending, Running, Paused, Terminated, Error };

QString trialStatusName(TrialStatus status);  // "PENDING", "RUNNING", ...
std::optional<TrialStatus> trialStatusFromName(const QString& name);
bool isFinished(TrialStatus status);  // TERMINATED or ERROR
bool canTransition(TrialStatus from, TrialStatus to);

struct Trial {
    QString id;              // "t00042": stable, sortable, used in folder names
    std::int64_t index = 0;  // order of creation, 0-based
    QJsonObject config;
    TrialStatus status = TrialStatus::Pending;
    int failures = 0;            // failures counted against max_failures
    std::int64_t iteration = 0;  // last training_iteration reported
    double timeTotalS = 0;       // training time over all attempts
    QJsonObject lastResult;
    QString checkpointPath;  // latest committed checkpoint ("" = none)
    std::int64_t checkpointIteration = 0;
    QString pendingReason;  // why a PENDING trial is not running yet (shown to the user)
    QString errorMessage;   // last failure, with the trial's last log lines
    QString nodeId;
    // Workers (gang ranks) of its next start; 0: resources_per_trial.workers. resource_changing
    // changes it.
    int workers = 0;

    // Moves to `to`, or returns InvalidArgument naming both states (the trial is unchanged).
    Status transition(TrialStatus to);
};

// Trial ids are "t" + 5 digits (more when needed), so they sort in creation order.
QString trialIdForIndex(std::int64_t index);

}  // namespace tunedeck
