#include "cluster/ssh/exec_channel.h"

#include <QPointer>

namespace tunedeck::ssh {

ExecChannel::ExecChannel(SshSession* session, const QString& command)
    : SessionChannel(session, std::make_unique<Libssh2Channel>(session, Libssh2Channel::Start::Exec,
                                                               command.toUtf8(),
                                                               LIBSSH2_CHANNEL_WINDOW_DEFAULT)),
      command_(command) {}

void ExecChannel::closeStdin() {
    sendEof();
}

void ExecChannel::deliver() {
    if (closed_) {
        return;
    }
    Libssh2Channel::Output events = std::exchange(pending_, {});
    const QPointer<ExecChannel> self(this);
    if (events.started) {
        emit started();
        if (!self || closed_) {
            return;
        }
    }
    if (!events.standardOutput.isEmpty()) {
        emit standardOutput(events.standardOutput);
        if (!self || closed_) {
            return;
        }
    }
    if (!events.standardError.isEmpty()) {
        emit standardError(events.standardError);
        if (!self || closed_) {
            return;
        }
    }
    if (events.finished && !finished_) {
        finished_ = true;
        if (!events.error.isEmpty()) {
            error_ = events.error;
        }
        emit finished(events.exitStatus, events.exitSignal);
    }
}

void ExecChannel::abandon(const QString& reason) {
    if (channel_->abandon() && !closed_ && !finished_) {
        pending_.finished = true;
        pending_.exitStatus = -1;
        pending_.exitSignal.clear();
        pending_.error = reason;
    }
}

}  // namespace tunedeck::ssh
