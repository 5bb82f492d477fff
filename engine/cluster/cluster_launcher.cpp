#include "cluster/cluster_launcher.h"

#include <QCryptographicHash>

#include "cluster/node_operation.h"

namespace tunedeck {

ClusterLauncher::ClusterLauncher(ClusterSpec cluster, LauncherOptions options, Output output,
                                 QObject* parent)
    : QObject(parent),
      cluster_(std::move(cluster)),
      options_(std::move(options)),
      output_(std::move(output)) {}

ClusterLauncher::~ClusterLauncher() = default;

QString ClusterLauncher::nodeRoot(const ClusterSpec& cluster, const ClusterNodeSpec& node) {
    // Each node has a folder of its own, so nodes sharing a home folder (NFS) never collide. Its
    // name has no ':' ("10.0.0.2_2222"), which would split it in PYTHONPATH-like lists.
    QString folder = node.name();
    folder.remove(QLatin1Char('['))
        .remove(QLatin1Char(']'))
        .replace(QLatin1Char(':'), QLatin1Char('_'));
    return QStringLiteral("%1/%2/%3").arg(cluster.remoteRoot, cluster.clusterName, folder);
}

ssh::SshEndpoint ClusterLauncher::endpointOf(const ClusterSpec& cluster,
                                             const ClusterNodeSpec& node, bool acceptNewHostKeys) {
    ssh::SshEndpoint endpoint;
    endpoint.host = node.host;
    endpoint.port = node.port;
    endpoint.user = cluster.sshUser;
    endpoint.privateKeyFile = cluster.sshPrivateKey;
    endpoint.knownHostsFile = cluster.knownHosts;
    endpoint.acceptNewHostKey = acceptNewHostKeys;
    return endpoint;
}

QString ClusterLauncher::setupDigest(const ClusterSpec& cluster, const ClusterNodeSpec& node) {
    QCryptographicHash hash(QCryptographicHash::Sha256);
    auto add = [&hash](const QStringList& commands) {
        for (const QString& command : commands) {
            hash.addData(command.toUtf8());
            hash.addData(QByteArrayView("\0", 1));
        }
        hash.addData(QByteArrayView("\n", 1));
    };
    add(cluster.initializationCommands);
    add(cluster.setupCommands);
    add(node.isHead ? QStringList() : cluster.workerSetupCommands);
    return QString::fromLatin1(hash.result().toHex());
}

std::vector<const ClusterNodeSpec*> ClusterLauncher::selectedNodes(bool headOnly) const {
    std::vector<const ClusterNodeSpec*> nodes;
    for (const ClusterNodeSpec& node : cluster_.nodes) {
        if (!options_.onlyNodes.isEmpty()) {
            if (options_.onlyNodes.contains(node.name()) ||
                options_.onlyNodes.contains(node.host)) {
                nodes.push_back(&node);
            }
        } else if (!headOnly || node.isHead) {
            nodes.push_back(&node);
        }
    }
    if (headOnly && nodes.size() > 1) {
        nodes.resize(1);
    }
    return nodes;
}

void ClusterLauncher::startOnNodes(const std::vector<const ClusterNodeSpec*>& nodes,
                                   const Start& start) {
    operations_.clear();
    running_ = nodes.size();
    for (const ClusterNodeSpec* node : nodes) {
        operations_.push_back(std::make_unique<NodeOperation>(cluster_, *node, options_, output_));
    }
    if (operations_.empty()) {
        emit finished({});
        return;
    }
    for (auto& operation : operations_) {
        connect(operation.get(), &NodeOperation::done, this, &ClusterLauncher::onNodeDone,
                Qt::QueuedConnection);
        start(*operation);
    }
}

void ClusterLauncher::onNodeDone() {
    if (--running_ > 0) {
        return;
    }
    std::vector<NodeOutcome> outcomes;
    for (const auto& operation : operations_) {
        outcomes.push_back(operation->outcome());
    }
    emit finished(outcomes);
}

void ClusterLauncher::up() {
    startOnNodes(selectedNodes(false), [](NodeOperation& op) { op.up(); });
}

void ClusterLauncher::down() {
    startOnNodes(selectedNodes(false), [](NodeOperation& op) { op.down(); });
}

void ClusterLauncher::status() {
    startOnNodes(selectedNodes(false), [](NodeOperation& op) { op.status(); });
}

void ClusterLauncher::exec(const QString& shellCommand) {
    startOnNodes(selectedNodes(false),
                 [shellCommand](NodeOperation& op) { op.exec(shellCommand); });
}

void ClusterLauncher::rsyncUp(const QString& localPath, const QString& remotePath) {
    startOnNodes(selectedNodes(false),
                 [localPath, remotePath](NodeOperation& op) { op.rsyncUp(localPath, remotePath); });
}

void ClusterLauncher::rsyncDown(const QString& remotePath, const QString& localPath) {
    startOnNodes(selectedNodes(true), [remotePath, localPath](NodeOperation& op) {
        op.rsyncDown(remotePath, localPath);
    });
}

}  // namespace tunedeck
