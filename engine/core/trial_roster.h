// Where every trial of a run stands (status, held by the user, ever started), kept as each one
// changes, so that what the loop asks on every event (which trials wait, how many run, whether
// the run is over) costs the size of the answer, not the number of trials. When each event
// walked every trial, a run of 30,000 instant trials slowed to 16 trials/s near its end.
// Pure; not thread-safe (the runtime's event loop only).
#pragma once

#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "core/trial.h"

namespace tunedeck {

// How many trials are in each status.
class StatusCounts {
  public:
    int of(TrialStatus status) const { return counts_[std::size_t(status)]; }
    int total() const { return total_; }
    int finished() const { return of(TrialStatus::Terminated) + of(TrialStatus::Error); }
    void add(TrialStatus status, int n) {
        counts_[std::size_t(status)] += n;
        total_ += n;
    }

  private:
    std::array<int, 5> counts_{};  // by TrialStatus
    int total_ = 0;
};

class TrialRoster {
  public:
    struct Standing {
        TrialStatus status = TrialStatus::Pending;
        bool heldByUser = false;   // paused by the user (or until a PBT exploit's copy is
                                   // made): neither waiting nor running
        bool everStarted = false;  // a waiting trial that never ran is a new one
    };

    // Records the standing of the trial of creation `index`, new or changed.
    void set(std::int64_t index, const Standing& standing);

    // PENDING or PAUSED and not held, by creation index (the order trials are offered in).
    const std::set<std::int64_t>& waiting() const { return waiting_; }
    // PENDING or PAUSED and held by the user.
    const std::set<std::int64_t>& held() const { return held_; }
    // RUNNING, by creation index.
    const std::set<std::int64_t>& running() const { return running_; }
    // Waiting trials that never ran.
    int waitingNew() const { return waitingNew_; }
    const StatusCounts& counts() const { return counts_; }

  private:
    void count(const Standing& standing, std::int64_t index, int sign);

    struct Entry {
        Standing standing;
        bool known = false;
    };
    std::vector<Entry> standings_;  // by creation index: no tree walk as the run grows
    std::set<std::int64_t> waiting_;
    std::set<std::int64_t> held_;
    std::set<std::int64_t> running_;
    int waitingNew_ = 0;
    StatusCounts counts_;
};

}  // namespace tunedeck
