// Why an SSH session could not be opened, in the user's words, with a kind callers can act on
// (retry an unreachable node later; never retry a changed host key).
// Thread-safety: a plain value.
#pragma once

#include <QMetaType>
#include <QString>

namespace tunedeck::ssh {

enum class SshFailureKind {
    Unreachable,     // name did not resolve, connection refused or timed out
    HostKeyUnknown,  // not in known_hosts and the caller did not accept new keys
    HostKeyChanged,  // known_hosts holds another key for this host: refused, always
    AuthFailed,      // the server accepted none of our keys, or a key file is unusable
    Protocol,        // not an SSH server, no common algorithm, broken stream
    Disconnected,    // the connection ended while it was being set up
};

struct SshFailure {
    SshFailureKind kind = SshFailureKind::Protocol;
    // Names the endpoint; never holds a password, a passphrase or key material.
    QString message;
};

inline QString failureKindName(SshFailureKind kind) {
    switch (kind) {
        case SshFailureKind::Unreachable:
            return QStringLiteral("unreachable");
        case SshFailureKind::HostKeyUnknown:
            return QStringLiteral("host key unknown");
        case SshFailureKind::HostKeyChanged:
            return QStringLiteral("host key changed");
        case SshFailureKind::AuthFailed:
            return QStringLiteral("authentication failed");
        case SshFailureKind::Protocol:
            return QStringLiteral("protocol error");
        case SshFailureKind::Disconnected:
            return QStringLiteral("disconnected");
    }
    return {};
}

}  // namespace tunedeck::ssh

Q_DECLARE_METATYPE(tunedeck::ssh::SshFailure)
