// What each of the agent's trials uses of its node: the CPU time and resident memory of every
// process in the trial's process group (a trial leads its own group, so its data loaders and a
// launcher's children count for it), read from /proc/PID/stat on each sample. Not thread-safe:
// one reader, on the sampler's thread.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace tunedeck::worker {

struct TrialReading {
    // CPU time over the time since the trial's previous reading, in percent of one core (400 =
    // four cores busy, as `top` counts); empty at a trial's first reading.
    std::optional<double> cpuPercent;
    double residentMb = 0;  // the sum of its processes' resident sets
    int processes = 0;
};

class TrialUsage {
  public:
    // A reading for each trial in `roots` (root pid = process group id) with a process left.
    std::map<pid_t, TrialReading> read(const std::vector<pid_t>& roots);

  private:
    using Clock = std::chrono::steady_clock;
    struct Previous {
        std::uint64_t cpuTicks = 0;
        Clock::time_point at;
    };
    std::map<pid_t, Previous> m_previous;
};

}  // namespace tunedeck::worker
