// A local forward to an engine on a server, like `ssh -L`: the tunnel listens on a local socket
// in a folder only this user can enter (0700), and carries each connection accepted there over
// its own forward channel of one SSH session (direct-streamlocal to a unix socket, direct-tcpip
// to a port): the server's sshd connects to the engine as the SSH user. EngineClient attaches to
// the local socket as to a local engine. The default socket depends on the SSH user's uid and
// runtime folder: one short exec channel per session asks for them (`id -u`, `printenv`). When
// the session drops, the tunnel's connections close (so the client reconnects and subscribes
// again from its last sequence number) and the tunnel opens a new session, retrying with
// backoff; connections accepted meanwhile wait for it. When the server cannot reach the engine,
// the tunnel says why and holds new connections a moment.
// Host keys: an unknown key stops the tunnel until the user accepts its fingerprint
// (trustHostKey); a changed key, or a refused login, stops it for good.
// Thread-safety: lives on the GUI (or test) thread, like the SSH session under it.
#pragma once

#include <QLocalServer>
#include <QObject>
#include <QPointer>
#include <QTemporaryDir>
#include <QTimer>
#include <list>
#include <memory>

#include <optional>

#include "client/ssh_target.h"

namespace tunedeck::ssh {
class ExecChannel;
class SshSession;
struct SshFailure;
}  // namespace tunedeck::ssh

namespace tunedeck::client {

class SshTunnel : public QObject {
    Q_OBJECT
  public:
    enum class State {
        Idle,            // before start()
        Connecting,      // an SSH session is being opened
        Connected,       // the session is up; connections are carried
        WaitingToRetry,  // the server could not be reached or the session dropped
        HostKeyUnknown,  // waiting for the user's word on the host key
        Failed,          // a changed host key or a refused login: retrying cannot help
    };
    Q_ENUM(State)

    explicit SshTunnel(SshTarget target, QObject* parent = nullptr);
    // Closes the local socket and every carried connection, then the session.
    ~SshTunnel() override;

    // Listens on a new private local socket and opens the SSH session. False (with why in
    // `error`) when the local socket cannot be made.
    bool start(QString* error);
    // The socket to attach to (valid after start()).
    QString localSocketPath() const { return server_.fullServerName(); }
    const SshTarget& target() const { return target_; }
    State state() const { return state_; }
    // The latest progress or problem, in words, for a status line.
    QString statusText() const { return status_; }
    // "SHA256:..." of the server's host key once a handshake got that far.
    QString hostKeyFingerprint() const { return fingerprint_; }
    // Sessions opened successfully so far (a reconnect makes it 2 or more).
    int sessionsOpened() const { return sessionsOpened_; }

    // The user's word on the key hostKeyUnknown() showed: the next session records it in
    // known_hosts. If the server then presents another key than `fingerprint`, the tunnel fails
    // instead of using it.
    void trustHostKey(const QString& fingerprint);

  signals:
    void stateChanged(tunedeck::client::SshTunnel::State state, const QString& message);
    // The host key is not in known_hosts: nothing is carried until trustHostKey().
    void hostKeyUnknown(const QString& fingerprint, const QString& message);
    // The server could not reach the engine for one connection (the engine is not running
    // there, the socket is another user's, sshd there does not allow forwarding...).
    void engineUnreachable(const QString& message);

  private:
    class Carrier;

    void openSession();
    void onSessionConnected();
    void onSessionFailed(const ssh::SshFailure& failure);
    void onSessionLost(const QString& reason);
    void dropSession();
    void retryLater(const QString& message);
    void setState(State state, const QString& message);
    void onNewConnection();
    void carry(Carrier& carrier);
    // Opens the carrier's forward to the target it is at (the default socket has several).
    void openForward(Carrier& carrier);
    QString unreachableMessage(const Carrier& carrier) const;
    // Carries the connections that wait, when the session is up and the engine not paused.
    void carryWaiting();
    // Asks the server for the SSH user's account, once per session, when the engine's address
    // depends on it.
    void askAccount();
    void onAccountAnswered(int exitStatus);
    void endCarrier(Carrier* carrier, const QString& serverMessage);
    void endAllCarriers();

    SshTarget target_;
    std::unique_ptr<QTemporaryDir> folder_;  // 0700: other users cannot reach the socket
    QLocalServer server_;
    QPointer<ssh::SshSession> session_;
    std::list<std::unique_ptr<Carrier>> carriers_;
    // Per session: the account query and its answer, and where the engine is tried.
    std::unique_ptr<ssh::ExecChannel> accountQuery_;
    QByteArray accountAnswer_;
    std::optional<QList<ssh::ForwardTarget>> forwardTargets_;
    State state_ = State::Idle;
    QString status_;
    QString fingerprint_;
    QString trustedFingerprint_;  // accepted by the user; checked against the next session's
    QTimer retry_;
    QTimer enginePause_;  // running: the engine was just unreachable, new connections wait
    int retryDelayMs_ = 0;
    int sessionsOpened_ = 0;
};

}  // namespace tunedeck::client
