#include "worker/stray_processes.h"

#include <dirent.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>

#include "worker/proc_files.h"
#include "worker/tuning.h"

namespace tunedeck::worker {

namespace {

std::vector<pid_t> numbersIn(const std::string& text) {
    std::vector<pid_t> pids;
    const char* at = text.c_str();
    char* end = nullptr;
    for (long value = std::strtol(at, &end, 10); end != at; value = std::strtol(at, &end, 10)) {
        pids.push_back(static_cast<pid_t>(value));
        at = end;
    }
    return pids;
}

std::vector<std::string> numericEntries(const char* folder) {
    std::vector<std::string> names;
    std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(folder), ::closedir);
    if (!dir) {
        return names;
    }
    while (const dirent* entry = ::readdir(dir.get())) {
        if (entry->d_name[0] >= '0' && entry->d_name[0] <= '9') {
            names.emplace_back(entry->d_name);
        }
    }
    return names;
}

// The token in /proc/PID/environ, empty when it has none (or cannot be read).
std::string tokenOf(pid_t pid) {
    const std::string path = "/proc/" + std::to_string(pid) + "/environ";
    const std::string environ = readProcFile(path.c_str());
    const std::string prefix = std::string(kTrialTokenVariable) + "=";
    for (std::size_t at = 0; at < environ.size();) {
        const std::size_t end = environ.find('\0', at);
        const std::size_t length = (end == std::string::npos ? environ.size() : end) - at;
        if (environ.compare(at, prefix.size(), prefix) == 0) {
            return environ.substr(at + prefix.size(), length - prefix.size());
        }
        at += length + 1;
    }
    return {};
}

// Still a live child of this agent (a pid stays ours until we reap it, so it cannot have been
// reused meanwhile).
bool isLiveChild(pid_t pid) {
    ProcStat stat;
    return readProcStat(pid, &stat) && stat.parent == ::getpid() && stat.state != 'Z';
}

}  // namespace

std::vector<pid_t> childrenOfThisProcess() {
    std::set<pid_t> children;
    bool listed = false;
    for (const std::string& task : numericEntries("/proc/self/task")) {
        const std::string path = "/proc/self/task/" + task + "/children";
        if (::access(path.c_str(), R_OK) != 0) {
            continue;
        }
        listed = true;
        for (const pid_t pid : numbersIn(readProcFile(path.c_str()))) {
            children.insert(pid);
        }
    }
    if (!listed) {  // a kernel without CONFIG_PROC_CHILDREN
        const pid_t self = ::getpid();
        for (const std::string& name : numericEntries("/proc")) {
            ProcStat stat;
            const pid_t pid = static_cast<pid_t>(std::atol(name.c_str()));
            if (readProcStat(pid, &stat) && stat.parent == self) {
                children.insert(pid);
            }
        }
    }
    return {children.begin(), children.end()};
}

bool StrayProcesses::adoptOrphans() {
    return ::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
}

std::string StrayProcesses::nextToken() {
    return std::to_string(::getpid()) + "." + std::to_string(++m_tokens);
}

void StrayProcesses::sweep(Clock::time_point now,
                           const std::function<bool(const std::string&)>& isRunning,
                           const std::function<bool(pid_t)>& isOwn) {
    for (auto it = m_killAt.begin(); it != m_killAt.end();) {
        if (!isLiveChild(it->first)) {
            it = m_killAt.erase(it);
        } else if (now >= it->second) {
            ::kill(it->first, SIGKILL);
            it = m_killAt.erase(it);
        } else {
            ++it;
        }
    }
    for (const pid_t pid : childrenOfThisProcess()) {
        if (isOwn(pid) || m_killAt.count(pid) != 0) {
            continue;
        }
        const std::string token = tokenOf(pid);
        if (token.empty() || isRunning(token)) {
            continue;  // its trial still runs, or it cannot be told apart
        }
        ::kill(pid, SIGTERM);
        m_killAt[pid] = now + kKillGrace;
    }
}

void StrayProcesses::endAll(const std::function<bool(pid_t)>& isOwn) {
    for (const pid_t pid : childrenOfThisProcess()) {
        if (!isOwn(pid) && !tokenOf(pid).empty() && isLiveChild(pid)) {
            ::kill(pid, SIGKILL);
        }
    }
    m_killAt.clear();
}

}  // namespace tunedeck::worker
