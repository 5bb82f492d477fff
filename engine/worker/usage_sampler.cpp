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

namespace {

nlohmann::json optionalNumber(const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

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

void UsageSampler::trialStarted(pid_t pid, const nlohmann::json& id) {
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
        const std::map<pid_t, nlohmann::json> trials = m_trials;
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

std::string UsageSampler::sampleLines(const std::map<pid_t, nlohmann::json>& trials,
                                      std::map<pid_t, double>* resident) {
    std::string lines;
    std::vector<GpuLoss> lost;
    const std::vector<GpuReading> readings = m_gpus.sample(&lost);
    for (const GpuLoss& loss : lost) {
        lines += toLine({{"ev", "gpu_lost"},
                         {"index", loss.index},
                         {"uuid", loss.uuid},
                         {"reason", loss.reason}});
    }
    const HostReading host = m_host.read();

    // One walk up /proc per process, shared by the cards it uses.
    std::unordered_map<unsigned int, pid_t> rootOf;
    const auto isTrialRoot = [&trials](pid_t pid) { return trials.count(pid) != 0; };
    nlohmann::json gpus = nlohmann::json::array();
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
        nlohmann::json onCard = nlohmann::json::array();
        for (const pid_t root : roots) {
            onCard.push_back(trials.at(root));
        }
        gpus.push_back({{"index", r.index},
                        {"uuid", r.uuid},
                        {"name", r.name},
                        {"utilization_percent", optionalNumber(r.utilizationPercent)},
                        {"memory_used_mb", r.memoryUsedMb},
                        {"memory_total_mb", r.memoryTotalMb},
                        {"temperature_c", optionalNumber(r.temperatureC)},
                        {"power_w", optionalNumber(r.powerW)},
                        {"trials", std::move(onCard)},
                        {"lost", r.lost}});
    }
    std::vector<pid_t> roots;
    for (const auto& [root, id] : trials) {
        roots.push_back(root);
    }
    nlohmann::json perTrial = nlohmann::json::array();
    for (const auto& [root, reading] : m_trialUsage.read(roots)) {
        (*resident)[root] = reading.residentMb;
        nlohmann::json entry{{"trial", trials.at(root)},
                             {"cpu_percent", optionalNumber(reading.cpuPercent)},
                             {"rss_mb", std::round(reading.residentMb * 10) / 10},
                             {"processes", reading.processes}};
        if (!readings.empty()) {  // a node without GPUs says nothing of GPU memory
            entry["gpu_memory_mb"] = gpuMemoryMb[root];
        }
        perTrial.push_back(std::move(entry));
    }
    lines += toLine({{"ev", "usage"},
                     {"time", unixSeconds()},
                     {"cpu_percent", optionalNumber(host.cpuPercent)},
                     {"memory_used_mb", host.memoryUsedMb},
                     {"memory_total_mb", host.memoryTotalMb},
                     {"gpus", std::move(gpus)},
                     {"trials", std::move(perTrial)}});
    return lines;
}

}  // namespace tunedeck::worker
