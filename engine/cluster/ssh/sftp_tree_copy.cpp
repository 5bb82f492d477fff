// Whole folder trees each way: folders first (parents before children), then every file through
// the client's transfer queue (several in flight), then the folders' modes and times, deepest
// first, so that a read-only folder is filled before it becomes read-only.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include <fcntl.h>
#include <sys/stat.h>

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

#include "cluster/ssh/sftp_operations.h"

namespace tunedeck::ssh::detail {
namespace {

QByteArray joinRemote(const QByteArray& root, const QString& relative) {
    if (relative.isEmpty()) {
        return root;
    }
    return (root.endsWith('/') ? root : root + '/') + relative.toUtf8();
}

QString joinLocal(const QString& root, const QString& relative) {
    return relative.isEmpty() ? root : root + QLatin1Char('/') + relative;
}

int depthOf(const QString& relative) {
    return relative.isEmpty() ? 0 : static_cast<int>(relative.count(QLatin1Char('/'))) + 1;
}

// Common to both directions: run the file transfers, stop them all at the first failure.
class TreeCopy : public SftpOperation {
  public:
    using SftpOperation::SftpOperation;

  protected:
    void runTransfers(std::vector<std::shared_ptr<FileTransfer>> transfers) {
        remaining_ = transfers.size();
        if (remaining_ == 0) {
            filesDone();
            return;
        }
        auto self = std::static_pointer_cast<TreeCopy>(shared_from_this());
        for (auto& transfer : transfers) {
            transfer->onFinished = [self](bool ok, const QString& error) {
                if (self->over()) {
                    return;
                }
                if (!ok) {
                    self->stopTransfers();
                    self->finish(false, error);
                    return;
                }
                if (--self->remaining_ == 0) {
                    self->filesDone();
                }
            };
            transfers_.push_back(transfer);
        }
        for (auto& transfer : transfers) {
            enqueueTransfer(std::move(transfer));
        }
    }

    virtual void filesDone() = 0;

  private:
    void stopTransfers() {
        for (const std::weak_ptr<FileTransfer>& weak : transfers_) {
            if (const auto transfer = weak.lock(); transfer && !transfer->over()) {
                transfer->cancel();
            }
        }
    }

    std::vector<std::weak_ptr<FileTransfer>> transfers_;
    size_t remaining_ = 0;
};

class PutTree final : public TreeCopy {
  public:
    PutTree(SftpClient& client, QString localDir, QString remoteDir)
        : TreeCopy(client), local_(std::move(localDir)), remoteText_(std::move(remoteDir)) {}

    void start() override {
        remote_ = resolve(remoteText_);
        const QFileInfo root(local_);
        if (!root.isDir()) {
            finish(false, QStringLiteral("cannot upload folder %1: not a folder").arg(local_));
            return;
        }
        folders_.push_back(QString());
        const QDir base(local_);
        QDirIterator it(local_,
                        QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            it.next();
            const QFileInfo info = it.fileInfo();
            const QString relative = base.relativeFilePath(info.filePath());
            if (info.isSymLink() && info.isDir()) {
                continue;  // not followed: a link could lead out of the tree or in a loop
            }
            if (info.isDir()) {
                folders_.push_back(relative);
            } else if (info.isFile()) {
                files_.push_back(relative);
            }
        }
        std::sort(folders_.begin(), folders_.end(), [](const QString& a, const QString& b) {
            return depthOf(a) != depthOf(b) ? depthOf(a) < depthOf(b) : a < b;
        });
        auto makeRoot = makeMakePath(client_, QString::fromUtf8(remote_));
        auto self = std::static_pointer_cast<PutTree>(shared_from_this());
        makeRoot->onFinished = [self](bool ok, const QString& error) {
            if (self->over()) {
                return;
            }
            if (!ok) {
                self->finish(false, error);
                return;
            }
            self->makeFolders(1);
        };
        makeRoot->start();
    }

  private:
    // One depth at a time (a folder after its parent); an error shows up when a file in it fails.
    void makeFolders(int depth) {
        std::vector<QByteArray> level;
        for (const QString& folder : folders_) {
            if (depthOf(folder) == depth) {
                level.push_back(joinRemote(remote_, folder));
            }
        }
        if (level.empty()) {
            std::vector<std::shared_ptr<FileTransfer>> transfers;
            for (const QString& file : files_) {
                transfers.push_back(makePutFile(client_, joinLocal(local_, file),
                                                QString::fromUtf8(joinRemote(remote_, file))));
            }
            runTransfers(std::move(transfers));
            return;
        }
        pending_ = static_cast<int>(level.size());
        sftp::Attributes attributes;
        attributes.flags = sftp::Attributes::kPermissions;
        attributes.permissions = 0700;
        for (const QByteArray& path : level) {
            request(
                sftp::kMkdir, [&](sftp::PacketWriter& w) { w.string(path).attributes(attributes); },
                [this, depth](SftpReply&) {
                    if (--pending_ == 0) {
                        makeFolders(depth + 1);
                    }
                });
        }
    }

    void filesDone() override {
        pending_ = static_cast<int>(folders_.size());
        for (auto it = folders_.rbegin(); it != folders_.rend(); ++it) {
            const QByteArray path = joinRemote(remote_, *it);
            struct stat info {};
            if (::stat(QFile::encodeName(joinLocal(local_, *it)).constData(), &info) != 0) {
                --pending_;
                continue;
            }
            sftp::Attributes attributes;
            attributes.flags = sftp::Attributes::kPermissions | sftp::Attributes::kTimes;
            attributes.permissions = info.st_mode & 07777;
            attributes.atime = static_cast<quint32>(info.st_atime);
            attributes.mtime = static_cast<quint32>(info.st_mtime);
            request(
                sftp::kSetstat,
                [&](sftp::PacketWriter& w) { w.string(path).attributes(attributes); },
                [this, path](SftpReply& reply) {
                    if (!reply.ok()) {
                        finish(false,
                               failure(QStringLiteral("set mode and time of folder"), path, reply));
                        return;
                    }
                    if (--pending_ == 0) {
                        finish(true);
                    }
                });
        }
        if (pending_ == 0) {
            finish(true);
        }
    }

    QString local_;
    QString remoteText_;
    QByteArray remote_;
    std::vector<QString> folders_;  // "" is the root
    std::vector<QString> files_;
    int pending_ = 0;
};

class GetTree final : public TreeCopy {
  public:
    GetTree(SftpClient& client, QString remoteDir, QString localDir)
        : TreeCopy(client), remoteText_(std::move(remoteDir)), local_(std::move(localDir)) {}

    void start() override {
        remote_ = resolve(remoteText_);
        entries_ = std::make_shared<std::vector<RemoteEntry>>();
        request(
            sftp::kStat, [&](sftp::PacketWriter& w) { w.string(remote_); },
            [this](SftpReply& reply) {
                if (reply.type == sftp::kAttrs) {
                    root_ = reply.body.attributes();
                }
            });
        auto list = makeListTree(client_, QString::fromUtf8(remote_), entries_);
        auto self = std::static_pointer_cast<GetTree>(shared_from_this());
        list->onFinished = [self](bool ok, const QString& error) {
            if (self->over()) {
                return;
            }
            if (!ok) {
                self->finish(false, error);
                return;
            }
            self->createFolders();
        };
        list->start();
    }

  private:
    void createFolders() {
        std::vector<std::shared_ptr<FileTransfer>> transfers;
        if (!QDir().mkpath(local_)) {
            finish(false, QStringLiteral("cannot download %1: cannot create folder %2")
                              .arg(describe(remote_), local_));
            return;
        }
        for (const RemoteEntry& entry : *entries_) {
            const QString local = joinLocal(local_, entry.path);
            if (entry.isDir) {
                if (!QDir().mkpath(local)) {
                    finish(false, QStringLiteral("cannot download %1: cannot create folder %2")
                                      .arg(describe(remote_), local));
                    return;
                }
                continue;
            }
            const quint32 type = entry.mode & 0170000;
            if (type != 0100000 && type != 0120000) {
                continue;  // sockets, pipes and devices are not files to copy
            }
            transfers.push_back(
                makeGetFile(client_, QString::fromUtf8(joinRemote(remote_, entry.path)), local));
        }
        runTransfers(std::move(transfers));
    }

    void filesDone() override {
        std::vector<const RemoteEntry*> folders;
        for (const RemoteEntry& entry : *entries_) {
            if (entry.isDir) {
                folders.push_back(&entry);
            }
        }
        std::sort(folders.begin(), folders.end(), [](const RemoteEntry* a, const RemoteEntry* b) {
            return depthOf(a->path) > depthOf(b->path);
        });
        for (const RemoteEntry* folder : folders) {
            if (!applyTimesAndMode(joinLocal(local_, folder->path), folder->mode & 07777,
                                   folder->mtime)) {
                return;
            }
        }
        if (root_.flags & sftp::Attributes::kPermissions) {
            if (!applyTimesAndMode(local_, root_.permissions & 07777, root_.mtime)) {
                return;
            }
        }
        finish(true);
    }

    bool applyTimesAndMode(const QString& path, quint32 mode, qint64 mtime) {
        const QByteArray name = QFile::encodeName(path);
        const timespec times[2] = {{static_cast<time_t>(mtime), 0},
                                   {static_cast<time_t>(mtime), 0}};
        if (::utimensat(AT_FDCWD, name.constData(), times, 0) != 0 ||
            ::chmod(name.constData(), mode) != 0) {
            finish(false, QStringLiteral("cannot set mode and time of folder %1: %2")
                              .arg(path, QString::fromLocal8Bit(strerror(errno))));
            return false;
        }
        return true;
    }

    QString remoteText_;
    QString local_;
    QByteArray remote_;
    sftp::Attributes root_;
    std::shared_ptr<std::vector<RemoteEntry>> entries_;
};

}  // namespace

std::shared_ptr<SftpOperation> makePutTree(SftpClient& client, const QString& localDir,
                                           const QString& remoteDir) {
    return std::make_shared<PutTree>(client, localDir, remoteDir);
}

std::shared_ptr<SftpOperation> makeGetTree(SftpClient& client, const QString& remoteDir,
                                           const QString& localDir) {
    return std::make_shared<GetTree>(client, remoteDir, localDir);
}

}  // namespace tunedeck::ssh::detail
