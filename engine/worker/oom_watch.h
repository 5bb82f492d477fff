// Whether the kernel's OOM killer ended a trial. The kernel counts its kills: per memory cgroup
// (cgroup v2's memory.events, v1's memory.oom_control), where Slurm's --mem, a container's or
// systemd's MemoryMax put a trial's limit, and for the whole machine (/proc/vmstat). The counts
// are read when the trial starts and again when it dies by SIGKILL that the agent did not send;
// a count that grew means it ran out of memory. Reads /proc and /sys only; safe from any thread.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace tunedeck::worker {

struct OomCounts {
    std::string cgroupFile;  // the counter file of the process's memory cgroup; empty if none
    std::optional<long long> cgroupKills;
    std::optional<long long> machineKills;
};

// The counts as they are now for the memory cgroup `pid` is in.
OomCounts readOomCounts(pid_t pid);
// Whether either count grew since `before` was read.
bool oomKillsGrew(const OomCounts& before);

}  // namespace tunedeck::worker
