// Samples the node's CPU, memory and GPUs every `monitor` interval on a thread of its own (an NVML
// call can take milliseconds, or hang on a failing card, and must hold back neither the relay of
// reports nor the heartbeat), and hands each sample to the event loop as a `usage` event line,
// preceded by a `gpu_lost` line for each card found lost. Everything public is for the event
// loop's thread and takes one short lock; GPU and /proc reads happen on the sampler's thread.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "node_protocol/node_protocol.h"
#include "worker/wake_pipe.h"

#include "worker/gpu_monitor.h"
#include "worker/host_usage.h"
#include "worker/trial_usage.h"

namespace tunedeck::worker {

class UsageSampler {
  public:
    // Loads NVML and takes the GPU inventory on the caller's thread; sampling waits for
    // setInterval.
    UsageSampler();
    ~UsageSampler();  // stops the thread (after the sample in progress, if any)
    UsageSampler(const UsageSampler&) = delete;
    UsageSampler& operator=(const UsageSampler&) = delete;

    // Fixed at construction, so safe to read while the thread runs.
    const std::vector<GpuInfo>& gpus() const { return m_gpus.gpus(); }
    const std::string& gpuNote() const { return m_gpus.note(); }

    // Samples every `seconds` from now on (the first one `seconds` from now, so the CPU share
    // covers a whole interval); 0 stops sampling.
    void setInterval(double seconds);
    // The trials whose processes a GPU's users are matched to, by their root pid.
    void trialStarted(pid_t pid, const node::TrialId& id);
    // Forgets the trial; returns the most resident memory its samples saw, in MiB (0 if none).
    double trialEnded(pid_t pid);

    // Readable when sample lines wait; poll it with the loop's other fds.
    int wakeFd() const { return m_wakePipe.readFd(); }
    std::string takeLines();

  private:
    using Clock = std::chrono::steady_clock;

    void run();
    // The sample's lines; `resident` gets each trial's resident memory in MiB.
    std::string sampleLines(const std::map<pid_t, node::TrialId>& trials,
                            std::map<pid_t, double>* resident);

    GpuMonitor m_gpus;        // the sampler's thread's only, after construction
    HostUsage m_host;         // likewise
    TrialUsage m_trialUsage;  // likewise

    WakePipe m_wakePipe;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    double m_intervalS = 0;
    bool m_intervalChanged = false;
    bool m_stopping = false;
    std::map<pid_t, node::TrialId> m_trials;
    std::map<pid_t, double> m_peakResidentMb;
    std::string m_lines;
    std::thread m_thread;  // last: starts once everything above is ready
};

}  // namespace tunedeck::worker
