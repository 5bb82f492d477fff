#include "core/trial_runtime.h"

#include <algorithm>
#include <cmath>

namespace tunedeck {

std::optional<double> trialRuntime(double timeTotalS, std::int64_t iteration) {
    if (iteration <= 0 || !std::isfinite(timeTotalS)) {
        return std::nullopt;
    }
    return std::max(0.0, timeTotalS);
}

QString runtimeText(std::optional<double> seconds) {
    if (!seconds) {
        return QStringLiteral("-");
    }
    if (*seconds < 59.95) {  // what rounds to 60.0 s reads 1:00
        return QStringLiteral("%1 s").arg(*seconds, 0, 'f', 1);
    }
    const auto s = static_cast<std::int64_t>(std::llround(*seconds));
    if (s < 3600) {
        return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    }
    return QStringLiteral("%1:%2:%3")
        .arg(s / 3600)
        .arg(s / 60 % 60, 2, 10, QLatin1Char('0'))
        .arg(s % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace tunedeck
