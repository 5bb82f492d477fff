#include "worker/trial_cgroups.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "worker/proc_files.h"

namespace tunedeck::worker {

namespace {

constexpr const char* kAgentPrefix = "tunedeck-agent-";
constexpr int kSignalPasses = 3;  // a process forking while the list is read is caught next pass

struct Hierarchy {
    std::string mountPoint;
    std::string mountRoot;  // the hierarchy's folder mounted there ("/" outside containers)
};

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, separator)) {
        parts.push_back(part);
    }
    return parts;
}

// Whether `item` is one of the comma-separated `list` ("cpu,cpuacct").
bool listed(const std::string& list, const std::string& item) {
    for (const std::string& entry : split(list, ',')) {
        if (entry == item) {
            return true;
        }
    }
    return false;
}

// The cgroup v2 mount (`controller` empty) or the v1 mount of `controller`.
std::optional<Hierarchy> findMount(const std::string& controller) {
    std::ifstream mountinfo("/proc/self/mountinfo");
    std::string line;
    while (std::getline(mountinfo, line)) {
        const std::size_t dash = line.find(" - ");
        if (dash == std::string::npos) {
            continue;
        }
        const std::vector<std::string> before = split(line.substr(0, dash), ' ');
        const std::vector<std::string> after = split(line.substr(dash + 3), ' ');
        if (before.size() < 5 || after.size() < 3) {
            continue;
        }
        if (controller.empty() ? after[0] == "cgroup2"
                               : after[0] == "cgroup" && listed(after[2], controller)) {
            return Hierarchy{before[4], before[3]};
        }
    }
    return std::nullopt;
}

// The folder of this process's cgroup on the file system, for the v2 hierarchy or `controller`.
std::optional<std::string> ownFolder(const std::string& controller) {
    const std::optional<Hierarchy> mount = findMount(controller);
    std::optional<std::string> path = cgroupIn(readProcFile("/proc/self/cgroup"), controller);
    if (!mount || !path) {
        return std::nullopt;
    }
    // Inside a container the mount shows a subtree: the path is relative to its root.
    if (mount->mountRoot != "/") {
        if (path->compare(0, mount->mountRoot.size(), mount->mountRoot) != 0) {
            return std::nullopt;
        }
        path = path->substr(mount->mountRoot.size());
    }
    std::string folder = mount->mountPoint + *path;
    while (folder.size() > 1 && folder.back() == '/') {
        folder.pop_back();
    }
    return folder;
}

bool writeText(const std::string& file, const char* text) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    const auto length = static_cast<ssize_t>(std::strlen(text));
    const bool ok = ::write(fd, text, static_cast<std::size_t>(length)) == length;
    ::close(fd);
    return ok;
}

std::vector<std::string> subfolders(const std::string& folder) {
    std::vector<std::string> names;
    DIR* dir = ::opendir(folder.c_str());
    if (!dir) {
        return names;
    }
    while (const dirent* entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (entry->d_type == DT_DIR && name != "." && name != "..") {
            names.push_back(name);
        }
    }
    ::closedir(dir);
    return names;
}

// SIGKILL to everything in `folder` (and its subfolders), until it is empty or passes run out.
void killEverything(const std::string& folder, bool v2) {
    for (const std::string& sub : subfolders(folder)) {
        killEverything(folder + '/' + sub, v2);
    }
    if (v2 && writeText(folder + "/cgroup.kill", "1")) {
        return;
    }
    for (int pass = 0; pass < kSignalPasses; ++pass) {
        const std::set<pid_t> pids = cgroupProcesses(folder);
        if (pids.empty()) {
            return;
        }
        for (const pid_t pid : pids) {
            ::kill(pid, SIGKILL);
        }
    }
}

// Removes `folder` and its subfolders once their processes are gone, waiting up to `patience`.
bool removeWhenEmpty(const std::string& folder, std::chrono::milliseconds patience) {
    for (const std::string& sub : subfolders(folder)) {
        removeWhenEmpty(folder + '/' + sub, patience);
    }
    const auto giveUp = std::chrono::steady_clock::now() + patience;
    for (;;) {
        if (::rmdir(folder.c_str()) == 0 || errno == ENOENT) {
            return true;
        }
        if (errno != EBUSY || std::chrono::steady_clock::now() >= giveUp) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

}  // namespace

std::optional<std::string> cgroupIn(const std::string& procCgroup, const std::string& controller) {
    std::istringstream lines(procCgroup);
    std::string line;
    while (std::getline(lines, line)) {
        const std::size_t first = line.find(':');
        const std::size_t second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) {
            continue;
        }
        const std::string controllers = line.substr(first + 1, second - first - 1);
        if (controller.empty() ? line.compare(0, first, "0") == 0 && controllers.empty()
                               : listed(controllers, controller)) {
            return line.substr(second + 1);
        }
    }
    return std::nullopt;
}

std::set<pid_t> cgroupProcesses(const std::string& folder) {
    std::set<pid_t> pids;
    std::ifstream procs(folder + "/cgroup.procs");
    long long pid = 0;
    while (procs >> pid) {
        pids.insert(static_cast<pid_t>(pid));
    }
    return pids;
}

bool joinCgroup(const char* procsFile) {
    const int fd = ::open(procsFile, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    const bool ok = ::write(fd, "0", 1) == 1;
    ::close(fd);
    return ok;
}

void TrialCgroups::open() {
    const std::string own = kAgentPrefix + std::to_string(::getpid());
    std::string why;
    for (const std::string controller : {"", "pids", "freezer"}) {
        const std::optional<std::string> parent = ownFolder(controller);
        const std::string kind = controller.empty() ? "cgroup v2" : "cgroup v1 " + controller;
        if (!parent) {
            why += (why.empty() ? "" : "; ") + kind + ": not mounted";
            continue;
        }
        // An agent may move its trials only where it may write its own cgroup's procs file.
        if (::access((*parent + "/cgroup.procs").c_str(), W_OK) != 0) {
            why += (why.empty() ? "" : "; ") + kind + ": " + *parent + " is not writable";
            continue;
        }
        const std::string root = *parent + '/' + own;
        if (::mkdir(root.c_str(), 0755) != 0 && errno != EEXIST) {
            why += (why.empty() ? "" : "; ") + kind + ": cannot make " + root + ": " +
                   std::strerror(errno);
            continue;
        }
        m_v2 = controller.empty();
        m_root = root;
        m_description = kind + " at " + root;
        // Folders of agents that are gone: what their trials left still runs.
        for (const std::string& name : subfolders(*parent)) {
            if (name.rfind(kAgentPrefix, 0) != 0 || name == own) {
                continue;
            }
            const long long pid = std::atoll(name.c_str() + std::strlen(kAgentPrefix));
            if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
                killEverything(*parent + '/' + name, m_v2);
                removeWhenEmpty(*parent + '/' + name, std::chrono::milliseconds(500));
            }
        }
        return;
    }
    m_description = "no cgroup per trial (" + why + ")";
}

std::string TrialCgroups::create(const std::string& name) {
    if (!enabled()) {
        return {};
    }
    const std::string folder = folderOf(name);
    if (::mkdir(folder.c_str(), 0755) != 0 && errno != EEXIST) {
        return {};
    }
    m_trials.insert(name);
    return folder + "/cgroup.procs";
}

void TrialCgroups::signal(const std::string& name, int signal) {
    if (m_trials.count(name) == 0) {
        return;
    }
    if (signal == SIGKILL) {
        killEverything(folderOf(name), m_v2);
        return;
    }
    for (const pid_t pid : cgroupProcesses(folderOf(name))) {
        ::kill(pid, signal);
    }
}

void TrialCgroups::end(const std::string& name) {
    if (m_trials.count(name) == 0) {
        return;
    }
    killEverything(folderOf(name), m_v2);
    m_ended.insert(name);
    sweep();
}

void TrialCgroups::sweep() {
    for (auto it = m_ended.begin(); it != m_ended.end();) {
        if (removeWhenEmpty(folderOf(*it), std::chrono::milliseconds(0))) {
            m_trials.erase(*it);
            it = m_ended.erase(it);
        } else {
            killEverything(folderOf(*it), m_v2);
            ++it;
        }
    }
}

void TrialCgroups::endAll() {
    if (!enabled()) {
        return;
    }
    for (const std::string& name : m_trials) {
        killEverything(folderOf(name), m_v2);
    }
    for (const std::string& name : m_trials) {
        removeWhenEmpty(folderOf(name), std::chrono::milliseconds(1000));
    }
    m_trials.clear();
    m_ended.clear();
    removeWhenEmpty(m_root, std::chrono::milliseconds(200));
}

}  // namespace tunedeck::worker
