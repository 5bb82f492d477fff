#include "cluster/ssh/ssh_session.h"

#include <cerrno>
#include <cstring>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QDir>
#include <QHostInfo>
#include <QMetaObject>

#include "cluster/ssh/exec_channel.h"
#include "cluster/ssh/sftp_client.h"
#include "cluster/ssh/ssh_auth.h"

namespace tunedeck::ssh {
namespace {

// Passes over the users per wakeup before yielding to the event loop (a peer that never stops
// sending must not starve the rest of the application).
constexpr int kMaxPumpPasses = 16;
// Pump-and-deliver rounds per wakeup, for the same reason.
constexpr int kMaxDriveRounds = 8;
// Keepalive intervals without an acknowledgement before the kernel drops the connection
// (TCP_USER_TIMEOUT), like OpenSSH's ServerAliveCountMax.
constexpr int kKeepaliveCountMax = 3;

// Host key algorithms in the order offered when known_hosts holds none for the host. RSA comes
// last: libssh2 1.10 only knows "ssh-rsa" (SHA-1) signatures, which OpenSSH 8.8+ no longer sends.
const char* const kHostKeyPreference[] = {"ssh-ed25519", "ecdsa-sha2-nistp256",
                                          "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-rsa"};

QString localUserName() {
    if (const passwd* pw = getpwuid(getuid())) {
        return QString::fromLocal8Bit(pw->pw_name);
    }
    return qEnvironmentVariable("USER");
}

QString errnoText(int error) {
    QString text = QString::fromLocal8Bit(strerror(error));
    if (!text.isEmpty()) {
        text[0] = text[0].toLower();
    }
    return text;
}

QString libssh2Message(LIBSSH2_SESSION* session, int rc) {
    char* text = nullptr;
    if (session) {
        libssh2_session_last_error(session, &text, nullptr, 0);
    }
    return text && *text ? QString::fromUtf8(text) : QStringLiteral("libssh2 error %1").arg(rc);
}

}  // namespace

SshSession::SshSession(SshEndpoint endpoint, QObject* parent)
    : QObject(parent), endpoint_(std::move(endpoint)) {
    initialiseLibssh2();
    if (endpoint_.user.isEmpty()) {
        endpoint_.user = localUserName();
    }
    if (endpoint_.knownHostsFile.isEmpty()) {
        endpoint_.knownHostsFile = QDir::homePath() + QStringLiteral("/.ssh/known_hosts");
    }
    connectTimer_.setSingleShot(true);
    connect(&connectTimer_, &QTimer::timeout, this, &SshSession::onConnectTimeout);
    connect(&keepaliveTimer_, &QTimer::timeout, this, &SshSession::onKeepalive);
}

SshSession::~SshSession() {
    if (session_ || fd_ >= 0) {
        teardown(phase_ == Phase::Connected,
                 QStringLiteral("session to %1 closed").arg(endpoint_.name()));
    }
    const std::vector<detail::SessionUser*> users = std::move(users_);
    users_.clear();
    for (detail::SessionUser* user : users) {
        if (user) {
            user->forgetSession();
        }
    }
    sftp_.reset();
}

void SshSession::open() {
    if (phase_ != Phase::Idle) {
        return;
    }
    phase_ = Phase::Resolving;
    connectTimer_.start(endpoint_.connectTimeoutMs);
    // Never emit from inside open(): the caller may not have connected its slots yet.
    QMetaObject::invokeMethod(this, &SshSession::begin, Qt::QueuedConnection);
}

void SshSession::begin() {
    if (phase_ != Phase::Resolving) {
        return;
    }
    QHostAddress literal;
    if (literal.setAddress(endpoint_.host)) {
        addresses_ = {literal};
        connectNextAddress();
        return;
    }
    QHostInfo::lookupHost(endpoint_.host, this, [this](const QHostInfo& info) {
        if (phase_ != Phase::Resolving) {
            return;
        }
        if (info.error() != QHostInfo::NoError || info.addresses().isEmpty()) {
            fail(SshFailureKind::Unreachable,
                 QStringLiteral("cannot reach %1: cannot resolve host name '%2': %3")
                     .arg(endpoint_.name(), endpoint_.host, info.errorString()));
            return;
        }
        addresses_ = info.addresses();
        connectNextAddress();
    });
}

void SshSession::connectNextAddress() {
    phase_ = Phase::Connecting;
    while (nextAddress_ < addresses_.size()) {
        const QHostAddress address = addresses_.at(nextAddress_++);
        sockaddr_storage storage{};
        socklen_t length = 0;
        if (address.protocol() == QAbstractSocket::IPv4Protocol) {
            auto* in = reinterpret_cast<sockaddr_in*>(&storage);
            in->sin_family = AF_INET;
            in->sin_port = htons(static_cast<quint16>(endpoint_.port));
            in->sin_addr.s_addr = htonl(address.toIPv4Address());
            length = sizeof(sockaddr_in);
        } else if (address.protocol() == QAbstractSocket::IPv6Protocol) {
            auto* in6 = reinterpret_cast<sockaddr_in6*>(&storage);
            in6->sin6_family = AF_INET6;
            in6->sin6_port = htons(static_cast<quint16>(endpoint_.port));
            const Q_IPV6ADDR bytes = address.toIPv6Address();
            std::memcpy(&in6->sin6_addr, bytes.c, sizeof bytes.c);
            in6->sin6_scope_id = address.scopeId().toUInt();
            length = sizeof(sockaddr_in6);
        } else {
            continue;
        }
        fd_ = ::socket(storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd_ < 0) {
            lastConnectError_ = errnoText(errno);
            continue;
        }
        // Agent messages are small and latency-bound: never wait to coalesce them.
        const int one = 1;
        ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (::connect(fd_, reinterpret_cast<const sockaddr*>(&storage), length) == 0) {
            onTcpConnected();
            return;
        }
        if (errno == EINPROGRESS) {
            writeNotifier_ = std::make_unique<QSocketNotifier>(fd_, QSocketNotifier::Write);
            connect(writeNotifier_.get(), &QSocketNotifier::activated, this,
                    &SshSession::onWritable);
            return;
        }
        lastConnectError_ = errnoText(errno);
        ::close(fd_);
        fd_ = -1;
    }
    fail(SshFailureKind::Unreachable,
         QStringLiteral("cannot reach %1: %2").arg(endpoint_.name(), lastConnectError_));
}

void SshSession::onWritable() {
    if (phase_ == Phase::Connecting) {
        onConnectWritable();
    } else {
        drive();
    }
}

void SshSession::onConnectWritable() {
    int error = 0;
    socklen_t length = sizeof error;
    ::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &error, &length);
    dropNotifiers();
    if (error != 0) {
        lastConnectError_ = errnoText(error);
        ::close(fd_);
        fd_ = -1;
        connectNextAddress();
        return;
    }
    onTcpConnected();
}

void SshSession::onTcpConnected() {
    if (endpoint_.keepaliveIntervalS > 0) {
        // Keepalives expect no reply (libssh2 1.10 keeps unclaimed replies forever); their
        // acknowledgement by the peer's kernel is what proves it alive.
        const unsigned timeoutMs =
            static_cast<unsigned>(kKeepaliveCountMax * endpoint_.keepaliveIntervalS * 1000);
        ::setsockopt(fd_, IPPROTO_TCP, TCP_USER_TIMEOUT, &timeoutMs, sizeof timeoutMs);
    }
    session_.reset(libssh2_session_init_ex(nullptr, nullptr, nullptr, this));
    if (!session_) {
        fail(SshFailureKind::Protocol,
             QStringLiteral("cannot connect to %1: libssh2 could not create a session")
                 .arg(endpoint_.name()));
        return;
    }
    // libssh2 takes its callbacks as void*; copied, not cast, to stay within ISO C++.
    LIBSSH2_SEND_FUNC((*sendFunction)) = &SshSession::sendCallback;
    LIBSSH2_RECV_FUNC((*recvFunction)) = &SshSession::recvCallback;
    void* sendPointer = nullptr;
    void* recvPointer = nullptr;
    static_assert(sizeof sendPointer == sizeof sendFunction);
    std::memcpy(&sendPointer, &sendFunction, sizeof sendFunction);
    std::memcpy(&recvPointer, &recvFunction, sizeof recvFunction);
    libssh2_session_callback_set(session_.get(), LIBSSH2_CALLBACK_SEND, sendPointer);
    libssh2_session_callback_set(session_.get(), LIBSSH2_CALLBACK_RECV, recvPointer);
    libssh2_session_set_blocking(session_.get(), 0);
    if (endpoint_.keepaliveIntervalS > 0) {
        // The QTimer sets the pace; libssh2's own interval only has to be shorter.
        libssh2_keepalive_config(session_.get(), 0, 1);
    }

    QString error;
    if (!knownHosts_.load(session_.get(), endpoint_.knownHostsFile, &error)) {
        fail(SshFailureKind::Protocol,
             QStringLiteral("cannot connect to %1: %2").arg(endpoint_.name(), error));
        return;
    }
    QStringList preference =
        knownHosts_.knownKeyAlgorithms(endpoint_.knownHostsName().toUtf8());
    const char** supported = nullptr;
    const int count =
        libssh2_session_supported_algs(session_.get(), LIBSSH2_METHOD_HOSTKEY, &supported);
    QStringList available;
    for (int i = 0; i < count; ++i) {
        available.append(QString::fromLatin1(supported[i]));
    }
    if (supported) {
        libssh2_free(session_.get(), supported);
    }
    for (const char* algorithm : kHostKeyPreference) {
        preference.append(QString::fromLatin1(algorithm));
    }
    QStringList offered;
    for (const QString& algorithm : std::as_const(preference)) {
        if (available.contains(algorithm) && !offered.contains(algorithm)) {
            offered.append(algorithm);
        }
    }
    if (!offered.isEmpty()) {
        libssh2_session_method_pref(session_.get(), LIBSSH2_METHOD_HOSTKEY,
                                    offered.join(QLatin1Char(',')).toLatin1().constData());
    }

    readNotifier_ = std::make_unique<QSocketNotifier>(fd_, QSocketNotifier::Read);
    connect(readNotifier_.get(), &QSocketNotifier::activated, this, &SshSession::drive);
    writeNotifier_ = std::make_unique<QSocketNotifier>(fd_, QSocketNotifier::Write);
    writeNotifier_->setEnabled(false);
    connect(writeNotifier_.get(), &QSocketNotifier::activated, this, &SshSession::onWritable);
    phase_ = Phase::Handshaking;
    drive();
}

bool SshSession::pumpConnect() {
    if (phase_ == Phase::Handshaking) {
        const int rc = libssh2_session_handshake(session_.get(), fd_);
        if (rc == LIBSSH2_ERROR_EAGAIN) {
            return false;
        }
        if (rc != 0) {
            failHandshake(rc);
            return true;
        }
        if (!checkHostKey()) {
            return true;
        }
        auth_ = std::make_unique<SshAuthenticator>(endpoint_, session_.get());
        phase_ = Phase::Authenticating;
    }
    if (phase_ == Phase::Authenticating) {
        switch (auth_->step()) {
        case SshAuthenticator::Step::Again:
            return false;
        case SshAuthenticator::Step::Failed:
            if (discard_) {
                fail(SshFailureKind::Unreachable,
                     QStringLiteral("connection to %1 lost during authentication: %2")
                         .arg(endpoint_.name(), transportLossReason()));
            } else {
                fail(auth_->failureKind(), auth_->failure());
            }
            return true;
        case SshAuthenticator::Step::Done:
            auth_.reset();
            phase_ = Phase::Connected;
            connectTimer_.stop();
            if (endpoint_.keepaliveIntervalS > 0) {
                keepaliveTimer_.start(endpoint_.keepaliveIntervalS * 1000);
            }
            pendingConnected_ = true;
            return true;
        }
    }
    return false;
}

void SshSession::failHandshake(int rc) {
    const QString detail = libssh2Message(session_.get(), rc);
    if (discard_) {
        fail(SshFailureKind::Unreachable,
             QStringLiteral("cannot connect to %1: %2 during the SSH handshake")
                 .arg(endpoint_.name(), transportLossReason()));
    } else if (rc == LIBSSH2_ERROR_BANNER_RECV || rc == LIBSSH2_ERROR_BANNER_SEND) {
        fail(SshFailureKind::Protocol,
             QStringLiteral("cannot connect to %1: it does not answer like an SSH server (%2)")
                 .arg(endpoint_.name(), detail));
    } else if (rc == LIBSSH2_ERROR_KEX_FAILURE || rc == LIBSSH2_ERROR_METHOD_NOT_SUPPORTED) {
        fail(SshFailureKind::Protocol,
             QStringLiteral("cannot connect to %1: no algorithm in common with the host (%2)")
                 .arg(endpoint_.name(), detail));
    } else {
        fail(SshFailureKind::Protocol,
             QStringLiteral("cannot connect to %1: SSH handshake failed: %2")
                 .arg(endpoint_.name(), detail));
    }
}

bool SshSession::checkHostKey() {
    size_t length = 0;
    int type = 0;
    const char* key = libssh2_session_hostkey(session_.get(), &length, &type);
    if (!key) {
        fail(SshFailureKind::Protocol,
             QStringLiteral("cannot connect to %1: the host sent no host key").arg(endpoint_.name()));
        return false;
    }
    const QByteArray blob(key, static_cast<qsizetype>(length));
    if (const char* hash = libssh2_hostkey_hash(session_.get(), LIBSSH2_HOSTKEY_HASH_SHA256)) {
        fingerprint_ = QStringLiteral("SHA256:") +
                       QString::fromLatin1(
                           QByteArray(hash, 32).toBase64(QByteArray::OmitTrailingEquals));
    } else {
        fingerprint_ = sha256Fingerprint(blob);
    }
    const QString typeName = hostKeyTypeName(type);
    const QString hostName = endpoint_.knownHostsName();
    const QString& file = endpoint_.knownHostsFile;
    const HostKeyVerdict verdict = knownHosts_.check(hostName.toUtf8(), blob, type);
    switch (verdict.kind) {
    case HostKeyVerdict::Kind::Match:
        return true;
    case HostKeyVerdict::Kind::Changed:
        fail(SshFailureKind::HostKeyChanged,
             QStringLiteral(
                 "HOST KEY OF %1 HAS CHANGED: refusing to connect. %2 line %3 holds %4 key %5, "
                 "but the host now presents %6 key %7. Someone may be intercepting the connection "
                 "(a man-in-the-middle attack), or the host was reinstalled. If you know why the "
                 "key changed, remove line %3 from %2 (ssh-keygen -R '%1' -f '%2') and connect "
                 "again.")
                 .arg(hostName, file, QString::number(verdict.line), verdict.knownKeyType,
                      verdict.knownFingerprint, typeName, fingerprint_));
        return false;
    case HostKeyVerdict::Kind::Unknown:
        break;
    }
    if (!endpoint_.acceptNewHostKey) {
        fail(SshFailureKind::HostKeyUnknown,
             QStringLiteral("the host key of %1 is not known: it presents %2 key %3, which %4 does "
                            "not hold. Compare this fingerprint with the host's own (ssh-keygen -lf "
                            "on its host key), then accept new host keys or add the key to %4.")
                 .arg(hostName, typeName, fingerprint_, file));
        return false;
    }
    QString error;
    if (!knownHosts_.append(hostName.toUtf8(), blob, type, &error)) {
        fail(SshFailureKind::HostKeyUnknown,
             QStringLiteral("the host key of %1 (%2 %3) is new and cannot be recorded: %4")
                 .arg(hostName, typeName, fingerprint_, error));
        return false;
    }
    addedHostKey_ = true;
    return true;
}

void SshSession::onConnectTimeout() {
    const QString seconds = QString::number(endpoint_.connectTimeoutMs / 1000.0);
    switch (phase_) {
    case Phase::Resolving:
    case Phase::Connecting:
        fail(SshFailureKind::Unreachable,
             QStringLiteral("cannot reach %1: no answer within %2 s").arg(endpoint_.name(), seconds));
        break;
    case Phase::Handshaking:
    case Phase::Authenticating:
        fail(SshFailureKind::Unreachable,
             QStringLiteral("cannot connect to %1: the SSH handshake did not finish within %2 s")
                 .arg(endpoint_.name(), seconds));
        break;
    default:
        break;
    }
}

void SshSession::fail(SshFailureKind kind, QString message) {
    switch (phase_) {
    case Phase::Failed:
    case Phase::Closed:
    case Phase::Disconnected:
    case Phase::Connected:
        return;
    default:
        break;
    }
    teardown(false, message);
    phase_ = Phase::Failed;
    pendingFailure_ = SshFailure{kind, std::move(message)};
    requestDelivery();
}

QString SshSession::negotiatedAlgorithms() const {
    if (!session_ || phase_ < Phase::Authenticating) {
        return {};
    }
    const auto method = [this](int type) {
        const char* name = libssh2_session_methods(session_.get(), type);
        return name ? QString::fromLatin1(name) : QStringLiteral("?");
    };
    return QStringLiteral("kex %1, host key %2, cipher %3, mac %4")
        .arg(method(LIBSSH2_METHOD_KEX), method(LIBSSH2_METHOD_HOSTKEY),
             method(LIBSSH2_METHOD_CRYPT_CS), method(LIBSSH2_METHOD_MAC_CS));
}

void SshSession::close() {
    if (phase_ == Phase::Closed) {
        return;
    }
    if (session_ || fd_ >= 0) {
        teardown(phase_ == Phase::Connected,
                 QStringLiteral("session to %1 closed").arg(endpoint_.name()));
    }
    phase_ = Phase::Closed;
    pendingConnected_ = false;
    if (hasEvents()) {
        requestDelivery();
    }
}

std::unique_ptr<ExecChannel> SshSession::exec(const QString& command) {
    if (phase_ != Phase::Connected) {
        return nullptr;
    }
    return std::unique_ptr<ExecChannel>(new ExecChannel(this, command));
}

SftpClient* SshSession::sftp() {
    if (phase_ != Phase::Connected) {
        return nullptr;
    }
    if (!sftp_) {
        sftp_.reset(new SftpClient(this));
    }
    return sftp_.get();
}

// --- Driving -------------------------------------------------------------------------------

void SshSession::drive() {
    if (pumping_) {
        again_ = true;  // the pass loop on the stack below picks it up
        return;
    }
    const QPointer<SshSession> self(this);
    for (int round = 0; round < kMaxDriveRounds; ++round) {
        again_ = false;
        pumpAll();
        deliverAll(self);
        if (!self) {
            return;
        }
        if (!again_ && !hasEvents()) {
            break;
        }
    }
    if (again_ || hasEvents()) {
        requestDelivery();
    }
    updateNotifiers();
}

void SshSession::pumpAll() {
    if (pumping_) {
        return;
    }
    pumping_ = true;
    bool exhausted = true;
    for (int pass = 0; pass < kMaxPumpPasses; ++pass) {
        // A read by one user can pull packets meant for another from the socket into libssh2:
        // while anything moved or arrived, every user gets another pass.
        const quint64 received = bytesReceived_;
        bool progress = false;
        if (phase_ == Phase::Handshaking || phase_ == Phase::Authenticating) {
            progress |= pumpConnect();
        }
        if (phase_ == Phase::Connected) {
            progress |= pumpUsers();
            progress |= pumpRetired();
            if (fatalRc_ != 0 || discard_) {
                exhausted = false;
                break;
            }
        }
        if (!progress && bytesReceived_ == received) {
            exhausted = false;
            break;
        }
    }
    pumping_ = false;
    if (exhausted) {
        again_ = true;
    }
    if (phase_ == Phase::Connected && (fatalRc_ != 0 || discard_)) {
        lose(transportLossReason());
    }
    compactUsers();
}

bool SshSession::pumpUsers() {
    bool progress = false;
    for (size_t i = 0; i < users_.size(); ++i) {
        if (detail::SessionUser* user = users_[i]) {
            progress |= user->pump();
        }
    }
    return progress;
}

bool SshSession::pumpRetired() {
    bool progress = pumpAdoptedOpening();
    for (auto it = retired_.begin(); it != retired_.end();) {
        const int rc = libssh2_channel_free(it->get());
        if (rc == LIBSSH2_ERROR_EAGAIN) {
            ++it;
            continue;
        }
        // libssh2 frees the channel on every other answer (close errors are ignored there).
        (void)it->release();
        it = retired_.erase(it);
        progress = true;
    }
    return progress;
}

bool SshSession::pumpAdoptedOpening() {
    if (!adoptedOpening_) {
        return false;
    }
    LIBSSH2_CHANNEL* channel = libssh2_channel_open_ex(
        session_.get(), "session", 7, adoptedWindow_, LIBSSH2_CHANNEL_PACKET_DEFAULT, nullptr, 0);
    if (!channel && libssh2_session_last_errno(session_.get()) == LIBSSH2_ERROR_EAGAIN) {
        return false;
    }
    adoptedOpening_ = false;
    channelOpener_ = nullptr;
    if (channel) {
        retired_.emplace_back(channel);
    }
    return true;
}

void SshSession::deliverAll(const QPointer<SshSession>& self) {
    ++delivering_;
    for (size_t i = 0; i < users_.size(); ++i) {
        detail::SessionUser* user = users_[i];
        if (user && user->hasEvents()) {
            user->deliver();
            if (!self) {
                return;
            }
        }
    }
    if (pendingConnected_) {
        pendingConnected_ = false;
        emit connected();
        if (!self) {
            return;
        }
    }
    if (pendingFailure_) {
        const SshFailure failure = *pendingFailure_;
        pendingFailure_.reset();
        emit failed(failure);
        if (!self) {
            return;
        }
    }
    if (pendingDisconnect_) {
        const QString reason = *pendingDisconnect_;
        pendingDisconnect_.reset();
        emit disconnected(reason);
        if (!self) {
            return;
        }
    }
    --delivering_;
    compactUsers();
}

bool SshSession::hasEvents() const {
    if (pendingConnected_ || pendingFailure_ || pendingDisconnect_) {
        return true;
    }
    for (const detail::SessionUser* user : users_) {
        if (user && user->hasEvents()) {
            return true;
        }
    }
    return false;
}

void SshSession::requestDelivery() {
    if (deliveryQueued_) {
        return;
    }
    deliveryQueued_ = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            deliveryQueued_ = false;
            drive();
        },
        Qt::QueuedConnection);
}

bool SshSession::hasReaders() const {
    if (!retired_.empty() || adoptedOpening_) {
        return true;
    }
    for (const detail::SessionUser* user : users_) {
        if (user && user->holdsChannel()) {
            return true;
        }
    }
    return false;
}

void SshSession::updateNotifiers() {
    const bool transportUp = session_ && fd_ >= 0 && !discard_;
    if (readNotifier_) {
        // With nobody to read (no channel open), unread bytes would wake us for ever: the socket
        // is then only watched for hang-ups, on the keepalive tick.
        const bool wantRead =
            transportUp && (phase_ == Phase::Handshaking || phase_ == Phase::Authenticating ||
                            (phase_ == Phase::Connected && hasReaders()));
        readNotifier_->setEnabled(wantRead);
    }
    if (writeNotifier_ && phase_ != Phase::Connecting) {
        const bool wantWrite = transportUp && (libssh2_session_block_directions(session_.get()) &
                                               LIBSSH2_SESSION_BLOCK_OUTBOUND);
        writeNotifier_->setEnabled(wantWrite);
    }
}

void SshSession::dropNotifiers() {
    // Deleted later: this may run inside the notifier's own activated() signal.
    for (std::unique_ptr<QSocketNotifier>* notifier : {&readNotifier_, &writeNotifier_}) {
        if (*notifier) {
            (*notifier)->setEnabled(false);
            (*notifier)->disconnect(this);
            notifier->release()->deleteLater();
        }
    }
}

void SshSession::onKeepalive() {
    if (phase_ != Phase::Connected || !session_) {
        return;
    }
    if (!hasReaders()) {
        pollfd watch{fd_, POLLIN | POLLRDHUP, 0};
        if (::poll(&watch, 1, 0) > 0 && (watch.revents & (POLLRDHUP | POLLHUP | POLLERR))) {
            int error = 0;
            socklen_t length = sizeof error;
            ::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &error, &length);
            if (error != 0) {
                socketErrno_ = error;
            } else {
                peerClosed_ = true;
            }
            discard_ = true;
            lose(transportLossReason());
            return;
        }
    }
    // A keepalive must not start while another packet is half-sent (libssh2 would answer
    // EAGAIN to whoever owns that packet until the keepalive is retried).
    if (!(libssh2_session_block_directions(session_.get()) & LIBSSH2_SESSION_BLOCK_OUTBOUND)) {
        int secondsToNext = 0;
        const int rc = libssh2_keepalive_send(session_.get(), &secondsToNext);
        if (rc != 0 && rc != LIBSSH2_ERROR_EAGAIN && isSessionFatal(rc)) {
            reportFatal(rc, QStringLiteral("sending a keepalive"));
        }
    }
    if (fatalRc_ != 0 || discard_) {
        lose(transportLossReason());
        return;
    }
    updateNotifiers();
}

// --- For channels and the SFTP client ------------------------------------------------------

void SshSession::registerUser(detail::SessionUser* user) {
    users_.push_back(user);
}

void SshSession::unregisterUser(detail::SessionUser* user) {
    for (detail::SessionUser*& slot : users_) {
        if (slot == user) {
            slot = nullptr;
        }
    }
    compactUsers();
}

void SshSession::compactUsers() {
    if (pumping_ || delivering_ > 0) {
        return;  // indices are in use; compacted once the loops are done
    }
    std::erase(users_, nullptr);
}

bool SshSession::acquireChannelOpening(const void* who) {
    if (adoptedOpening_) {
        return false;
    }
    if (!channelOpener_ || channelOpener_ == who) {
        channelOpener_ = who;
        return true;
    }
    return false;
}

void SshSession::releaseChannelOpening(const void* who) {
    if (channelOpener_ == who) {
        channelOpener_ = nullptr;
    }
}

void SshSession::adoptChannelOpening(const void* who, unsigned windowSize) {
    if (channelOpener_ != who) {
        return;
    }
    if (!session_ || discard_) {
        channelOpener_ = nullptr;
        return;
    }
    adoptedOpening_ = true;
    adoptedWindow_ = windowSize;
}

void SshSession::retireChannel(ChannelHandle channel) {
    if (!channel) {
        return;
    }
    if (!session_ || discard_) {
        channel.reset();  // nothing can block in discard mode
        return;
    }
    retired_.push_back(std::move(channel));
}

void SshSession::reportFatal(int rc, const QString& during) {
    if (fatalRc_ == 0) {
        fatalRc_ = rc;
        fatalDuring_ = during;
    }
}

void SshSession::pumpNow() {
    if (pumping_ || phase_ != Phase::Connected) {
        return;
    }
    pumpAll();
    if (again_ || hasEvents()) {
        requestDelivery();
    }
    updateNotifiers();
}

// --- Transport -----------------------------------------------------------------------------

// libssh2 also talks to ssh-agent through these callbacks, on the agent's socket: only the
// session's own socket goes through the transport logic.
ssize_t SshSession::sendCallback(libssh2_socket_t socket, const void* buffer, size_t length,
                                 int flags, void** abstract) {
    auto* self = static_cast<SshSession*>(*abstract);
    if (socket != self->fd_) {
        const ssize_t sent = ::send(socket, buffer, length, flags | MSG_NOSIGNAL);
        return sent < 0 ? -errno : sent;
    }
    return self->transportSend(buffer, length, flags);
}

ssize_t SshSession::recvCallback(libssh2_socket_t socket, void* buffer, size_t length, int flags,
                                 void** abstract) {
    auto* self = static_cast<SshSession*>(*abstract);
    if (socket != self->fd_) {
        const ssize_t received = ::recv(socket, buffer, length, flags);
        return received < 0 ? -errno : received;
    }
    return self->transportRecv(buffer, length, flags);
}

ssize_t SshSession::transportSend(const void* buffer, size_t length, int flags) {
    if (discard_) {
        return static_cast<ssize_t>(length);
    }
    for (;;) {
        const ssize_t sent = ::send(fd_, buffer, length, flags | MSG_NOSIGNAL);
        if (sent >= 0) {
            return sent;
        }
        if (errno == EINTR) {
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            return -EAGAIN;
        }
        // The connection is gone. Claiming the bytes were sent keeps libssh2 from holding a
        // half-sent packet that would block every later call; the loss is reported from here.
        socketErrno_ = errno;
        discard_ = true;
        return static_cast<ssize_t>(length);
    }
}

ssize_t SshSession::transportRecv(void* buffer, size_t length, int flags) {
    if (discard_) {
        return -ECONNRESET;
    }
    for (;;) {
        const ssize_t received = ::recv(fd_, buffer, length, flags);
        if (received > 0) {
            bytesReceived_ += static_cast<quint64>(received);
            return received;
        }
        if (received == 0) {
            peerClosed_ = true;
            discard_ = true;
            return -ECONNRESET;
        }
        if (errno == EINTR) {
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            return -EAGAIN;
        }
        socketErrno_ = errno;
        discard_ = true;
        return -socketErrno_;
    }
}

QString SshSession::transportLossReason() const {
    if (peerClosed_) {
        return QStringLiteral("the host closed the connection");
    }
    if (socketErrno_ == ETIMEDOUT) {
        return endpoint_.keepaliveIntervalS > 0
                   ? QStringLiteral("the host stopped answering (no acknowledgement for %1 s)")
                         .arg(kKeepaliveCountMax * endpoint_.keepaliveIntervalS)
                   : QStringLiteral("the host stopped answering");
    }
    if (socketErrno_ != 0) {
        return errnoText(socketErrno_);
    }
    if (fatalRc_ == LIBSSH2_ERROR_SOCKET_DISCONNECT) {
        return QStringLiteral("the host ended the session");
    }
    if (fatalRc_ != 0) {
        return QStringLiteral("SSH protocol error while %1: %2")
            .arg(fatalDuring_, libssh2Message(session_.get(), fatalRc_));
    }
    return QStringLiteral("the connection broke");
}

void SshSession::lose(const QString& reason) {
    if (phase_ != Phase::Connected) {
        return;
    }
    const QString message = QStringLiteral("connection to %1 lost: %2").arg(endpoint_.name(), reason);
    teardown(false, message);
    phase_ = Phase::Disconnected;
    pendingDisconnect_ = message;
    requestDelivery();
}

void SshSession::teardown(bool graceful, const QString& reasonForUsers) {
    connectTimer_.stop();
    keepaliveTimer_.stop();
    if (session_) {
        if (graceful && !discard_) {
            // Tells the host to end the session and everything in it at once.
            if (libssh2_session_disconnect(session_.get(), "closed by client") ==
                LIBSSH2_ERROR_EAGAIN) {
                discard_ = true;
                libssh2_session_disconnect(session_.get(), "closed by client");
            }
        }
        discard_ = true;
        // Every user repeats its pending libssh2 call once: the one whose packet is half-sent
        // completes it (into the void), so that the frees below can never answer EAGAIN.
        const bool wasPumping = pumping_;
        pumping_ = true;
        pumpUsers();
        pumpRetired();
        pumping_ = wasPumping;
        for (size_t i = 0; i < users_.size(); ++i) {
            if (detail::SessionUser* user = users_[i]) {
                user->abandon(reasonForUsers);
            }
        }
        retired_.clear();
        adoptedOpening_ = false;
        channelOpener_ = nullptr;
        auth_.reset();
        knownHosts_.clear();
        session_.reset();
    }
    dropNotifiers();
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

}  // namespace tunedeck::ssh
