#include "worker_session.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonParseError>

WorkerSession::WorkerSession(const QString& program, const QStringList& arguments,
                             const QProcessEnvironment& environment) {
    m_process.setProcessEnvironment(environment);
    m_process.setReadChannel(QProcess::StandardOutput);
    m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_process.start(program, arguments);
    m_process.waitForStarted(10000);
}

WorkerSession::~WorkerSession() {
    if (m_process.state() == QProcess::NotRunning) {
        return;
    }
    m_process.closeWriteChannel();
    if (!m_process.waitForFinished(15000)) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
}

QString WorkerSession::workerPath() {
    return QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck-worker");
}

bool WorkerSession::waitForHello(int timeoutMs) {
    m_hello = waitForEvent(QStringLiteral("hello"), {}, timeoutMs);
    return !m_hello.isEmpty();
}

qint64 WorkerSession::workerPid() const {
    return m_hello.value("pid").toInteger();
}

void WorkerSession::send(const QJsonObject& op) {
    sendRaw(QJsonDocument(op).toJson(QJsonDocument::Compact) + '\n');
}

void WorkerSession::sendRaw(const QByteArray& bytes) {
    m_process.write(bytes);
    m_process.waitForBytesWritten(5000);
}

void WorkerSession::closeInput() {
    m_process.closeWriteChannel();
}

QJsonObject WorkerSession::waitFor(const Match& match, int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        for (qsizetype i = 0; i < m_events.size(); ++i) {
            if (match(m_events[i])) {
                return m_events.takeAt(i);
            }
        }
        if (deadline.hasExpired() || m_process.state() == QProcess::NotRunning) {
            readAvailable();  // what a finished worker left in the pipe
            for (qsizetype i = 0; i < m_events.size(); ++i) {
                if (match(m_events[i])) {
                    return m_events.takeAt(i);
                }
            }
            return {};
        }
        m_process.waitForReadyRead(static_cast<int>(qMin<qint64>(deadline.remainingTime(), 200)));
        readAvailable();
    }
}

QJsonObject WorkerSession::waitForEvent(const QString& ev, const QString& trial, int timeoutMs) {
    return waitFor(
        [&](const QJsonObject& event) {
            return event.value("ev").toString() == ev &&
                   (trial.isEmpty() || event.value("trial").toString() == trial);
        },
        timeoutMs);
}

QJsonObject WorkerSession::waitForMessage(const QString& trial, const QString& type,
                                          int timeoutMs) {
    return waitFor(
        [&](const QJsonObject& event) {
            return event.value("ev").toString() == QLatin1String("trial") &&
                   event.value("trial").toString() == trial &&
                   event.value("msg").toObject().value("type").toString() == type;
        },
        timeoutMs);
}

void WorkerSession::pump(int ms) {
    QDeadlineTimer deadline(ms);
    while (!deadline.hasExpired() && m_process.state() != QProcess::NotRunning) {
        m_process.waitForReadyRead(static_cast<int>(qMax<qint64>(1, deadline.remainingTime())));
        readAvailable();
    }
    readAvailable();
}

void WorkerSession::readSome(int timeoutMs) {
    if (m_process.bytesAvailable() == 0) {
        m_process.waitForReadyRead(timeoutMs);
    }
    readAvailable();
}

bool WorkerSession::waitForExit(int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (m_process.state() != QProcess::NotRunning && !deadline.hasExpired()) {
        m_process.waitForFinished(static_cast<int>(qMin<qint64>(deadline.remainingTime(), 200)));
        readAvailable();
    }
    readAvailable();
    return m_process.state() == QProcess::NotRunning;
}

void WorkerSession::readAvailable() {
    m_buffer += m_process.readAllStandardOutput();
    qsizetype start = 0;
    for (;;) {
        const qsizetype newline = m_buffer.indexOf('\n', start);
        if (newline < 0) {
            break;
        }
        takeLine(QByteArrayView(m_buffer).sliced(start, newline - start));
        start = newline + 1;
    }
    m_buffer.remove(0, start);
}

void WorkerSession::takeLine(QByteArrayView line) {
    if (m_countOnly && line.startsWith("{\"ev\":\"trial\",")) {
        ++m_counted;
        return;
    }
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(line.toByteArray(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        m_unreadable.append(line.toByteArray());
        return;
    }
    const QJsonObject event = document.object();
    if (event.value("ev").toString() == QLatin1String("heartbeat")) {
        ++m_heartbeats;
        return;
    }
    m_events.append(event);
}
