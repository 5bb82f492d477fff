// A command run on the node over the session: stdin written in order without blocking, stdout
// and stderr as they arrive, then the exit status. The worker agent's JSON-lines link and the
// launcher's setup commands use it.
// Thread-safety: the session's thread. Signals are emitted from the event loop.
#pragma once

#include <memory>

#include <QByteArray>
#include <QObject>
#include <QString>

#include "cluster/ssh/libssh2_channel.h"
#include "cluster/ssh/session_channel.h"
#include "cluster/ssh/ssh_session.h"

namespace tunedeck::ssh {

class ExecChannel : public SessionChannel {
    Q_OBJECT
  public:
    // EOF on the command's stdin after what is queued.
    void closeStdin();
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

    void deliver() override;
    void abandon(const QString& reason) override;

    QString command_;
    QString error_;
};

}  // namespace tunedeck::ssh
