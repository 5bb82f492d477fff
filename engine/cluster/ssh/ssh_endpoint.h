// Where and as whom an SSH session connects, and how it checks the host: the part of a cluster
// file's `auth` section that the SSH layer needs, for one node.
// Thread-safety: a plain value; copy it freely.
#pragma once

#include <QString>

namespace tunedeck::ssh {

struct SshEndpoint {
    QString host;
    int port = 22;
    QString user;
    // Empty: authenticate with the keys of the ssh-agent that SSH_AUTH_SOCK names.
    QString privateKeyFile;
    // Only for an encrypted private key file; never logged, never part of a message.
    QString privateKeyPassphrase;
    // Empty: ~/.ssh/known_hosts.
    QString knownHostsFile;
    // An unknown host key is refused unless this is set; then it is appended to known_hosts.
    // A changed key is refused whatever this says.
    bool acceptNewHostKey = false;
    // Bounds the whole of open(): TCP connect, SSH handshake and authentication.
    int connectTimeoutMs = 10000;
    // 0 turns keepalives off. A host that stops acknowledging them for three intervals is
    // declared lost (the kernel's TCP_USER_TIMEOUT), as OpenSSH's ServerAliveCountMax=3 would.
    int keepaliveIntervalS = 5;

    // "host" or "host:port": how messages name the node.
    QString name() const { return port == 22 ? host : QStringLiteral("%1:%2").arg(host).arg(port); }
    // The name known_hosts files use: "host", or "[host]:port" for another port (as OpenSSH).
    QString knownHostsName() const {
        return port == 22 ? host : QStringLiteral("[%1]:%2").arg(host).arg(port);
    }
};

}  // namespace tunedeck::ssh
