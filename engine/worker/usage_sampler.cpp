#include "worker/usage_sampler.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <unordered_map>

#include "worker/json_line.h"
#include "worker/process_tree.h"

namespace tunedeck::worker {

UsageSampler::UsageSampler() : m_thread(startWithSignalsBlocked([this] { run(); })) {}

UsageSampler::~UsageSampler() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    m_thread.join();
}

void UsageSampler::setInterval(double seconds) {
    {
        std::lock_guard lock(m_mutex);
        m_intervalS = seconds;
        m_intervalChanged = true;
    }
    m_wake.notify_one();
}

void UsageSampler::trialStarted(pid_t pid, const node::TrialId& id) {
    std::lock_guard lock(m_mutex);
    m_trials[pid] = id;
}

double UsageSampler::trialEnded(pid_t pid) {
    std::lock_guard lock(m_mutex);
    m_trials.erase(pid);
    const auto peak = m_peakResidentMb.find(pid);
    if (peak == m_peakResidentMb.end()) {
        return 0;
    }
    const double mb = peak->second;
    m_peakResidentMb.erase(peak);
    return mb;
}

std::string UsageSampler::takeLines() {
    m_wakePipe.drain();
    std::lock_guard lock(m_mutex);
    std::string lines;
    lines.swap(m_lines);
    return lines;
}

void UsageSampler::run() {
    std::unique_lock lock(m_mutex);
    Clock::time_point next;
    for (;;) {
        if (m_stopping) {
            return;
        }
        if (m_intervalChanged) {
            m_intervalChanged = false;
            const double interval = m_intervalS;
            lock.unlock();
            m_host.restart();
            lock.lock();
            next = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(interval));
            continue;
        }
        if (m_intervalS <= 0) {
            m_wake.wait(lock, [this] { return m_stopping || m_intervalChanged; });
            continue;
        }
        if (m_wake.wait_until(lock, next, [this] { return m_stopping || m_intervalChanged; })) {
            continue;
        }
        const auto interval =
            std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(m_intervalS));
        const std::map<pid_t, node::TrialId> trials = m_trials;
        lock.unlock();
        std::map<pid_t, double> resident;
        std::string lines = sampleLines(trials, &resident);
        lock.lock();
        for (const auto& [pid, mb] : resident) {
            if (m_trials.count(pid) != 0) {  // not ended meanwhile
                double& peak = m_peakResidentMb[pid];
                peak = std::max(peak, mb);
            }
        }
        m_lines += lines;
        m_wakePipe.notify();
        next += interval;
        if (const Clock::time_point now = Clock::now(); next <= now) {
            next = now + interval;  // after a stall (a slow driver), no burst of catch-ups
        }
    }
}

std::string UsageSampler::sampleLines(const std::map<pid_t, node::TrialId>& trials,
                                      std::map<pid_t, double>* resident) {
    std::string lines;
    std::vector<GpuLoss> lost;
    const std::vector<GpuReading> readings = m_gpus.sample(&lost);
    for (const GpuLoss& loss : lost) {
        lines += node::encodeEvent(node::GpuLost{loss.index, loss.uuid, loss.reason});
    }
    const HostReading host = m_host.read();

    // One walk up /proc per process, shared by the cards it uses.
    std::unordered_map<unsigned int, pid_t> rootOf;
    const auto isTrialRoot = [&trials](pid_t pid) { return trials.count(pid) != 0; };
    node::Usage usage;
    std::map<pid_t, long long> gpuMemoryMb;  // by trial, over all its cards
    for (const GpuReading& r : readings) {
        std::vector<pid_t> roots;
        for (const nvml::ComputeProcess& process : r.processes) {
            const unsigned int pid = process.pid;
            auto found = rootOf.find(pid);
            if (found == rootOf.end()) {
                found =
                    rootOf.emplace(pid, trialRootOf(static_cast<pid_t>(pid), isTrialRoot)).first;
            }
            if (found->second <= 0) {
                continue;
            }
            if (process.memoryMb > 0) {
                gpuMemoryMb[found->second] += process.memoryMb;
            }
            if (std::find(roots.begin(), roots.end(), found->second) == roots.end()) {
                roots.push_back(found->second);
            }
        }
        std::sort(roots.begin(), roots.end());  // a stable order from one sample to the next
        node::GpuUsage gpu;
        gpu.index = r.index;
        gpu.uuid = r.uuid;
        gpu.name = r.name;
        gpu.utilizationPercent = r.utilizationPercent;
        gpu.memoryUsedMb = r.memoryUsedMb;
        gpu.memoryTotalMb = r.memoryTotalMb;
        gpu.temperatureC = r.temperatureC;
        gpu.powerW = r.powerW;
        for (const pid_t root : roots) {
            gpu.trials.push_back(trials.at(root));
        }
        gpu.lost = r.lost;
        usage.gpus.push_back(std::move(gpu));
    }
    std::vector<pid_t> roots;
    for (const auto& [root, id] : trials) {
        roots.push_back(root);
    }
    for (const auto& [root, reading] : m_trialUsage.read(roots)) {
        (*resident)[root] = reading.residentMb;
        node::TrialUsage entry;
        entry.trial = trials.at(root);
        entry.cpuPercent = reading.cpuPercent;
        entry.rssMb = std::round(reading.residentMb * 10) / 10;
        entry.processes = reading.processes;
        if (!readings.empty()) {  // a node without GPUs says nothing of GPU memory
            entry.gpuMemoryMb = gpuMemoryMb[root];
        }
        usage.trials.push_back(std::move(entry));
    }
    usage.time = unixSeconds();
    usage.cpuPercent = host.cpuPercent;
    usage.memoryUsedMb = host.memoryUsedMb;
    usage.memoryTotalMb = host.memoryTotalMb;
    lines += node::encodeEvent(usage);
    return lines;
}

}  // namespace tunedeck::worker
