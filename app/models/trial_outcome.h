// How a trial stands as a user reads it: an ended trial ran to its end, was stopped early by a
// scheduler (core/early_stop.h), was stopped by the user, or failed. The engine records all
// but the last as TERMINATED and tells them apart by the reason of the trial's last status
// change; a trial the user stopped is not done, and is not counted as done. Pure functions;
// thread-safe.
#pragma once

#include <vector>

#include "models/experiment_data.h"

namespace tunedeck::app {

enum class TrialOutcome { Pending, Running, Paused, Done, StoppedEarly, StoppedByUser, Error };

TrialOutcome outcomeOf(const TrialRow& row);

// The status bar's counts, one per outcome; they add up to the table's rows.
struct OutcomeCounts {
    int pending = 0, running = 0, paused = 0, done = 0, stoppedEarly = 0, stoppedByUser = 0,
        error = 0;
    int ended() const { return done + stoppedEarly + stoppedByUser + error; }
};
OutcomeCounts outcomeCounts(const std::vector<TrialRow>& rows);

}  // namespace tunedeck::app
