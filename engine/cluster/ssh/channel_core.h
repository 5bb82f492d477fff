// One libssh2 channel driven without blocking: opened, started (a command or a subsystem), then
// bytes both ways in order, EOF, exit status and close. ExecChannel and SftpClient are built on
// it; the session pumps it on socket activity.
// Thread-safety: the session's thread.
#pragma once

#include <deque>

#include <QByteArray>
#include <QString>

#include "cluster/ssh/libssh2_handles.h"

namespace tunedeck::ssh {

class SshSession;

class ChannelCore {
  public:
    enum class Start { Exec, Subsystem };

    // What one pump produced, for the owner to emit later.
    struct Output {
        QByteArray standardOutput;
        QByteArray standardError;
        bool started = false;
        bool finished = false;
        int exitStatus = -1;
        QString exitSignal;
        QString error;
        bool empty() const {
            return standardOutput.isEmpty() && standardError.isEmpty() && !started && !finished;
        }
    };

    ChannelCore(SshSession* session, Start start, QByteArray argument, unsigned windowSize);
    ~ChannelCore();
    ChannelCore(const ChannelCore&) = delete;
    ChannelCore& operator=(const ChannelCore&) = delete;

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
