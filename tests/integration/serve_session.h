// `tunedeck-engine serve` driven from the outside, as the serve tests need it: ServeProcess starts
// one for an EngineHarness and stops it as a service is stopped; ServeClient speaks the control
// API's JSON lines to a server over a local socket or TCP, one answer at a time, each with a
// deadline. Not thread-safe; use each object from the thread that made it.
#pragma once

#include <sys/types.h>

#include <QByteArray>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

#include "engine_harness.h"

class QIODevice;
class QLocalSocket;
class QTcpSocket;

// A running `serve` and the address it printed. Stopped with SIGTERM when it goes out of scope,
// as a service manager stops it (which pauses its experiments).
class ServeProcess {
  public:
    ServeProcess() = default;
    ~ServeProcess();
    ServeProcess(const ServeProcess&) = delete;
    ServeProcess& operator=(const ServeProcess&) = delete;

    // Starts `serve --results <the harness's results root> arguments...` and waits up to 20 s for
    // its "Listening on" line; false (with what it printed) when none came. `childSetup` runs in
    // the child before the engine does (resource limits).
    bool start(const EngineHarness& harness, const QStringList& arguments,
               const std::function<void()>& childSetup = {});
    // start() listening on localSocketPath(harness).
    bool startOnLocalSocket(const EngineHarness& harness);
    // <root>/run/engine.sock: a folder serve has to make, private to the harness.
    static QString localSocketPath(const EngineHarness& harness);

    QString address() const { return address_; }  // as printed: unix:PATH or tcp:HOST:PORT
    quint16 port() const;                         // of a tcp: address; 0 for a local socket
    QProcess& process() { return *process_; }
    pid_t pid() const { return pid_t(process_->processId()); }
    bool running() const { return process_ && process_->state() == QProcess::Running; }

  private:
    std::unique_ptr<QProcess> process_;
    QString address_;
};

// One connection to a server, as a client of the control API has it. Requests go out as they are
// (raw lines, malformed on purpose where a test wants that) or as objects given the next id; the
// server's answers are never empty objects, so an empty one means none came.
class ServeClient {
  public:
    // Connects to `address` (unix:PATH or tcp:HOST:PORT, as serve prints it) within `timeoutMs`.
    explicit ServeClient(const QString& address, int timeoutMs = 5000);
    ~ServeClient();
    ServeClient(const ServeClient&) = delete;
    ServeClient& operator=(const ServeClient&) = delete;

    bool connected() const;

    // Sends `line` and a newline, as it is.
    void send(const QByteArray& line);
    // The next line the server sent, or an empty object when none came within `timeoutMs` or the
    // server closed the connection first.
    QJsonObject nextAnswer(int timeoutMs);
    // send() then nextAnswer().
    QJsonObject askLine(const QByteArray& line, int timeoutMs = 5000);
    // Sends `request` with the next id and returns the answer carrying that id (lines without it,
    // such as events, are passed over), or an empty object after `timeoutMs`.
    QJsonObject ask(QJsonObject request, int timeoutMs = 5000);
    // ask() for a hello, with `token` when there is one (a server on TCP wants it).
    QJsonObject hello(const QString& token = {}, int timeoutMs = 5000);

  private:
    std::unique_ptr<QLocalSocket> local_;
    std::unique_ptr<QTcpSocket> tcp_;
    QIODevice* device_ = nullptr;  // whichever of the two is open
    QByteArray received_;
    int lastId_ = 0;
};
