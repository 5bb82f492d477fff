#include "cluster/ssh/exec_channel.h"

#include <QPointer>

namespace tunedeck::ssh {

ExecChannel::ExecChannel(SshSession* session, const QString& command)
    : session_(session),
      command_(command),
      core_(std::make_unique<ChannelCore>(session, ChannelCore::Start::Exec, command.toUtf8(),
                                          LIBSSH2_CHANNEL_WINDOW_DEFAULT)) {
    session_->registerUser(this);
    // The open request goes out now; started() comes from the event loop.
    session_->pumpNow();
}

ExecChannel::~ExecChannel() {
    if (session_) {
        session_->unregisterUser(this);
    }
    core_.reset();  // retires the libssh2 channel with the session
    if (session_) {
        session_->pumpNow();
    }
}

void ExecChannel::write(const QByteArray& data) {
    if (closed_ || !session_) {
        return;
    }
    core_->write(data);
    session_->pumpNow();
}

void ExecChannel::closeStdin() {
    if (closed_ || !session_) {
        return;
    }
    core_->closeStdin();
    session_->pumpNow();
}

void ExecChannel::close() {
    if (closed_) {
        return;
    }
    closed_ = true;
    pending_ = {};
    core_->close();
    if (session_) {
        session_->pumpNow();
    }
}

bool ExecChannel::isOpen() const {
    return !closed_ && !finished_ && session_ && !core_->isOver();
}

qint64 ExecChannel::bytesToWrite() const {
    return core_->bytesToWrite();
}

bool ExecChannel::pump() {
    // Also after close(): a half-done open still has to finish (see ChannelCore::close).
    return core_->pump(pending_);
}

bool ExecChannel::hasEvents() const {
    return !closed_ && !pending_.empty();
}

bool ExecChannel::holdsChannel() const {
    return core_->holdsChannel();
}

void ExecChannel::deliver() {
    if (closed_) {
        return;
    }
    ChannelCore::Output events = std::exchange(pending_, {});
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
    if (core_->abandon() && !closed_ && !finished_) {
        pending_.finished = true;
        pending_.exitStatus = -1;
        pending_.exitSignal.clear();
        pending_.error = reason;
    }
}

void ExecChannel::forgetSession() {
    session_ = nullptr;
    core_->forgetSession();
}

}  // namespace tunedeck::ssh
