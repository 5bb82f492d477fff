// Whether a TERMINATED trial ended by itself or was stopped early by a scheduler, and by which
// one at which iteration, read from the reason the trial's last status change carried (the
// trial_status event's `reason`, kept in the history's events). Each early-stopping scheduler
// starts its reasons with its name ("asha: ", "hyperband: ", "median: "); the reasons that
// mean "ran to its end" (ASHA's max_t, HyperBand's last rung) are not early stops. NNI shows
// such trials as EARLY_STOPPED; the app and `show` say "stopped by ASHA at 6".
// Pure functions; thread-safe.
#pragma once

#include <QString>
#include <cstdint>
#include <optional>

namespace tunedeck {

struct EarlyStop {
    QString scheduler;  // as users know it: "ASHA", "HyperBand", "median stopping"
    std::int64_t iteration = 0;
};

// The reason the loop gives a trial the user stopped (Trial > Stop, Experiment > Stop, `stop`),
// and whether a TERMINATED trial's last reason is it: such a trial was neither done nor stopped
// early, and the app and `show` say so.
inline constexpr char kStoppedByUserReason[] = "stopped by the user";
bool stoppedByUser(const QString& reason);

// `reason`: the last status reason of a TERMINATED trial; `iteration`: its last iteration.
std::optional<EarlyStop> earlyStopOf(const QString& reason, std::int64_t iteration);

// "stopped by ASHA at 6" (the command line's words; the app translates its own).
QString earlyStopText(const EarlyStop& stop);

}  // namespace tunedeck
