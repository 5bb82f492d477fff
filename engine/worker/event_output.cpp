#include "worker/event_output.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

namespace tunedeck::worker {

EventOutput::EventOutput(int fd) : m_fd(fd) {
    struct stat info {};
    if (::fstat(fd, &info) == 0 && (S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode))) {
        const int flags = ::fcntl(fd, F_GETFL);
        m_nonBlocking = flags >= 0 && ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
    }
}

void EventOutput::emit(const node::Event& event) {
    m_buffer.append(node::encodeEvent(event));
}

void EventOutput::flush() {
    while (!m_broken && pending()) {
        const ssize_t n = ::write(m_fd, m_buffer.data() + m_written, pendingBytes());
        if (n > 0) {
            m_written += static_cast<std::size_t>(n);
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            break;
        } else {
            m_broken = true;  // EPIPE and friends: the engine has gone
        }
    }
    if (m_broken) {
        m_buffer.clear();
        m_written = 0;
        return;
    }
    compact();
}

void EventOutput::flushBeforeExit(int patienceMs) {
    const auto giveUpAt = std::chrono::steady_clock::now() + std::chrono::milliseconds(patienceMs);
    flush();
    while (!m_broken && pending() && m_nonBlocking) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              giveUpAt - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) {
            return;
        }
        pollfd waitFor{m_fd, POLLOUT, 0};
        ::poll(&waitFor, 1, static_cast<int>(left));
        flush();
    }
}

void EventOutput::compact() {
    if (m_written == m_buffer.size()) {
        m_buffer.clear();
        m_written = 0;
        if (m_buffer.capacity() > (std::size_t{4} << 20)) {
            std::string().swap(m_buffer);  // a burst is over; give its memory back
        }
    } else if (m_written > (std::size_t{1} << 20) && m_written * 2 > m_buffer.size()) {
        m_buffer.erase(0, m_written);
        m_written = 0;
    }
}

}  // namespace tunedeck::worker
