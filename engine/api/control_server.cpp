#include "api/control_server.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocalSocket>
#include <QTcpSocket>

namespace tunedeck::api {

namespace {

// Compares without an early exit, so the time taken says nothing about the token.
bool sameToken(const QByteArray& given, const QByteArray& expected) {
    if (expected.isEmpty()) {
        return false;
    }
    unsigned char difference = given.size() == expected.size() ? 0 : 1;
    for (qsizetype i = 0; i < given.size(); ++i) {
        difference |= static_cast<unsigned char>(given[i] ^ expected[i % expected.size()]);
    }
    return difference == 0;
}

// The peer of a local socket is this user (root may connect too); the socket's mode already
// says so, this makes sure of it.
bool peerIsThisUser(qintptr descriptor) {
    ucred credentials{};
    socklen_t size = sizeof credentials;
    if (::getsockopt(int(descriptor), SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) {
        return false;
    }
    return credentials.uid == ::getuid() || credentials.uid == 0;
}

}  // namespace

ControlConnection::ControlConnection(QIODevice* socket, bool trusted, QObject* parent)
    : QObject(parent), socket_(socket), framer_(kMaxRequestLine), authenticated_(trusted) {
    socket_->setParent(this);
    connect(socket_, &QIODevice::readyRead, this, &ControlConnection::readRequests);
}

void ControlConnection::send(const QJsonObject& message) {
    QByteArray line = QJsonDocument(message).toJson(QJsonDocument::Compact);
    line.append('\n');
    socket_->write(line);
}

qint64 ControlConnection::backlog() const {
    return socket_->bytesToWrite();
}

void ControlConnection::close() {
    socket_->close();
}

void ControlConnection::readRequests() {
    const QByteArray data = socket_->readAll();
    framer_.feed(
        data,
        [this](QByteArrayView line) {
            ++lineNumber_;
            if (line.trimmed().isEmpty()) {
                return;
            }
            QJsonObject error;
            if (std::optional<Request> parsed = parseRequest(line, lineNumber_, &error)) {
                emit request(this, *parsed);
            } else {
                send(error);
            }
        },
        [this] {
            ++lineNumber_;
            send(answerError(QJsonValue::Null, code::kBadRequest,
                             QStringLiteral("request line %1: longer than %2 bytes; skipped")
                                 .arg(lineNumber_)
                                 .arg(kMaxRequestLine)));
        });
}

ControlServer::ControlServer(Handler handler, QObject* parent)
    : QObject(parent), handler_(std::move(handler)) {}

ControlServer::~ControlServer() {
    if (local_) {
        local_->close();  // removes the socket file
    }
}

Status ControlServer::listen(const ListenAddress& address, const QString& token) {
    address_ = address;
    token_ = token;
    if (address.kind == ListenAddress::Kind::Tcp) {
        if (token.isEmpty()) {
            return Status::invalid(
                QStringLiteral("--listen %1 needs --token-file: TCP connections must prove they "
                               "know the token")
                    .arg(address.toString()));
        }
        tcp_ = std::make_unique<QTcpServer>();
        if (!tcp_->listen(QHostAddress(address.host), address.port)) {
            return Status::ioError(QStringLiteral("cannot listen on %1: %2")
                                       .arg(address.toString(), tcp_->errorString()));
        }
        address_.port = tcp_->serverPort();
        connect(tcp_.get(), &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = tcp_->nextPendingConnection()) {
                accept(socket, false);
            }
        });
        return Status::ok();
    }
    const QFileInfo socketFile(address.path);
    const QString folder = socketFile.absolutePath();
    if (!QDir().mkpath(folder)) {
        return Status::ioError(QStringLiteral("cannot create %1").arg(folder));
    }
    ::chmod(QFile::encodeName(folder).constData(), 0700);
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
    connect(local_.get(), &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket* socket = local_->nextPendingConnection()) {
            if (!peerIsThisUser(socket->socketDescriptor())) {
                socket->abort();
                socket->deleteLater();
                continue;
            }
            accept(socket, token_.isEmpty());
        }
    });
    return Status::ok();
}

quint16 ControlServer::tcpPort() const {
    return tcp_ ? tcp_->serverPort() : 0;
}

void ControlServer::accept(QIODevice* socket, bool trusted) {
    auto* connection = new ControlConnection(socket, trusted, this);
    connect(connection, &ControlConnection::request, this,
            [this](ControlConnection* c, const Request& r) { dispatch(*c, r); });
    auto onGone = [this, connection] {
        emit connectionClosed(connection);
        connection->deleteLater();
    };
    if (auto* local = qobject_cast<QLocalSocket*>(socket)) {
        connect(local, &QLocalSocket::disconnected, this, onGone);
    } else if (auto* tcp = qobject_cast<QTcpSocket*>(socket)) {
        connect(tcp, &QTcpSocket::disconnected, this, onGone);
    }
}

void ControlServer::dispatch(ControlConnection& connection, const Request& request) {
    if (!connection.authenticated()) {
        if (request.op != op::kHello) {
            connection.send(answerError(request.id, code::kUnauthorized,
                                        QStringLiteral("send {\"op\": \"hello\", \"token\": ...} "
                                                       "first: this connection needs the token")));
            return;
        }
        if (!sameToken(request.text(QStringLiteral("token")).toUtf8(), token_.toUtf8())) {
            connection.send(answerError(request.id, code::kUnauthorized,
                                        QStringLiteral("wrong or missing token")));
            return;
        }
        connection.setAuthenticated();
    }
    handler_(connection, request);
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
