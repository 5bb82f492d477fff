#include "cluster/ssh/ssh_session.h"

#include <poll.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QMetaObject>

#include "cluster/ssh/exec_channel.h"
#include "cluster/ssh/forward_channel.h"
#include "cluster/ssh/session_support.h"
#include "cluster/ssh/sftp_client.h"
#include "cluster/ssh/ssh_auth.h"

namespace tunedeck::ssh {
namespace {

QString localUserName() {
    if (const passwd* pw = getpwuid(getuid())) {
        return QString::fromLocal8Bit(pw->pw_name);
    }
    return qEnvironmentVariable("USER");
}

}  // namespace

using detail::kDriveSliceNs;
using detail::kMaxDriveRounds;
using detail::kMaxPumpPasses;
using detail::kPumpSliceNs;

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

std::unique_ptr<ForwardChannel> SshSession::forward(const ForwardTarget& target) {
    if (phase_ != Phase::Connected) {
        return nullptr;
    }
    return std::unique_ptr<ForwardChannel>(new ForwardChannel(this, target));
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
    QElapsedTimer slice;
    slice.start();
    for (int round = 0; round < kMaxDriveRounds && !slice.hasExpired(kDriveSliceNs / 1'000'000);
         ++round) {
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
    QElapsedTimer slice;
    slice.start();
    for (int pass = 0; pass < kMaxPumpPasses && slice.nsecsElapsed() < kPumpSliceNs; ++pass) {
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
        session_.get(), adoptedType_.constData(), static_cast<unsigned>(adoptedType_.size()),
        adoptedWindow_, LIBSSH2_CHANNEL_PACKET_DEFAULT,
        adoptedPayload_.isEmpty() ? nullptr : adoptedPayload_.constData(),
        static_cast<unsigned>(adoptedPayload_.size()));
    if (!channel && libssh2_session_last_errno(session_.get()) == LIBSSH2_ERROR_EAGAIN) {
        return false;
    }
    adoptedOpening_ = false;
    adoptedType_.clear();
    adoptedPayload_.clear();
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

void SshSession::adoptChannelOpening(const void* who, const QByteArray& type,
                                     const QByteArray& payload, unsigned windowSize) {
    if (channelOpener_ != who) {
        return;
    }
    if (!session_ || discard_) {
        channelOpener_ = nullptr;
        return;
    }
    adoptedOpening_ = true;
    adoptedType_ = type;
    adoptedPayload_ = payload;
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

}  // namespace tunedeck::ssh
