// A listening TCP socket that accepts without ever spinning: QTcpServer (Qt 6.4) retries accept
// in a busy loop once the process is out of file descriptors, which locked every client out of
// `serve` at 100% CPU. Out of descriptors, this one still takes each waiting connection (with a
// descriptor kept in reserve for it), tells it the server is busy and closes it; if even that
// fails it rests a moment before trying again. Thread-safety: lives on its event loop's thread.
#pragma once

#include <QHostAddress>
#include <QObject>
#include <QSocketNotifier>
#include <QTcpSocket>
#include <memory>

#include "core/status.h"

namespace tunedeck::api {

class TcpListener : public QObject {
    Q_OBJECT
  public:
    // `busyLine` is what a connection refused for want of descriptors receives before it is
    // closed.
    explicit TcpListener(QByteArray busyLine, QObject* parent = nullptr);
    ~TcpListener() override;

    Status listen(const QHostAddress& address, quint16 port);
    quint16 port() const { return port_; }

  signals:
    // A new connection; the receiver owns the socket.
    void accepted(QTcpSocket* socket);

  private:
    void acceptWaiting();
    bool refuseWithReserve();
    void rest();

    QByteArray busyLine_;
    int listenFd_ = -1;
    int reserveFd_ = -1;  // /dev/null, closed to make room for a refusal when out of descriptors
    quint16 port_ = 0;
    std::unique_ptr<QSocketNotifier> notifier_;
    bool warned_ = false;
};

}  // namespace tunedeck::api
