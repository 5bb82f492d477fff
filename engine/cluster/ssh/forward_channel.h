// A connection made by the host to a TCP port or a unix socket on its side, carried over the
// session like `ssh -L` / `ssh -W` do: a "direct-tcpip" channel (RFC 4254 §7.2) or OpenSSH's
// "direct-streamlocal@openssh.com" (its PROTOCOL file, §2.4). Bytes both ways in order, EOF each
// way, and a refusal in words that name the target. The app's SSH tunnel uses it.
// Thread-safety: the session's thread. Signals are emitted from the event loop.
#pragma once

#include <memory>

#include <QByteArray>
#include <QObject>
#include <QString>

#include "cluster/ssh/libssh2_channel.h"
#include "cluster/ssh/session_channel.h"
#include "cluster/ssh/ssh_session.h"

namespace tunedeck::ssh {

// Where the host connects to, as the host sees it.
struct ForwardTarget {
    enum class Kind { Tcp, UnixSocket };
    Kind kind = Kind::Tcp;
    QString host;  // Tcp: a name or address the host resolves ("127.0.0.1", "localhost")
    quint16 port = 0;
    QString path;  // UnixSocket: an absolute path on the host (sshd expands nothing)

    static ForwardTarget tcp(const QString& host, quint16 port) {
        return {Kind::Tcp, host, port, {}};
    }
    static ForwardTarget unixSocket(const QString& path) { return {Kind::UnixSocket, {}, 0, path}; }
    // "tcp:127.0.0.1:7788", "tcp:[::1]:7788" or "unix:/run/user/1000/tunedeck/engine.sock".
    QString describe() const;
};

class ForwardChannel : public SessionChannel {
    Q_OBJECT
  public:
    // Why the channel could not be opened.
    enum class Failure {
        None,
        // The host's sshd does not allow this kind of forward (AllowTcpForwarding,
        // AllowStreamLocalForwarding, DisableForwarding, a key's no-port-forwarding).
        NotAllowed,
        // sshd could not connect to the target: nothing listens there, or (OpenSSH answers
        // unix socket refusals this way too) forwarding to unix sockets is not allowed.
        NotReached,
        // The session closed or was lost before the host answered.
        SessionEnded,
        // Any other refusal (resource shortage, an unknown channel type on a non-OpenSSH host).
        Refused,
    };

    // EOF to the target after what is queued (the host shuts down its socket's writing side);
    // data keeps arriving until endOfData().
    void closeWrite();
    const ForwardTarget& target() const { return target_; }
    // After failed(): why, as failed() said it; after closed(): why the session ended, if it
    // did. Empty otherwise.
    QString errorString() const { return error_; }
    Failure failure() const { return failure_; }

  signals:
    // The host has connected to the target.
    void opened();
    void received(const QByteArray& data);
    // The target will send nothing more (its side of the connection closed). The channel
    // stays open for writing until closeWrite() or close().
    void endOfData();
    // After opened(): both sides are done and the host closed the channel, or the session
    // ended (errorString() then says why).
    void closed();
    // Instead of opened(): the host refused the forward, or the session ended first.
    // `message` names the host and the target, and says why.
    void failed(const QString& message);

  private:
    friend class SshSession;
    ForwardChannel(SshSession* session, const ForwardTarget& target);

    void deliver() override;
    void abandon(const QString& reason) override;
    QString refusalMessage(Libssh2Channel::Refusal refusal, const QString& detail) const;

    ForwardTarget target_;
    QString hostName_;
    QString error_;
    Failure failure_ = Failure::None;
    bool opened_ = false;
};

}  // namespace tunedeck::ssh
