// queue: serve's fair queue as a table, asked of a running server over the control API (the
// `queue` op): each experiment's user, priority, trials running of those it may run, trials it
// wants, and why it waits.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QTcpSocket>
#include <cstdio>
#include <memory>

#include "api/control_protocol.h"
#include "api/control_server.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/experiment_launch.h"

namespace tunedeck::cli {

namespace {

constexpr int kAnswerTimeoutMs = 10000;

// Sends `request` and returns the answer with its id, skipping other lines (events).
bool ask(QIODevice& socket, const QJsonObject& request, QJsonObject* answer, QString* error) {
    socket.write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    for (;;) {
        while (!socket.canReadLine()) {
            if (!socket.waitForReadyRead(kAnswerTimeoutMs)) {
                *error = QStringLiteral("no answer from the server: %1").arg(socket.errorString());
                return false;
            }
        }
        const QJsonObject line = QJsonDocument::fromJson(socket.readLine()).object();
        if (line.value("id") == request.value("id")) {
            *answer = line;
            if (!line.value("ok").toBool()) {
                *error = line.value("error").toObject().value("message").toString();
                return false;
            }
            return true;
        }
    }
}

std::unique_ptr<QIODevice> connectTo(const api::ListenAddress& address, QString* error) {
    if (address.kind == api::ListenAddress::Kind::Unix) {
        auto socket = std::make_unique<QLocalSocket>();
        socket->connectToServer(address.path);
        if (!socket->waitForConnected(kAnswerTimeoutMs)) {
            *error = QStringLiteral("cannot connect to %1: %2")
                         .arg(address.toString(), socket->errorString());
            return nullptr;
        }
        return socket;
    }
    auto socket = std::make_unique<QTcpSocket>();
    socket->connectToHost(address.host, address.port);
    if (!socket->waitForConnected(kAnswerTimeoutMs)) {
        *error = QStringLiteral("cannot connect to %1: %2")
                     .arg(address.toString(), socket->errorString());
        return nullptr;
    }
    return socket;
}

void printTable(const QJsonObject& queue) {
    const QJsonObject capacity = queue.value("capacity").toObject();
    const QJsonObject inUse = queue.value("in_use").toObject();
    std::printf("In use: %g of %g CPUs, %g of %g GPUs\n", inUse.value("cpu").toDouble(),
                capacity.value("cpu").toDouble(), inUse.value("gpu").toDouble(),
                capacity.value("gpu").toDouble());
    std::printf("%-24s %-12s %8s %9s %7s  %s\n", "EXPERIMENT", "USER", "PRIORITY", "RUNNING",
                "WANTED", "WAITS BECAUSE");
    for (const QJsonValue& v : queue.value("experiments").toArray()) {
        const QJsonObject e = v.toObject();
        const QString running =
            QStringLiteral("%1/%2").arg(e.value("running").toInt()).arg(e.value("slots").toInt());
        std::printf("%-24s %-12s %8d %9s %7d  %s\n", qPrintable(e.value("experiment").toString()),
                    qPrintable(e.value("user").toString()), e.value("priority").toInt(),
                    qPrintable(running), e.value("wanted").toInt(),
                    qPrintable(e.value("why").toString()));
    }
}

}  // namespace

int queue(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Show the fair queue of a running serve."));
    parser.addOption({QStringLiteral("connect"),
                      QStringLiteral("unix:PATH or tcp:HOST:PORT (default unix:%1).")
                          .arg(api::defaultSocketPath()),
                      QStringLiteral("ADDRESS")});
    parser.addOption({QStringLiteral("token-file"),
                      QStringLiteral("File whose first line is the server's token (TCP)."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("format"), QStringLiteral("text (default) or json."),
                      QStringLiteral("FORMAT")});
    if (!parseArguments(parser, QStringLiteral("queue"), args, 0)) {
        return kExitBadInput;
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (!format.isEmpty() && format != QLatin1String("text") && format != QLatin1String("json")) {
        return fail(QStringLiteral("--format: expected text or json, not '%1'").arg(format));
    }
    api::ListenAddress address;
    const QString where = parser.isSet(QStringLiteral("connect"))
                              ? parser.value(QStringLiteral("connect"))
                              : QStringLiteral("unix:") + api::defaultSocketPath();
    if (Status s = api::parseListenAddress(where, &address); !s) {
        return fail(QStringLiteral("--connect: %1").arg(s.message()));
    }
    QString token;
    if (parser.isSet(QStringLiteral("token-file"))) {
        if (Status s = api::readTokenFile(parser.value(QStringLiteral("token-file")), &token); !s) {
            return fail(s.message());
        }
    }
    QString error;
    const std::unique_ptr<QIODevice> socket = connectTo(address, &error);
    QJsonObject answer;
    QJsonObject hello{{"id", 1}, {"op", api::op::kHello}};
    if (!token.isEmpty()) {
        hello.insert("token", token);
    }
    if (!socket || !ask(*socket, hello, &answer, &error) ||
        !ask(*socket, {{"id", 2}, {"op", api::op::kQueue}}, &answer, &error)) {
        return fail(error, 1);
    }
    answer.remove("id");
    answer.remove("ok");
    if (format == QLatin1String("json")) {
        std::printf("%s\n", QJsonDocument(answer).toJson(QJsonDocument::Indented).constData());
    } else {
        printTable(answer);
    }
    return 0;
}

}  // namespace tunedeck::cli
