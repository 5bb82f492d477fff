#include "cluster/node_operation.h"

#include <QElapsedTimer>
#include <QFileInfo>

#include "cluster/remote_command.h"
#include "cluster/ssh/exec_channel.h"
#include "cluster/ssh/sftp_client.h"
#include "cluster/ssh/ssh_session.h"
#include "cluster/tree_sync.h"
#include "core/counted.h"
#include "node_protocol/node_protocol.h"

namespace tunedeck {

namespace {

constexpr int kAgentStopWaitS = 10;  // `down`: how long agents get to stop their trials

// Every running agent of this node folder: processes whose executable is its tunedeck-worker.
// Prints "agent PID" lines, each followed by its trials ("trial PID ELAPSED COMMAND").
QString agentScan(const QString& worker) {
    return QStringLiteral(
               "w=%1; for p in /proc/[0-9]*; do "
               "[ \"$(readlink \"$p/exe\" 2>/dev/null)\" = \"$w\" ] || continue; "
               "pid=${p#/proc/}; echo \"agent $pid\"; "
               "ps --ppid \"$pid\" -o pid=,etime=,args= 2>/dev/null | sed 's/^ */trial /'; "
               "done")
        .arg(shellQuote(worker));
}

}  // namespace

NodeOperation::NodeOperation(const ClusterSpec& cluster, const ClusterNodeSpec& node,
                             const LauncherOptions& options, ClusterLauncher::Output output)
    : cluster_(cluster),
      node_(node),
      options_(options),
      output_(std::move(output)),
      endpoint_(ClusterLauncher::endpointOf(cluster, node, options.acceptNewHostKeys)) {
    outcome_.node = node.name();
}

NodeOperation::~NodeOperation() = default;

ssh::SftpClient* NodeOperation::sftp() {
    return session_->sftp();
}

void NodeOperation::say(const QString& line, bool isError) {
    output_(node_.name(), line, isError);
}

void NodeOperation::then(Step step) {
    steps_.push_back(std::move(step));
}

void NodeOperation::run() {
    if (finished_) {
        return;
    }
    if (steps_.empty()) {
        succeed(outcome_.message);
        return;
    }
    Step step = std::move(steps_.front());
    steps_.pop_front();
    step([this] { run(); });
}

void NodeOperation::fail(const QString& message) {
    if (finished_) {
        return;
    }
    finished_ = true;
    outcome_.ok = false;
    outcome_.message = message;
    say(message, true);
    emit done();
}

void NodeOperation::succeed(const QString& message) {
    if (finished_) {
        return;
    }
    finished_ = true;
    outcome_.ok = true;
    outcome_.message = message;
    emit done();
}

void NodeOperation::connectStep(Next next) {
    session_ = std::make_unique<ssh::SshSession>(endpoint_);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    connect(session_.get(), &ssh::SshSession::failed, this,
            [this](const ssh::SshFailure& failure) { fail(failure.message); });
    connect(session_.get(), &ssh::SshSession::disconnected, this,
            [this](const QString& reason) { fail(reason); });
    connect(session_.get(), &ssh::SshSession::connected, this, [this, clock, next] {
        const QString wanted = ClusterLauncher::nodeRoot(cluster_, node_);
        sftp()->makePath(wanted, [this, clock, wanted, next](bool ok, const QString& error) {
            if (!ok) {
                fail(tr("cannot create %1: %2").arg(wanted, error));
                return;
            }
            root_ = sftp()->absolutePath(wanted);
            outcome_.message = tr("reachable (%1 ms)").arg(clock->elapsed());
            next();
        });
    });
    session_->open();
}

void NodeOperation::runCommand(const QString& command, bool echo,
                               std::function<void(int status, const QString& output)> onExit) {
    std::shared_ptr<ssh::ExecChannel> channel = session_->exec(command);
    auto output = std::make_shared<QString>();
    auto partial = std::make_shared<QByteArray>();
    auto emitLines = [this, echo, output, partial](const QByteArray& data, bool isError) {
        partial->append(data);
        qsizetype nl;
        while ((nl = partial->indexOf('\n')) >= 0) {
            const QString line = QString::fromUtf8(partial->left(nl));
            partial->remove(0, nl + 1);
            output->append(line + QLatin1Char('\n'));
            if (echo) {
                say(line, isError);
            }
        }
    };
    connect(channel.get(), &ssh::ExecChannel::standardOutput, this,
            [emitLines](const QByteArray& data) { emitLines(data, false); });
    connect(channel.get(), &ssh::ExecChannel::standardError, this,
            [emitLines](const QByteArray& data) { emitLines(data, true); });
    // The channel lives until it has finished; the lambda holds the last reference.
    connect(
        channel.get(), &ssh::ExecChannel::finished, this,
        [this, channel, emitLines, onExit, output, partial](int status, const QString&) mutable {
            if (!partial->isEmpty()) {
                emitLines("\n", false);  // a last line without its newline
            }
            auto keep = std::move(channel);
            QMetaObject::invokeMethod(
                this, [keep] {}, Qt::QueuedConnection);  // freed after this signal returns
            onExit(status, *output);
        });
}

void NodeOperation::setupStep(Next next) {
    const QString digest = ClusterLauncher::setupDigest(cluster_, node_);
    const QString stamp = root_ + QStringLiteral("/setup.sha256");
    runCommand(QStringLiteral("cat %1 2>/dev/null || true").arg(shellQuote(stamp)), false,
               [this, digest, stamp, next](int, const QString& previous) {
                   if (previous.trimmed() == digest && !mountsChanged_) {
                       say(tr("setup unchanged; not run again"));
                       next();
                       return;
                   }
                   QStringList commands = cluster_.initializationCommands + cluster_.setupCommands;
                   if (!node_.isHead) {
                       commands += cluster_.workerSetupCommands;
                   }
                   // The stamp is written only after every command succeeded: a failed setup
                   // reruns.
                   commands << QStringLiteral("printf '%s\\n' %1 > %2")
                                   .arg(shellQuote(digest), shellQuote(stamp));
                   runCommands(std::make_shared<QStringList>(commands), 0, next);
               });
}

void NodeOperation::runCommands(std::shared_ptr<QStringList> commands, int index, Next next) {
    if (index == commands->size()) {
        next();
        return;
    }
    const QString command = commands->at(index);
    const bool isStamp = index == commands->size() - 1;
    if (!isStamp) {
        say(QStringLiteral("$ ") + command);
    }
    runCommand(command, true, [this, commands, index, command, next](int status, const QString&) {
        if (status != 0) {
            fail(tr("setup command failed with exit status %1: %2").arg(status).arg(command));
            return;
        }
        runCommands(commands, index + 1, next);
    });
}

void NodeOperation::syncStep(const QString& local, const QString& remote,
                             const QStringList& exclude, bool countsForSetup, Next next) {
    syncUp(sftp(), local, remote, exclude,
           [this, local, remote, countsForSetup, next](bool ok, const QString& error,
                                                       const SyncStats& stats) {
               if (!ok) {
                   fail(tr("cannot copy %1 to %2: %3").arg(local, remote, error));
                   return;
               }
               if (stats.filesSent > 0) {
                   say(tr("copied %1 (%2, %3 bytes; %4 unchanged)")
                           .arg(local, counted(stats.filesSent, "file"))
                           .arg(stats.bytesSent)
                           .arg(stats.filesUnchanged));
                   mountsChanged_ = mountsChanged_ || countsForSetup;
               }
               next();
           });
}

void NodeOperation::inventoryStep(Next next) {
    const QString worker = root_ + QStringLiteral("/bin/tunedeck-worker");
    std::shared_ptr<ssh::ExecChannel> agent =
        session_->exec(QStringLiteral("exec %1").arg(shellQuote(worker)));
    auto buffer = std::make_shared<QByteArray>();
    auto answered = std::make_shared<bool>(false);
    connect(
        agent.get(), &ssh::ExecChannel::standardOutput, this,
        [this, agent, buffer, answered, next](const QByteArray& data) {
            buffer->append(data);
            const qsizetype nl = buffer->indexOf('\n');
            if (*answered || nl < 0) {
                return;
            }
            *answered = true;
            const node::Decoded<node::Event> event =
                node::decodeEvent(buffer->left(nl).toStdString());
            const node::Hello* hello = event ? std::get_if<node::Hello>(&*event.value) : nullptr;
            if (hello == nullptr) {
                fail(tr("the worker agent's first line is no hello: %1")
                         .arg(QString::fromStdString(
                             event ? std::string("a \"") + node::nameOf(*event.value) + "\" event"
                                   : event.error.message)));
                agent->closeStdin();
                return;
            }
            const int gpus = int(hello->gpus.size());
            const double cpus = node_.resources.cpu ? *node_.resources.cpu : hello->cpus;
            outcome_.message =
                tr("agent %1 ok: %2 %3, %4 GiB memory, %5")
                    .arg(QString::fromStdString(hello->version))
                    .arg(cpus)
                    .arg(cpus == 1 ? QStringLiteral("CPU") : QStringLiteral("CPUs"))
                    .arg(double(hello->memoryMb) / 1024.0, 0, 'f', 1)
                    .arg(counted(
                        node_.resources.gpu ? std::min(int(*node_.resources.gpu), gpus) : gpus,
                        "GPU"));
            say(outcome_.message);
            agent->write(QByteArray::fromStdString(node::encodeOp(node::ShutdownOp{})));
            agent->closeStdin();
        });
    connect(agent.get(), &ssh::ExecChannel::finished, this,
            [this, agent, answered, next](int status, const QString&) mutable {
                auto keep = std::move(agent);
                QMetaObject::invokeMethod(
                    this, [keep] {}, Qt::QueuedConnection);
                if (!*answered) {
                    fail(tr("the worker agent did not start (exit status %1)").arg(status));
                    return;
                }
                next();
            });
}

void NodeOperation::up() {
    then([this](Next next) { connectStep(next); });
    then([this](Next next) {
        syncStep(options_.workerBinary, root_ + QStringLiteral("/bin/tunedeck-worker"), {}, false,
                 next);
    });
    if (!options_.pythonSdkDir.isEmpty() && QFileInfo(options_.pythonSdkDir).isDir()) {
        then([this](Next next) {
            syncStep(options_.pythonSdkDir, root_ + QStringLiteral("/python"), {}, false, next);
        });
    }
    for (const FileMount& mount : cluster_.fileMounts) {
        then([this, mount](Next next) {
            syncStep(mount.localPath, mount.remotePath, cluster_.rsyncExclude, true, next);
        });
    }
    then([this](Next next) { setupStep(next); });
    then([this](Next next) { inventoryStep(next); });
    run();
}

void NodeOperation::down() {
    then([this](Next next) { connectStep(next); });
    then([this](Next next) {
        const QString worker = root_ + QStringLiteral("/bin/tunedeck-worker");
        // SIGTERM: each agent stops its trials (SIGTERM, then SIGKILL) and exits.
        const QString script = QStringLiteral(
                                   "pids=$(%1 | sed -n 's/^agent //p'); [ -z \"$pids\" ] && "
                                   "{ echo 'no agent running'; exit 0; }; kill -TERM $pids; "
                                   "for i in $(seq %2); do alive=; for p in $pids; do "
                                   "[ -d /proc/$p ] && alive=1; done; [ -z \"$alive\" ] && "
                                   "{ echo \"stopped agent(s) $pids\"; exit 0; }; sleep 1; done; "
                                   "kill -KILL $pids 2>/dev/null; echo \"killed agent(s) $pids\"")
                                   .arg(agentScan(worker))
                                   .arg(kAgentStopWaitS);
        runCommand(script, true, [this, next](int status, const QString&) {
            if (status != 0) {
                fail(tr("stopping the agents failed (exit status %1)").arg(status));
                return;
            }
            next();
        });
    });
    run();
}

void NodeOperation::status() {
    then([this](Next next) { connectStep(next); });
    then([this](Next next) {
        say(outcome_.message);
        runCommand(agentScan(root_ + QStringLiteral("/bin/tunedeck-worker")), true,
                   [this, next](int status, const QString&) {
                       if (status != 0) {
                           fail(tr("cannot list the agents (exit status %1)").arg(status));
                           return;
                       }
                       next();
                   });
    });
    run();
}

void NodeOperation::exec(const QString& shellCommand) {
    then([this](Next next) { connectStep(next); });
    then([this, shellCommand](Next next) {
        runCommand(shellCommand, true, [this, next](int status, const QString&) {
            if (status != 0) {
                fail(tr("the command exited with status %1").arg(status));
                return;
            }
            outcome_.message = tr("exit status 0");
            next();
        });
    });
    run();
}

void NodeOperation::rsyncUp(const QString& localPath, const QString& remotePath) {
    then([this](Next next) { connectStep(next); });
    then([this, localPath, remotePath](Next next) {
        syncStep(localPath, remotePath, cluster_.rsyncExclude, false, next);
    });
    run();
}

void NodeOperation::rsyncDown(const QString& remotePath, const QString& localPath) {
    then([this](Next next) { connectStep(next); });
    then([this, remotePath, localPath](Next next) {
        syncDown(sftp(), remotePath, localPath, cluster_.rsyncExclude,
                 [this, remotePath, next](bool ok, const QString& error, const SyncStats& stats) {
                     if (!ok) {
                         fail(tr("cannot copy %1 from the node: %2").arg(remotePath, error));
                         return;
                     }
                     say(tr("copied %1, %2 bytes; %3 unchanged")
                             .arg(counted(stats.filesSent, "file"))
                             .arg(stats.bytesSent)
                             .arg(stats.filesUnchanged));
                     next();
                 });
    });
    run();
}

}  // namespace tunedeck
