// Copies a folder or a file of this machine to a node over SFTP, only what changed (rsync's
// quick check: a file is sent unless the other side has one of the same size and modification
// time; SftpClient keeps modification times, so an unchanged file is never sent twice).
// Shared by `cluster up`/`rsync-up` and by the experiment's node links.
// Thread-safety: runs on the SFTP client's thread; `done` is called once there.
#pragma once

#include <QString>
#include <QStringList>
#include <functional>

namespace tunedeck {

namespace ssh {
class SftpClient;
}

struct SyncStats {
    int filesSent = 0;
    qint64 bytesSent = 0;
    int filesUnchanged = 0;
};

using SyncDone = std::function<void(bool ok, const QString& error, const SyncStats& stats)>;

// Whether `relativePath` (as found under a synced folder, '/'-separated) matches one of the
// rsync_exclude globs: a pattern without '/' matches any path component, one with '/' the
// whole relative path.
bool isExcluded(const QString& relativePath, const QStringList& excludeGlobs);

// Sends `localPath` (a folder or a file) to `remotePath` (created as needed; "~/" allowed).
// Nothing is deleted on the node.
void syncUp(ssh::SftpClient* sftp, const QString& localPath, const QString& remotePath,
            const QStringList& excludeGlobs, SyncDone done);

// The other way: a node's folder or file to this machine, only what changed.
void syncDown(ssh::SftpClient* sftp, const QString& remotePath, const QString& localPath,
              const QStringList& excludeGlobs, SyncDone done);

}  // namespace tunedeck
