// One libssh2 channel driven without blocking: opened (a session, or a forward to a TCP port or
// a unix socket on the host's side), started (a command or a subsystem; a forward needs no
// start), then bytes both ways in order, EOF, exit status and close. ExecChannel, ForwardChannel
// and SftpClient are built on it; the session pumps it on socket activity.
// Thread-safety: the session's thread.
#pragma once

#include <deque>

#include <QByteArray>
#include <QString>

#include "cluster/ssh/libssh2_handles.h"

namespace tunedeck::ssh {

class SshSession;

class Libssh2Channel {
  public:
    enum class Start { Exec, Subsystem, None };

    // What the channel is opened as: "session" (for a command or a subsystem), or a forward
    // ("direct-tcpip", "direct-streamlocal@openssh.com") with the type-specific part of its
    // SSH_MSG_CHANNEL_OPEN.
    struct Opening {
        QByteArray type = QByteArrayLiteral("session");
        QByteArray payload;
    };

    // Why the host refused to open the channel, from the reason code of its answer.
    enum class Refusal { None, Prohibited, ConnectFailed, Other };

    // What one pump produced, for the owner to emit later.
    struct Output {
        QByteArray standardOutput;
        QByteArray standardError;
        bool started = false;
        bool finished = false;
        int exitStatus = -1;
        QString exitSignal;
        QString error;
        Refusal refusal = Refusal::None;
        // Forwards only: the host will send nothing more (its side of the connection closed).
        // Reported once; writing may go on until closeStdin().
        bool endOfData = false;
        bool empty() const {
            return standardOutput.isEmpty() && standardError.isEmpty() && !started && !finished &&
                   !endOfData;
        }
    };

    Libssh2Channel(SshSession* session, Start start, QByteArray argument, unsigned windowSize);
    // A forward: no start request; started once the host has connected to the target.
    // `target` names it in messages ("tcp:127.0.0.1:7788").
    Libssh2Channel(SshSession* session, Opening opening, QString target, unsigned windowSize);
    ~Libssh2Channel();
    Libssh2Channel(const Libssh2Channel&) = delete;
    Libssh2Channel& operator=(const Libssh2Channel&) = delete;

    // Advances as far as the socket allows, appending to `output`. Returns whether anything
    // moved.
    bool pump(Output& output);

    // Queued; written in order as soon as the socket and the channel window take it.
    void write(QByteArray data);
    // EOF on the remote stdin once everything queued is written.
    void closeStdin();
    // Stops everything: the channel is freed (the host is told) without waiting.
    void close();
    // The session is over (its transport is in discard mode): frees the channel now. Returns
    // whether the owner still has to report the end (finished was not produced yet).
    bool abandon();
    void forgetSession() { session_ = nullptr; }

    bool holdsChannel() const { return state_ == State::Opening || channel_ != nullptr; }
    bool isStarted() const { return state_ == State::Running; }
    bool isOver() const { return state_ == State::Finished || state_ == State::Closed; }
    qint64 bytesToWrite() const { return queued_; }

  private:
    enum class State { Opening, Starting, Running, Finished, Closed };

    bool pumpOpen(Output& output);
    bool pumpStart(Output& output);
    bool pumpWrite();
    bool pumpRead(Output& output);
    bool pumpEnd(Output& output);
    void failChannel(Output& output, const QString& what, int rc);
    void retire();
    QString hostName() const;

    SshSession* session_;
    Start start_;
    QByteArray argument_;
    Opening opening_;
    QString target_;
    unsigned windowSize_;
    State state_ = State::Opening;
    bool closeWhenOpened_ = false;
    ChannelHandle channel_;

    std::deque<QByteArray> queue_;
    qsizetype headOffset_ = 0;
    // libssh2 answered EAGAIN with part of the head in a half-sent packet: the head must be
    // passed again unchanged.
    bool headInFlight_ = false;
    qint64 queued_ = 0;
    bool stdinCloseWanted_ = false;
    bool stdinClosed_ = false;
    bool writeBroken_ = false;
    bool remoteEof_ = false;
};

}  // namespace tunedeck::ssh
