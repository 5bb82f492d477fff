// Reading Linux's /proc: a small generated file whole, and the fields of /proc/PID/stat that the
// agent uses (a process's parent, group, CPU time and resident memory). Reads /proc only; safe
// from any thread.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace tunedeck::worker {

// The whole text of a /proc file (or any small file), empty when it cannot be read; at most
// 1 MiB.
std::string readProcFile(const char* path);

struct ProcStat {
    pid_t parent = -1;
    pid_t group = -1;
    // User and system time of the process and of the children it has waited for, in clock ticks.
    std::uint64_t cpuTicks = 0;
    long long residentPages = 0;
    char state = '?';  // field 3: 'R', 'S', ...; 'Z' for a process that exited, not yet reaped
};

// Fields 3, 4, 5, 14-17 and 24 of /proc/PID/stat; false when the process is gone.
bool readProcStat(pid_t pid, ProcStat* out);

}  // namespace tunedeck::worker
