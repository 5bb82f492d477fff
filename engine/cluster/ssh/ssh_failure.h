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

}  // namespace tunedeck::ssh

Q_DECLARE_METATYPE(tunedeck::ssh::SshFailure)
