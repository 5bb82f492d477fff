// How far an experiment is through its budget, for the progress bar of the window's status bar.
// The budget is what the experiment file sets, counted as the engine counts it: the trials its
// searcher will start (num_samples times the grid, plus points_to_evaluate, as `tunedeck-engine
// validate` says), or, for `num_samples: -1`, the seconds of `time_budget_s`. Not the trials
// created so far: with max_concurrent_trials the engine creates them as slots free up.
// Pure functions; thread-safe.
#pragma once

#include <QString>
#include <optional>

#include "api/event_decoders.h"

namespace tunedeck::app {

struct ExperimentBudget {
    std::optional<qint64> trials;   // the trials it will run, when that is a number
    std::optional<double> seconds;  // its time_budget_s, when it has one
    // num_samples and max_concurrent_trials (0: no limit) as the file set them and set_limits
    // changed them since; nothing when the file does not load here.
    std::optional<int> numSamples;
    std::optional<int> maxConcurrentTrials;
};

// A set_limits change (a `limits` event, engine/api/CONTROL_API.md): the engine's new count of
// trials, and the limits it changed.
void applyLimits(const events::LimitsEvent& limits, ExperimentBudget* budget);

// The budget of the experiment file as recorded (a history's spec text, subscribe's `spec`),
// read by engine/config's loader and engine/core's searcher; relative paths in it are resolved
// from `folder`. Empty when the file does not load on this machine (a folder copied off a server
// whose working_dir or cluster file is not here).
ExperimentBudget budgetOfSpec(const QString& specText, const QString& folder);

// What the progress bar shows: `done` trials ended (TERMINATED or ERROR) of `created`, `elapsed`
// seconds since the run started, `ended` once the experiment no longer runs.
//  * A number of trials: "3 of 12 trials ended" (never fewer than were created).
//  * Only a time budget: the seconds used of it, "0:42 of 1:00 time budget, 7 trials ended".
//  * Neither known: "7 trials ended", the bar empty while it runs and full once it ended.
struct ProgressShown {
    int value = 0;
    int maximum = 1;
    QString text;
};
ProgressShown progressOf(const ExperimentBudget& budget, int done, int created, double elapsed,
                         bool ended);

}  // namespace tunedeck::app
