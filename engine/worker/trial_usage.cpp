#include "worker/trial_usage.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "worker/proc_files.h"

namespace tunedeck::worker {

std::map<pid_t, TrialReading> TrialUsage::read(const std::vector<pid_t>& roots) {
    std::map<pid_t, TrialReading> readings;
    std::map<pid_t, std::uint64_t> ticks;
    if (!roots.empty()) {
        // One pass over /proc: each process is added to the trial whose group it is in.
        if (DIR* proc = ::opendir("/proc")) {
            while (const dirent* entry = ::readdir(proc)) {
                char* end = nullptr;
                const long pid = std::strtol(entry->d_name, &end, 10);
                if (end == entry->d_name || *end != '\0' || pid <= 0) {
                    continue;
                }
                ProcStat stat;
                // An exited process not yet reaped holds no memory and no more time, and one
                // that is exiting has already given its memory back (it reads 0 pages before
                // it becomes a zombie): a trial whose processes are all gone is not sampled.
                if (!readProcStat(static_cast<pid_t>(pid), &stat) || stat.state == 'Z' ||
                    stat.residentPages == 0 ||
                    std::find(roots.begin(), roots.end(), stat.group) == roots.end()) {
                    continue;
                }
                TrialReading& reading = readings[stat.group];
                ++reading.processes;
                reading.residentMb += static_cast<double>(stat.residentPages);
                ticks[stat.group] += stat.cpuTicks;
            }
            ::closedir(proc);
        }
    }
    static const double pageMb = static_cast<double>(::sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
    static const double ticksPerS = static_cast<double>(::sysconf(_SC_CLK_TCK));
    const Clock::time_point now = Clock::now();
    std::map<pid_t, Previous> previous;
    for (auto& [root, reading] : readings) {
        reading.residentMb *= pageMb;
        const std::uint64_t cpuTicks = ticks[root];
        if (const auto before = m_previous.find(root); before != m_previous.end()) {
            const double seconds = std::chrono::duration<double>(now - before->second.at).count();
            // A process of the group that ended unwaited takes its ticks with it: never negative.
            if (seconds > 0 && cpuTicks >= before->second.cpuTicks) {
                reading.cpuPercent = 100.0 *
                                     static_cast<double>(cpuTicks - before->second.cpuTicks) /
                                     ticksPerS / seconds;
            }
        }
        previous[root] = {cpuTicks, now};
    }
    m_previous.swap(previous);  // trials that ended are forgotten
    return readings;
}

}  // namespace tunedeck::worker
