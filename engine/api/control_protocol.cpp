#include "api/control_protocol.h"

#include <unistd.h>

#include <QHostAddress>
#include <QJsonDocument>

namespace tunedeck::api {

std::optional<Request> parseRequest(QByteArrayView line, int lineNumber, QJsonObject* error) {
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(line.toByteArray(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = answerError(QJsonValue::Null, code::kBadRequest,
                             QStringLiteral("request line %1, byte %2: %3")
                                 .arg(lineNumber)
                                 .arg(parseError.offset + 1)
                                 .arg(parseError.errorString()));
        return std::nullopt;
    }
    if (!document.isObject()) {
        *error = answerError(QJsonValue::Null, code::kBadRequest,
                             QStringLiteral("request line %1: not a JSON object").arg(lineNumber));
        return std::nullopt;
    }
    Request request;
    request.arguments = document.object();
    request.id = request.arguments.value("id");
    if (request.id.isUndefined()) {
        request.id = QJsonValue::Null;
    }
    const QJsonValue op = request.arguments.value("op");
    if (!op.isString() || op.toString().isEmpty()) {
        *error = answerError(
            request.id, code::kBadRequest,
            QStringLiteral("request line %1: \"op\" must be a non-empty string").arg(lineNumber));
        return std::nullopt;
    }
    request.op = op.toString();
    return request;
}

QJsonObject answerOk(const QJsonValue& id, QJsonObject fields) {
    fields.insert("id", id);
    fields.insert("ok", true);
    return fields;
}

QJsonObject answerError(const QJsonValue& id, const QString& errorCode, const QString& message) {
    return {{"id", id},
            {"ok", false},
            {"error", QJsonObject{{"code", errorCode}, {"message", message}}}};
}

QJsonObject eventMessage(int subscription, const QString& experiment, const QJsonObject& event) {
    return {{"subscription", subscription}, {"experiment", experiment}, {"event", event}};
}

QJsonObject caughtUpMessage(int subscription, const QString& experiment, std::int64_t seq) {
    return {{"subscription", subscription}, {"experiment", experiment}, {"caught_up", qint64(seq)}};
}

QString ListenAddress::toString() const {
    if (kind == Kind::Unix) {
        return QStringLiteral("unix:") + path;
    }
    return host.contains(':') ? QStringLiteral("tcp:[%1]:%2").arg(host).arg(port)
                              : QStringLiteral("tcp:%1:%2").arg(host).arg(port);
}

bool ListenAddress::isLoopback() const {
    return kind == Kind::Unix || QHostAddress(host).isLoopback();
}

Status parseListenAddress(const QString& text, ListenAddress* out) {
    ListenAddress address;
    if (text.startsWith(QLatin1String("unix:"))) {
        address.path = text.mid(5);
        if (address.path.isEmpty()) {
            return Status::invalid(
                QStringLiteral("--listen %1: the socket path is empty").arg(text));
        }
        *out = address;
        return Status::ok();
    }
    if (!text.startsWith(QLatin1String("tcp:"))) {
        return Status::invalid(
            QStringLiteral("--listen %1: expected unix:PATH or tcp:HOST:PORT").arg(text));
    }
    const QString rest = text.mid(4);
    const qsizetype colon = rest.lastIndexOf(':');
    if (colon <= 0) {
        return Status::invalid(QStringLiteral("--listen %1: expected tcp:HOST:PORT").arg(text));
    }
    QString host = rest.left(colon);
    if (host.startsWith('[') && host.endsWith(']')) {
        host = host.mid(1, host.size() - 2);
    }
    bool numeric = false;
    const uint port = rest.mid(colon + 1).toUInt(&numeric);
    if (!numeric || port > 65535) {
        return Status::invalid(
            QStringLiteral("--listen %1: the port must be a number from 0 to 65535").arg(text));
    }
    if (QHostAddress(host).isNull()) {
        return Status::invalid(
            QStringLiteral("--listen %1: '%2' is not an IP address").arg(text, host));
    }
    address.kind = ListenAddress::Kind::Tcp;
    address.host = host;
    address.port = quint16(port);
    *out = address;
    return Status::ok();
}

QString defaultSocketPath() {
    const QByteArray runtime = qgetenv("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty()) {
        return QString::fromLocal8Bit(runtime) + QStringLiteral("/tunedeck/engine.sock");
    }
    return QStringLiteral("/tmp/tunedeck-%1/engine.sock").arg(getuid());
}

}  // namespace tunedeck::api
