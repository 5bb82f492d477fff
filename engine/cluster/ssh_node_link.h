// A node reached over SSH: one session carries the worker agent's stream (an exec channel) and
// SFTP for its files. Opening it connects, checks the host key, sends the agent, the Python SDK
// and the trainable's folder where they changed, and starts the agent; `closed` follows a
// refused key, a dropped connection or the agent's exit, with the reason in the user's words.
// Thread-safety: lives on the thread of the event loop that created it.
#pragma once

#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

#include "cluster/node_link.h"
#include "cluster/ssh/ssh_endpoint.h"

namespace tunedeck {

namespace ssh {
class SshSession;
class ExecChannel;
}  // namespace ssh

// A file or folder of this machine the node needs a copy of before its agent starts.
struct NodeMirror {
    QString headPath;
    QString nodePath;  // relative to the node's root
    QStringList exclude;
    bool mapPaths = true;  // paths under headPath sent to the agent are rewritten to the copy
};

struct SshNodeOptions {
    QString nodeId;
    ssh::SshEndpoint endpoint;
    QString nodeRoot;  // Tunedeck's folder on the node; may start with "~/"
    // What the node needs copied, this machine's tunedeck-worker (to bin/) among them.
    std::vector<NodeMirror> mirrors;
    // Storage "copy": the experiment folder lives at <root>/experiments/<its name> on the node
    // and checkpoints travel over SFTP. Empty for shared storage (the same path everywhere).
    QString headExperimentDir;
};

class SshNodeLink : public NodeLink, private NodeFiles {
    Q_OBJECT
  public:
    explicit SshNodeLink(SshNodeOptions options, QObject* parent = nullptr);
    ~SshNodeLink() override;

    QString nodeId() const override { return options_.nodeId; }
    void open() override;
    void sendLine(const QByteArray& line) override;
    void shutdown() override;
    void abort() override;
    bool isOpen() const override;
    const PathMap& paths() const override { return paths_; }
    NodeFiles* files() override;

  private:
    void fetchFolder(const QString& nodeDir, const QString& headDir, Done done) override;
    void pushFolder(const QString& headDir, const QString& nodeDir, Done done) override;
    void fetchChanges(const QString& nodeDir, const QString& headDir, const QStringList& exclude,
                      Done done) override;

    void onConnected();
    void syncNext(std::size_t index);
    void startAgent();
    void fail(const QString& reason);

    SshNodeOptions options_;
    std::unique_ptr<ssh::SshSession> session_;
    std::unique_ptr<ssh::ExecChannel> agent_;
    QString root_;  // absolute on the node, once connected
    PathMap paths_;
    QByteArray pending_;  // written before the agent channel opened
    bool closedSignalled_ = false;
};

}  // namespace tunedeck
