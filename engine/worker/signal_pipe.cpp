#include "worker/signal_pipe.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <initializer_list>

namespace tunedeck::worker {

namespace {

volatile sig_atomic_t g_writeFd = -1;

void onSignal(int signalNumber) {
    const int savedErrno = errno;
    const char byte = static_cast<char>(signalNumber);
    // Non-blocking: when the pipe is full a wakeup is already pending, losing this byte is fine.
    [[maybe_unused]] const ssize_t ignored = ::write(g_writeFd, &byte, 1);
    errno = savedErrno;
}

}  // namespace

int installSignalPipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
        return -1;
    }
    g_writeFd = fds[1];

    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    // SA_NOCLDSTOP: a trial stopped by SIGSTOP has not exited.
    action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    for (int signalNumber : {SIGCHLD, SIGTERM, SIGINT, SIGHUP}) {
        ::sigaction(signalNumber, &action, nullptr);
    }
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, nullptr);
    return fds[0];
}

PendingSignals drainSignalPipe(int readFd) {
    PendingSignals pending;
    char bytes[64];
    for (;;) {
        const ssize_t n = ::read(readFd, bytes, sizeof bytes);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        for (ssize_t i = 0; i < n; ++i) {
            if (bytes[i] == SIGCHLD) {
                pending.childExited = true;
            } else {
                pending.shutdownAsked = true;
            }
        }
    }
    return pending;
}

}  // namespace tunedeck::worker
