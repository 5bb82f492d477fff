// Drives a real tunedeck-worker process over its node link (stdin/stdout), the way the engine
// does: sends ops, collects events, waits for the ones a test expects.
// Not thread-safe: one session per test, used from the test's thread.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <functional>
#include <utility>

class WorkerSession {
  public:
    // Starts `program` with `arguments` (the worker, or a tool wrapping it such as strace), in
    // `environment` (the test's own by default).
    explicit WorkerSession(
        const QString& program = workerPath(), const QStringList& arguments = {},
        const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment());
    ~WorkerSession();

    static QString workerPath();

    // Waits for the `hello` event; false if the worker did not say it in time.
    bool waitForHello(int timeoutMs = 10000);
    const QJsonObject& hello() const { return m_hello; }
    qint64 workerPid() const;

    void send(const QJsonObject& op);
    void sendRaw(const QByteArray& bytes);
    void closeInput();

    using Match = std::function<bool(const QJsonObject&)>;
    // The first event not taken yet that `match` accepts, removed from the queue; an empty
    // object when none arrived within the timeout.
    QJsonObject waitFor(const Match& match, int timeoutMs = 15000);
    QJsonObject waitForEvent(const QString& ev, const QString& trial = {}, int timeoutMs = 15000);
    // The next `trial` event of `trial` whose message has the given type.
    QJsonObject waitForMessage(const QString& trial, const QString& type, int timeoutMs = 15000);
    // Events received and not taken yet (heartbeats are only counted).
    const QList<QJsonObject>& pendingEvents() const { return m_events; }
    int heartbeats() const { return m_heartbeats; }
    // Reads for `ms` milliseconds, queueing whatever arrives.
    void pump(int ms);
    // Waits at most `timeoutMs` for output, queues what arrived, returns at once.
    void readSome(int timeoutMs);
    // Every queued event, oldest first, leaving the queue empty.
    QList<QJsonObject> takeEvents() { return std::exchange(m_events, {}); }

    // Fast path for floods: `trial` events are only counted per trial, never parsed or queued.
    void countTrialEventsOnly(bool on) { m_countOnly = on; }
    qint64 countedTrialEvents() const { return m_counted; }

    bool waitForExit(int timeoutMs);
    int exitCode() const { return m_process.exitCode(); }
    QProcess::ExitStatus exitStatus() const { return m_process.exitStatus(); }
    bool running() const { return m_process.state() != QProcess::NotRunning; }
    // Whether the worker wrote something that is not a JSON object line (it never should).
    const QList<QByteArray>& unreadableLines() const { return m_unreadable; }

  private:
    void readAvailable();
    void takeLine(QByteArrayView line);

    QProcess m_process;
    QByteArray m_buffer;
    QList<QJsonObject> m_events;
    QList<QByteArray> m_unreadable;
    QJsonObject m_hello;
    int m_heartbeats = 0;
    bool m_countOnly = false;
    qint64 m_counted = 0;
};
