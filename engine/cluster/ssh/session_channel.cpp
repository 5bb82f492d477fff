#include "cluster/ssh/session_channel.h"

namespace tunedeck::ssh {

SessionChannel::SessionChannel(SshSession* session, std::unique_ptr<Libssh2Channel> channel)
    : session_(session), channel_(std::move(channel)) {
    session_->registerUser(this);
    // The open request goes out now; what it led to comes from the event loop.
    session_->pumpNow();
}

SessionChannel::~SessionChannel() {
    if (session_) {
        session_->unregisterUser(this);
    }
    channel_.reset();  // retires the libssh2 channel with the session
    if (session_) {
        session_->pumpNow();
    }
}

void SessionChannel::write(const QByteArray& data) {
    if (closed_ || !session_) {
        return;
    }
    channel_->write(data);
    session_->pumpNow();
}

void SessionChannel::sendEof() {
    if (closed_ || !session_) {
        return;
    }
    channel_->closeStdin();
    session_->pumpNow();
}

void SessionChannel::close() {
    if (closed_) {
        return;
    }
    closed_ = true;
    pending_ = {};
    channel_->close();
    if (session_) {
        session_->pumpNow();
    }
}

bool SessionChannel::isOpen() const {
    return !closed_ && !finished_ && session_ && !channel_->isOver();
}

qint64 SessionChannel::bytesToWrite() const {
    return channel_->bytesToWrite();
}

bool SessionChannel::pump() {
    // Also after close(): a half-done open still has to finish (see Libssh2Channel::close).
    return channel_->pump(pending_);
}

bool SessionChannel::hasEvents() const {
    return !closed_ && !pending_.empty();
}

bool SessionChannel::holdsChannel() const {
    return channel_->holdsChannel();
}

void SessionChannel::forgetSession() {
    session_ = nullptr;
    channel_->forgetSession();
}

}  // namespace tunedeck::ssh
