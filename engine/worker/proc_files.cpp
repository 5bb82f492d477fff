#include "worker/proc_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace tunedeck::worker {

std::string readProcFile(const char* path) {
    std::string text;
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return text;
    }
    char buffer[8192];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0) {
            break;
        }
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > (1 << 20)) {
            break;
        }
    }
    ::close(fd);
    return text;
}

bool readProcStat(pid_t pid, ProcStat* out) {
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
    // The command name (field 2) may hold spaces and parentheses, so the fields are counted from
    // its last ')'; field 3 (the state) follows it.
    const char* close = std::strrchr(text, ')');
    if (close == nullptr || close[1] != ' ' || close[2] == '\0') {
        return false;
    }
    char* cursor = const_cast<char*>(close + 4);  // ") S PPID"
    long long fields[22] = {};                    // fields 4 to 25
    for (long long& field : fields) {
        char* end = nullptr;
        field = std::strtoll(cursor, &end, 10);
        if (end == cursor) {
            return false;
        }
        cursor = end;
    }
    const auto at = [&fields](int field) { return fields[field - 4]; };
    out->parent = static_cast<pid_t>(at(4));
    out->group = static_cast<pid_t>(at(5));
    out->cpuTicks = static_cast<std::uint64_t>(at(14) + at(15) + at(16) + at(17));
    out->residentPages = at(24);
    out->state = close[2];
    return true;
}

}  // namespace tunedeck::worker
