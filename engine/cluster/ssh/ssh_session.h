// One SSH connection to one node, driven without blocking by the Qt event loop: a QSocketNotifier
// on the socket wakes every operation (channels, SFTP) and each retries its libssh2 call where it
// answered EAGAIN. Host keys are checked against known_hosts, keys come from a file or ssh-agent,
// keepalives run on a QTimer. Exec channels, forwards (to a TCP port or a unix socket on the
// host's side, like `ssh -L`) and the SFTP client multiplex over this one session.
// Thread-safety: a session and everything it hands out live on the thread that created it.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSocketNotifier>
#include <QString>
#include <QTimer>

#include "cluster/ssh/known_hosts.h"
#include "cluster/ssh/libssh2_handles.h"
#include "cluster/ssh/ssh_endpoint.h"
#include "cluster/ssh/ssh_failure.h"

namespace tunedeck::ssh {

class SessionChannel;
class ExecChannel;
class ForwardChannel;
struct ForwardTarget;
class SftpClient;
class Libssh2Channel;
class SshAuthenticator;

namespace detail {
// Something that works over the session: an exec channel, a forward, the SFTP client. The session
// calls pump() on every wakeup (no signal may be emitted there: a libssh2 call may be half done),
// then deliver() where the user emits what pump() produced.
class SessionUser {
  public:
    virtual ~SessionUser() = default;
    // Advances as far as the socket allows. Returns whether anything moved.
    virtual bool pump() = 0;
    virtual bool hasEvents() const = 0;
    // Emits what pump() or abandon() produced; may destroy this user or the session.
    virtual void deliver() = 0;
    // Whether it holds a libssh2 channel (a reader of the socket).
    virtual bool holdsChannel() const = 0;
    // The session is over: free libssh2 objects now, fail what is pending (for deliver()).
    virtual void abandon(const QString& reason) = 0;
    // The session object is being destroyed: forget it, emit nothing.
    virtual void forgetSession() = 0;
};
}  // namespace detail

class SshSession : public QObject {
    Q_OBJECT
  public:
    explicit SshSession(SshEndpoint endpoint, QObject* parent = nullptr);
    // Closes everything, channels first; emits nothing. Channels still held by callers go idle
    // (isOpen() false); SFTP callbacks still pending are dropped.
    ~SshSession() override;

    // Asynchronous: connected() or failed() follows, never from inside open(). A session opens
    // once; reconnecting is a new SshSession.
    void open();
    bool isConnected() const { return phase_ == Phase::Connected; }
    // "SHA256:..." once the handshake is done, also when the key was then refused.
    QString hostKeyFingerprint() const { return fingerprint_; }
    // Whether open() appended the host key to known_hosts (acceptNewHostKey), as OpenSSH warns
    // "Permanently added".
    bool addedHostKey() const { return addedHostKey_; }
    const SshEndpoint& endpoint() const { return endpoint_; }
    // "kex curve25519-sha256, host key ssh-ed25519, cipher aes128-ctr, mac hmac-sha2-256" once
    // the handshake is done: for logs and benchmarks.
    QString negotiatedAlgorithms() const;
    // Ends the session (no disconnected()). Open channels then finish (-1) and pending SFTP
    // requests fail, from the event loop.
    void close();

    // Only when connected (nullptr otherwise). The channel is the caller's but must not outlive
    // the session. Its signals come from the event loop, never from inside exec().
    std::unique_ptr<ExecChannel> exec(const QString& command);
    // A connection from the host to `target` (sshd connects to it as the SSH user), carried
    // over a channel of this session; nullptr when not connected. Same ownership and signal
    // rules as exec(). The host's sshd must allow forwarding (OpenSSH's default).
    std::unique_ptr<ForwardChannel> forward(const ForwardTarget& target);
    // One SFTP subsystem per session, opened on first use, owned by the session; nullptr when
    // not connected.
    SftpClient* sftp();

  signals:
    void connected();
    // Before connected(); the session is then closed.
    void failed(const tunedeck::ssh::SshFailure& failure);
    // After connected(): the socket closed, keepalives went unanswered, or the stream broke.
    // Channels have emitted finished(-1, "") just before.
    void disconnected(const QString& reason);

  private:
    friend class Libssh2Channel;
    friend class SessionChannel;
    friend class ExecChannel;
    friend class ForwardChannel;
    friend class SftpClient;

    enum class Phase {
        Idle,
        Resolving,
        Connecting,
        Handshaking,
        Authenticating,
        Connected,
        Failed,
        Disconnected,
        Closed
    };

    // Connecting.
    void begin();
    void connectNextAddress();
    void onConnectWritable();
    void onWritable();
    void dropNotifiers();
    bool hasReaders() const;
    void compactUsers();
    void onTcpConnected();
    bool pumpConnect();
    void failHandshake(int rc);
    bool checkHostKey();
    void onConnectTimeout();
    void fail(SshFailureKind kind, QString message);

    // Driving.
    void drive();
    void pumpAll();
    bool pumpUsers();
    bool pumpRetired();
    void deliverAll(const QPointer<SshSession>& self);
    bool hasEvents() const;
    void requestDelivery();
    void updateNotifiers();
    void onKeepalive();

    // For channels and the SFTP client.
    LIBSSH2_SESSION* raw() const { return session_.get(); }
    void registerUser(detail::SessionUser* user);
    void unregisterUser(detail::SessionUser* user);
    // libssh2 keeps one channel-open state per session: one opening at a time.
    bool acquireChannelOpening(const void* who);
    void releaseChannelOpening(const void* who);
    bool holdsChannelOpening(const void* who) const { return channelOpener_ == who; }
    // Frees `channel` without blocking: retried on socket activity until the host confirmed.
    void retireChannel(ChannelHandle channel);
    // A libssh2 call answered a code that ends the session.
    void reportFatal(int rc, const QString& during);
    // libssh2 work now (a write goes out at once), signals later from the event loop.
    void pumpNow();
    // A user stopped early with work left (a full read buffer): drive again after delivering.
    void requestAnotherRound() { again_ = true; }
    // A channel was destroyed while its libssh2 open was half done: libssh2 keeps that state
    // per session, so the session finishes the open (same type, payload and window: libssh2
    // may send them again) and frees the channel.
    void adoptChannelOpening(const void* who, const QByteArray& type, const QByteArray& payload,
                             unsigned windowSize);
    bool pumpAdoptedOpening();

    // The transport: libssh2 sends and receives through these, so that a dead connection turns
    // into "discard" mode where no packet can stay half-sent.
    static ssize_t sendCallback(libssh2_socket_t socket, const void* buffer, size_t length,
                                int flags, void** abstract);
    static ssize_t recvCallback(libssh2_socket_t socket, void* buffer, size_t length, int flags,
                                void** abstract);
    ssize_t transportSend(const void* buffer, size_t length, int flags);
    ssize_t transportRecv(void* buffer, size_t length, int flags);
    QString transportLossReason() const;
    void lose(const QString& reason);
    void teardown(bool graceful, const QString& reasonForUsers);

    SshEndpoint endpoint_;
    Phase phase_ = Phase::Idle;
    QString fingerprint_;
    bool addedHostKey_ = false;

    QList<QHostAddress> addresses_;
    int nextAddress_ = 0;
    QString lastConnectError_;
    int fd_ = -1;
    std::unique_ptr<QSocketNotifier> readNotifier_;
    std::unique_ptr<QSocketNotifier> writeNotifier_;
    QTimer connectTimer_;
    QTimer keepaliveTimer_;

    SessionHandle session_;
    KnownHosts knownHosts_;
    std::unique_ptr<SshAuthenticator> auth_;

    std::vector<detail::SessionUser*> users_;
    std::vector<ChannelHandle> retired_;
    std::unique_ptr<SftpClient> sftp_;
    const void* channelOpener_ = nullptr;
    bool adoptedOpening_ = false;
    QByteArray adoptedType_;
    QByteArray adoptedPayload_;
    unsigned adoptedWindow_ = 0;

    bool discard_ = false;
    bool peerClosed_ = false;
    int socketErrno_ = 0;
    quint64 bytesReceived_ = 0;
    int fatalRc_ = 0;
    QString fatalDuring_;

    bool pumping_ = false;
    // Deliveries on the stack: a slot may run a nested event loop that delivers again.
    int delivering_ = 0;
    bool deliveryQueued_ = false;
    bool again_ = false;
    bool usersChanged_ = false;

    bool pendingConnected_ = false;
    std::optional<SshFailure> pendingFailure_;
    std::optional<QString> pendingDisconnect_;
};

}  // namespace tunedeck::ssh
