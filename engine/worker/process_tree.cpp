#include "worker/process_tree.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "worker/tuning.h"

namespace tunedeck::worker {

namespace {

struct Lineage {
    pid_t parent = -1;
    pid_t group = -1;
};

// Fields 4 and 5 of /proc/PID/stat. The command name (field 2) may hold spaces and parentheses,
// so the fields are counted from its last ')'.
bool readLineage(pid_t pid, Lineage* out) {
    const std::string path = "/proc/" + std::to_string(pid) + "/stat";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    char text[1024];
    const ssize_t n = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    if (n <= 0) {
        return false;
    }
    text[n] = '\0';
    const char* close = std::strrchr(text, ')');
    if (close == nullptr || close[1] != ' ' || close[2] == '\0') {
        return false;
    }
    char* cursor = nullptr;
    out->parent = static_cast<pid_t>(std::strtol(close + 4, &cursor, 10));  // ") S PPID"
    out->group = static_cast<pid_t>(std::strtol(cursor, nullptr, 10));
    return true;
}

}  // namespace

pid_t trialRootOf(pid_t pid, const std::function<bool(pid_t)>& isTrialRoot) {
    for (int depth = 0; depth < kProcessTreeMaxDepth && pid > 1; ++depth) {
        if (isTrialRoot(pid)) {
            return pid;
        }
        Lineage lineage;
        if (!readLineage(pid, &lineage)) {
            return -1;  // gone, or in another pid namespace (a container's driver view)
        }
        if (lineage.group > 1 && isTrialRoot(lineage.group)) {
            return lineage.group;
        }
        pid = lineage.parent;
    }
    return -1;
}

}  // namespace tunedeck::worker
