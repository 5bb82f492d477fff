#include "worker/oom_watch.h"

#include <cstdlib>
#include <sstream>

#include "worker/proc_files.h"
#include "worker/trial_cgroups.h"

namespace tunedeck::worker {

namespace {

// The number after `key` at the start of a line of `text` ("oom_kill 3").
std::optional<long long> counter(const std::string& text, const std::string& key) {
    std::size_t at = 0;
    while ((at = text.find(key, at)) != std::string::npos) {
        const bool lineStart = at == 0 || text[at - 1] == '\n';
        const std::size_t after = at + key.size();
        if (lineStart && after < text.size() && text[after] == ' ') {
            return std::strtoll(text.c_str() + after, nullptr, 10);
        }
        at = after;
    }
    return std::nullopt;
}

// The counter file of `pid`'s memory cgroup: v2's unified hierarchy (its "0::PATH" line), mounted
// at /sys/fs/cgroup or, beside v1 controllers, at /sys/fs/cgroup/unified; or v1's memory
// controller ("N:memory:PATH").
std::string cgroupCounterFile(pid_t pid) {
    const std::string cgroups = readProcFile(("/proc/" + std::to_string(pid) + "/cgroup").c_str());
    const std::string v1 = cgroupIn(cgroups, "memory").value_or(std::string());
    const std::string v2 = cgroupIn(cgroups, "").value_or(std::string());
    if (!v1.empty()) {
        return "/sys/fs/cgroup/memory" + (v1 == "/" ? "" : v1) + "/memory.oom_control";
    }
    // A trial's own cgroup (trial_cgroups.h) has no memory controller: the nearest folder above
    // that has one counts the kills in its whole subtree (memory.events is hierarchical).
    for (std::string path = v2 == "/" ? "" : v2; !v2.empty();
         path = path.substr(0, path.rfind('/'))) {
        for (const std::string root : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}) {
            const std::string file = root + path + "/memory.events";
            if (!readProcFile(file.c_str()).empty()) {
                return file;
            }
        }
        if (path.empty()) {
            break;
        }
    }
    return {};
}

OomCounts readCounts(const std::string& cgroupFile) {
    OomCounts counts;
    counts.cgroupFile = cgroupFile;
    if (!cgroupFile.empty()) {
        counts.cgroupKills = counter(readProcFile(cgroupFile.c_str()), "oom_kill");
    }
    counts.machineKills = counter(readProcFile("/proc/vmstat"), "oom_kill");
    return counts;
}

bool grew(const std::optional<long long>& before, const std::optional<long long>& now) {
    return before && now && *now > *before;
}

}  // namespace

OomCounts readOomCounts(pid_t pid) {
    return readCounts(cgroupCounterFile(pid));
}

bool oomKillsGrew(const OomCounts& before) {
    const OomCounts now = readCounts(before.cgroupFile);
    return grew(before.cgroupKills, now.cgroupKills) || grew(before.machineKills, now.machineKills);
}

}  // namespace tunedeck::worker
