// Path and tree operations: rename, mkdir -p, listing, rm -rf, and whole trees each way (built on
// the file transfers, so that many files are in flight at once).
#include <algorithm>
#include <deque>
#include <map>

#include "cluster/ssh/sftp_operations.h"

namespace tunedeck::ssh::detail {
namespace {

// Folders read at once while listing a tree.
constexpr int kMaxOpenDirs = 8;
// REMOVE requests outstanding at once while deleting a tree.
constexpr int kMaxRemovesInFlight = 64;

QByteArray joinPath(const QByteArray& root, const QString& relative) {
    if (relative.isEmpty()) {
        return root;
    }
    QByteArray path = root;
    if (!path.endsWith('/')) {
        path += '/';
    }
    return path + relative.toUtf8();
}

int depthOf(const QString& relative) {
    return relative.isEmpty() ? 0 : static_cast<int>(relative.count(QLatin1Char('/'))) + 1;
}

QByteArray withoutTrailingSlash(QByteArray path) {
    while (path.size() > 1 && path.endsWith('/')) {
        path.chop(1);
    }
    return path;
}

class Rename final : public SftpOperation {
  public:
    Rename(SftpClient& client, QString from, QString to)
        : SftpOperation(client), fromText_(std::move(from)), toText_(std::move(to)) {}

    void start() override {
        from_ = resolve(fromText_);
        to_ = resolve(toText_);
        if (hasPosixRename()) {
            request(
                sftp::kExtended,
                [&](sftp::PacketWriter& w) {
                    w.string("posix-rename@openssh.com").string(from_).string(to_);
                },
                [this](SftpReply& reply) { done(reply); });
            return;
        }
        plainRename(true);
    }

  private:
    // Plain SFTP rename refuses to replace a file: remove the target, then rename again.
    void plainRename(bool mayRetry) {
        request(
            sftp::kRename, [&](sftp::PacketWriter& w) { w.string(from_).string(to_); },
            [this, mayRetry](SftpReply& reply) {
                if (reply.ok() || !mayRetry) {
                    done(reply);
                    return;
                }
                request(
                    sftp::kRemove, [&](sftp::PacketWriter& w) { w.string(to_); },
                    [this](SftpReply&) { plainRename(false); });
            });
    }

    void done(SftpReply& reply) {
        if (reply.ok()) {
            finish(true);
        } else {
            finish(false, failure(QStringLiteral("rename %1 to").arg(describe(from_)), to_, reply));
        }
    }

    QString fromText_;
    QString toText_;
    QByteArray from_;
    QByteArray to_;
};

class MakePath final : public SftpOperation {
  public:
    MakePath(SftpClient& client, QString path) : SftpOperation(client), text_(std::move(path)) {}

    void start() override {
        path_ = withoutTrailingSlash(resolve(text_));
        request(
            sftp::kStat, [&](sftp::PacketWriter& w) { w.string(path_); },
            [this](SftpReply& reply) {
                if (reply.type == sftp::kAttrs) {
                    checkFolder(reply);
                } else if (reply.isStatus() && reply.status == sftp::kNoSuchFile) {
                    createAll();
                } else {
                    finish(false, failure(QStringLiteral("create folder"), path_, reply));
                }
            });
    }

  private:
    void checkFolder(SftpReply& reply) {
        if (reply.body.attributes().isDirectory()) {
            finish(true);
        } else {
            finish(false, QStringLiteral("cannot create folder %1: a file is in the way")
                              .arg(describe(path_)));
        }
    }

    // Every missing level at once: a server answers requests in the order they came (OpenSSH
    // does), so this costs one round trip; the STAT after it tells whether it worked.
    void createAll() {
        for (qsizetype slash = path_.indexOf('/', 1); slash > 0;
             slash = path_.indexOf('/', slash + 1)) {
            const QByteArray prefix = path_.left(slash);
            request(
                sftp::kMkdir, [&](sftp::PacketWriter& w) { w.string(prefix).attributes({}); },
                nullptr);
        }
        request(
            sftp::kMkdir, [&](sftp::PacketWriter& w) { w.string(path_).attributes({}); },
            [this](SftpReply& reply) {
                if (!reply.ok()) {
                    lastError_ = failure(QStringLiteral("create folder"), path_, reply);
                }
            });
        request(
            sftp::kStat, [&](sftp::PacketWriter& w) { w.string(path_); },
            [this](SftpReply& reply) {
                if (reply.type == sftp::kAttrs) {
                    checkFolder(reply);
                } else {
                    finish(false, lastError_.isEmpty()
                                      ? failure(QStringLiteral("create folder"), path_, reply)
                                      : lastError_);
                }
            });
    }

    QString text_;
    QByteArray path_;
    QString lastError_;
};

class ListTree final : public SftpOperation {
  public:
    ListTree(SftpClient& client, QString root, std::shared_ptr<std::vector<RemoteEntry>> entries)
        : SftpOperation(client), text_(std::move(root)), entries_(std::move(entries)) {}

    void start() override {
        root_ = withoutTrailingSlash(resolve(text_));
        request(
            sftp::kStat, [&](sftp::PacketWriter& w) { w.string(root_); },
            [this](SftpReply& reply) {
                if (reply.type != sftp::kAttrs) {
                    finish(false, failure(QStringLiteral("list"), root_, reply));
                    return;
                }
                if (!reply.body.attributes().isDirectory()) {
                    finish(false,
                           QStringLiteral("cannot list %1: not a folder").arg(describe(root_)));
                    return;
                }
                waiting_.push_back(QString());
                openMore();
            });
    }

  private:
    void openMore() {
        while (open_ < kMaxOpenDirs && !waiting_.empty()) {
            const QString relative = std::move(waiting_.front());
            waiting_.pop_front();
            ++open_;
            const QByteArray path = joinPath(root_, relative);
            request(
                sftp::kOpendir, [&](sftp::PacketWriter& w) { w.string(path); },
                [this, relative, path](SftpReply& reply) {
                    if (reply.type != sftp::kHandle) {
                        finish(false, failure(QStringLiteral("list"), path, reply));
                        return;
                    }
                    readMore(reply.body.string().toByteArray(), relative, path);
                });
        }
        if (open_ == 0 && waiting_.empty()) {
            std::sort(entries_->begin(), entries_->end(),
                      [](const RemoteEntry& a, const RemoteEntry& b) { return a.path < b.path; });
            finish(true);
        }
    }

    void readMore(const QByteArray& handle, const QString& relative, const QByteArray& path) {
        request(
            sftp::kReaddir, [&](sftp::PacketWriter& w) { w.string(handle); },
            [this, handle, relative, path](SftpReply& reply) {
                if (reply.type == sftp::kName) {
                    addNames(reply, relative);
                    readMore(handle, relative, path);
                    return;
                }
                request(
                    sftp::kClose, [&](sftp::PacketWriter& w) { w.string(handle); }, nullptr);
                if (!reply.isStatus() || reply.status != sftp::kEof) {
                    finish(false, failure(QStringLiteral("list"), path, reply));
                    return;
                }
                --open_;
                openMore();
            });
    }

    void addNames(SftpReply& reply, const QString& relative) {
        const quint32 count = reply.body.u32();
        for (quint32 i = 0; i < count && reply.body.ok(); ++i) {
            const QString name = QString::fromUtf8(reply.body.string());
            reply.body.string();  // the "ls -l" line
            const sftp::Attributes attributes = reply.body.attributes();
            if (!reply.body.ok() || name == QLatin1String(".") || name == QLatin1String("..")) {
                continue;
            }
            RemoteEntry entry;
            entry.path = relative.isEmpty() ? name : relative + QLatin1Char('/') + name;
            entry.size = static_cast<qint64>(attributes.size);
            entry.mtime = attributes.mtime;
            entry.isDir = attributes.isDirectory();
            entry.mode = attributes.permissions;
            if (entry.isDir) {
                waiting_.push_back(entry.path);
            }
            entries_->push_back(std::move(entry));
        }
    }

    QString text_;
    QByteArray root_;
    std::shared_ptr<std::vector<RemoteEntry>> entries_;
    std::deque<QString> waiting_;
    int open_ = 0;
};

class RemoveTree final : public SftpOperation {
  public:
    RemoveTree(SftpClient& client, QString path) : SftpOperation(client), text_(std::move(path)) {}

    void start() override {
        path_ = withoutTrailingSlash(resolve(text_));
        request(
            sftp::kLstat, [&](sftp::PacketWriter& w) { w.string(path_); },
            [this](SftpReply& reply) {
                if (reply.isStatus() && reply.status == sftp::kNoSuchFile) {
                    finish(true);
                } else if (reply.type != sftp::kAttrs) {
                    finish(false, failure(QStringLiteral("remove"), path_, reply));
                } else if (!reply.body.attributes().isDirectory()) {
                    request(
                        sftp::kRemove, [&](sftp::PacketWriter& w) { w.string(path_); },
                        [this](SftpReply& removed) {
                            checked(removed, path_, [this] { finish(true); });
                        });
                } else {
                    listThenRemove();
                }
            });
    }

  private:
    void listThenRemove() {
        entries_ = std::make_shared<std::vector<RemoteEntry>>();
        auto list = makeListTree(client_, QString::fromUtf8(path_), entries_);
        auto self = std::static_pointer_cast<RemoveTree>(shared_from_this());
        list->onFinished = [self](bool ok, const QString& error) {
            if (self->over()) {
                return;
            }
            if (!ok) {
                self->finish(false, error);
                return;
            }
            for (const RemoteEntry& entry : *self->entries_) {
                if (entry.isDir) {
                    self->folders_[depthOf(entry.path)].push_back(entry.path);
                } else {
                    self->files_.push_back(entry.path);
                }
            }
            self->removeFiles();
        };
        list->start();
    }

    void removeFiles() {
        while (inFlight_ < kMaxRemovesInFlight && nextFile_ < files_.size()) {
            const QByteArray path = joinPath(path_, files_[nextFile_++]);
            ++inFlight_;
            request(
                sftp::kRemove, [&](sftp::PacketWriter& w) { w.string(path); },
                [this, path](SftpReply& reply) {
                    checked(reply, path, [this] {
                        --inFlight_;
                        removeFiles();
                    });
                });
        }
        if (inFlight_ == 0 && nextFile_ == files_.size()) {
            removeFolders();
        }
    }

    // Deepest folders first, one depth at a time: a folder goes once its children are gone.
    void removeFolders() {
        if (folders_.empty()) {
            request(
                sftp::kRmdir, [&](sftp::PacketWriter& w) { w.string(path_); },
                [this](SftpReply& reply) { checked(reply, path_, [this] { finish(true); }); });
            return;
        }
        const auto deepest = std::prev(folders_.end());
        const std::vector<QString> level = std::move(deepest->second);
        folders_.erase(deepest);
        inFlight_ = static_cast<int>(level.size());
        for (const QString& relative : level) {
            const QByteArray path = joinPath(path_, relative);
            request(
                sftp::kRmdir, [&](sftp::PacketWriter& w) { w.string(path); },
                [this, path](SftpReply& reply) {
                    checked(reply, path, [this] {
                        if (--inFlight_ == 0) {
                            removeFolders();
                        }
                    });
                });
        }
    }

    template <typename Next>
    void checked(SftpReply& reply, const QByteArray& path, Next next) {
        if (reply.ok() || (reply.isStatus() && reply.status == sftp::kNoSuchFile)) {
            next();
        } else {
            finish(false, failure(QStringLiteral("remove"), path, reply));
        }
    }

    QString text_;
    QByteArray path_;
    std::shared_ptr<std::vector<RemoteEntry>> entries_;
    std::vector<QString> files_;
    size_t nextFile_ = 0;
    std::map<int, std::vector<QString>> folders_;
    int inFlight_ = 0;
};

}  // namespace

std::shared_ptr<SftpOperation> makeRename(SftpClient& client, const QString& from,
                                          const QString& to) {
    return std::make_shared<Rename>(client, from, to);
}

std::shared_ptr<SftpOperation> makeMakePath(SftpClient& client, const QString& path) {
    return std::make_shared<MakePath>(client, path);
}

std::shared_ptr<SftpOperation> makeListTree(SftpClient& client, const QString& root,
                                            std::shared_ptr<std::vector<RemoteEntry>> entries) {
    return std::make_shared<ListTree>(client, root, std::move(entries));
}

std::shared_ptr<SftpOperation> makeRemoveTree(SftpClient& client, const QString& path) {
    return std::make_shared<RemoveTree>(client, path);
}

}  // namespace tunedeck::ssh::detail
