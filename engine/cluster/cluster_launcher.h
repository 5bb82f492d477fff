// `tunedeck-engine cluster up|down|status|exec|rsync-up|rsync-down`: the same operation on every
// node of a cluster file at once, each node over its own SSH session, with each node's output
// streamed line by line under its name. A node that fails is reported by name and leaves the
// others untouched. Thread-safety: lives on the thread of the event loop that created it.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <vector>

#include "cluster/ssh/ssh_endpoint.h"
#include "core/cluster_spec.h"

namespace tunedeck {

class NodeOperation;

struct LauncherOptions {
    QString workerBinary;  // this machine's tunedeck-worker, copied to every node
    QString pythonSdkDir;  // copied beside it, for Python trainables
    bool acceptNewHostKeys = false;
    QStringList onlyNodes;  // --node: these nodes only (names as `status` prints them)
};

// One node's outcome, for the summary and the exit code.
struct NodeOutcome {
    QString node;
    bool ok = false;
    QString message;  // what failed, or what was done ("setup unchanged", an inventory line)
};

class ClusterLauncher : public QObject {
    Q_OBJECT
  public:
    // Each line a node prints, or says about itself, goes to `output` ("[node] text").
    using Output = std::function<void(const QString& node, const QString& line, bool isError)>;

    ClusterLauncher(ClusterSpec cluster, LauncherOptions options, Output output,
                    QObject* parent = nullptr);
    ~ClusterLauncher() override;

    // Each starts the operation on every node; `finished` follows once all nodes are done.
    void up();
    void down();
    void status();
    void exec(const QString& shellCommand);
    void rsyncUp(const QString& localPath, const QString& remotePath);
    // From the head node only (or the one --node names).
    void rsyncDown(const QString& remotePath, const QString& localPath);

    // The folder a node keeps Tunedeck's files in (may start with "~/").
    static QString nodeRoot(const ClusterSpec& cluster, const ClusterNodeSpec& node);
    // How to reach a node of the cluster file: its address and the file's `auth`.
    static ssh::SshEndpoint endpointOf(const ClusterSpec& cluster, const ClusterNodeSpec& node,
                                       bool acceptNewHostKeys);
    // What `up` stores on a node to know whether its setup must run again: a digest of the
    // setup commands that apply to that node.
    static QString setupDigest(const ClusterSpec& cluster, const ClusterNodeSpec& node);

  signals:
    void finished(const std::vector<tunedeck::NodeOutcome>& outcomes);

  private:
    using Start = std::function<void(NodeOperation&)>;
    void startOnNodes(const std::vector<const ClusterNodeSpec*>& nodes, const Start& start);
    void onNodeDone();
    std::vector<const ClusterNodeSpec*> selectedNodes(bool headOnly) const;

    ClusterSpec cluster_;
    LauncherOptions options_;
    Output output_;
    std::vector<std::unique_ptr<NodeOperation>> operations_;
    std::size_t running_ = 0;
};

}  // namespace tunedeck
