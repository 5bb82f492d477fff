#include "cluster/ssh_node_link.h"

#include <QFileInfo>
#include <QRegularExpression>

#include "checkpoint/file_identity.h"
#include "cluster/remote_command.h"
#include "cluster/ssh/exec_channel.h"
#include "cluster/ssh/sftp_client.h"
#include "cluster/ssh/ssh_session.h"
#include "cluster/tree_sync.h"

namespace tunedeck {

namespace {

constexpr int kStderrLinesKept = 5;  // of the agent's stderr, quoted when it fails to start

QString joinRemote(const QString& root, const QString& relative) {
    return relative.isEmpty() ? root : root + QLatin1Char('/') + relative;
}

}  // namespace

SshNodeLink::SshNodeLink(SshNodeOptions options, QObject* parent)
    : NodeLink(parent), options_(std::move(options)) {}

SshNodeLink::~SshNodeLink() {
    closedSignalled_ = true;
    agent_.reset();
    session_.reset();
}

void SshNodeLink::open() {
    closedSignalled_ = false;
    agent_.reset();
    session_ = std::make_unique<ssh::SshSession>(options_.endpoint);
    connect(session_.get(), &ssh::SshSession::connected, this, &SshNodeLink::onConnected);
    connect(session_.get(), &ssh::SshSession::failed, this,
            [this](const ssh::SshFailure& failure) { fail(failure.message); });
    connect(session_.get(), &ssh::SshSession::disconnected, this,
            [this](const QString& reason) { fail(reason); });
    session_->open();
}

void SshNodeLink::onConnected() {
    session_->sftp()->makePath(options_.nodeRoot, [this](bool ok, const QString& error) {
        if (!ok) {
            fail(tr("cannot create %1 on %2: %3").arg(options_.nodeRoot, options_.nodeId, error));
            return;
        }
        root_ = session_->sftp()->absolutePath(options_.nodeRoot);
        paths_ = PathMap();
        for (const NodeMirror& mirror : options_.mirrors) {
            if (mirror.mapPaths) {
                paths_.add(mirror.headPath, joinRemote(root_, mirror.nodePath));
            }
        }
        if (!options_.headExperimentDir.isEmpty()) {
            paths_.add(options_.headExperimentDir,
                       joinRemote(root_, QStringLiteral("experiments/") +
                                             QFileInfo(options_.headExperimentDir).fileName()));
        }
        syncNext(0);
    });
}

void SshNodeLink::syncNext(std::size_t index) {
    if (index == options_.mirrors.size()) {
        startAgent();
        return;
    }
    const NodeMirror& mirror = options_.mirrors[index];
    syncUp(session_->sftp(), mirror.headPath, joinRemote(root_, mirror.nodePath), mirror.exclude,
           [this, index](bool ok, const QString& error, const SyncStats&) {
               if (!ok) {
                   const NodeMirror& m = options_.mirrors[index];
                   fail(tr("cannot copy %1 to %2: %3").arg(m.headPath, options_.nodeId, error));
                   return;
               }
               syncNext(index + 1);
           });
}

void SshNodeLink::startAgent() {
    const QString worker = joinRemote(root_, QStringLiteral("bin/tunedeck-worker"));
    // The agent's stdin is the channel: when the connection drops, sshd closes it and the agent
    // kills the node's trials, so nothing keeps running that the engine no longer sees.
    // A root engine running someone's experiment (serve as the system service) names its owner
    // to the agent too: an agent logged in as root runs the trials as that user of the node,
    // as the local one does (checkpoint/file_identity.h); any other agent ignores it.
    static const QRegularExpression accountName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_.-]{0,31}$"));
    const QString owner = qEnvironmentVariable(checkpoint::kTrialUserVariable);
    const QString ownerSetting =
        accountName.match(owner).hasMatch()
            ? QStringLiteral("env %1=%2 ")
                  .arg(QLatin1String(checkpoint::kTrialUserVariable), shellQuote(owner))
            : QString();
    agent_ = session_->exec(QStringLiteral("cd %2 && exec %3%1")
                                .arg(shellQuote(worker), shellQuote(root_), ownerSetting));
    auto stderrTail = std::make_shared<QStringList>();
    connect(agent_.get(), &ssh::ExecChannel::standardOutput, this, [this](const QByteArray& data) {
        if (!receive(data) && !closedSignalled_) {
            fail(tr("the worker agent sent a line longer than %1 bytes").arg(kMaxNodeLinkLine));
        }
    });
    connect(agent_.get(), &ssh::ExecChannel::standardError, this,
            [this, stderrTail](const QByteArray& data) {
                for (const QByteArray& line : data.split('\n')) {
                    if (line.trimmed().isEmpty()) {
                        continue;
                    }
                    qWarning("tunedeck-worker on %s: %s", qPrintable(options_.nodeId),
                             line.constData());
                    stderrTail->append(QString::fromUtf8(line));
                    while (stderrTail->size() > kStderrLinesKept) {
                        stderrTail->removeFirst();
                    }
                }
            });
    connect(agent_.get(), &ssh::ExecChannel::finished, this,
            [this, stderrTail](int exitStatus, const QString& exitSignal) {
                QString why = !exitSignal.isEmpty()
                                  ? tr("the worker agent was killed by %1").arg(exitSignal)
                                  : tr("the worker agent exited with status %1").arg(exitStatus);
                if (!stderrTail->isEmpty()) {
                    why += QStringLiteral(": ") + stderrTail->join(QStringLiteral(" | "));
                }
                fail(why);
            });
    if (!pending_.isEmpty()) {
        agent_->write(std::exchange(pending_, {}));
    }
}

void SshNodeLink::fail(const QString& reason) {
    if (closedSignalled_) {
        return;
    }
    closedSignalled_ = true;
    emit closed(reason);
}

void SshNodeLink::sendLine(const QByteArray& line) {
    if (agent_) {
        agent_->write(line);
    } else {
        pending_.append(line);
    }
}

void SshNodeLink::shutdown() {
    if (agent_) {
        send(node::ShutdownOp{});
        agent_->closeStdin();
    } else {
        abort();
    }
}

void SshNodeLink::abort() {
    closedSignalled_ = true;
    agent_.reset();
    if (session_) {
        session_->close();
    }
}

bool SshNodeLink::isOpen() const {
    return agent_ && agent_->isOpen();
}

NodeFiles* SshNodeLink::files() {
    return options_.headExperimentDir.isEmpty() ? nullptr : this;
}

void SshNodeLink::fetchFolder(const QString& nodeDir, const QString& headDir, Done done) {
    if (!session_ || !session_->isConnected()) {
        done(false, tr("not connected to %1").arg(options_.nodeId));
        return;
    }
    session_->sftp()->getTree(nodeDir, headDir, std::move(done));
}

void SshNodeLink::fetchChanges(const QString& nodeDir, const QString& headDir,
                               const QStringList& exclude, Done done) {
    if (!session_ || !session_->isConnected()) {
        done(false, tr("not connected to %1").arg(options_.nodeId));
        return;
    }
    syncDown(session_->sftp(), nodeDir, headDir, exclude,
             [done = std::move(done)](bool ok, const QString& error, const SyncStats&) {
                 done(ok, error);
             });
}

void SshNodeLink::pushFolder(const QString& headDir, const QString& nodeDir, Done done) {
    if (!session_ || !session_->isConnected()) {
        done(false, tr("not connected to %1").arg(options_.nodeId));
        return;
    }
    // As every checkpoint is put in place (engine/checkpoint): sent whole under a staging name,
    // then renamed, so the node never restores from half a folder. What a copy cut short left
    // under the staging name goes first.
    ssh::SftpClient* sftp = session_->sftp();
    const QString staging = nodeDir + QStringLiteral(".tmp");
    sftp->removeTree(staging, [sftp, headDir, nodeDir, staging, done = std::move(done)](
                                  bool, const QString&) mutable {
        sftp->putTree(headDir, staging,
                      [sftp, nodeDir, staging, done = std::move(done)](
                          bool ok, const QString& error) mutable {
                          if (!ok) {
                              done(false, error);
                              return;
                          }
                          sftp->removeTree(nodeDir,
                                           [sftp, nodeDir, staging, done = std::move(done)](
                                               bool, const QString&) mutable {
                                               sftp->rename(staging, nodeDir, std::move(done));
                                           });
                      });
    });
}

}  // namespace tunedeck
