// Starting a trial process the way PROTOCOL.md promises: its own process group, a fresh channel
// (two pipes), stdout and stderr appended to trial.log (through a prefixing log writer process
// for a gang's rank), killed if the worker dies.
// Call from the event loop's thread; the child runs only async-signal-safe code before exec.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tunedeck::worker {

struct TrialLaunch {
    std::vector<std::string> argv;
    // Applied over the worker's own environment; nullopt removes a variable.
    std::vector<std::pair<std::string, std::optional<std::string>>> env;
    std::string cwd;  // empty: the trial directory
    std::string trialDir;
    // Non-empty: every line the trial prints goes to trial.log after this prefix ("[rank 1] "),
    // one write per line, so the ranks of a gang sharing one log never mix their lines.
    std::string logPrefix;
    // Non-empty: the procs file of the trial's cgroup, which the process joins before exec
    // (trial_cgroups.h).
    std::string cgroupProcs;
};

struct LaunchedTrial {
    pid_t pid = -1;
    int answerFd = -1;   // the worker writes answers here (non-blocking)
    int messageFd = -1;  // the worker reads the trial's messages here (non-blocking)
    std::string logPath;
    // Why the process could not start (already reaped, fds closed); empty when it runs.
    std::string failure;
};

LaunchedTrial launchTrial(const TrialLaunch& launch);

// The trial's log file inside its directory.
std::string trialLogPath(const std::string& trialDir);

// Appends one line to a trial's log, so what the worker did to a trial is read in the same place
// as what the trial printed.
void appendToTrialLog(const std::string& logPath, const std::string& line);

}  // namespace tunedeck::worker
