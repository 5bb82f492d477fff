#include "cluster/ssh/core_channel.h"

namespace tunedeck::ssh {

CoreChannel::CoreChannel(SshSession* session, std::unique_ptr<ChannelCore> core)
    : session_(session), core_(std::move(core)) {
    session_->registerUser(this);
    // The open request goes out now; what it led to comes from the event loop.
    session_->pumpNow();
}

CoreChannel::~CoreChannel() {
    if (session_) {
        session_->unregisterUser(this);
    }
    core_.reset();  // retires the libssh2 channel with the session
    if (session_) {
        session_->pumpNow();
    }
}

void CoreChannel::write(const QByteArray& data) {
    if (closed_ || !session_) {
        return;
    }
    core_->write(data);
    session_->pumpNow();
}

void CoreChannel::sendEof() {
    if (closed_ || !session_) {
        return;
    }
    core_->closeStdin();
    session_->pumpNow();
}

void CoreChannel::close() {
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

bool CoreChannel::isOpen() const {
    return !closed_ && !finished_ && session_ && !core_->isOver();
}

qint64 CoreChannel::bytesToWrite() const {
    return core_->bytesToWrite();
}

bool CoreChannel::pump() {
    // Also after close(): a half-done open still has to finish (see ChannelCore::close).
    return core_->pump(pending_);
}

bool CoreChannel::hasEvents() const {
    return !closed_ && !pending_.empty();
}

bool CoreChannel::holdsChannel() const {
    return core_->holdsChannel();
}

void CoreChannel::forgetSession() {
    session_ = nullptr;
    core_->forgetSession();
}

}  // namespace tunedeck::ssh
