#include "api/control_server.h"

#include <pwd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocalSocket>
#include <QTcpSocket>
#include <QTimer>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "api/connection_limits.h"

namespace tunedeck::api {

namespace {

// The uid of a local socket's peer, as the kernel recorded it when the peer connected.
std::optional<uid_t> peerUid(qintptr descriptor) {
    ucred credentials{};
    socklen_t size = sizeof credentials;
    if (::getsockopt(int(descriptor), SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) {
        return std::nullopt;
    }
    return credentials.uid;
}

// A user's name, or their number when they have none.
QString userName(uid_t uid) {
    if (const passwd* entry = ::getpwuid(uid)) {
        return QString::fromLocal8Bit(entry->pw_name);
    }
    return QStringLiteral("uid %1").arg(uid);
}

// The most connections this process can hold with its open-file limit: half of it, so that
// experiments, databases and pipes always have descriptors left.
int connectionCap() {
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur == RLIM_INFINITY) {
        return limits::kMaxConnections;
    }
    return int(std::clamp<rlim_t>(files.rlim_cur / 2, 16, limits::kMaxConnections));
}

QByteArray busyLine() {
    QByteArray line = QJsonDocument(answerError(QJsonValue::Null, code::kBusy,
                                                QStringLiteral("the server is out of file "
                                                               "descriptors; try again later")))
                          .toJson(QJsonDocument::Compact);
    line.append('\n');
    return line;
}

}  // namespace

ControlConnection::ControlConnection(QIODevice* socket, QString peer, bool trusted, QObject* parent)
    : QObject(parent),
      socket_(socket),
      peer_(std::move(peer)),
      framer_(kMaxRequestLine),
      authenticated_(trusted) {
    socket_->setParent(this);
    if (auto* local = qobject_cast<QLocalSocket*>(socket_)) {
        local->setReadBufferSize(limits::kReadBufferBytes);
        connect(local, &QLocalSocket::disconnected, this, &ControlConnection::ended);
    } else if (auto* tcp = qobject_cast<QAbstractSocket*>(socket_)) {
        tcp->setReadBufferSize(limits::kReadBufferBytes);
        connect(tcp, &QAbstractSocket::disconnected, this, &ControlConnection::ended);
    }
    connect(socket_, &QIODevice::readyRead, this, &ControlConnection::readRequests);
    // Reading paused for a full output resumes as the peer takes it.
    connect(socket_, &QIODevice::bytesWritten, this, [this] {
        if (socket_->bytesAvailable() > 0) {
            readRequests();
        }
    });
    if (!authenticated_) {
        QTimer::singleShot(limits::kHelloWithinMs, this, [this] {
            if (!authenticated_) {
                closeWith(code::kUnauthorized,
                          QStringLiteral("no hello with the token within %1 s; closing")
                              .arg(limits::kHelloWithinMs / 1000));
            }
        });
    }
}

void ControlConnection::send(const QJsonObject& message) {
    if (ended_) {
        return;
    }
    if (backlog() > limits::kMaxUnreadOutputBytes) {
        std::fprintf(stderr,
                     "serve: closing a connection from %s: more than %lld MiB of answers unread\n",
                     qPrintable(peer_), limits::kMaxUnreadOutputBytes / (1024 * 1024));
        closeWith(code::kBusy, QString());
        return;
    }
    QByteArray line = QJsonDocument(message).toJson(QJsonDocument::Compact);
    line.append('\n');
    socket_->write(line);
}

qint64 ControlConnection::backlog() const {
    return socket_->bytesToWrite();
}

void ControlConnection::refuseBeforeHello(const QJsonObject& error) {
    if (++refusals_ < limits::kMaxRefusalsBeforeHello) {
        send(error);
        return;
    }
    closeWith(error.value("error").toObject().value("code").toString(),
              error.value("error").toObject().value("message").toString() +
                  QStringLiteral("; closing after %1 requests without the token")
                      .arg(limits::kMaxRefusalsBeforeHello));
}

void ControlConnection::closeWith(const QString& errorCode, const QString& message) {
    if (ended_) {
        return;
    }
    // Said only when it goes out at once: a peer that is not reading gets no more queued.
    if (!message.isEmpty() && backlog() == 0) {
        QByteArray line = QJsonDocument(answerError(QJsonValue::Null, errorCode, message))
                              .toJson(QJsonDocument::Compact);
        line.append('\n');
        socket_->write(line);
    }
    ended();
    if (auto* local = qobject_cast<QLocalSocket*>(socket_)) {
        local->flush();
        local->abort();
    } else if (auto* tcp = qobject_cast<QAbstractSocket*>(socket_)) {
        tcp->flush();
        tcp->abort();
    }
}

void ControlConnection::close() {
    socket_->close();
}

void ControlConnection::ended() {
    if (!ended_) {
        ended_ = true;
        emit closed(this);
    }
}

void ControlConnection::inOrder(std::function<void()> handle) {
    if (holds_ == 0 && waiting_.empty()) {
        handle();
    } else {
        waiting_.push_back(std::move(handle));
    }
}

void ControlConnection::releaseRequests() {
    if (holds_ == 0 || ended_) {
        return;
    }
    --holds_;
    while (holds_ == 0 && !waiting_.empty() && !ended_) {
        const std::function<void()> next = std::move(waiting_.front());
        waiting_.pop_front();
        next();
    }
    if (holds_ == 0 && !ended_ && socket_->bytesAvailable() > 0 && !readScheduled_) {
        readScheduled_ = true;
        QTimer::singleShot(0, this, [this] {
            readScheduled_ = false;
            readRequests();
        });
    }
}

void ControlConnection::readRequests() {
    auto onLine = [this](QByteArrayView line) {
        ++lineNumber_;
        if (line.trimmed().isEmpty()) {
            return;
        }
        QJsonObject error;
        if (std::optional<Request> parsed = parseRequest(line, lineNumber_, &error)) {
            inOrder([this, r = std::move(*parsed)] { emit request(this, r); });
        } else if (authenticated_) {
            inOrder([this, error] { send(error); });
        } else {
            refuseBeforeHello(error);
        }
    };
    auto onOverlong = [this] {
        ++lineNumber_;
        inOrder([this, number = lineNumber_] {
            send(answerError(QJsonValue::Null, code::kBadRequest,
                             QStringLiteral("request line %1: longer than %2 bytes; skipped")
                                 .arg(number)
                                 .arg(kMaxRequestLine)));
        });
    };
    // In small pieces, so that a burst of requests stops soon after the answers fill the output,
    // and a bounded amount per turn of the event loop, so that one busy client cannot keep the
    // others waiting.
    qint64 taken = 0;
    while (!ended_ && holds_ == 0 && backlog() <= limits::kStopReadingAboveBytes &&
           socket_->bytesAvailable() > 0) {
        if (taken >= limits::kReadPerTurnBytes) {
            if (!readScheduled_) {
                readScheduled_ = true;
                QTimer::singleShot(0, this, [this] {
                    readScheduled_ = false;
                    readRequests();
                });
            }
            return;
        }
        const QByteArray piece = socket_->read(limits::kReadPieceBytes);
        if (piece.isEmpty()) {
            break;
        }
        taken += piece.size();
        framer_.feed(piece, onLine, onOverlong);
        if (!ended_ && !authenticated_ && framer_.buffered() > limits::kMaxLineBeforeHello) {
            closeWith(code::kBadRequest,
                      QStringLiteral("a line of more than %1 bytes before the hello; closing")
                          .arg(limits::kMaxLineBeforeHello));
        }
    }
}

ControlServer::ControlServer(Handler handler, QObject* parent)
    : QObject(parent), handler_(std::move(handler)) {}

ControlServer::~ControlServer() {
    if (local_) {
        local_->close();  // removes the socket file
    }
}

Status ControlServer::listen(const ListenAddress& address, const ServerAccess& access) {
    address_ = address;
    access_ = access;
    maxConnections_ = connectionCap();
    if (address.kind == ListenAddress::Kind::Tcp) {
        if (!access.needsToken()) {
            return Status::invalid(
                QStringLiteral("--listen %1 needs --token-file or --token-dir: TCP connections "
                               "must prove they know a token")
                    .arg(address.toString()));
        }
        tcp_ = std::make_unique<TcpListener>(busyLine());
        if (Status s = tcp_->listen(QHostAddress(address.host), address.port); !s) {
            return Status::ioError(
                QStringLiteral("cannot listen on %1: %2").arg(address.toString(), s.message()));
        }
        address_.port = tcp_->port();
        connect(tcp_.get(), &TcpListener::accepted, this, [this](QTcpSocket* socket) {
            accept(socket, socket->peerAddress().toString(), false, Caller{});
        });
        return Status::ok();
    }
    const QFileInfo socketFile(address.path);
    std::optional<gid_t> group;
    if (!access.socketGroup.isEmpty() && !(group = groupId(access.socketGroup))) {
        return Status::invalid(
            QStringLiteral("--socket-group %1: no such group").arg(access.socketGroup));
    }
    if (Status s = prepareSocketFolder(socketFile.absolutePath(), access.socketGroup); !s) {
        return s;
    }
    if (socketFile.exists()) {
        QLocalSocket probe;
        probe.connectToServer(address.path);
        if (probe.waitForConnected(500)) {
            return Status::invalid(
                QStringLiteral("another engine already listens on %1").arg(address.path));
        }
        QLocalServer::removeServer(address.path);  // left behind by an engine that died
    }
    local_ = std::make_unique<QLocalServer>();
    local_->setSocketOptions(QLocalServer::UserAccessOption);
    if (!local_->listen(address.path)) {
        return Status::ioError(
            QStringLiteral("cannot listen on %1: %2").arg(address.path, local_->errorString()));
    }
    // Shared with a group: its members connect, each known by their uid. Until the mode is set
    // the socket is 0600, so no one slips in before.
    const QByteArray socketPath = QFile::encodeName(address.path);
    if (group && (::chown(socketPath.constData(), uid_t(-1), *group) != 0 ||
                  ::chmod(socketPath.constData(), 0660) != 0)) {
        return Status::ioError(QStringLiteral("cannot give the socket %1 to group %2: %3")
                                   .arg(address.path, access.socketGroup,
                                        QString::fromLocal8Bit(std::strerror(errno))));
    }
    connect(local_.get(), &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket* socket = local_->nextPendingConnection()) {
            const std::optional<uid_t> uid = peerUid(socket->socketDescriptor());
            // A private socket takes only its user and root (its mode says so already; this
            // makes sure of it).
            if (!uid || (access_.socketGroup.isEmpty() && *uid != ::geteuid() && *uid != 0)) {
                socket->abort();
                socket->deleteLater();
                continue;
            }
            accept(socket, QStringLiteral("local"), !access_.needsToken(),
                   callerOfUid(*uid, access_.adminGroup));
        }
    });
    return Status::ok();
}

quint16 ControlServer::tcpPort() const {
    return tcp_ ? tcp_->port() : 0;
}

void ControlServer::accept(QIODevice* socket, const QString& peer, bool trusted, Caller caller) {
    auto* connection = new ControlConnection(socket, peer, trusted, this);
    connection->setCaller(std::move(caller));
    connect(connection, &ControlConnection::request, this,
            [this](ControlConnection* c, const Request& r) { dispatch(*c, r); });
    connect(connection, &ControlConnection::closed, this, [this](ControlConnection* c) {
        connections_.erase(std::remove(connections_.begin(), connections_.end(), c),
                           connections_.end());
        emit connectionClosed(c);
        c->deleteLater();
    });
    if (!makeRoom(peer, trusted)) {
        connections_.push_back(connection);  // closeWith takes it out again
        connection->closeWith(code::kBusy,
                              QStringLiteral("the server has its %1 connections; try again later")
                                  .arg(maxConnections_));
        return;
    }
    connections_.push_back(connection);
}

bool ControlServer::makeRoom(const QString& peer, bool trusted) {
    // The connection that has waited longest for its hello, from `from` (any peer when empty),
    // and how many such there are.
    auto oldestWaiting = [this](const QString& from, int* count) {
        ControlConnection* oldest = nullptr;
        *count = 0;
        for (ControlConnection* c : connections_) {
            if (!c->authenticated() && (from.isEmpty() || c->peer() == from)) {
                oldest = oldest ? oldest : c;
                ++*count;
            }
        }
        return oldest;
    };
    const QString tooMany =
        QStringLiteral("closed to make room: too many connections waiting for their hello");
    int count = 0;
    if (!trusted) {
        ControlConnection* oldest = oldestWaiting(peer, &count);
        if (count >= limits::kMaxUnauthenticatedPerPeer) {
            oldest->closeWith(code::kBusy, tooMany);
        }
        oldest = oldestWaiting(QString(), &count);
        if (count >= limits::kMaxUnauthenticated) {
            oldest->closeWith(code::kBusy, tooMany);
        }
    }
    if (int(connections_.size()) < maxConnections_) {
        return true;
    }
    if (ControlConnection* oldest = oldestWaiting(QString(), &count)) {
        oldest->closeWith(code::kBusy, tooMany);
        return true;
    }
    return false;
}

void ControlServer::dispatch(ControlConnection& connection, const Request& request) {
    if (!connection.authenticated()) {
        if (request.op != op::kHello) {
            connection.refuseBeforeHello(
                answerError(request.id, code::kUnauthorized,
                            QStringLiteral("send {\"op\": \"hello\", \"token\": ...} first: this "
                                           "connection needs the token")));
            return;
        }
        const std::optional<Caller> holder =
            access_.callerForToken(request.text(QStringLiteral("token")).toUtf8());
        if (!holder) {
            connection.refuseBeforeHello(answerError(request.id, code::kUnauthorized,
                                                     QStringLiteral("wrong or missing token")));
            return;
        }
        // On the local socket the kernel already said who it is; a token only lets it in.
        if (connection.caller().user.isEmpty()) {
            connection.setCaller(*holder);
        }
        connection.setAuthenticated();
    }
    handler_(connection, request);
}

Status prepareSocketFolder(const QString& folder, const QString& group) {
    const QByteArray path = QFile::encodeName(folder);
    struct stat info {};
    if (::stat(path.constData(), &info) != 0) {
        if (errno != ENOENT) {
            return Status::ioError(QStringLiteral("cannot use the socket folder %1: %2")
                                       .arg(folder, QString::fromLocal8Bit(std::strerror(errno))));
        }
        // Its parents as any folder is made; the last one private, whatever the umask says.
        const QString parent = QFileInfo(folder).absolutePath();
        // A group's socket: its members may enter the folder, and no one else.
        const std::optional<gid_t> gid = group.isEmpty() ? std::nullopt : groupId(group);
        if ((parent != folder && !QDir().mkpath(parent)) ||
            (::mkdir(path.constData(), 0700) != 0 && errno != EEXIST) ||
            (gid && (::chown(path.constData(), uid_t(-1), *gid) != 0 ||
                     ::chmod(path.constData(), 0750) != 0)) ||
            ::stat(path.constData(), &info) != 0) {
            return Status::ioError(QStringLiteral("cannot create the socket folder %1: %2")
                                       .arg(folder, QString::fromLocal8Bit(std::strerror(errno))));
        }
    }
    if (!S_ISDIR(info.st_mode)) {
        return Status::invalid(QStringLiteral("the socket folder %1 is not a folder").arg(folder));
    }
    // The folder and every folder above it: whoever may rename one of them may put a folder of
    // their own, with a socket of their own, in its place.
    QString checked = QFileInfo(folder).canonicalFilePath();
    for (; !checked.isEmpty(); checked = QFileInfo(checked).path()) {
        if (::stat(QFile::encodeName(checked).constData(), &info) != 0) {
            break;
        }
        const QString which =
            checked == QFileInfo(folder).canonicalFilePath()
                ? QStringLiteral("the socket folder %1").arg(folder)
                : QStringLiteral("%1, above the socket folder %2").arg(checked, folder);
        if (info.st_uid != ::geteuid() && info.st_uid != 0) {
            return Status::invalid(QStringLiteral("%1 is owned by %2, not by you: its owner could "
                                                  "replace the socket; use a folder of your own")
                                       .arg(which, userName(info.st_uid)));
        }
        if ((info.st_mode & 0022) != 0 && (info.st_mode & S_ISVTX) == 0) {
            return Status::invalid(
                QStringLiteral("%1 has mode %2: other users can write to it and replace the "
                               "socket; chmod go-w it, or use a folder of your own")
                    .arg(which)
                    .arg(info.st_mode & 07777, 4, 8, QLatin1Char('0')));
        }
        if (checked == QLatin1String("/")) {
            break;
        }
    }
    return Status::ok();
}

Status readTokenFile(const QString& path, QString* token) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return Status::ioError(
            QStringLiteral("--token-file %1: cannot read it: %2").arg(path, file.errorString()));
    }
    struct stat info {};
    if (::fstat(file.handle(), &info) == 0 && (info.st_mode & 0077) != 0) {
        return Status::invalid(
            QStringLiteral("--token-file %1: other users can read it; chmod 600 it first")
                .arg(path));
    }
    *token = QString::fromUtf8(file.readLine()).trimmed();
    if (token->isEmpty()) {
        return Status::invalid(
            QStringLiteral("--token-file %1: the first line is empty").arg(path));
    }
    return Status::ok();
}

}  // namespace tunedeck::api
