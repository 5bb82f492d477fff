// A command run on the node over the session: stdin written in order without blocking, stdout
// and stderr as they arrive, then the exit status. The worker agent's JSON-lines link and the
// launcher's setup commands use it.
// Thread-safety: the session's thread. Signals are emitted from the event loop.
#pragma once

#include <memory>

#include <QByteArray>
#include <QObject>
#include <QString>

#include "cluster/ssh/channel_core.h"
#include "cluster/ssh/ssh_session.h"

namespace tunedeck::ssh {

class ExecChannel : public QObject, private detail::SessionUser {
    Q_OBJECT
  public:
    ~ExecChannel() override;

    // Queued and written in order as soon as the socket takes it (also before started()).
    void write(const QByteArray& data);
    // EOF on the command's stdin after what is queued.
    void closeStdin();
    // Ends the channel now; no signal follows.
    void close();
    // From exec() until finished() or close().
    bool isOpen() const;
    // Bytes queued and not yet taken by the socket (for a caller that wants back-pressure).
    qint64 bytesToWrite() const;
    // Why the channel could not run the command (the host refused it, ...), empty otherwise.
    QString errorString() const { return error_; }
    const QString& command() const { return command_; }

  signals:
    void started();
    void standardOutput(const QByteArray& data);
    void standardError(const QByteArray& data);
    // Exit status and, when a signal ended the command, its name ("KILL") with status -1.
    // Also when the session dies or the command could not start: status -1, signal empty.
    void finished(int exitStatus, const QString& exitSignal);

  private:
    friend class SshSession;
    ExecChannel(SshSession* session, const QString& command);

    bool pump() override;
    bool hasEvents() const override;
    void deliver() override;
    bool holdsChannel() const override;
    void abandon(const QString& reason) override;
    void forgetSession() override;

    SshSession* session_;
    QString command_;
    std::unique_ptr<ChannelCore> core_;
    ChannelCore::Output pending_;
    QString error_;
    bool closed_ = false;
    bool finished_ = false;
};

}  // namespace tunedeck::ssh
