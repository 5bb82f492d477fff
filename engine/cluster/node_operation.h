// One node's part of a cluster command: a chain of steps over one SSH session (connect, copy,
// run commands with their output streamed, read the agent's inventory). The first step that
// fails ends the chain with a message naming the node. Used by ClusterLauncher only.
// Thread-safety: lives on the thread of the event loop that created it.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <deque>
#include <functional>
#include <memory>

#include "cluster/cluster_launcher.h"
#include "cluster/ssh/ssh_endpoint.h"

namespace tunedeck {

namespace ssh {
class SshSession;
class SftpClient;
}  // namespace ssh

class NodeOperation : public QObject {
    Q_OBJECT
  public:
    using Next = std::function<void()>;
    using Step = std::function<void(Next)>;

    NodeOperation(const ClusterSpec& cluster, const ClusterNodeSpec& node,
                  const LauncherOptions& options, ClusterLauncher::Output output);
    ~NodeOperation() override;

    const NodeOutcome& outcome() const { return outcome_; }
    QString name() const { return node_.name(); }
    // Absolute once connected.
    QString root() const { return root_; }
    ssh::SftpClient* sftp();

    // The operations (they queue steps, then run them).
    void up();
    void down();
    void status();
    void exec(const QString& shellCommand);
    void rsyncUp(const QString& localPath, const QString& remotePath);
    void rsyncDown(const QString& remotePath, const QString& localPath);

  signals:
    void done();

  private:
    void then(Step step);
    void run();
    void fail(const QString& message);
    void succeed(const QString& message);
    void say(const QString& line, bool isError = false);

    // Steps
    void connectStep(Next next);
    // Runs `command` on the node; its output is streamed; `onExit(status, output)` decides.
    void runCommand(const QString& command, bool echo,
                    std::function<void(int status, const QString& output)> onExit);
    void syncStep(const QString& local, const QString& remote, const QStringList& exclude,
                  bool countsForSetup, Next next);
    void inventoryStep(Next next);
    // Runs the setup commands unless the node's stamp shows this very setup already ran and no
    // file mount changed.
    void setupStep(Next next);
    void runCommands(std::shared_ptr<QStringList> commands, int index, Next next);

    ClusterSpec cluster_;
    ClusterNodeSpec node_;
    LauncherOptions options_;
    ClusterLauncher::Output output_;
    ssh::SshEndpoint endpoint_;
    std::unique_ptr<ssh::SshSession> session_;
    std::deque<Step> steps_;
    QString root_;
    bool mountsChanged_ = false;
    bool finished_ = false;
    NodeOutcome outcome_;
};

}  // namespace tunedeck
