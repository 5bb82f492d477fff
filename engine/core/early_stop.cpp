#include "core/early_stop.h"

#include <array>

namespace tunedeck {

namespace {

struct StoppingScheduler {
    const char* prefix;    // how its reasons start (asha_scheduler.cpp, ...)
    const char* name;      // how users know it
    const char* ranToEnd;  // in a reason that is not an early stop ("" when none is)
};

constexpr std::array<StoppingScheduler, 3> kSchedulers{{
    {"asha: ", "ASHA", "reached max_t"},
    {"hyperband: ", "HyperBand", "reached its last rung"},
    {"median: ", "median stopping", ""},
}};

}  // namespace

std::optional<EarlyStop> earlyStopOf(const QString& reason, std::int64_t iteration) {
    for (const StoppingScheduler& s : kSchedulers) {
        if (!reason.startsWith(QLatin1String(s.prefix))) {
            continue;
        }
        if (*s.ranToEnd != '\0' && reason.contains(QLatin1String(s.ranToEnd))) {
            return std::nullopt;
        }
        return EarlyStop{QString::fromLatin1(s.name), iteration};
    }
    return std::nullopt;
}

bool stoppedByUser(const QString& reason) {
    return reason.startsWith(QLatin1String(kStoppedByUserReason));
}

QString earlyStopText(const EarlyStop& stop) {
    return QStringLiteral("stopped by %1 at %2").arg(stop.scheduler).arg(stop.iteration);
}

}  // namespace tunedeck
