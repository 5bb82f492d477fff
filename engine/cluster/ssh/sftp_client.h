// Files to and from a node over the session's one SFTP channel: checkpoints and file mounts move
// without a new TCP connection and handshake per file. Requests are pipelined: several files are
// in flight at once and each keeps many READ/WRITE requests outstanding, bounded by a byte budget.
// The SFTP protocol is spoken here over a plain libssh2 channel (see CLUSTER.md for why).
// Thread-safety: the session's thread. Each callback runs once, from the event loop, never from
// inside the call that queued it.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include <QByteArray>
#include <QObject>
#include <QString>

#include "cluster/ssh/libssh2_channel.h"
#include "cluster/ssh/sftp_protocol.h"
#include "cluster/ssh/ssh_session.h"

namespace tunedeck::ssh {

// One file or folder under a listed root.
struct RemoteEntry {
    QString path;  // relative to the listed root, '/'-separated
    qint64 size = 0;
    qint64 mtime = 0;  // seconds since the epoch
    bool isDir = false;
    quint32 mode = 0;  // as stat's st_mode: file type bits and permissions (mode & 07777)
};

namespace detail {
class SftpOperation;
class FileTransfer;
struct SftpReply;
}  // namespace detail

class SftpClient : public QObject, private detail::SessionUser {
    Q_OBJECT
  public:
    using Done = std::function<void(bool ok, const QString& error)>;
    using Listed =
        std::function<void(bool ok, const QString& error, std::vector<RemoteEntry> entries)>;

    // How transfers are pipelined. The defaults keep a 1 Gbit/s, 50 ms link busy downloading;
    // uploads are held to the window the server grants the channel (OpenSSH: 2 MiB, about
    // 40 MB/s at 50 ms), as scp's are.
    struct Tuning {
        qsizetype chunkBytes = 255 * 1024;  // per READ/WRITE (capped by the server's limits)
        qint64 maxBytesInFlight = 16 * 1024 * 1024;
        int maxOpenFiles = 8;
    };

    ~SftpClient() override;

    // Remote paths may start with "~/": they are resolved against the SFTP home.
    // Writes remote + ".part", sets mode and mtime of the local file, then renames it over
    // remote (replacing it).
    void putFile(const QString& local, const QString& remote, Done done);
    // The same the other way: local + ".part", mode and mtime kept, renamed over local.
    void getFile(const QString& remote, const QString& local, Done done);
    // Copies a folder tree (creating remoteDir with its parents); modes and mtimes are kept.
    // Existing remote files are replaced; files only on the remote side are left alone.
    // Symbolic links to files are copied as files; links to folders are not followed.
    void putTree(const QString& localDir, const QString& remoteDir, Done done);
    void getTree(const QString& remoteDir, const QString& localDir, Done done);
    // mkdir -p.
    void makePath(const QString& remoteDir, Done done);
    // rm -rf: a missing path is success.
    void removeTree(const QString& remotePath, Done done);
    // Every file and folder under remoteDir (not following symbolic links), sorted by path.
    void listTree(const QString& remoteDir, Listed done);
    // Replaces `to` if it exists.
    void rename(const QString& from, const QString& to, Done done);

    // realpath(".") on the server, once the subsystem is up (empty before).
    QString homeDirectory() const { return home_; }
    // `remotePath` as an absolute path on the node: "~", "~/x" and relative paths are under
    // homeDirectory() (an exec'd command may start elsewhere, so callers building command lines
    // need this form). Valid once the subsystem is up.
    QString absolutePath(const QString& remotePath) const;
    bool isReady() const { return state_ == State::Ready; }
    void setTuning(const Tuning& tuning) { tuning_ = tuning; }

  private:
    friend class SshSession;
    friend class detail::SftpOperation;
    friend class detail::FileTransfer;
    explicit SftpClient(SshSession* session);

    enum class State { Starting, Initialising, Ready, Broken };
    using Handler = std::function<void(detail::SftpReply&)>;
    struct Pending {
        Handler handler;
        qint64 bytes = 0;
    };

    // SessionUser.
    bool pump() override;
    bool hasEvents() const override { return !completions_.empty(); }
    void deliver() override;
    bool holdsChannel() const override;
    void abandon(const QString& reason) override;
    void forgetSession() override;

    void launch(std::shared_ptr<detail::SftpOperation> operation, Done done);
    void startOperation(const std::shared_ptr<detail::SftpOperation>& operation);
    void handlePacket(QByteArrayView packet);
    void handleVersion(sftp::PacketReader& reader);
    void queryLimits();
    void queryHome();
    void becomeReady();
    void breakDown(const QString& reason);
    void complete(std::function<void()> completion);

    // For operations.
    quint32 nextRequestId() { return nextId_++; }
    void send(quint32 id, QByteArray packet, Handler handler, qint64 bytesInFlight = 0);
    QByteArray resolve(const QString& remotePath) const;
    QString describe(const QByteArray& remotePath) const;
    qsizetype readChunk() const;
    qsizetype writeChunk() const;
    bool budgetAllows(qint64 bytes) const;
    bool hasPosixRename() const { return posixRename_; }
    void enqueueTransfer(std::shared_ptr<detail::FileTransfer> transfer);
    void scheduleTransfers();
    void flushSoon();

    SshSession* session_;
    std::unique_ptr<Libssh2Channel> channel_;
    Libssh2Channel::Output io_;
    qsizetype parsed_ = 0;
    sftp::PacketFramer framer_;
    State state_ = State::Starting;
    QString brokenReason_;

    quint32 nextId_ = 1;
    std::unordered_map<quint32, Pending> pending_;
    qint64 bytesInFlight_ = 0;
    bool posixRename_ = false;
    qsizetype serverMaxRead_ = 32 * 1024;  // what every SFTP server must accept
    qsizetype serverMaxWrite_ = 32 * 1024;
    QString home_;
    Tuning tuning_;

    std::unordered_map<detail::SftpOperation*, std::shared_ptr<detail::SftpOperation>> operations_;
    std::vector<std::shared_ptr<detail::SftpOperation>> waitingForReady_;
    std::deque<std::shared_ptr<detail::FileTransfer>> queuedTransfers_;
    std::vector<std::shared_ptr<detail::FileTransfer>> activeTransfers_;
    bool scheduling_ = false;
    bool rescheduleWanted_ = false;
    std::vector<std::function<void()>> completions_;
};

}  // namespace tunedeck::ssh
