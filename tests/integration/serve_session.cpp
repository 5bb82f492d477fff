#include "serve_session.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QLocalSocket>
#include <QRegularExpression>
#include <QTcpSocket>
#include <algorithm>
#include <csignal>

ServeProcess::~ServeProcess() {
    if (running()) {
        ::kill(pid(), SIGTERM);
        if (!process_->waitForFinished(30000)) {
            process_->kill();
            process_->waitForFinished();
        }
    }
}

bool ServeProcess::start(const EngineHarness& harness, const QStringList& arguments,
                         const std::function<void()>& childSetup) {
    process_ = harness.start(QStringList{"serve", "--results", harness.resultsRoot()} + arguments,
                             childSetup);
    QElapsedTimer clock;
    clock.start();
    QByteArray output;
    static const QRegularExpression listening(QStringLiteral("Listening on (\\S+)"));
    while (clock.elapsed() < 20000 && process_->state() == QProcess::Running) {
        process_->waitForReadyRead(100);
        output += process_->readAllStandardOutput();
        const QRegularExpressionMatch match = listening.match(QString::fromUtf8(output));
        if (match.hasMatch()) {
            address_ = match.captured(1);
            return true;
        }
    }
    qWarning("serve did not start: %s %s", output.constData(),
             process_->readAllStandardError().constData());
    return false;
}

bool ServeProcess::startOnLocalSocket(const EngineHarness& harness) {
    return start(harness, {"--listen", "unix:" + localSocketPath(harness)});
}

QString ServeProcess::localSocketPath(const EngineHarness& harness) {
    return harness.root() + QStringLiteral("/run/engine.sock");
}

quint16 ServeProcess::port() const {
    return address_.startsWith(QLatin1String("tcp:")) ? address_.section(':', -1).toUShort() : 0;
}

ServeClient::ServeClient(const QString& address, int timeoutMs) {
    if (address.startsWith(QLatin1String("unix:"))) {
        local_ = std::make_unique<QLocalSocket>();
        local_->connectToServer(address.mid(5));
        if (local_->waitForConnected(timeoutMs)) {
            device_ = local_.get();
        }
    } else if (address.startsWith(QLatin1String("tcp:"))) {
        const qsizetype colon = address.lastIndexOf(':');
        QString host = address.mid(4, colon - 4);
        if (host.startsWith('[') && host.endsWith(']')) {
            host = host.mid(1, host.size() - 2);
        }
        tcp_ = std::make_unique<QTcpSocket>();
        tcp_->connectToHost(host, address.mid(colon + 1).toUShort());
        if (tcp_->waitForConnected(timeoutMs)) {
            device_ = tcp_.get();
        }
    }
}

ServeClient::~ServeClient() = default;

bool ServeClient::connected() const {
    if (local_) {
        return device_ && local_->state() == QLocalSocket::ConnectedState;
    }
    return device_ && tcp_ && tcp_->state() == QAbstractSocket::ConnectedState;
}

void ServeClient::send(const QByteArray& line) {
    if (!device_) {
        return;
    }
    device_->write(line + '\n');
    // What does not fit now goes out while nextAnswer() waits.
    if (local_) {
        local_->flush();
    } else {
        tcp_->flush();
    }
}

QJsonObject ServeClient::nextAnswer(int timeoutMs) {
    if (!device_) {
        return {};
    }
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        received_ += device_->readAll();
        const qsizetype newline = received_.indexOf('\n');
        if (newline >= 0) {
            const QByteArray answer = received_.left(newline);
            received_.remove(0, newline + 1);
            return QJsonDocument::fromJson(answer).object();
        }
        const qint64 left = timeoutMs - clock.elapsed();
        if (left <= 0 || !connected()) {
            return {};
        }
        device_->waitForReadyRead(int(std::min<qint64>(left, 100)));
    }
}

QJsonObject ServeClient::askLine(const QByteArray& line, int timeoutMs) {
    send(line);
    return nextAnswer(timeoutMs);
}

QJsonObject ServeClient::ask(QJsonObject request, int timeoutMs) {
    request.insert(QStringLiteral("id"), ++lastId_);
    send(QJsonDocument(request).toJson(QJsonDocument::Compact));
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        const QJsonObject answer =
            nextAnswer(int(std::max<qint64>(0, timeoutMs - clock.elapsed())));
        if (answer.isEmpty() || answer.value(QStringLiteral("id")).toInt() == lastId_) {
            return answer;
        }
    }
}

QJsonObject ServeClient::hello(const QString& token, int timeoutMs) {
    QJsonObject request{{QStringLiteral("op"), QStringLiteral("hello")}};
    if (!token.isEmpty()) {
        request.insert(QStringLiteral("token"), token);
    }
    return ask(request, timeoutMs);
}
