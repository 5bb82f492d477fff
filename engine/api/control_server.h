// The control API's transport: a local socket private to its user, or TCP with a token, carrying
// JSON lines (control_protocol.h). It frames and parses requests, answers malformed ones itself,
// refuses every request on TCP until a `hello` with the right token, and hands the rest to the
// handler. What the requests do is the handler's business (cli/serve). Thread-safety: lives on
// the thread of its event loop.
#pragma once

#include <QLocalServer>
#include <QObject>
#include <QTcpServer>
#include <functional>
#include <memory>

#include "api/control_protocol.h"
#include "core/line_framer.h"

namespace tunedeck::api {

class ControlConnection : public QObject {
    Q_OBJECT
  public:
    ControlConnection(QIODevice* socket, bool trusted, QObject* parent);

    // Queues one message. Never blocks: see backlog().
    void send(const QJsonObject& message);
    // Bytes queued but not yet taken by the peer: a subscriber that does not read is not fed
    // more until it catches up.
    qint64 backlog() const;
    bool authenticated() const { return authenticated_; }
    void setAuthenticated() { authenticated_ = true; }
    void close();

  signals:
    void request(tunedeck::api::ControlConnection* connection, const tunedeck::api::Request& r);
    void closed(tunedeck::api::ControlConnection* connection);

  private:
    void readRequests();

    QIODevice* socket_;
    LineFramer framer_;
    int lineNumber_ = 0;
    bool authenticated_;
};

class ControlServer : public QObject {
    Q_OBJECT
  public:
    using Handler = std::function<void(ControlConnection&, const Request&)>;

    explicit ControlServer(Handler handler, QObject* parent = nullptr);
    ~ControlServer() override;

    // Starts listening. A Unix socket's folder is made private (0700) and the socket 0600; a
    // stale socket file is replaced, a live one refused. TCP needs a token (from --token-file).
    Status listen(const ListenAddress& address, const QString& token);
    QString address() const { return address_.toString(); }
    // The TCP port, once listening (useful with port 0).
    quint16 tcpPort() const;

  signals:
    void connectionClosed(tunedeck::api::ControlConnection* connection);

  private:
    void accept(QIODevice* socket, bool trusted);
    void dispatch(ControlConnection& connection, const Request& request);

    Handler handler_;
    ListenAddress address_;
    QString token_;
    std::unique_ptr<QLocalServer> local_;
    std::unique_ptr<QTcpServer> tcp_;
};

// Reads a token file: its first line, which must not be empty; the file must not be readable by
// other users (a token others can read guards nothing).
Status readTokenFile(const QString& path, QString* token);

}  // namespace tunedeck::api
