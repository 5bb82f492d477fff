// SSH clusters for the integration tests: OpenSSH servers started by the test (each one a
// "node"), each in a network namespace of its own where the test may make them (else sshd on
// loopback ports, said once in the output), and the cluster file that names them. Used by
// test_cluster and test_gang_trials. Not thread-safe; one Cluster per test function.
#pragma once

#include <QString>
#include <memory>
#include <vector>

#include "engine_harness.h"
#include "netns_fixture.h"
#include "sshd_fixture.h"

struct Cluster {
    // Declared first, destroyed last: the servers stop before their namespaces go.
    std::vector<std::unique_ptr<NetworkNamespace>> namespaces;
    std::vector<std::unique_ptr<SshdFixture>> nodes;
    QString knownHosts;
    QString remoteRoot;
};

// Starts `count` sshd nodes; their keys go into a known_hosts file of the test unless `trusted`
// is false. False, with `skipReason` saying why, when the nodes cannot be made here.
bool startSshNodes(EngineHarness& harness, Cluster& cluster, int count, bool trusted,
                   QString* skipReason);

// How the engine names the node ("host:port").
QString nodeName(const SshdFixture& node);
// The node's own folder under remote_root.
QString nodeFolder(const Cluster& cluster, const SshdFixture& node);

// A cluster file for `cluster` (cluster_name: lab), with `extra` YAML appended; its path.
QString writeCluster(EngineHarness& harness, const Cluster& cluster, const QString& extra,
                     const QString& fileName = QStringLiteral("cluster.yaml"));
