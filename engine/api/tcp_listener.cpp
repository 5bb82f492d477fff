#include "api/tcp_listener.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QTimer>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "api/connection_limits.h"

namespace tunedeck::api {

namespace {

// `address`:`port` as a socket address; its length, 0 for an address of neither family.
socklen_t toSocketAddress(const QHostAddress& address, quint16 port, sockaddr_storage* out) {
    std::memset(out, 0, sizeof *out);
    if (address.protocol() == QAbstractSocket::IPv4Protocol) {
        auto* v4 = reinterpret_cast<sockaddr_in*>(out);
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        v4->sin_addr.s_addr = htonl(address.toIPv4Address());
        return sizeof *v4;
    }
    if (address.protocol() == QAbstractSocket::IPv6Protocol) {
        auto* v6 = reinterpret_cast<sockaddr_in6*>(out);
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        const Q_IPV6ADDR bytes = address.toIPv6Address();
        std::memcpy(&v6->sin6_addr, &bytes, sizeof bytes);
        v6->sin6_scope_id = address.scopeId().toUInt();
        return sizeof *v6;
    }
    return 0;
}

bool outOfDescriptors(int error) {
    return error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM;
}

}  // namespace

TcpListener::TcpListener(QByteArray busyLine, QObject* parent)
    : QObject(parent), busyLine_(std::move(busyLine)) {}

TcpListener::~TcpListener() {
    notifier_.reset();
    if (listenFd_ >= 0) {
        ::close(listenFd_);
    }
    if (reserveFd_ >= 0) {
        ::close(reserveFd_);
    }
}

Status TcpListener::listen(const QHostAddress& address, quint16 port) {
    sockaddr_storage where{};
    const socklen_t size = toSocketAddress(address, port, &where);
    if (size == 0) {
        return Status::invalid(QStringLiteral("%1 is not an IP address").arg(address.toString()));
    }
    listenFd_ = ::socket(where.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    const int yes = 1;
    if (listenFd_ < 0 || ::setsockopt(listenFd_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes) != 0 ||
        ::bind(listenFd_, reinterpret_cast<const sockaddr*>(&where), size) != 0 ||
        ::listen(listenFd_, limits::kListenBacklog) != 0) {
        return Status::ioError(QString::fromLocal8Bit(std::strerror(errno)));
    }
    sockaddr_storage bound{};
    socklen_t boundSize = sizeof bound;
    ::getsockname(listenFd_, reinterpret_cast<sockaddr*>(&bound), &boundSize);
    port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                              : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    reserveFd_ = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    notifier_ = std::make_unique<QSocketNotifier>(listenFd_, QSocketNotifier::Read);
    connect(notifier_.get(), &QSocketNotifier::activated, this, &TcpListener::acceptWaiting);
    return Status::ok();
}

void TcpListener::acceptWaiting() {
    for (;;) {
        const int fd = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd >= 0) {
            auto* socket = new QTcpSocket;
            if (!socket->setSocketDescriptor(fd)) {
                ::close(fd);
                delete socket;
                continue;
            }
            emit accepted(socket);
            continue;
        }
        if (errno == EINTR || errno == ECONNABORTED) {
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            warned_ = false;
            return;
        }
        if (outOfDescriptors(errno) && refuseWithReserve()) {
            continue;
        }
        rest();
        return;
    }
}

bool TcpListener::refuseWithReserve() {
    if (!warned_) {
        warned_ = true;
        std::fprintf(stderr,
                     "serve: out of file descriptors (%s); refusing new connections until "
                     "some close (raise LimitNOFILE / ulimit -n)\n",
                     std::strerror(errno));
    }
    if (reserveFd_ < 0) {
        return false;
    }
    ::close(reserveFd_);
    reserveFd_ = -1;
    const int fd = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd >= 0) {
        [[maybe_unused]] const ssize_t sent =
            ::send(fd, busyLine_.constData(), size_t(busyLine_.size()), MSG_NOSIGNAL);
        ::close(fd);
    }
    reserveFd_ = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    return fd >= 0 && reserveFd_ >= 0;
}

void TcpListener::rest() {
    notifier_->setEnabled(false);
    QTimer::singleShot(limits::kAcceptRetryMs, this, [this] { notifier_->setEnabled(true); });
}

}  // namespace tunedeck::api
