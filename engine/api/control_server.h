// The control API's transport: a local socket (private to its user, or open to a group), or TCP
// with a token, carrying JSON lines (control_protocol.h). It frames and parses requests, answers
// malformed ones itself, refuses every request on TCP until a `hello` with a right token, and
// hands the rest to the handler with the connection's Caller: the socket peer's uid, or the user
// the token belongs to (server_access.h). What the requests do is the handler's business
// (cli/serve). It also keeps any one client from holding the server (connection_limits.h): output
// per connection is bounded, a client that does not read is not read, connections are capped, and a
// TCP connection has a few seconds to say hello. Thread-safety: lives on the thread of its event
// loop.
#pragma once

#include <QElapsedTimer>
#include <QLocalServer>
#include <QObject>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "api/control_protocol.h"
#include "api/server_access.h"
#include "api/tcp_listener.h"
#include "core/line_framer.h"

namespace tunedeck::api {

class ControlConnection : public QObject {
    Q_OBJECT
  public:
    // `peer` names where it comes from (an IP address, or "local"); `trusted` connections need
    // no hello.
    ControlConnection(QIODevice* socket, QString peer, bool trusted, QObject* parent);

    // Queues one message. Never blocks: see backlog(). A connection that has more than
    // limits::kMaxUnreadOutputBytes unread is closed instead.
    void send(const QJsonObject& message);
    // Bytes queued but not yet taken by the peer: a subscriber that does not read is not fed
    // more until it catches up.
    qint64 backlog() const;
    bool authenticated() const { return authenticated_; }
    void setAuthenticated() { authenticated_ = true; }
    // Who is on the other end: known from the start on the local socket, from the hello on TCP.
    const Caller& caller() const { return caller_; }
    void setCaller(Caller caller) { caller_ = std::move(caller); }
    const QString& peer() const { return peer_; }
    // Answers a request of a connection without the token; the last one allowed closes it.
    void refuseBeforeHello(const QJsonObject& error);
    // Says why (when the peer can still take it) and closes at once.
    void closeWith(const QString& errorCode, const QString& message);
    void close();
    // A handler that answers later (its work runs off the event loop) holds the connection until
    // it has answered: the requests after it wait, and nothing more is read from the socket, so
    // answers keep the order of the requests and one client has one piece of work at a time.
    // Each hold is released once; the waiting requests are then handled in order.
    void holdRequests() { ++holds_; }
    void releaseRequests();

  signals:
    void request(tunedeck::api::ControlConnection* connection, const tunedeck::api::Request& r);
    // Once, when the connection ends (either side).
    void closed(tunedeck::api::ControlConnection* connection);

  private:
    void readRequests();
    void ended();
    // Runs `handle` now, or after the holds are released, behind those already waiting.
    void inOrder(std::function<void()> handle);

    QIODevice* socket_;
    QString peer_;
    Caller caller_;
    LineFramer framer_;
    int lineNumber_ = 0;
    int refusals_ = 0;
    bool authenticated_;
    bool ended_ = false;
    bool readScheduled_ = false;
    int holds_ = 0;
    // What came in while held: at most the lines of one piece read (limits::kReadPieceBytes)
    // and the one request that piece completed.
    std::deque<std::function<void()>> waiting_;
};

class ControlServer : public QObject {
    Q_OBJECT
  public:
    using Handler = std::function<void(ControlConnection&, const Request&)>;

    explicit ControlServer(Handler handler, QObject* parent = nullptr);
    ~ControlServer() override;

    // Starts listening. A Unix socket's folder is made (0700) when it is not there; an existing
    // one must belong to this user (or root) and, unless sticky like /tmp, be writable by no one
    // else; its mode is left as it is. The socket is 0600 (0660 for `access.socketGroup`); a
    // stale socket file is replaced, a live one refused. TCP needs a token.
    Status listen(const ListenAddress& address, const ServerAccess& access);
    // A server for one user: `token` (may be empty on the local socket) is theirs.
    Status listen(const ListenAddress& address, const QString& token) {
        return listen(address, ServerAccess{token, {}, {}, {}});
    }
    QString address() const { return address_.toString(); }
    // The TCP port, once listening (useful with port 0).
    quint16 tcpPort() const;

  signals:
    void connectionClosed(tunedeck::api::ControlConnection* connection);

  private:
    void accept(QIODevice* socket, const QString& peer, bool trusted, Caller caller);
    // Closes waiting connections to make room for a new one from `peer`; false when there is
    // none to close and the newcomer must be refused.
    bool makeRoom(const QString& peer, bool trusted);
    void dispatch(ControlConnection& connection, const Request& request);

    Handler handler_;
    ListenAddress address_;
    ServerAccess access_;
    int maxConnections_ = 0;
    std::unique_ptr<QLocalServer> local_;
    std::unique_ptr<TcpListener> tcp_;
    // Open connections, oldest first.
    std::vector<ControlConnection*> connections_;
};

// Makes sure `folder` may hold the socket: creates it when it is not there (0700, or 0750 with
// group `group` for a socket shared with a group); refuses one owned by another user (root's are
// trusted) or writable by others without the sticky bit.
Status prepareSocketFolder(const QString& folder, const QString& group = {});

// Reads a token file: its first line, which must not be empty; the file must not be readable by
// other users (a token others can read guards nothing).
Status readTokenFile(const QString& path, QString* token);

}  // namespace tunedeck::api
