#include "core/trial_roster.h"

namespace tunedeck {

namespace {

bool isOffRun(const TrialRoster::Standing& standing) {
    return standing.status == TrialStatus::Pending || standing.status == TrialStatus::Paused;
}

void place(std::set<std::int64_t>& set, std::int64_t index, int sign) {
    if (sign > 0) {
        set.insert(index);
    } else {
        set.erase(index);
    }
}

}  // namespace

void TrialRoster::count(const Standing& standing, std::int64_t index, int sign) {
    counts_.add(standing.status, sign);
    if (isOffRun(standing) && standing.heldByUser) {
        place(held_, index, sign);
    } else if (isOffRun(standing)) {
        place(waiting_, index, sign);
        waitingNew_ += standing.everStarted ? 0 : sign;
    } else if (standing.status == TrialStatus::Running) {
        place(running_, index, sign);
    }
}

void TrialRoster::set(std::int64_t index, const Standing& standing) {
    auto [it, added] = standings_.try_emplace(index, standing);
    if (!added) {
        count(it->second, index, -1);
        it->second = standing;
    }
    count(standing, index, +1);
}

}  // namespace tunedeck
