#include "client/ssh_tunnel.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>

#include <QDir>
#include <QFileInfo>
#include <QLocalSocket>

#include "cluster/ssh/exec_channel.h"
#include "cluster/ssh/forward_channel.h"
#include "cluster/ssh/ssh_session.h"

namespace tunedeck::client {

namespace {

// Most drops are one-off (sshd restarted, a laptop changed networks): the first retry comes at
// once. Failures in a row wait longer, up to a bound short enough that the app is back within
// seconds of the server.
constexpr int kFirstRetryMs = 250;
constexpr int kMaxRetryMs = 8000;
// After the server could not reach the engine, the next connection waits this long: the client
// retries every half second, and each try would make the server's sshd connect (and log) again.
constexpr int kEngineRetryMs = 2000;
// The account query prints three short lines (after whatever a login script prints).
constexpr qsizetype kMaxAccountAnswer = 64 * 1024;

// The folder is 0700 already; this also keeps out a process that got the path some other way.
bool peerIsThisUser(qintptr descriptor) {
    ucred credentials{};
    socklen_t length = sizeof credentials;
    return ::getsockopt(int(descriptor), SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 &&
           (credentials.uid == ::getuid() || credentials.uid == 0);
}

QString runtimeFolder() {
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    return !runtime.isEmpty() && QFileInfo(runtime).isDir() ? runtime : QDir::tempPath();
}

}  // namespace

// One connection accepted on the local socket, and the channel that carries it once the
// session is up.
class SshTunnel::Carrier {
  public:
    explicit Carrier(QLocalSocket* socket) : local(socket) {}
    QLocalSocket* local;
    std::unique_ptr<ssh::ForwardChannel> channel;
    // What the client sent before the forward was open: kept, so that it can go to the next
    // place the default socket may be when the first had no engine.
    QByteArray waiting;
    bool opened = false;
    bool answered = false;  // the engine has sent something
    int attempt = 0;        // index in forwardTargets_
};

SshTunnel::SshTunnel(SshTarget target, QObject* parent)
    : QObject(parent), target_(std::move(target)) {
    retry_.setSingleShot(true);
    connect(&retry_, &QTimer::timeout, this, &SshTunnel::openSession);
    enginePause_.setSingleShot(true);
    enginePause_.setInterval(kEngineRetryMs);
    connect(&enginePause_, &QTimer::timeout, this, &SshTunnel::carryWaiting);
    server_.setSocketOptions(QLocalServer::UserAccessOption);
    connect(&server_, &QLocalServer::newConnection, this, &SshTunnel::onNewConnection);
}

SshTunnel::~SshTunnel() {
    server_.close();
    retry_.stop();
    // Channels must go before the session that carries them.
    for (auto& carrier : carriers_) {
        QObject::disconnect(carrier->local, nullptr, this, nullptr);
        carrier->channel.reset();
        carrier->local->abort();
    }
    carriers_.clear();
    accountQuery_.reset();
    delete session_.data();
}

bool SshTunnel::start(QString* error) {
    folder_ =
        std::make_unique<QTemporaryDir>(runtimeFolder() + QStringLiteral("/tunedeck-ssh-XXXXXX"));
    if (!folder_->isValid()) {
        *error = tr("cannot make a private folder for the tunnel's socket: %1")
                     .arg(folder_->errorString());
        return false;
    }
    const QString socket = folder_->filePath(QStringLiteral("engine.sock"));
    if (!server_.listen(socket)) {
        *error = tr("cannot listen on %1: %2").arg(socket, server_.errorString());
        return false;
    }
    openSession();
    return true;
}

void SshTunnel::trustHostKey(const QString& fingerprint) {
    if (state_ != State::HostKeyUnknown || fingerprint.isEmpty()) {
        return;
    }
    trustedFingerprint_ = fingerprint;
    openSession();
}

void SshTunnel::setState(State state, const QString& message) {
    state_ = state;
    status_ = message;
    emit stateChanged(state, message);
}

void SshTunnel::openSession() {
    retry_.stop();
    dropSession();
    ssh::SshEndpoint endpoint = target_.endpoint();
    endpoint.acceptNewHostKey = endpoint.acceptNewHostKey || !trustedFingerprint_.isEmpty();
    session_ = new ssh::SshSession(endpoint, this);
    connect(session_, &ssh::SshSession::connected, this, &SshTunnel::onSessionConnected);
    connect(session_, &ssh::SshSession::failed, this, &SshTunnel::onSessionFailed);
    connect(session_, &ssh::SshSession::disconnected, this, &SshTunnel::onSessionLost);
    setState(State::Connecting, tr("Connecting to %1...").arg(target_.toString()));
    session_->open();
}

void SshTunnel::dropSession() {
    if (!session_) {
        return;
    }
    // Their channels die with the session: the clients must reconnect (and so resubscribe).
    for (auto it = carriers_.begin(); it != carriers_.end();) {
        Carrier* carrier = (it++)->get();  // endCarrier erases this one only
        if (carrier->channel) {
            endCarrier(carrier, {});
        }
    }
    if (accountQuery_) {
        QObject::disconnect(accountQuery_.get(), nullptr, this, nullptr);
        // Perhaps inside its own finished(): it goes once that has returned (before the session,
        // deleted later still).
        accountQuery_.release()->deleteLater();
    }
    accountAnswer_.clear();
    forwardTargets_.reset();
    QObject::disconnect(session_, nullptr, this, nullptr);
    session_->close();
    // Perhaps inside one of its own signals: it goes once that has returned.
    session_->deleteLater();
    session_ = nullptr;
}

void SshTunnel::onSessionConnected() {
    fingerprint_ = session_->hostKeyFingerprint();
    if (session_->addedHostKey() && !trustedFingerprint_.isEmpty() &&
        fingerprint_ != trustedFingerprint_) {
        const QString file = session_->endpoint().knownHostsFile;
        dropSession();
        endAllCarriers();
        setState(State::Failed,
                 tr("%1 presented host key %2, not the key %3 you accepted: refusing it. It was "
                    "recorded in %4 on connecting; remove it from there "
                    "(ssh-keygen -R '%5' -f '%4').")
                     .arg(target_.toString(), fingerprint_, trustedFingerprint_, file,
                          target_.endpoint().knownHostsName()));
        return;
    }
    trustedFingerprint_.clear();
    retryDelayMs_ = 0;
    ++sessionsOpened_;
    setState(State::Connected, tr("Connected to %1; the engine is reached at %2 there")
                                   .arg(target_.toString(), target_.engine.describe()));
    if (target_.engine.needsAccount()) {
        askAccount();
    } else {
        forwardTargets_ = forwardTargets(target_.engine, {});
    }
    carryWaiting();
}

void SshTunnel::askAccount() {
    if (accountQuery_ || forwardTargets_ || !session_ || !session_->isConnected()) {
        return;
    }
    accountAnswer_.clear();
    accountQuery_ = session_->exec(RemoteAccount::query());
    if (!accountQuery_) {
        return;
    }
    connect(accountQuery_.get(), &ssh::ExecChannel::standardOutput, this,
            [this](const QByteArray& data) {
                accountAnswer_ += data.left(kMaxAccountAnswer - accountAnswer_.size());
            });
    connect(accountQuery_.get(), &ssh::ExecChannel::finished, this, &SshTunnel::onAccountAnswered);
    accountQuery_->closeStdin();
}

void SshTunnel::onAccountAnswered(int exitStatus) {
    // Inside the query's own finished(): it goes once that has returned.
    QObject::disconnect(accountQuery_.get(), nullptr, this, nullptr);
    const QString channelError = accountQuery_->errorString();
    accountQuery_.release()->deleteLater();
    if (!session_ || !session_->isConnected()) {
        return;  // the session's loss is news of its own
    }
    RemoteAccount account;
    QString error;
    if (exitStatus == 0 && RemoteAccount::parse(accountAnswer_, &account, &error)) {
        forwardTargets_ = forwardTargets(target_.engine, account);
        carryWaiting();
        return;
    }
    if (error.isEmpty()) {
        error = channelError.isEmpty()
                    ? tr("'%1' exited with status %2").arg(RemoteAccount::query()).arg(exitStatus)
                    : channelError;
    }
    // The connections that wait cannot be carried; the next one asks again.
    const QString message =
        tr("cannot find the engine's socket on %1: asking for the SSH user's id and runtime "
           "folder failed: %2")
            .arg(target_.toString(), error);
    status_ = message;
    for (auto it = carriers_.begin(); it != carriers_.end();) {
        Carrier* carrier = (it++)->get();
        if (!carrier->channel) {
            endCarrier(carrier, message);
        }
    }
}

void SshTunnel::carryWaiting() {
    if (!session_ || !session_->isConnected() || enginePause_.isActive()) {
        return;
    }
    if (!forwardTargets_) {
        if (!carriers_.empty()) {
            askAccount();
        }
        return;
    }
    for (auto& carrier : carriers_) {
        if (!carrier->channel) {
            carry(*carrier);
        }
    }
}

void SshTunnel::onSessionFailed(const ssh::SshFailure& failure) {
    fingerprint_ = session_->hostKeyFingerprint();
    dropSession();
    switch (failure.kind) {
        case ssh::SshFailureKind::HostKeyUnknown:
            trustedFingerprint_.clear();
            endAllCarriers();
            setState(State::HostKeyUnknown, failure.message);
            emit hostKeyUnknown(fingerprint_, failure.message);
            return;
        case ssh::SshFailureKind::HostKeyChanged:
        case ssh::SshFailureKind::AuthFailed:
            endAllCarriers();
            setState(State::Failed, failure.message);
            return;
        case ssh::SshFailureKind::Unreachable:
        case ssh::SshFailureKind::Protocol:
        case ssh::SshFailureKind::Disconnected:
            retryLater(failure.message);
            return;
    }
}

void SshTunnel::onSessionLost(const QString& reason) {
    dropSession();
    retryDelayMs_ = 0;
    retryLater(reason);
}

void SshTunnel::retryLater(const QString& message) {
    retryDelayMs_ = retryDelayMs_ == 0 ? kFirstRetryMs : std::min(2 * retryDelayMs_, kMaxRetryMs);
    retry_.start(retryDelayMs_);
    setState(State::WaitingToRetry,
             tr("%1; trying again in %2 s").arg(message).arg(retryDelayMs_ / 1000.0, 0, 'g', 2));
}

void SshTunnel::onNewConnection() {
    while (QLocalSocket* socket = server_.nextPendingConnection()) {
        if (!peerIsThisUser(socket->socketDescriptor()) || state_ == State::HostKeyUnknown ||
            state_ == State::Failed) {
            socket->abort();
            socket->deleteLater();
            continue;
        }
        carriers_.push_back(std::make_unique<Carrier>(socket));
        Carrier* carrier = carriers_.back().get();
        connect(socket, &QLocalSocket::readyRead, this, [carrier] {
            const QByteArray data = carrier->local->readAll();
            if (carrier->opened) {
                carrier->channel->write(data);
            } else {
                carrier->waiting += data;
            }
        });
        connect(socket, &QLocalSocket::disconnected, this,
                [this, carrier] { endCarrier(carrier, {}); });
        carryWaiting();
    }
}

void SshTunnel::carry(Carrier& carrier) {
    carrier.attempt = 0;
    openForward(carrier);
}

void SshTunnel::openForward(Carrier& carrier) {
    carrier.opened = false;
    carrier.channel = session_->forward(forwardTargets_->at(carrier.attempt));
    if (!carrier.channel) {
        return;  // the session is going; the carrier waits for the next one
    }
    Carrier* self = &carrier;
    ssh::ForwardChannel* channel = carrier.channel.get();
    connect(channel, &ssh::ForwardChannel::opened, this, [self] {
        self->opened = true;
        if (!self->waiting.isEmpty()) {
            self->channel->write(std::exchange(self->waiting, {}));
        }
    });
    connect(channel, &ssh::ForwardChannel::received, this, [self](const QByteArray& data) {
        self->answered = true;
        self->local->write(data);
    });
    // The engine closed the connection: the client sees it close once it has read the rest.
    connect(channel, &ssh::ForwardChannel::endOfData, this, [this, self, channel] {
        endCarrier(self, self->answered
                             ? QString()
                             : tr("the engine at %1 on the server closed the connection before "
                                  "answering (is its socket another user's, or is it stopping?)")
                                   .arg(channel->target().describe()));
    });
    connect(channel, &ssh::ForwardChannel::closed, this, [this, self] { endCarrier(self, {}); });
    connect(channel, &ssh::ForwardChannel::failed, this, [this, self, channel] {
        // A lost session ends every channel: that is the session's news, not the engine's.
        if (!session_ || !session_->isConnected() ||
            channel->failure() == ssh::ForwardChannel::Failure::SessionEnded) {
            endCarrier(self, {});
            return;
        }
        if (channel->failure() == ssh::ForwardChannel::Failure::NotReached &&
            self->attempt + 1 < forwardTargets_->size()) {
            // The default socket is not there: try where serve would have put it otherwise.
            ++self->attempt;
            QObject::disconnect(channel, nullptr, this, nullptr);
            self->channel.release()->deleteLater();  // inside its own failed()
            openForward(*self);
            return;
        }
        endCarrier(self, unreachableMessage(*self));
    });
}

QString SshTunnel::unreachableMessage(const Carrier& carrier) const {
    const ssh::ForwardChannel& channel = *carrier.channel;
    if (channel.failure() != ssh::ForwardChannel::Failure::NotReached) {
        return channel.errorString();
    }
    QStringList tried;
    for (int i = 0; i <= carrier.attempt; ++i) {
        tried << forwardTargets_->at(i).describe();
    }
    QString message = tr("no engine answers at %1 on the server; is tunedeck-engine serve "
                         "running there?")
                          .arg(tried.join(tr(" or ")));
    if (channel.target().kind == ssh::ForwardTarget::Kind::UnixSocket) {
        // OpenSSH gives the same answer when it does not forward to unix sockets at all.
        message +=
            tr(" (Or sshd there does not allow forwarding to unix sockets: "
               "AllowStreamLocalForwarding no in its sshd_config.)");
    }
    return message;
}

void SshTunnel::endCarrier(Carrier* carrier, const QString& serverMessage) {
    auto it = std::find_if(carriers_.begin(), carriers_.end(),
                           [carrier](const auto& c) { return c.get() == carrier; });
    if (it == carriers_.end()) {
        return;
    }
    std::unique_ptr<Carrier> ending = std::move(*it);
    carriers_.erase(it);
    if (ending->channel) {
        QObject::disconnect(ending->channel.get(), nullptr, this, nullptr);
        ending->channel->close();
        // Perhaps inside one of its own signals: it goes once that has returned.
        ending->channel.release()->deleteLater();
    }
    QLocalSocket* local = ending->local;
    QObject::disconnect(local, nullptr, this, nullptr);
    if (local->state() == QLocalSocket::UnconnectedState) {
        local->deleteLater();
    } else {
        // What the engine said last still reaches the client before the socket closes.
        connect(local, &QLocalSocket::disconnected, local, &QObject::deleteLater);
        local->disconnectFromServer();
    }
    if (!serverMessage.isEmpty()) {
        status_ = serverMessage;
        enginePause_.start();
        emit engineUnreachable(serverMessage);
    }
}

void SshTunnel::endAllCarriers() {
    while (!carriers_.empty()) {
        endCarrier(carriers_.front().get(), {});
    }
}

}  // namespace tunedeck::client
