// SshSession, transport: libssh2 reads and writes the socket through callbacks here, so that a
// dead connection turns into "discard" mode (sends vanish, receives fail) in which no libssh2 call
// can answer EAGAIN for ever; and the session's end, lost or closed, with everything in it.
#include <cerrno>

#include <sys/socket.h>
#include <unistd.h>

#include "cluster/ssh/session_support.h"
#include "cluster/ssh/ssh_auth.h"
#include "cluster/ssh/ssh_session.h"

namespace tunedeck::ssh {

using detail::errnoText;
using detail::kKeepaliveCountMax;
using detail::libssh2Message;

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
    const QString message =
        QStringLiteral("connection to %1 lost: %2").arg(endpoint_.name(), reason);
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
