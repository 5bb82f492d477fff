#include "cluster/ssh/libssh2_channel.h"

#include "cluster/ssh/ssh_session.h"

namespace tunedeck::ssh {
namespace {

// Bytes read per libssh2 call.
constexpr qsizetype kReadChunk = 256 * 1024;
// Bytes gathered for the owner before it must deliver them (bounds memory per wakeup).
constexpr qsizetype kMaxUndelivered = 8 * 1024 * 1024;
// Small writes queued behind a blocked one are merged up to this size (fewer, fuller packets).
constexpr qsizetype kCoalesceLimit = 256 * 1024;

QString libssh2Detail(LIBSSH2_SESSION* session) {
    char* text = nullptr;
    if (session) {
        libssh2_session_last_error(session, &text, nullptr, 0);
    }
    return text ? QString::fromUtf8(text) : QString();
}

// libssh2 1.10 keeps only the reason code of SSH_MSG_CHANNEL_OPEN_FAILURE, as fixed words.
Libssh2Channel::Refusal refusalOf(int rc, const QString& detail) {
    if (rc != LIBSSH2_ERROR_CHANNEL_FAILURE) {
        return Libssh2Channel::Refusal::Other;
    }
    if (detail.contains(QLatin1String("administratively prohibited"))) {
        return Libssh2Channel::Refusal::Prohibited;
    }
    if (detail.contains(QLatin1String("connect failed"))) {
        return Libssh2Channel::Refusal::ConnectFailed;
    }
    return Libssh2Channel::Refusal::Other;
}

}  // namespace

Libssh2Channel::Libssh2Channel(SshSession* session, Start start, QByteArray argument,
                               unsigned windowSize)
    : session_(session), start_(start), argument_(std::move(argument)), windowSize_(windowSize) {}

Libssh2Channel::Libssh2Channel(SshSession* session, Opening opening, QString target,
                               unsigned windowSize)
    : session_(session),
      start_(Start::None),
      opening_(std::move(opening)),
      target_(std::move(target)),
      windowSize_(windowSize) {}

Libssh2Channel::~Libssh2Channel() {
    if (!session_) {
        return;
    }
    if (state_ == State::Opening) {
        session_->adoptChannelOpening(this, opening_.type, opening_.payload, windowSize_);
    }
    retire();
}

QString Libssh2Channel::hostName() const {
    return session_ ? session_->endpoint().name() : QStringLiteral("the node");
}

void Libssh2Channel::retire() {
    if (channel_ && session_) {
        session_->retireChannel(std::move(channel_));
    }
    channel_.reset();
}

bool Libssh2Channel::pump(Output& output) {
    if (!session_ || !session_->raw()) {
        return false;
    }
    bool progress = false;
    if (state_ == State::Opening) {
        progress |= pumpOpen(output);
    }
    if (state_ == State::Starting) {
        progress |= pumpStart(output);
    }
    if (state_ == State::Running) {
        progress |= pumpWrite();
        progress |= pumpRead(output);
        progress |= pumpEnd(output);
    }
    return progress;
}

bool Libssh2Channel::pumpOpen(Output& output) {
    if (!session_->acquireChannelOpening(this)) {
        return false;
    }
    LIBSSH2_SESSION* raw = session_->raw();
    // libssh2 sends the payload again after EAGAIN (it is not copied): the same bytes each time.
    LIBSSH2_CHANNEL* channel = libssh2_channel_open_ex(
        raw, opening_.type.constData(), static_cast<unsigned>(opening_.type.size()), windowSize_,
        LIBSSH2_CHANNEL_PACKET_DEFAULT,
        opening_.payload.isEmpty() ? nullptr : opening_.payload.constData(),
        static_cast<unsigned>(opening_.payload.size()));
    if (!channel) {
        const int rc = libssh2_session_last_errno(raw);
        if (rc == LIBSSH2_ERROR_EAGAIN) {
            return false;
        }
        session_->releaseChannelOpening(this);
        output.refusal = refusalOf(rc, libssh2Detail(raw));
        failChannel(
            output,
            target_.isEmpty()
                ? QStringLiteral("%1 refused to open a channel").arg(hostName())
                : QStringLiteral("%1 refused to open a channel to %2").arg(hostName(), target_),
            rc);
        return true;
    }
    session_->releaseChannelOpening(this);
    channel_.reset(channel);
    if (closeWhenOpened_) {
        retire();
        state_ = State::Closed;
        return true;
    }
    if (start_ == Start::None) {
        state_ = State::Running;
        output.started = true;
        return true;
    }
    state_ = State::Starting;
    return true;
}

bool Libssh2Channel::pumpStart(Output& output) {
    const bool exec = start_ == Start::Exec;
    const char* request = exec ? "exec" : "subsystem";
    const int rc = libssh2_channel_process_startup(
        channel_.get(), request, static_cast<unsigned>(qstrlen(request)), argument_.constData(),
        static_cast<unsigned>(argument_.size()));
    if (rc == LIBSSH2_ERROR_EAGAIN) {
        return false;
    }
    if (rc != 0) {
        failChannel(output,
                    exec ? QStringLiteral("%1 refused to run the command").arg(hostName())
                         : QStringLiteral("%1 refused the '%2' subsystem")
                               .arg(hostName(), QString::fromUtf8(argument_)),
                    rc);
        return true;
    }
    state_ = State::Running;
    output.started = true;
    return true;
}

bool Libssh2Channel::pumpWrite() {
    bool progress = false;
    LIBSSH2_CHANNEL* channel = channel_.get();
    while (!queue_.empty() && !writeBroken_) {
        const QByteArray& head = queue_.front();
        const ssize_t written =
            libssh2_channel_write_ex(channel, 0, head.constData() + headOffset_,
                                     static_cast<size_t>(head.size() - headOffset_));
        if (written == LIBSSH2_ERROR_EAGAIN || written == LIBSSH2_ERROR_CHANNEL_WINDOW_FULL) {
            headInFlight_ = true;
            return progress;
        }
        if (written < 0) {
            if (isSessionFatal(static_cast<int>(written))) {
                session_->reportFatal(static_cast<int>(written),
                                      QStringLiteral("writing to a channel"));
                return true;
            }
            // The remote end closed its stdin: what is left can never be delivered.
            writeBroken_ = true;
            queue_.clear();
            queued_ = 0;
            headOffset_ = 0;
            return true;
        }
        headInFlight_ = false;
        headOffset_ += written;
        queued_ -= written;
        progress = true;
        if (headOffset_ == head.size()) {
            queue_.pop_front();
            headOffset_ = 0;
        }
    }
    if (stdinCloseWanted_ && !stdinClosed_ && queue_.empty()) {
        const int rc = libssh2_channel_send_eof(channel);
        if (rc == LIBSSH2_ERROR_EAGAIN) {
            return progress;
        }
        if (rc != 0 && isSessionFatal(rc)) {
            session_->reportFatal(rc, QStringLiteral("closing a channel's input"));
        }
        stdinClosed_ = true;
        progress = true;
    }
    return progress;
}

bool Libssh2Channel::pumpRead(Output& output) {
    bool progress = false;
    LIBSSH2_CHANNEL* channel = channel_.get();
    for (int stream = 0; stream < 2; ++stream) {
        QByteArray& sink = stream == 0 ? output.standardOutput : output.standardError;
        for (;;) {
            if (sink.size() >= kMaxUndelivered) {
                session_->requestAnotherRound();
                break;
            }
            // Read straight into the owner's buffer: no copy on the data path.
            const qsizetype before = sink.size();
            sink.resize(before + kReadChunk);
            const ssize_t got =
                libssh2_channel_read_ex(channel, stream, sink.data() + before, kReadChunk);
            sink.resize(before + (got > 0 ? got : 0));
            if (got > 0) {
                progress = true;
                continue;
            }
            if (got < 0 && got != LIBSSH2_ERROR_EAGAIN && isSessionFatal(static_cast<int>(got))) {
                session_->reportFatal(static_cast<int>(got),
                                      QStringLiteral("reading from a channel"));
                return true;
            }
            break;
        }
    }
    return progress;
}

bool Libssh2Channel::pumpEnd(Output& output) {
    LIBSSH2_CHANNEL* channel = channel_.get();
    bool progress = false;
    if (!remoteEof_) {
        if (libssh2_channel_eof(channel) != 1) {
            return false;
        }
        remoteEof_ = true;
        progress = true;
        // A forward's host closes the channel only once both sides are done: the owner hears
        // of the end of the data now, and decides when to end its own side.
        output.endOfData = start_ == Start::None;
    }
    // The exit status may follow EOF: the channel is over once the host has closed it.
    const int rc = libssh2_channel_wait_closed(channel);
    if (rc == LIBSSH2_ERROR_EAGAIN) {
        return progress;
    }
    if (rc != 0 && isSessionFatal(rc)) {
        session_->reportFatal(rc, QStringLiteral("waiting for a channel to close"));
        return true;
    }
    output.exitStatus = libssh2_channel_get_exit_status(channel);
    char* signal = nullptr;
    size_t signalLength = 0;
    libssh2_channel_get_exit_signal(channel, &signal, &signalLength, nullptr, nullptr, nullptr,
                                    nullptr);
    if (signal) {
        output.exitSignal = QString::fromLatin1(signal, static_cast<qsizetype>(signalLength));
        output.exitStatus = -1;
        libssh2_free(session_->raw(), signal);
    }
    output.finished = true;
    state_ = State::Finished;
    retire();
    return true;
}

void Libssh2Channel::failChannel(Output& output, const QString& what, int rc) {
    if (isSessionFatal(rc)) {
        session_->reportFatal(rc, what);
        return;
    }
    const QString detail = libssh2Detail(session_->raw());
    output.error = detail.isEmpty() ? what : QStringLiteral("%1 (%2)").arg(what, detail);
    output.finished = true;
    output.exitStatus = -1;
    state_ = State::Finished;
    retire();
}

void Libssh2Channel::write(QByteArray data) {
    if (data.isEmpty() || isOver() || stdinCloseWanted_ || writeBroken_) {
        return;
    }
    queued_ += data.size();
    // Merge into the tail unless libssh2 may still hold a pointer into it.
    const bool tailIsPinned = queue_.size() == 1 && (headInFlight_ || headOffset_ > 0);
    if (!queue_.empty() && !tailIsPinned && queue_.back().size() + data.size() <= kCoalesceLimit) {
        queue_.back().append(data);
    } else {
        queue_.push_back(std::move(data));
    }
}

void Libssh2Channel::closeStdin() {
    stdinCloseWanted_ = true;
}

void Libssh2Channel::close() {
    queue_.clear();
    queued_ = 0;
    if (state_ == State::Opening) {
        if (session_ && session_->holdsChannelOpening(this)) {
            // libssh2 keeps the open's progress per session: finish it, then free the channel.
            closeWhenOpened_ = true;
        } else {
            state_ = State::Closed;
        }
        return;
    }
    if (state_ != State::Closed) {
        retire();
        state_ = State::Closed;
    }
}

bool Libssh2Channel::abandon() {
    const bool report = !isOver();
    channel_.reset();
    queue_.clear();
    queued_ = 0;
    state_ = state_ == State::Closed ? State::Closed : State::Finished;
    return report;
}

}  // namespace tunedeck::ssh
