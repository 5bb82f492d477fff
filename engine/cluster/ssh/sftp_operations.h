// The requests SftpClient runs, each a small state machine advanced by the replies to its SFTP
// requests: file transfers (pipelined READ/WRITE), and the tree operations built from them.
// Private to the SSH layer. Thread-safety: the session's thread.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <QByteArray>
#include <QFile>
#include <QString>

#include "cluster/ssh/sftp_client.h"
#include "cluster/ssh/sftp_protocol.h"

namespace tunedeck::ssh::detail {

struct SftpReply {
    quint8 type = 0;
    quint32 status = 0;  // for kStatus; kConnectionLost when the session went away
    QString message;     // the server's text for kStatus
    sftp::PacketReader body{QByteArrayView()};

    bool isStatus() const { return type == sftp::kStatus; }
    bool ok() const { return isStatus() && status == sftp::kOk; }
};

class FileTransfer;

class SftpOperation : public std::enable_shared_from_this<SftpOperation> {
  public:
    explicit SftpOperation(SftpClient& client) : client_(client) {}
    virtual ~SftpOperation() = default;

    // Runs once the SFTP subsystem is up.
    virtual void start() = 0;
    // Ends the operation once; later replies to its requests are dropped.
    void finish(bool ok, const QString& error = {});
    bool over() const { return over_; }

    // Runs at once (inside the client's pump) when the operation ends.
    std::function<void(bool ok, const QString& error)> onFinished;

  protected:
    using Handler = std::function<void(SftpReply&)>;
    // A request: `fill` writes its fields; its reply reaches `handler` unless this operation
    // is over by then (a null handler ignores the reply).
    void request(sftp::PacketType type, const std::function<void(sftp::PacketWriter&)>& fill,
                 Handler handler);
    // The same in two steps, for a request filled in place (WRITE data read from a file);
    // `bytesInFlight` counts against the client's transfer budget until the reply.
    sftp::PacketWriter begin(sftp::PacketType type, quint32* id, qsizetype reserve = 64);
    void send(quint32 id, sftp::PacketWriter& writer, Handler handler, qint64 bytesInFlight = 0);
    // "cannot X: host:path: reason".
    QString failure(const QString& what, const QByteArray& remotePath,
                    const SftpReply& reply) const;
    QString describe(const QByteArray& remotePath) const { return client_.describe(remotePath); }
    QByteArray resolve(const QString& path) const { return client_.resolve(path); }
    // The client's transfer machinery (its friendship does not pass to subclasses).
    qsizetype readChunk() const { return client_.readChunk(); }
    qsizetype writeChunk() const { return client_.writeChunk(); }
    bool budgetAllows(qint64 bytes) const { return client_.budgetAllows(bytes); }
    bool hasPosixRename() const { return client_.hasPosixRename(); }
    void scheduleTransfers() { client_.scheduleTransfers(); }
    void enqueueTransfer(std::shared_ptr<FileTransfer> transfer) {
        client_.enqueueTransfer(std::move(transfer));
    }

    SftpClient& client_;

  private:
    bool over_ = false;
};

// A file moving one way, pipelined within the client's byte budget.
class FileTransfer : public SftpOperation {
  public:
    using SftpOperation::SftpOperation;
    // Sends at most one more READ/WRITE; false when it has nothing to send now.
    virtual bool feedOne() = 0;
    // Stops early (a tree transfer failed elsewhere): cleans up its partial file, no callback.
    virtual void cancel() = 0;
};

// Remote paths are resolved ("~/" against the SFTP home) when the operation starts.
std::shared_ptr<FileTransfer> makePutFile(SftpClient& client, const QString& local,
                                          const QString& remote);
std::shared_ptr<FileTransfer> makeGetFile(SftpClient& client, const QString& remote,
                                          const QString& local);
// Replaces `to` (posix-rename@openssh.com where offered, else remove then rename).
std::shared_ptr<SftpOperation> makeRename(SftpClient& client, const QString& from,
                                          const QString& to);
std::shared_ptr<SftpOperation> makeMakePath(SftpClient& client, const QString& path);
// Fills `entries` before finishing.
std::shared_ptr<SftpOperation> makeListTree(SftpClient& client, const QString& root,
                                            std::shared_ptr<std::vector<RemoteEntry>> entries);
std::shared_ptr<SftpOperation> makeRemoveTree(SftpClient& client, const QString& path);
std::shared_ptr<SftpOperation> makePutTree(SftpClient& client, const QString& localDir,
                                           const QString& remoteDir);
std::shared_ptr<SftpOperation> makeGetTree(SftpClient& client, const QString& remoteDir,
                                           const QString& localDir);

}  // namespace tunedeck::ssh::detail
