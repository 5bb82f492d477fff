#include "cluster/ssh/forward_channel.h"

#include <QPointer>

namespace tunedeck::ssh {
namespace {

// What OpenSSH logs as the originator of a forward; the tunnel's clients are on a local socket,
// which has no address to give.
constexpr char kOriginatorAddress[] = "127.0.0.1";
constexpr quint32 kOriginatorPort = 0;

void appendUint32(QByteArray& out, quint32 value) {
    out.append(char(value >> 24))
        .append(char(value >> 16))
        .append(char(value >> 8))
        .append(char(value));
}

void appendString(QByteArray& out, const QByteArray& text) {
    appendUint32(out, static_cast<quint32>(text.size()));
    out.append(text);
}

Libssh2Channel::Opening openingFor(const ForwardTarget& target) {
    Libssh2Channel::Opening opening;
    if (target.kind == ForwardTarget::Kind::Tcp) {
        // RFC 4254 §7.2: host to connect, port to connect, originator address and port.
        opening.type = QByteArrayLiteral("direct-tcpip");
        appendString(opening.payload, target.host.toUtf8());
        appendUint32(opening.payload, target.port);
        appendString(opening.payload, QByteArrayLiteral(kOriginatorAddress));
        appendUint32(opening.payload, kOriginatorPort);
    } else {
        // OpenSSH PROTOCOL §2.4: socket path, a reserved string (empty) and a reserved uint32.
        opening.type = QByteArrayLiteral("direct-streamlocal@openssh.com");
        appendString(opening.payload, target.path.toUtf8());
        appendString(opening.payload, QByteArray());
        appendUint32(opening.payload, 0);
    }
    return opening;
}

}  // namespace

QString ForwardTarget::describe() const {
    if (kind == Kind::UnixSocket) {
        return QStringLiteral("unix:") + path;
    }
    return QStringLiteral("tcp:%1:%2")
        .arg(host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host)
        .arg(port);
}

ForwardChannel::ForwardChannel(SshSession* session, const ForwardTarget& target)
    : SessionChannel(
          session, std::make_unique<Libssh2Channel>(session, openingFor(target), target.describe(),
                                                    LIBSSH2_CHANNEL_WINDOW_DEFAULT)),
      target_(target),
      hostName_(session->endpoint().name()) {}

void ForwardChannel::closeWrite() {
    sendEof();
}

QString ForwardChannel::refusalMessage(Libssh2Channel::Refusal refusal,
                                       const QString& detail) const {
    const bool tcp = target_.kind == ForwardTarget::Kind::Tcp;
    const QString option =
        tcp ? QStringLiteral("AllowTcpForwarding") : QStringLiteral("AllowStreamLocalForwarding");
    switch (refusal) {
        case Libssh2Channel::Refusal::Prohibited:
            return QStringLiteral(
                       "%1 does not allow forwarding to %2: its sshd_config sets %3 no (or "
                       "DisableForwarding yes), or the key is marked no-port-forwarding")
                .arg(hostName_, target_.describe(), option);
        case Libssh2Channel::Refusal::ConnectFailed:
            // OpenSSH refuses a unix socket forward it does not allow with this same answer.
            return tcp ? QStringLiteral(
                             "%1 could not connect to %2: nothing accepts connections "
                             "there")
                             .arg(hostName_, target_.describe())
                       : QStringLiteral(
                             "%1 could not connect to %2: nothing accepts connections "
                             "there, or its sshd_config sets %3 no")
                             .arg(hostName_, target_.describe(), option);
        case Libssh2Channel::Refusal::None:
        case Libssh2Channel::Refusal::Other:
            break;
    }
    return detail;
}

void ForwardChannel::deliver() {
    if (closed_) {
        return;
    }
    Libssh2Channel::Output events = std::exchange(pending_, {});
    const QPointer<ForwardChannel> self(this);
    if (events.started && !opened_) {
        opened_ = true;
        emit opened();
        if (!self || closed_) {
            return;
        }
    }
    if (!events.standardOutput.isEmpty()) {
        emit received(events.standardOutput);
        if (!self || closed_) {
            return;
        }
    }
    if (events.endOfData) {
        emit endOfData();
        if (!self || closed_) {
            return;
        }
    }
    if (!events.finished || finished_) {
        return;
    }
    finished_ = true;
    if (opened_) {
        error_ = events.error;
        emit closed();
        return;
    }
    switch (events.refusal) {
        case Libssh2Channel::Refusal::None:
            failure_ = Failure::SessionEnded;
            break;
        case Libssh2Channel::Refusal::Prohibited:
            failure_ = Failure::NotAllowed;
            break;
        case Libssh2Channel::Refusal::ConnectFailed:
            failure_ = Failure::NotReached;
            break;
        case Libssh2Channel::Refusal::Other:
            failure_ = Failure::Refused;
            break;
    }
    error_ = refusalMessage(events.refusal, events.error);
    if (error_.isEmpty()) {
        error_ = QStringLiteral("the session to %1 ended before it could forward to %2")
                     .arg(hostName_, target_.describe());
    }
    emit failed(error_);
}

void ForwardChannel::abandon(const QString& reason) {
    if (channel_->abandon() && !closed_ && !finished_) {
        pending_.finished = true;
        pending_.refusal = Libssh2Channel::Refusal::None;
        pending_.error = reason;
    }
}

}  // namespace tunedeck::ssh
