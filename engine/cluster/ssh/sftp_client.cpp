#include "cluster/ssh/sftp_client.h"

#include <QPointer>

#include "cluster/ssh/sftp_operations.h"

namespace tunedeck::ssh {
namespace {

// The SFTP channel's receive window: larger than the read budget, so that the window never
// holds the pipeline back.
constexpr unsigned kSftpWindow = 32 * 1024 * 1024;
// READ/WRITE data per request never exceeds this whatever the server allows: OpenSSH's server
// takes messages up to 256 KiB, headers included.
constexpr qsizetype kMaxChunk = 255 * 1024;
// Parsed bytes are dropped from the front of the input buffer once they are this many.
constexpr qsizetype kCompactAfter = 1024 * 1024;

}  // namespace

SftpClient::SftpClient(SshSession* session)
    : session_(session),
      channel_(std::make_unique<Libssh2Channel>(session, Libssh2Channel::Start::Subsystem,
                                                QByteArrayLiteral("sftp"), kSftpWindow)) {
    session_->registerUser(this);
    session_->pumpNow();
}

SftpClient::~SftpClient() {
    if (session_) {
        session_->unregisterUser(this);
    }
    pending_.clear();
    channel_.reset();
}

// --- Public requests -----------------------------------------------------------------------

void SftpClient::putFile(const QString& local, const QString& remote, Done done) {
    launch(detail::makePutFile(*this, local, remote), std::move(done));
}

void SftpClient::getFile(const QString& remote, const QString& local, Done done) {
    launch(detail::makeGetFile(*this, remote, local), std::move(done));
}

void SftpClient::putTree(const QString& localDir, const QString& remoteDir, Done done) {
    launch(detail::makePutTree(*this, localDir, remoteDir), std::move(done));
}

void SftpClient::getTree(const QString& remoteDir, const QString& localDir, Done done) {
    launch(detail::makeGetTree(*this, remoteDir, localDir), std::move(done));
}

void SftpClient::makePath(const QString& remoteDir, Done done) {
    launch(detail::makeMakePath(*this, remoteDir), std::move(done));
}

void SftpClient::removeTree(const QString& remotePath, Done done) {
    launch(detail::makeRemoveTree(*this, remotePath), std::move(done));
}

void SftpClient::rename(const QString& from, const QString& to, Done done) {
    launch(detail::makeRename(*this, from, to), std::move(done));
}

void SftpClient::listTree(const QString& remoteDir, Listed done) {
    auto entries = std::make_shared<std::vector<RemoteEntry>>();
    launch(detail::makeListTree(*this, remoteDir, entries),
           [entries, done = std::move(done)](bool ok, const QString& error) {
               if (done) {
                   done(ok, error, ok ? std::move(*entries) : std::vector<RemoteEntry>());
               }
           });
}

void SftpClient::launch(std::shared_ptr<detail::SftpOperation> operation, Done done) {
    detail::SftpOperation* key = operation.get();
    operation->onFinished = [this, key, done = std::move(done)](bool ok, const QString& error) {
        operations_.erase(key);
        complete([done, ok, error] {
            if (done) {
                done(ok, error);
            }
        });
    };
    operations_.emplace(key, operation);
    switch (state_) {
        case State::Broken:
            operation->finish(false, brokenReason_);
            return;
        case State::Ready:
            startOperation(operation);
            flushSoon();
            return;
        default:
            waitingForReady_.push_back(std::move(operation));
            return;
    }
}

void SftpClient::startOperation(const std::shared_ptr<detail::SftpOperation>& operation) {
    // A file transfer waits for its turn among the files in flight; anything else starts now.
    if (auto transfer = std::dynamic_pointer_cast<detail::FileTransfer>(operation)) {
        enqueueTransfer(std::move(transfer));
    } else {
        operation->start();
    }
}

void SftpClient::complete(std::function<void()> completion) {
    completions_.push_back(std::move(completion));
    if (session_) {
        session_->requestDelivery();
    }
}

void SftpClient::flushSoon() {
    if (session_) {
        session_->pumpNow();
    }
}

// --- SessionUser ---------------------------------------------------------------------------

bool SftpClient::pump() {
    if (state_ == State::Broken) {
        return channel_->pump(io_);
    }
    bool progress = channel_->pump(io_);
    if (io_.started) {
        io_.started = false;
        state_ = State::Initialising;
        channel_->write(sftp::PacketWriter::init(3).finish());
        progress = true;
    }
    // Replies are handled in place: the DATA of a READ goes from this buffer to its file.
    QByteArrayView packet;
    bool handled = false;
    while (state_ != State::Broken && framer_.next(io_.standardOutput, parsed_, &packet)) {
        handlePacket(packet);
        handled = true;
    }
    if (parsed_ == io_.standardOutput.size()) {
        io_.standardOutput.resize(0);  // keeps the capacity
        parsed_ = 0;
    } else if (parsed_ >= kCompactAfter) {
        io_.standardOutput.remove(0, parsed_);
        parsed_ = 0;
    }
    io_.standardError.resize(0);
    if (framer_.broken()) {
        breakDown(QStringLiteral("the SFTP server sent a malformed packet"));
        return true;
    }
    if (io_.finished && state_ != State::Broken) {
        breakDown(
            io_.error.isEmpty()
                ? QStringLiteral("the SFTP server on %1 exited").arg(session_->endpoint().name())
                : io_.error);
        return true;
    }
    if (handled) {
        scheduleTransfers();
        progress = true;
    }
    return progress;
}

void SftpClient::deliver() {
    const QPointer<SftpClient> self(this);
    std::vector<std::function<void()>> ready = std::move(completions_);
    completions_.clear();
    for (std::function<void()>& completion : ready) {
        completion();
        if (!self) {
            return;  // the session (which owns this client) was destroyed by the callback
        }
    }
}

bool SftpClient::holdsChannel() const {
    return channel_->holdsChannel();
}

void SftpClient::abandon(const QString& reason) {
    channel_->abandon();
    breakDown(reason);
}

void SftpClient::forgetSession() {
    session_ = nullptr;
    channel_->forgetSession();
}

// --- Protocol ------------------------------------------------------------------------------

void SftpClient::send(quint32 id, QByteArray packet, Handler handler, qint64 bytesInFlight) {
    if (state_ == State::Broken) {
        return;
    }
    bytesInFlight_ += bytesInFlight;
    pending_.emplace(id, Pending{std::move(handler), bytesInFlight});
    channel_->write(std::move(packet));
}

void SftpClient::handlePacket(QByteArrayView packet) {
    sftp::PacketReader reader(packet);
    const quint8 type = reader.u8();
    if (type == sftp::kVersion) {
        handleVersion(reader);
        return;
    }
    const quint32 id = reader.u32();
    const auto it = pending_.find(id);
    if (!reader.ok() || it == pending_.end()) {
        return;  // an answer nobody waits for any more
    }
    Pending entry = std::move(it->second);
    pending_.erase(it);
    bytesInFlight_ -= entry.bytes;
    detail::SftpReply reply;
    reply.type = type;
    reply.body = reader;
    if (type == sftp::kStatus) {
        reply.status = reply.body.u32();
        reply.message = QString::fromUtf8(reply.body.string());
    }
    if (entry.handler) {
        entry.handler(reply);
    }
}

void SftpClient::handleVersion(sftp::PacketReader& reader) {
    if (state_ != State::Initialising) {
        return;
    }
    const quint32 version = reader.u32();
    bool limits = false;
    while (reader.ok() && !reader.atEnd()) {
        const QByteArrayView name = reader.string();
        reader.string();
        if (name == "posix-rename@openssh.com") {
            posixRename_ = true;
        } else if (name == "limits@openssh.com") {
            limits = true;
        }
    }
    if (version < 3) {
        breakDown(QStringLiteral("the SFTP server on %1 speaks version %2, not 3")
                      .arg(session_->endpoint().name())
                      .arg(version));
        return;
    }
    if (limits) {
        queryLimits();
    } else {
        queryHome();
    }
}

void SftpClient::queryLimits() {
    const quint32 id = nextRequestId();
    sftp::PacketWriter writer(sftp::kExtended, id);
    writer.string("limits@openssh.com");
    send(id, writer.finish(), [this](detail::SftpReply& reply) {
        if (reply.type == sftp::kExtendedReply) {
            reply.body.u64();  // packet length
            const quint64 maxRead = reply.body.u64();
            const quint64 maxWrite = reply.body.u64();
            if (reply.body.ok()) {
                if (maxRead > 0) {
                    serverMaxRead_ = static_cast<qsizetype>(qMin<quint64>(maxRead, kMaxChunk));
                }
                if (maxWrite > 0) {
                    serverMaxWrite_ = static_cast<qsizetype>(qMin<quint64>(maxWrite, kMaxChunk));
                }
            }
        }
        queryHome();
    });
}

void SftpClient::queryHome() {
    const quint32 id = nextRequestId();
    sftp::PacketWriter writer(sftp::kRealpath, id);
    writer.string(".");
    send(id, writer.finish(), [this](detail::SftpReply& reply) {
        if (reply.type == sftp::kName && reply.body.u32() >= 1) {
            home_ = QString::fromUtf8(reply.body.string());
        }
        if (home_.isEmpty()) {
            breakDown(QStringLiteral("the SFTP server on %1 does not tell its home folder")
                          .arg(session_->endpoint().name()));
            return;
        }
        becomeReady();
    });
}

void SftpClient::becomeReady() {
    state_ = State::Ready;
    const std::vector<std::shared_ptr<detail::SftpOperation>> waiting = std::move(waitingForReady_);
    waitingForReady_.clear();
    for (const auto& operation : waiting) {
        if (!operation->over()) {
            startOperation(operation);
        }
    }
}

void SftpClient::breakDown(const QString& reason) {
    if (state_ == State::Broken) {
        return;
    }
    state_ = State::Broken;
    brokenReason_ = reason;
    pending_.clear();
    bytesInFlight_ = 0;
    queuedTransfers_.clear();
    activeTransfers_.clear();
    waitingForReady_.clear();
    std::vector<std::shared_ptr<detail::SftpOperation>> running;
    for (const auto& [key, operation] : operations_) {
        running.push_back(operation);
    }
    for (const auto& operation : running) {
        operation->finish(false, reason);
    }
    channel_->close();
}

// --- For operations ------------------------------------------------------------------------

QString SftpClient::absolutePath(const QString& remotePath) const {
    if (remotePath == QLatin1String("~")) {
        return home_;
    }
    if (remotePath.startsWith(QLatin1String("~/"))) {
        return home_ + remotePath.mid(1);
    }
    if (!remotePath.startsWith(QLatin1Char('/'))) {
        return home_ + QLatin1Char('/') + remotePath;  // the server starts SFTP in the home
    }
    return remotePath;
}

QByteArray SftpClient::resolve(const QString& remotePath) const {
    return absolutePath(remotePath).toUtf8();
}

QString SftpClient::describe(const QByteArray& remotePath) const {
    const QString host = session_ ? session_->endpoint().name() : QStringLiteral("node");
    return QStringLiteral("%1:%2").arg(host, QString::fromUtf8(remotePath));
}

qsizetype SftpClient::readChunk() const {
    return qBound<qsizetype>(1024, tuning_.chunkBytes, serverMaxRead_);
}

qsizetype SftpClient::writeChunk() const {
    return qBound<qsizetype>(1024, tuning_.chunkBytes, serverMaxWrite_);
}

bool SftpClient::budgetAllows(qint64 bytes) const {
    return bytesInFlight_ == 0 || bytesInFlight_ + bytes <= tuning_.maxBytesInFlight;
}

void SftpClient::enqueueTransfer(std::shared_ptr<detail::FileTransfer> transfer) {
    queuedTransfers_.push_back(std::move(transfer));
    scheduleTransfers();
}

void SftpClient::scheduleTransfers() {
    if (scheduling_) {
        rescheduleWanted_ = true;  // a transfer ended inside the loop below
        return;
    }
    scheduling_ = true;
    do {
        rescheduleWanted_ = false;
        std::erase_if(activeTransfers_, [](const auto& transfer) { return transfer->over(); });
        while (state_ == State::Ready && !queuedTransfers_.empty() &&
               static_cast<int>(activeTransfers_.size()) < tuning_.maxOpenFiles) {
            std::shared_ptr<detail::FileTransfer> next = std::move(queuedTransfers_.front());
            queuedTransfers_.pop_front();
            if (next->over()) {
                continue;
            }
            activeTransfers_.push_back(next);
            next->start();
        }
        // One request per file per round: small files are not stuck behind a large one.
        for (bool fed = true; fed && state_ == State::Ready;) {
            fed = false;
            for (size_t i = 0; i < activeTransfers_.size(); ++i) {
                const std::shared_ptr<detail::FileTransfer> transfer = activeTransfers_[i];
                if (!transfer->over() && transfer->feedOne()) {
                    fed = true;
                }
            }
        }
    } while (rescheduleWanted_);
    scheduling_ = false;
}

// --- SftpOperation -------------------------------------------------------------------------

namespace detail {

void SftpOperation::finish(bool ok, const QString& error) {
    if (over_) {
        return;
    }
    over_ = true;
    const auto keepAlive = shared_from_this();
    if (onFinished) {
        auto callback = std::move(onFinished);
        onFinished = nullptr;
        callback(ok, error);
    }
}

void SftpOperation::request(sftp::PacketType type,
                            const std::function<void(sftp::PacketWriter&)>& fill, Handler handler) {
    quint32 id = 0;
    sftp::PacketWriter writer = begin(type, &id);
    fill(writer);
    send(id, writer, std::move(handler));
}

sftp::PacketWriter SftpOperation::begin(sftp::PacketType type, quint32* id, qsizetype reserve) {
    *id = client_.nextRequestId();
    return sftp::PacketWriter(type, *id, reserve);
}

void SftpOperation::send(quint32 id, sftp::PacketWriter& writer, Handler handler,
                         qint64 bytesInFlight) {
    // The operation stays alive while a reply is awaited (the client holds the handler).
    client_.send(
        id, writer.finish(),
        [self = shared_from_this(), handler = std::move(handler)](SftpReply& reply) {
            if (!self->over_ && handler) {
                handler(reply);
            }
        },
        bytesInFlight);
}

QString SftpOperation::failure(const QString& what, const QByteArray& remotePath,
                               const SftpReply& reply) const {
    QString reason;
    if (reply.isStatus()) {
        reason = reply.message.isEmpty() ? sftp::statusText(reply.status) : reply.message;
    } else {
        reason = QStringLiteral("unexpected answer from the SFTP server");
    }
    return QStringLiteral("cannot %1 %2: %3").arg(what, describe(remotePath), reason);
}

}  // namespace detail
}  // namespace tunedeck::ssh
