// Runs a command to completion and measures it the way the benchmarks need: wall time, and the
// CPU time and peak resident memory of the process itself (wait4's rusage). Not thread-safe.
#pragma once

#include <functional>
#include <string>
#include <vector>

struct ProcessStats {
    int exitCode = -1;
    double wallSeconds = 0;
    double cpuSeconds = 0;  // user and system time of the process itself
    long peakRssKb = 0;
};

// `env` entries are "NAME=value" added to this process's environment. `sample`, when given, is
// called with the child's pid about every 200 ms while it runs.
ProcessStats runMeasured(const std::vector<std::string>& argv,
                         const std::vector<std::string>& env = {}, bool quiet = true,
                         const std::function<void(int pid)>& sample = {});

// The resident memory of a running process, from /proc (0 when it is gone).
long residentKb(int pid);

// Starts the trainable `count` times, `concurrency` at a time, giving each a trial channel and
// answering every report with "continue": the floor the engine's bookkeeping is compared to.
double runFloor(const std::string& trainable, const std::string& configJson, int count,
                int concurrency);
