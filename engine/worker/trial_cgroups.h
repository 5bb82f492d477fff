// A control group per trial, where the agent may make one, so everything a trial starts is found
// and ended with it: a daemon in a session of its own that cleared its environment (which
// stray_processes.h cannot tell from the agent's helpers), a double-forked helper, a process
// that outlived a killed agent.
//
// Where: a folder `tunedeck-agent-<pid>` under the agent's own cgroup in the cgroup v2
// hierarchy (found in /proc/self/cgroup and /proc/self/mountinfo; on a hybrid system the
// `unified` mount), else under its cgroup in the v1 `pids` or `freezer` hierarchy; one folder
// per trial in it. Where neither can be made (an ordinary user whose cgroup is not delegated,
// a container without cgroupfs) the agent runs without, as before: process group, subreaper
// and token (stray_processes.h).
//
// A trial's process joins its folder between fork and exec (TrialCgroups::procsFile, written
// "0"), before it changes to the experiment owner's uid: its descendants are in it from their
// first instruction. signal() reaches every process in it (SIGKILL: cgroup.kill on v2 kernels
// 5.14+, else each pid listed, several passes so that a process forking meanwhile is caught),
// and end() takes the folder away once it is empty. At start the folders of agents that no
// longer run (killed with SIGKILL, their trials' daemons left) are emptied and removed.
// Owned by the event loop; not thread-safe.
#pragma once

#include <sys/types.h>

#include <optional>
#include <set>
#include <string>

namespace tunedeck::worker {

class TrialCgroups {
  public:
    // Finds (and makes) this agent's folder; disabled when none can be made. Ends what dead
    // agents left under the same parent.
    void open();
    bool enabled() const { return !m_root.empty(); }
    // "cgroup v2 at /sys/fs/cgroup/unified/.../tunedeck-agent-42", or why there is none.
    const std::string& description() const { return m_description; }

    // Makes the trial's folder; the file its process writes "0" to, to join it. Empty when the
    // agent has no cgroups or the folder cannot be made (the trial then runs without).
    std::string create(const std::string& name);
    // Sends `signal` to every process in the trial's folder.
    void signal(const std::string& name, int signal);
    // The trial's process has exited: whatever is left in its folder is SIGKILLed, and the
    // folder removed now or, while processes are still dying, by a later sweep().
    void end(const std::string& name);
    void sweep();
    // At the agent's end: every trial's processes SIGKILLed, the folders removed.
    void endAll();

  private:
    std::string folderOf(const std::string& name) const { return m_root + '/' + name; }

    std::string m_root;  // this agent's folder; empty when disabled
    bool m_v2 = false;
    std::string m_description;
    std::set<std::string> m_trials;  // folders made and not yet removed
    std::set<std::string> m_ended;   // of those, the ones whose trial has exited
};

// Between fork and exec: moves the calling process into the cgroup whose procs file is
// `procsFile` (async-signal-safe). False when it could not.
bool joinCgroup(const char* procsFile);

// The path of a process's cgroup in the hierarchy of `controller` ("memory"; empty: the v2
// hierarchy), from the text of its /proc/PID/cgroup; none when it is in no such hierarchy.
std::optional<std::string> cgroupIn(const std::string& procCgroup, const std::string& controller);

// The pids listed in a cgroup's procs file (exposed for tests).
std::set<pid_t> cgroupProcesses(const std::string& folder);

}  // namespace tunedeck::worker
