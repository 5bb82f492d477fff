// The node's own CPU and memory use, read from /proc/stat and /proc/meminfo, so every node can be
// charted, with or without GPUs. Not thread-safe: one reader, on one thread.
#pragma once

#include <cstdint>
#include <optional>

namespace tunedeck::worker {

struct HostReading {
    // Busy share of all the machine's CPUs since the previous reading; empty at the first one.
    std::optional<double> cpuPercent;
    long long memoryUsedMb = 0;  // MemTotal - MemAvailable: what programs hold, not the caches
    long long memoryTotalMb = 0;
};

class HostUsage {
  public:
    // Starts the CPU count afresh: the next read() covers the time from now.
    void restart();
    HostReading read();

  private:
    struct CpuTimes {
        std::uint64_t busy = 0;
        std::uint64_t total = 0;
    };
    static std::optional<CpuTimes> readCpuTimes();

    std::optional<CpuTimes> m_previous;
};

}  // namespace tunedeck::worker
