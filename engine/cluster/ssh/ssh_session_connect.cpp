// SshSession, connecting: name resolution, a non-blocking TCP connect to each address in turn,
// the SSH handshake (offering the host key types known_hosts holds first), the host key check
// and authentication, all bounded by one timeout.
#include <cerrno>
#include <cstring>

#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QHostInfo>

#include "cluster/ssh/session_support.h"
#include "cluster/ssh/ssh_auth.h"
#include "cluster/ssh/ssh_session.h"

namespace tunedeck::ssh {
namespace {

// Host key algorithms in the order offered when known_hosts holds none for the host. RSA comes
// last: libssh2 1.10 only knows "ssh-rsa" (SHA-1) signatures, which OpenSSH 8.8+ no longer sends.
const char* const kHostKeyPreference[] = {"ssh-ed25519", "ecdsa-sha2-nistp256",
                                          "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-rsa"};

}  // namespace

using detail::errnoText;
using detail::kKeepaliveCountMax;
using detail::libssh2Message;

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
            in6->sin6_scope_id = ::if_nametoindex(address.scopeId().toLatin1().constData());
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
    QStringList preference = knownHosts_.knownKeyAlgorithms(endpoint_.knownHostsName().toUtf8());
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
             QStringLiteral("cannot connect to %1: the host sent no host key")
                 .arg(endpoint_.name()));
        return false;
    }
    const QByteArray blob(key, static_cast<qsizetype>(length));
    if (const char* hash = libssh2_hostkey_hash(session_.get(), LIBSSH2_HOSTKEY_HASH_SHA256)) {
        fingerprint_ =
            QStringLiteral("SHA256:") +
            QString::fromLatin1(QByteArray(hash, 32).toBase64(QByteArray::OmitTrailingEquals));
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
                     "but the host now presents %6 key %7. Someone may be intercepting the "
                     "connection "
                     "(a man-in-the-middle attack), or the host was reinstalled. If you know why "
                     "the "
                     "key changed, remove line %3 from %2 (ssh-keygen -R '%1' -f '%2') and connect "
                     "again.")
                     .arg(hostName, file, QString::number(verdict.line), verdict.knownKeyType,
                          verdict.knownFingerprint, typeName, fingerprint_));
            return false;
        case HostKeyVerdict::Kind::Unknown:
            break;
    }
    if (!endpoint_.acceptNewHostKey) {
        fail(
            SshFailureKind::HostKeyUnknown,
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
                 QStringLiteral("cannot reach %1: no answer within %2 s")
                     .arg(endpoint_.name(), seconds));
            break;
        case Phase::Handshaking:
        case Phase::Authenticating:
            fail(
                SshFailureKind::Unreachable,
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

}  // namespace tunedeck::ssh
