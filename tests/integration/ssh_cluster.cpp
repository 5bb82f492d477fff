#include "ssh_cluster.h"

#include <QFile>
#include <QStringList>

bool startSshNodes(EngineHarness& harness, Cluster& cluster, int count, bool trusted,
                   QString* skipReason) {
    QString why;
    if (!sshdAvailable(&why)) {
        *skipReason = why;
        return false;
    }
    cluster.knownHosts = harness.root() + QStringLiteral("/known_hosts");
    cluster.remoteRoot = harness.root() + QStringLiteral("/nodes");
    QFile known(cluster.knownHosts);
    if (!known.open(QIODevice::WriteOnly)) {
        return false;
    }
    QString noNamespaces;
    const bool namespaces = NetworkNamespace::available(&noNamespaces);
    static bool told = false;
    if (!namespaces && !told) {
        qInfo("nodes are sshd on loopback ports, not network namespaces: %s",
              qPrintable(noNamespaces));
        told = true;
    }
    for (int i = 0; i < count; ++i) {
        auto node = std::make_unique<SshdFixture>();
        QString error;
        if (namespaces) {
            auto space = std::make_unique<NetworkNamespace>();
            if (!space->create(&error)) {
                *skipReason = error;
                return false;
            }
            node->runIn(*space);
            cluster.namespaces.push_back(std::move(space));
        }
        if (!node->start(&error)) {
            *skipReason = QStringLiteral("sshd did not start: ") + error;
            return false;
        }
        if (trusted) {
            known.write(node->knownHostsLine().toUtf8() + '\n');
        }
        if (i > 0) {  // one cluster, one key: every node trusts the first node's user key
            QFile publicKey(cluster.nodes.front()->userKeyPath() + ".pub");
            QFile authorized(node->dir() + "/authorized_keys");
            if (!publicKey.open(QIODevice::ReadOnly) || !authorized.open(QIODevice::Append)) {
                return false;
            }
            authorized.write(publicKey.readAll());
        }
        cluster.nodes.push_back(std::move(node));
    }
    return true;
}

QString nodeName(const SshdFixture& node) {
    return QStringLiteral("%1:%2").arg(node.host()).arg(node.port());
}

QString nodeFolder(const Cluster& cluster, const SshdFixture& node) {
    return QStringLiteral("%1/lab/%2_%3").arg(cluster.remoteRoot, node.host()).arg(node.port());
}

QString writeCluster(EngineHarness& harness, const Cluster& cluster, const QString& extra,
                     const QString& fileName) {
    QString yaml = QStringLiteral(
                       "cluster_name: lab\n"
                       "provider:\n"
                       "  type: ssh\n"
                       "  head_ip: \"%1\"\n"
                       "  worker_ips: [")
                       .arg(nodeName(*cluster.nodes.front()));
    QStringList workers;
    for (std::size_t i = 1; i < cluster.nodes.size(); ++i) {
        workers << QStringLiteral("\"%1\"").arg(nodeName(*cluster.nodes[i]));
    }
    yaml += workers.join(QStringLiteral(", ")) + QStringLiteral("]\n");
    yaml += QStringLiteral(
                "auth:\n"
                "  ssh_user: %1\n"
                "  ssh_private_key: %2\n"
                "  known_hosts: %3\n"
                "remote_root: %4\n")
                .arg(cluster.nodes.front()->user(), cluster.nodes.front()->userKeyPath(),
                     cluster.knownHosts, cluster.remoteRoot);
    return harness.writeFile(fileName, yaml + extra);
}
