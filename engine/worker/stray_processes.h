// The processes a trial leaves behind, ended with it. The agent is a child subreaper
// (PR_SET_CHILD_SUBREAPER), so whatever a trial orphans (a daemon it started with setsid, out of
// its process group; a helper whose parent exited) becomes the agent's child instead of init's.
// Each trial starts with a token of its own in its environment (kTrialTokenVariable), which its
// descendants inherit: an orphan carrying the token of a trial that is no longer running is
// ended, SIGTERM then SIGKILL after kKillGrace, and every such orphan is when the agent stops.
// An orphan that cleared its environment cannot be told from the agent's own helpers (a log
// writer, the MPS daemon) and is left. Without this, a trial's daemon outlived the trial and the
// engine, holding a GPU or a port.
// Reads /proc and signals the agent's own children; owned by the event loop, not thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tunedeck::worker {

inline constexpr const char* kTrialTokenVariable = "TUNEDECK_AGENT_TRIAL";

class StrayProcesses {
  public:
    using Clock = std::chrono::steady_clock;

    // Makes the agent the reaper of its trials' orphans; false where the kernel refuses.
    static bool adoptOrphans();
    // A token for the trial about to start, unique to this agent.
    std::string nextToken();

    // Ends the orphans of the trials `isRunning` no longer knows, and SIGKILLs those that
    // outlived their grace. `isOwn` names the agent's own children (trials, log writers).
    void sweep(Clock::time_point now, const std::function<bool(const std::string&)>& isRunning,
               const std::function<bool(pid_t)>& isOwn);
    // At the agent's end: every orphan carrying a trial's token (SIGKILL).
    void endAll(const std::function<bool(pid_t)>& isOwn);

  private:
    std::map<pid_t, Clock::time_point> m_killAt;  // SIGTERM sent; SIGKILL due then
    unsigned long long m_tokens = 0;
};

// The agent's children, from /proc/self/task/*/children (or a scan of /proc where the kernel
// lacks that file). Exposed for tests.
std::vector<pid_t> childrenOfThisProcess();

}  // namespace tunedeck::worker
