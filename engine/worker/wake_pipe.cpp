#include "worker/wake_pipe.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

namespace tunedeck::worker {

WakePipe::WakePipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0) {
        m_read = fds[0];
        m_write = fds[1];
    }
}

WakePipe::~WakePipe() {
    ::close(m_read);
    ::close(m_write);
}

void WakePipe::notify() {
    const char byte = 1;
    [[maybe_unused]] const ssize_t ignored = ::write(m_write, &byte, 1);
}

void WakePipe::drain() {
    char bytes[256];
    while (::read(m_read, bytes, sizeof bytes) > 0) {
    }
}

std::thread startWithSignalsBlocked(std::function<void()> body) {
    sigset_t all;
    sigset_t previous;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &previous);
    std::thread thread(std::move(body));
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    return thread;
}

}  // namespace tunedeck::worker
