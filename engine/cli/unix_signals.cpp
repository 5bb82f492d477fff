#include "cli/unix_signals.h"

#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

namespace tunedeck {

namespace {

int g_pipe[2] = {-1, -1};

void onSignal(int number) {
    const char byte = char(number);
    const ssize_t written = ::write(g_pipe[1], &byte, 1);
    (void)written;  // nothing else is async-signal-safe to do about a full pipe
}

}  // namespace

UnixSignals::UnixSignals(QObject* parent) : QObject(parent) {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_pipe) != 0) {
        return;
    }
    notifier_ = std::make_unique<QSocketNotifier>(g_pipe[0], QSocketNotifier::Read);
    connect(notifier_.get(), &QSocketNotifier::activated, this, [this] {
        char byte = 0;
        if (::read(g_pipe[0], &byte, 1) == 1) {
            emit interrupted(int(byte));
        }
    });
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
}

UnixSignals::~UnixSignals() {
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
}

}  // namespace tunedeck
