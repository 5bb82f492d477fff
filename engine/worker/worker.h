// The node agent's event loop: one poll() over the engine's ops (stdin), every trial's channel,
// the signal pipe, the checkpoint mover and the usage sampler, with a heartbeat each second;
// events leave in one buffered write per iteration. Single-threaded; only CheckpointMover and
// UsageSampler have threads of their own.
#pragma once

#include <poll.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/line_framer.h"
#include "node_protocol/node_protocol.h"
#include "worker/checkpoint_mover.h"
#include "worker/event_output.h"
#include "worker/mps_control.h"
#include "worker/running_trial.h"
#include "worker/stray_processes.h"
#include "worker/trial_cgroups.h"
#include "worker/usage_sampler.h"

namespace tunedeck::worker {

class Worker {
  public:
    // `opsFd` carries the engine's ops, `eventsFd` takes the events (stdin and stdout).
    Worker(int opsFd, int eventsFd);
    // Serves until stdin closes, `shutdown` arrives or a termination signal; returns the exit
    // status (0 after an orderly shutdown, 1 when the worker could not set itself up).
    int run();

  private:
    using Clock = std::chrono::steady_clock;

    // worker.cpp: the loop
    void pollOnce();
    int pollTimeoutMs(Clock::time_point now) const;
    void readOps();
    void onTimers(Clock::time_point now);
    bool finished(Clock::time_point now);

    // ops.cpp: what the engine asks for
    bool handleOpLine(std::string_view line);
    void opStart(const node::StartOp& op);
    void opAnswer(const node::AnswerOp& op);
    void opCommit(const node::CommitCheckpointOp& op);
    // A handover finished: the trial's answers held meanwhile go out.
    void releaseAnswers(const std::string& trialKey);
    void opDelete(const node::DeleteCheckpointOp& op);
    void opKill(const node::KillOp& op);
    void opMonitor(const node::MonitorOp& op);
    void opGpuSharing(const node::GpuSharingOp& op);
    void beginShutdown(const std::string& reason);
    void reportError(const std::string& message);
    RunningTrial* findTrial(const node::TrialId& id);

    // trial_relay.cpp: what the trials say, and how they end
    void readTrial(RunningTrial& trial);
    bool relayLine(RunningTrial& trial, std::string_view line);
    void failTrial(RunningTrial& trial, const std::string& message);
    void stopTrial(RunningTrial& trial, const std::string& reason);
    void writeAnswers(RunningTrial& trial);
    void reapChildren();
    void reportExit(RunningTrial& trial, int status, double peakResidentMb);
    void drainAndClose(RunningTrial& trial);
    // Ends what trials that ended left running (stray_processes.h).
    void sweepStrays(Clock::time_point now);

    std::vector<char> m_readBuffer;  // one chunk, shared by every read of the loop
    // The poll set, rebuilt each iteration into the same storage (no allocation per wakeup);
    // m_pollOwners[i] owns the i-th descriptor after the loop's fixed ones.
    std::vector<pollfd> m_pollFds;
    std::vector<RunningTrial*> m_pollOwners;
    int m_opsFd;
    bool m_opsOpen = true;
    LineFramer m_opsFramer;
    EventOutput m_out;
    int m_signalFd = -1;
    CheckpointMover m_mover;
    UsageSampler m_usage;
    MpsControl m_mps;  // running when the engine asked for MPS and it started
    StrayProcesses m_strays;
    TrialCgroups m_cgroups;  // one per trial where the agent may make them

    std::map<std::string, std::unique_ptr<RunningTrial>> m_trials;  // by the id's JSON text
    std::unordered_map<pid_t, std::string> m_trialByPid;

    Clock::time_point m_nextHeartbeat;
    Clock::time_point m_nextStraySweep;
    bool m_shuttingDown = false;
    Clock::time_point m_giveUpAt;  // shutdown stops waiting for unkillable processes then
};

}  // namespace tunedeck::worker
