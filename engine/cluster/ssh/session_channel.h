// The base of the channels a session hands out to their users as QObjects (ExecChannel,
// ForwardChannel): one Libssh2Channel, writes queued in order and taken as the socket allows,
// EOF, close, and the pumping the session drives. A subclass turns the libssh2 channel's output
// into its own signals (deliver) and says how a channel the session abandons ends (abandon).
// Thread-safety: the session's thread.
#pragma once

#include <QByteArray>
#include <QObject>
#include <memory>

#include "cluster/ssh/libssh2_channel.h"
#include "cluster/ssh/ssh_session.h"

namespace tunedeck::ssh {

class SessionChannel : public QObject, protected detail::SessionUser {
    Q_OBJECT
  public:
    ~SessionChannel() override;

    // Queued and written in order as soon as the socket takes it (also before the channel opens).
    void write(const QByteArray& data);
    // Ends the channel now; no signal follows.
    void close();
    // From its creation until it ended or close().
    bool isOpen() const;
    // Bytes queued and not yet taken by the socket (for a caller that wants back-pressure).
    qint64 bytesToWrite() const;

  protected:
    // Registers with the session and sends the open request at once.
    SessionChannel(SshSession* session, std::unique_ptr<Libssh2Channel> channel);
    // EOF after what is queued.
    void sendEof();

    bool pump() override;
    bool hasEvents() const override;
    bool holdsChannel() const override;
    void forgetSession() override;

    SshSession* session_;
    std::unique_ptr<Libssh2Channel> channel_;
    Libssh2Channel::Output pending_;
    bool closed_ = false;
    bool finished_ = false;
};

}  // namespace tunedeck::ssh
