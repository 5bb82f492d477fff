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
    if (std::size_t(index) >= standings_.size()) {
        standings_.resize(std::size_t(index) + 1);
    }
    Entry& entry = standings_[std::size_t(index)];
    if (entry.known) {
        count(entry.standing, index, -1);
    }
    entry = {standing, true};
    count(standing, index, +1);
}

}  // namespace tunedeck
