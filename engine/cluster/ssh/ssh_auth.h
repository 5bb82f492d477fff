// Public-key authentication of one session, from a key file or from the keys of ssh-agent, as a
// non-blocking state machine that SshSession steps on socket activity.
// Thread-safety: owned by its session, used on the session's thread.
#pragma once

#include <QByteArray>
#include <QString>

#include "cluster/ssh/libssh2_handles.h"
#include "cluster/ssh/ssh_endpoint.h"
#include "cluster/ssh/ssh_failure.h"

namespace tunedeck::ssh {

class SshAuthenticator {
  public:
    SshAuthenticator(const SshEndpoint& endpoint, LIBSSH2_SESSION* session);

    enum class Step { Again, Done, Failed };
    // Again: blocked on the socket, call again on activity.
    Step step();

    SshFailureKind failureKind() const { return failureKind_; }
    // Names the user, the host and the key file; never key material or a passphrase.
    const QString& failure() const { return failure_; }

  private:
    enum class Stage { ListMethods, KeyFile, AgentConnect, AgentNextIdentity, AgentTry, Done };

    Step stepListMethods();
    Step stepKeyFile();
    Step stepAgentConnect();
    Step stepAgentTry();
    Step fail(SshFailureKind kind, const QString& message);
    Step failFromLibssh2(int rc, const QString& during);
    QString who() const;

    const SshEndpoint& endpoint_;
    LIBSSH2_SESSION* session_;
    QByteArray user_;
    Stage stage_ = Stage::ListMethods;
    AgentHandle agent_;
    libssh2_agent_publickey* identity_ = nullptr;
    int identitiesTried_ = 0;
    SshFailureKind failureKind_ = SshFailureKind::AuthFailed;
    QString failure_;
};

// The algorithm of a private key file ("ssh-ed25519", "ssh-rsa", ...) read from its public part,
// or empty when it cannot tell. Reads no secret: the OpenSSH format keeps the public key in clear.
QString privateKeyAlgorithm(const QString& file);

}  // namespace tunedeck::ssh
