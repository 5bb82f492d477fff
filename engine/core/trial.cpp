#include "core/trial.h"

#include <array>

namespace tunedeck {

namespace {

struct StatusName {
    TrialStatus status;
    const char* name;
};

constexpr std::array<StatusName, 5> kStatusNames{{
    {TrialStatus::Pending, "PENDING"},
    {TrialStatus::Running, "RUNNING"},
    {TrialStatus::Paused, "PAUSED"},
    {TrialStatus::Terminated, "TERMINATED"},
    {TrialStatus::Error, "ERROR"},
}};

}  // namespace

QString trialStatusName(TrialStatus status) {
    for (const auto& entry : kStatusNames) {
        if (entry.status == status) {
            return QString::fromLatin1(entry.name);
        }
    }
    return QStringLiteral("UNKNOWN");
}

std::optional<TrialStatus> trialStatusFromName(const QString& name) {
    for (const auto& entry : kStatusNames) {
        if (name == QLatin1String(entry.name)) {
            return entry.status;
        }
    }
    return std::nullopt;
}

bool isFinished(TrialStatus status) {
    return status == TrialStatus::Terminated || status == TrialStatus::Error;
}

bool canTransition(TrialStatus from, TrialStatus to) {
    using S = TrialStatus;
    switch (from) {
        case S::Pending:
            // Terminated: cancelled before it started; Error: it could not be started at all.
            return to == S::Running || to == S::Terminated || to == S::Error;
        case S::Running:
            // Pending: retried after a failure or a lost node.
            return to == S::Pending || to == S::Paused || to == S::Terminated || to == S::Error;
        case S::Paused:
            return to == S::Pending || to == S::Running || to == S::Terminated;
        case S::Terminated:
        case S::Error:
            return false;
    }
    return false;
}

Status Trial::transition(TrialStatus to) {
    if (!canTransition(status, to)) {
        return Status::invalid(QStringLiteral("trial %1 cannot go from %2 to %3")
                                   .arg(id.isEmpty() ? QStringLiteral("?") : id,
                                        trialStatusName(status), trialStatusName(to)));
    }
    status = to;
    return Status::ok();
}

QString trialIdForIndex(std::int64_t index) {
    return QStringLiteral("t%1").arg(index, 5, 10, QLatin1Char('0'));
}

}  // namespace tunedeck
