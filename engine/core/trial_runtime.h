// A trial's runtime, one definition for every place that shows it: the app's Runtime column
// (live and reopened from a folder) and `tunedeck-engine show`. It is the seconds the trial spent
// training over all its attempts, as its last result's `time_total_s` says (Ray Tune's "total
// time (s)"): the engine measures it from report to report, so the time it waited to be placed,
// sat paused or was restarting is not in it, and it does not grow between two reports. A trial
// with no result yet has no runtime. Pure functions; thread-safe.
#pragma once

#include <QString>
#include <cstdint>
#include <optional>

namespace tunedeck {

// `timeTotalS` and `iteration` as the trial's last result (or its stored row) has them; nullopt
// before its first result (iteration 0).
std::optional<double> trialRuntime(double timeTotalS, std::int64_t iteration);

// "12.7 s" under a minute, "1:02" (minutes and seconds) under an hour, "1:02:03" beyond; "-"
// for none. The same text in the app's table and the CLI's table.
QString runtimeText(std::optional<double> seconds);

}  // namespace tunedeck
