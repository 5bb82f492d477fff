#include "cluster/tree_sync.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QRegularExpression>
#include <deque>
#include <map>
#include <memory>
#include <set>

#include "cluster/ssh/sftp_client.h"

namespace tunedeck {

namespace {

constexpr int kFilesInFlight = 4;  // enough to keep the SFTP pipeline full with small files

struct FileToSend {
    QString from;
    QString to;
    qint64 size = 0;
};

// One sync in progress: the folders to create, then the files to copy, a few at a time.
struct SyncJob : std::enable_shared_from_this<SyncJob> {
    ssh::SftpClient* sftp = nullptr;
    bool upward = true;
    std::deque<QString> folders;
    std::deque<FileToSend> files;
    int inFlight = 0;
    bool failed = false;
    SyncStats stats;
    SyncDone done;

    void run() {
        if (failed) {
            return;
        }
        if (!folders.empty()) {
            const QString folder = folders.front();
            folders.pop_front();
            if (!upward) {
                if (!QDir().mkpath(folder)) {
                    finish(false, QStringLiteral("cannot create %1").arg(folder));
                    return;
                }
                run();
                return;
            }
            sftp->makePath(folder, [self = shared_from_this()](bool ok, const QString& error) {
                if (!ok) {
                    self->finish(false, error);
                    return;
                }
                self->run();
            });
            return;
        }
        while (inFlight < kFilesInFlight && !files.empty()) {
            const FileToSend file = files.front();
            files.pop_front();
            ++inFlight;
            auto onCopied = [self = shared_from_this(), file](bool ok, const QString& error) {
                --self->inFlight;
                if (!ok) {
                    self->finish(false, error);
                    return;
                }
                ++self->stats.filesSent;
                self->stats.bytesSent += file.size;
                self->run();
            };
            if (upward) {
                sftp->putFile(file.from, file.to, onCopied);
            } else {
                sftp->getFile(file.from, file.to, onCopied);
            }
        }
        if (inFlight == 0 && files.empty()) {
            finish(true, {});
        }
    }

    void finish(bool ok, const QString& error) {
        if (failed) {
            return;
        }
        failed = true;  // no further step runs, whatever is still in flight
        SyncDone callback = std::move(done);
        if (callback) {
            callback(ok, error, stats);
        }
    }
};

QString parentOf(const QString& path) {
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return slash <= 0 ? QStringLiteral("/") : path.left(slash);
}

QString joined(const QString& dir, const QString& relative) {
    return relative.isEmpty() ? dir : dir + QLatin1Char('/') + relative;
}

}  // namespace

bool isExcluded(const QString& relativePath, const QStringList& excludeGlobs) {
    const QStringList parts = relativePath.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (const QString& glob : excludeGlobs) {
        QString pattern = glob;
        while (pattern.endsWith(QLatin1Char('/'))) {
            pattern.chop(1);
        }
        if (pattern.isEmpty()) {
            continue;
        }
        const QRegularExpression re(
            QRegularExpression::anchoredPattern(QRegularExpression::wildcardToRegularExpression(
                pattern, QRegularExpression::UnanchoredWildcardConversion)));
        if (pattern.contains(QLatin1Char('/'))) {
            if (re.match(relativePath).hasMatch()) {
                return true;
            }
            continue;
        }
        for (const QString& part : parts) {
            if (re.match(part).hasMatch()) {
                return true;
            }
        }
    }
    return false;
}

void syncUp(ssh::SftpClient* sftp, const QString& localPath, const QString& remotePath,
            const QStringList& excludeGlobs, SyncDone done) {
    const QFileInfo local(localPath);
    if (!local.exists()) {
        done(false, QStringLiteral("%1 does not exist").arg(localPath), {});
        return;
    }
    const bool single = !local.isDir();
    const QString listed = single ? parentOf(remotePath) : remotePath;
    sftp->listTree(listed, [=, done = std::move(done)](bool ok, const QString&,
                                                       std::vector<ssh::RemoteEntry> entries) {
        // A folder that cannot be listed does not exist yet: everything is sent.
        std::map<QString, const ssh::RemoteEntry*> there;
        if (ok) {
            for (const ssh::RemoteEntry& entry : entries) {
                there[entry.path] = &entry;
            }
        }
        auto job = std::make_shared<SyncJob>();
        job->sftp = sftp;
        job->upward = true;
        job->done = done;
        auto consider = [&](const QFileInfo& file, const QString& relative, const QString& to) {
            const auto it = there.find(relative);
            const qint64 mtime = file.lastModified().toSecsSinceEpoch();
            if (it != there.end() && !it->second->isDir && it->second->size == file.size() &&
                it->second->mtime == mtime) {
                ++job->stats.filesUnchanged;
                return;
            }
            job->files.push_back({file.absoluteFilePath(), to, file.size()});
        };
        if (single) {
            job->folders.push_back(listed);
            consider(local, QFileInfo(remotePath).fileName(), remotePath);
        } else {
            std::set<QString> folders{remotePath};
            QDirIterator it(
                localPath,
                QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::NoSymLinks,
                QDirIterator::Subdirectories);
            const QDir base(localPath);
            while (it.hasNext()) {
                it.next();
                const QFileInfo file = it.fileInfo();
                const QString relative = base.relativeFilePath(file.absoluteFilePath());
                if (isExcluded(relative, excludeGlobs)) {
                    continue;
                }
                if (file.isDir()) {
                    folders.insert(joined(remotePath, relative));
                } else {
                    consider(file, relative, joined(remotePath, relative));
                }
            }
            for (const QString& folder : folders) {
                if (!there.count(QDir(remotePath).relativeFilePath(folder)) ||
                    folder == remotePath) {
                    job->folders.push_back(folder);
                }
            }
        }
        job->run();
    });
}

void syncDown(ssh::SftpClient* sftp, const QString& remotePath, const QString& localPath,
              const QStringList& excludeGlobs, SyncDone done) {
    sftp->listTree(remotePath, [=, done = std::move(done)](bool ok, const QString& error,
                                                           std::vector<ssh::RemoteEntry> entries) {
        if (!ok) {
            done(false, error, {});
            return;
        }
        auto job = std::make_shared<SyncJob>();
        job->sftp = sftp;
        job->upward = false;
        job->done = done;
        job->folders.push_back(localPath);
        for (const ssh::RemoteEntry& entry : entries) {
            if (isExcluded(entry.path, excludeGlobs)) {
                continue;
            }
            const QString to = joined(localPath, entry.path);
            if (entry.isDir) {
                job->folders.push_back(to);
                continue;
            }
            const QFileInfo file(to);
            if (file.exists() && file.size() == entry.size &&
                file.lastModified().toSecsSinceEpoch() == entry.mtime) {
                ++job->stats.filesUnchanged;
                continue;
            }
            job->files.push_back({joined(remotePath, entry.path), to, entry.size});
        }
        job->run();
    });
}

}  // namespace tunedeck
