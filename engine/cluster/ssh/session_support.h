// What SshSession's source files share: its tuning constants and how libssh2 and errno codes
// become words. Private to the SSH layer.
// Thread-safety: pure functions and constants.
#pragma once

#include <cstring>

#include <QString>

#include "cluster/ssh/libssh2_handles.h"

namespace tunedeck::ssh::detail {

// Work done per wakeup before yielding to the event loop: a fast transfer must not starve the
// rest of the application (other nodes, timers). Passes over the users, and a time slice.
constexpr int kMaxPumpPasses = 16;
constexpr qint64 kPumpSliceNs = 2'000'000;
// Pump-and-deliver rounds per wakeup, within a slice of their own.
constexpr int kMaxDriveRounds = 8;
constexpr qint64 kDriveSliceNs = 5'000'000;
// Keepalive intervals without an acknowledgement before the kernel drops the connection
// (TCP_USER_TIMEOUT), like OpenSSH's ServerAliveCountMax.
constexpr int kKeepaliveCountMax = 3;

// strerror, starting in lower case to fit inside a sentence.
inline QString errnoText(int error) {
    QString text = QString::fromLocal8Bit(strerror(error));
    if (!text.isEmpty()) {
        text[0] = text[0].toLower();
    }
    return text;
}

// libssh2's own words for its last error (never holding secrets).
inline QString libssh2Message(LIBSSH2_SESSION* session, int rc) {
    char* text = nullptr;
    if (session) {
        libssh2_session_last_error(session, &text, nullptr, 0);
    }
    return text && *text ? QString::fromUtf8(text) : QStringLiteral("libssh2 error %1").arg(rc);
}

}  // namespace tunedeck::ssh::detail
