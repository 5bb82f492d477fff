// The app's side of the control API (engine/api/control_protocol.h): the only app code that knows
// the wire format. It connects to a local engine's socket or to a TCP address with a token,
// matches answers to requests, and keeps subscriptions alive across reconnects: it remembers the
// last sequence number seen per experiment and subscribes again from there, so a dropped
// connection loses no event. Thread-safety: lives on the GUI (or test) thread.
#pragma once

#include <QJsonObject>
#include <QLocalSocket>
#include <QObject>
#include <QTcpSocket>
#include <QTimer>
#include <functional>
#include <map>
#include <memory>

#include "core/line_framer.h"

namespace tunedeck::client {

class EngineClient : public QObject {
    Q_OBJECT
  public:
    using AnswerHandler = std::function<void(const QJsonObject& answer)>;

    explicit EngineClient(QObject* parent = nullptr);
    ~EngineClient() override;

    // Where to connect; the connection is made (and remade after a loss) by open().
    void setLocalServer(const QString& socketPath);
    void setTcpServer(const QString& host, quint16 port, const QString& token);
    // The token sent with hello, also over a local socket: the local end of an SSH tunnel
    // (client/ssh_tunnel.h) may lead to an engine on TCP that wants one. setLocalServer() keeps
    // it; an engine that needs none ignores it.
    void setToken(const QString& token) { token_ = token; }
    // Connects, says hello, subscribes again where it was; reconnects after a loss every
    // `retryMs` until close(). A connection already open is dropped first (a new address).
    void open(int retryMs = 1000);
    void close();
    bool isReady() const { return ready_; }

    // Sends {"op": op, ...arguments} with a fresh id; `onAnswer` gets the answer (ok or not).
    // Requests made while not ready wait and go out once the hello is answered.
    void request(const QString& op, QJsonObject arguments = {}, AnswerHandler onAnswer = {});
    // Events of `experiment` after `since` (0: from the start), then live, until unsubscribe.
    void subscribe(const QString& experiment, qint64 since = 0);
    void unsubscribe(const QString& experiment);
    // The last sequence number received for `experiment` (0 when none).
    qint64 lastSeq(const QString& experiment) const;
    // The message of an error answer (empty for an ok one).
    static QString errorOf(const QJsonObject& answer);

  signals:
    void ready(const QJsonObject& hello);
    // The answer to a subscription (name, metric, mode, status, spec), after each (re)connect.
    void subscribed(const QString& experiment, const QJsonObject& info);
    void connectionLost(const QString& reason);
    void event(const QString& experiment, const QJsonObject& event);
    // Everything recorded so far was delivered; what follows is live.
    void caughtUp(const QString& experiment, qint64 seq);
    // A message the client could not read, or an error answer nobody waited for.
    void problem(const QString& message);

  private:
    struct Subscription {
        qint64 lastSeq = 0;
        int serverId = 0;  // 0 while not subscribed on the current connection
    };

    void connectNow();
    // Forgets the current socket without a signal.
    void dropSocket();
    void onConnected();
    void onDisconnected(const QString& reason);
    void onReadable();
    void onMessage(const QJsonObject& message);
    void send(const QJsonObject& message);
    void sendSubscribe(const QString& experiment);
    QIODevice* socket() const;

    QString socketPath_;
    QString host_;
    quint16 port_ = 0;
    QString token_;
    std::unique_ptr<QLocalSocket> local_;
    std::unique_ptr<QTcpSocket> tcp_;
    LineFramer framer_;
    bool wanted_ = false;
    bool ready_ = false;
    int retryMs_ = 1000;
    QTimer retry_;
    qint64 nextId_ = 1;
    std::map<qint64, AnswerHandler> waiting_;
    std::vector<QJsonObject> queued_;  // requests made before the hello was answered
    std::map<QString, Subscription> subscriptions_;
};

}  // namespace tunedeck::client
