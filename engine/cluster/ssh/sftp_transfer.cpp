// File transfers: one file each way, with many READ/WRITE requests outstanding, written to a
// ".part" name and renamed into place once complete, so a reader never sees half a file.
#include <cerrno>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFileInfo>

#include "cluster/ssh/sftp_operations.h"

namespace tunedeck::ssh::detail {
namespace {

QString errnoText(int error) {
    return QString::fromLocal8Bit(strerror(error));
}

// Uploads a local file: OPEN remote.part, WRITEs in flight, FSETSTAT (mode, times) and CLOSE,
// then rename over the target.
class PutFile final : public FileTransfer {
  public:
    PutFile(SftpClient& client, QString local, QString remote)
        : FileTransfer(client), local_(std::move(local)), remoteText_(std::move(remote)) {}

    void start() override {
        remote_ = resolve(remoteText_);
        part_ = remote_ + ".part";
        file_.setFileName(local_);
        if (!file_.open(QIODevice::ReadOnly)) {
            fail(QStringLiteral("cannot upload %1: %2").arg(local_, file_.errorString()), false);
            return;
        }
        struct stat info {};
        if (::fstat(file_.handle(), &info) != 0) {
            fail(QStringLiteral("cannot upload %1: %2").arg(local_, errnoText(errno)), false);
            return;
        }
        size_ = info.st_size;
        mode_ = info.st_mode & 07777;
        atime_ = static_cast<quint32>(info.st_atime);
        mtime_ = static_cast<quint32>(info.st_mtime);
        sftp::Attributes attributes;
        attributes.flags = sftp::Attributes::kPermissions;
        attributes.permissions = mode_ | 0600;  // writable by us while it is written
        request(
            sftp::kOpen,
            [&](sftp::PacketWriter& w) {
                w.string(part_)
                    .u32(sftp::kOpenWrite | sftp::kOpenCreate | sftp::kOpenTruncate)
                    .attributes(attributes);
            },
            [this](SftpReply& reply) { opened(reply); });
    }

    bool feedOne() override {
        if (handle_.isEmpty() || writesDone_ || next_ >= size_) {
            return false;
        }
        const qint64 length = qMin<qint64>(writeChunk(), size_ - next_);
        if (!budgetAllows(length)) {
            return false;
        }
        const qint64 offset = next_;
        quint32 id = 0;
        sftp::PacketWriter writer = begin(sftp::kWrite, &id, handle_.size() + length + 32);
        writer.string(handle_).u64(static_cast<quint64>(offset));
        char* data = writer.rawString(length);
        // Read straight into the packet: the data is copied once, by the kernel.
        const qint64 got = file_.read(data, length);
        if (got != length) {
            fail(QStringLiteral("cannot upload %1: it changed while being read (%2)")
                     .arg(local_, got < 0 ? file_.errorString() : QStringLiteral("shorter")),
                 true);
            return false;
        }
        next_ += length;
        send(
            id, writer, [this, length](SftpReply& reply) { written(reply, length); }, length);
        return true;
    }

    void cancel() override {
        onFinished = nullptr;
        fail(QString(), true);
    }

  private:
    void opened(SftpReply& reply) {
        if (reply.type != sftp::kHandle) {
            fail(failure(QStringLiteral("create"), part_, reply), false);
            return;
        }
        handle_ = reply.body.string().toByteArray();
        if (size_ == 0) {
            finishWriting();
        }
        scheduleTransfers();
    }

    void written(SftpReply& reply, qint64 length) {
        if (!reply.ok()) {
            fail(failure(QStringLiteral("write"), part_, reply), true);
            return;
        }
        acked_ += length;
        if (acked_ == size_) {
            finishWriting();
        }
    }

    void finishWriting() {
        writesDone_ = true;
        file_.close();
        sftp::Attributes attributes;
        attributes.flags = sftp::Attributes::kPermissions | sftp::Attributes::kTimes;
        attributes.permissions = mode_;
        attributes.atime = atime_;
        attributes.mtime = mtime_;
        // Both on the same handle: the server answers them in order.
        request(
            sftp::kFsetstat,
            [&](sftp::PacketWriter& w) { w.string(handle_).attributes(attributes); },
            [this](SftpReply& reply) {
                if (!reply.ok()) {
                    setstatError_ = failure(QStringLiteral("set mode and time of"), part_, reply);
                }
            });
        request(
            sftp::kClose, [&](sftp::PacketWriter& w) { w.string(handle_); },
            [this](SftpReply& reply) {
                handle_.clear();
                if (!reply.ok()) {
                    fail(failure(QStringLiteral("finish writing"), part_, reply), true);
                } else if (!setstatError_.isEmpty()) {
                    fail(setstatError_, true);
                } else {
                    renameIntoPlace();
                }
            });
    }

    void renameIntoPlace() {
        auto rename = makeRename(client_, QString::fromUtf8(part_), QString::fromUtf8(remote_));
        auto self = std::static_pointer_cast<PutFile>(shared_from_this());
        rename->onFinished = [self](bool ok, const QString& error) {
            if (self->over()) {
                return;
            }
            if (!ok) {
                self->fail(error, true);
                return;
            }
            self->finish(true);
            self->scheduleTransfers();
        };
        rename->start();
    }

    // Ends with an error (empty: cancelled); the partial remote file is removed.
    void fail(const QString& error, bool removePart) {
        if (over()) {
            return;
        }
        file_.close();
        if (!handle_.isEmpty()) {
            request(
                sftp::kClose, [&](sftp::PacketWriter& w) { w.string(handle_); }, nullptr);
            handle_.clear();
        }
        if (removePart) {
            request(
                sftp::kRemove, [&](sftp::PacketWriter& w) { w.string(part_); }, nullptr);
        }
        finish(false, error);
        scheduleTransfers();
    }

    QString local_;
    QString remoteText_;
    QByteArray remote_;
    QByteArray part_;
    QFile file_;
    qint64 size_ = 0;
    quint32 mode_ = 0644;
    quint32 atime_ = 0;
    quint32 mtime_ = 0;
    QByteArray handle_;
    qint64 next_ = 0;
    qint64 acked_ = 0;
    bool writesDone_ = false;
    QString setstatError_;
};

// Downloads a remote file: STAT and OPEN together, READs in flight (written where they belong
// in local.part, whatever order they come back in), then mode, times and rename.
class GetFile final : public FileTransfer {
  public:
    GetFile(SftpClient& client, QString remote, QString local)
        : FileTransfer(client), remoteText_(std::move(remote)), local_(std::move(local)) {}

    ~GetFile() override {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }

    void start() override {
        remote_ = resolve(remoteText_);
        part_ = local_ + QStringLiteral(".part");
        request(
            sftp::kStat, [&](sftp::PacketWriter& w) { w.string(remote_); },
            [this](SftpReply& reply) {
                if (reply.type != sftp::kAttrs) {
                    fail(failure(QStringLiteral("download"), remote_, reply));
                    return;
                }
                attributes_ = reply.body.attributes();
                if (!attributes_.isRegularFile() &&
                    (attributes_.flags & sftp::Attributes::kPermissions)) {
                    fail(QStringLiteral("cannot download %1: not a file").arg(describe(remote_)));
                    return;
                }
                size_ = static_cast<qint64>(attributes_.size);
                statDone_ = true;
                scheduleTransfers();
            });
        request(
            sftp::kOpen,
            [&](sftp::PacketWriter& w) {
                w.string(remote_).u32(sftp::kOpenRead).attributes(sftp::Attributes());
            },
            [this](SftpReply& reply) { opened(reply); });
    }

    bool feedOne() override {
        if (!statDone_ || handle_.isEmpty() || finishing_) {
            return false;
        }
        qint64 offset = 0;
        qint64 length = 0;
        if (!gaps_.empty()) {
            offset = gaps_.back().first;
            length = gaps_.back().second;
        } else if (eofAt_ < 0 && (next_ < size_ || !probing_)) {
            // Past the size seen in STAT one READ more asks for the end of file, sent along
            // with the last data request so that it costs no extra round trip.
            offset = next_;
            length = next_ < size_ ? qMin<qint64>(readChunk(), size_ - next_) : readChunk();
        } else {
            return false;
        }
        if (!budgetAllows(length)) {
            return false;
        }
        if (!gaps_.empty()) {
            gaps_.pop_back();
        } else {
            if (next_ >= size_) {
                probing_ = true;
            }
            next_ += length;
        }
        ++outstanding_;
        quint32 id = 0;
        sftp::PacketWriter writer = begin(sftp::kRead, &id, handle_.size() + 16);
        writer.string(handle_).u64(static_cast<quint64>(offset)).u32(static_cast<quint32>(length));
        send(
            id, writer, [this, offset, length](SftpReply& reply) { read(reply, offset, length); },
            length);
        return true;
    }

    void cancel() override {
        onFinished = nullptr;
        fail(QString());
    }

  private:
    void opened(SftpReply& reply) {
        if (reply.type != sftp::kHandle) {
            fail(failure(QStringLiteral("download"), remote_, reply));
            return;
        }
        handle_ = reply.body.string().toByteArray();
        const QFileInfo target(local_);
        if (!QDir().mkpath(target.absolutePath())) {
            fail(QStringLiteral("cannot download %1: cannot create folder %2")
                     .arg(describe(remote_), target.absolutePath()));
            return;
        }
        fd_ = ::open(QFile::encodeName(part_).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                     0600);
        if (fd_ < 0) {
            fail(QStringLiteral("cannot download %1: cannot write %2: %3")
                     .arg(describe(remote_), part_, errnoText(errno)));
            return;
        }
        scheduleTransfers();
    }

    void read(SftpReply& reply, qint64 offset, qint64 length) {
        --outstanding_;
        if (reply.type == sftp::kData) {
            const QByteArrayView data = reply.body.string();
            const qint64 got = data.size();
            if (!reply.body.ok() || got > length) {
                fail(QStringLiteral("cannot download %1: malformed data from the SFTP server")
                         .arg(describe(remote_)));
                return;
            }
            if (got == 0) {
                noteEnd(offset);
            } else {
                if (!writeAt(data, offset)) {
                    return;
                }
                if (got < length) {
                    gaps_.emplace_back(offset + got, length - got);
                }
                if (offset + got > size_) {
                    size_ = offset + got;  // the file grew: keep reading until its end
                    probing_ = false;
                }
            }
        } else if (reply.isStatus() && reply.status == sftp::kEof) {
            noteEnd(offset);
        } else {
            fail(failure(QStringLiteral("read"), remote_, reply));
            return;
        }
        if (outstanding_ == 0 && gaps_.empty() && eofAt_ >= 0) {
            complete();
        }
    }

    void noteEnd(qint64 offset) { eofAt_ = eofAt_ < 0 ? offset : qMin(eofAt_, offset); }

    bool writeAt(QByteArrayView data, qint64 offset) {
        qint64 done = 0;
        while (done < data.size()) {
            const ssize_t n = ::pwrite(fd_, data.data() + done,
                                       static_cast<size_t>(data.size() - done), offset + done);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                fail(QStringLiteral("cannot download %1: cannot write %2: %3")
                         .arg(describe(remote_), part_, errnoText(n < 0 ? errno : ENOSPC)));
                return false;
            }
            done += n;
        }
        return true;
    }

    void complete() {
        finishing_ = true;
        request(
            sftp::kClose, [&](sftp::PacketWriter& w) { w.string(handle_); }, nullptr);
        handle_.clear();
        bool ok = ::ftruncate(fd_, eofAt_) == 0;
        if (ok && (attributes_.flags & sftp::Attributes::kPermissions)) {
            ok = ::fchmod(fd_, attributes_.permissions & 07777) == 0;
        }
        if (ok && (attributes_.flags & sftp::Attributes::kTimes)) {
            const timespec times[2] = {{static_cast<time_t>(attributes_.atime), 0},
                                       {static_cast<time_t>(attributes_.mtime), 0}};
            ok = ::futimens(fd_, times) == 0;
        }
        const int error = errno;
        ::close(fd_);
        fd_ = -1;
        if (!ok) {
            fail(QStringLiteral("cannot download %1: cannot finish %2: %3")
                     .arg(describe(remote_), part_, errnoText(error)));
            return;
        }
        if (::rename(QFile::encodeName(part_).constData(), QFile::encodeName(local_).constData()) !=
            0) {
            fail(QStringLiteral("cannot download %1: cannot rename %2 to %3: %4")
                     .arg(describe(remote_), part_, local_, errnoText(errno)));
            return;
        }
        finish(true);
        scheduleTransfers();
    }

    // Ends with an error (empty: cancelled); the partial local file is removed.
    void fail(const QString& error) {
        if (over()) {
            return;
        }
        if (!handle_.isEmpty()) {
            request(
                sftp::kClose, [&](sftp::PacketWriter& w) { w.string(handle_); }, nullptr);
            handle_.clear();
        }
        if (fd_ >= 0) {
            ::close(fd_);
            fd_ = -1;
            QFile::remove(part_);
        }
        finish(false, error);
        scheduleTransfers();
    }

    QString remoteText_;
    QString local_;
    QByteArray remote_;
    QString part_;
    int fd_ = -1;
    sftp::Attributes attributes_;
    bool statDone_ = false;
    bool finishing_ = false;
    QByteArray handle_;
    qint64 size_ = 0;
    qint64 next_ = 0;
    bool probing_ = false;
    qint64 eofAt_ = -1;
    int outstanding_ = 0;
    std::vector<std::pair<qint64, qint64>> gaps_;
};

}  // namespace

std::shared_ptr<FileTransfer> makePutFile(SftpClient& client, const QString& local,
                                          const QString& remote) {
    return std::make_shared<PutFile>(client, local, remote);
}

std::shared_ptr<FileTransfer> makeGetFile(SftpClient& client, const QString& remote,
                                          const QString& local) {
    return std::make_shared<GetFile>(client, remote, local);
}

}  // namespace tunedeck::ssh::detail
