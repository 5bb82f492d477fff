#include "worker/log_tail.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace tunedeck::worker {

std::vector<std::string> readLogTail(const std::string& path, int maxLines, std::size_t maxBytes) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return {};
    }
    struct stat info {};
    std::string window;
    if (::fstat(fd, &info) == 0 && info.st_size > 0) {
        const auto size = static_cast<std::size_t>(info.st_size);
        const std::size_t length = size < maxBytes ? size : maxBytes;
        window.resize(length);
        std::size_t got = 0;
        while (got < length) {
            const ssize_t n = ::pread(fd, window.data() + got, length - got,
                                      static_cast<off_t>(size - length + got));
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                break;
            }
            got += static_cast<std::size_t>(n);
        }
        window.resize(got);
    }
    ::close(fd);

    while (!window.empty() && (window.back() == '\n' || window.back() == '\r')) {
        window.pop_back();
    }
    if (maxLines <= 0) {
        return {};
    }
    // Walk back over maxLines newlines; the text after the last one found is the tail.
    std::size_t start = 0;
    std::size_t searchEnd = window.size();
    for (int lines = 0; lines < maxLines && searchEnd > 0; ++lines) {
        const std::size_t newline = window.rfind('\n', searchEnd - 1);
        if (newline == std::string::npos) {
            start = 0;
            break;
        }
        start = newline + 1;
        searchEnd = newline;
    }
    std::vector<std::string> lines;
    while (start <= window.size() && !window.empty()) {
        std::size_t end = window.find('\n', start);
        if (end == std::string::npos) {
            end = window.size();
        }
        std::size_t lineEnd = end;
        if (lineEnd > start && window[lineEnd - 1] == '\r') {
            --lineEnd;
        }
        lines.push_back(window.substr(start, lineEnd - start));
        start = end + 1;
    }
    return lines;
}

}  // namespace tunedeck::worker
