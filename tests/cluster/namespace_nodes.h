// Nodes for the command provider that are separate hosts on this machine: each create makes a
// network namespace with a veth pair to the test's namespace and starts an OpenSSH server inside
// it; connect is `ssh root@ADDRESS tunedeck-worker` over that pair; terminate kills what runs in
// the namespace and deletes it (the pair with it). The provider's four commands are one shell
// script that the fixture writes (nodes.sh); the test deletes a namespace behind the engine's
// back to play a reclaimed spot instance (reclaim()).
//
// The sshd config and keys are tests/common's SshdFixture's (started once on loopback, which also
// checks that sshd works here); each node's sshd runs with that config, its own address and pid
// file. Needs root (NetworkNamespace::available) and OpenSSH (sshdAvailable): call available()
// and QSKIP with its reason. The destructor deletes every namespace the script made that is still
// there, also after a failed test. Thread-safety: none; use it from the test's thread.
#pragma once

#include <QString>
#include <QStringList>

#include "sshd_fixture.h"

class NamespaceNodes {
  public:
    struct Options {
        QString clusterName = QStringLiteral("nstest");
        QString nodeType = QStringLiteral("small");
        int cpusPerNode = 1;
        int maxWorkers = 2;
        double idleTimeoutMinutes = 0.05;
        double upscalingSpeed = 1.0;
        // The first create fails as a full quota does ("error: quota exceeded ...", exit 3).
        bool firstCreateFails = true;
    };

    // `dir` holds the script, the cluster file and the script's logs (created.log,
    // terminated.log).
    explicit NamespaceNodes(QString dir);
    ~NamespaceNodes();
    NamespaceNodes(const NamespaceNodes&) = delete;
    NamespaceNodes& operator=(const NamespaceNodes&) = delete;

    // Empty when namespaces and sshd can be used here; else why not (the test skips with it).
    static QString unavailableBecause();

    // Writes nodes.sh and cluster.yaml; returns the cluster file, empty (and `error`) on failure.
    QString writeCluster(const Options& options, QString* error);

    // Names of the namespaces (nodes) that exist now and are this cluster's.
    QStringList liveNodes() const;
    // A spot reclaim: the node's cable is cut first (its TCP connections hang, nothing is
    // refused), then everything in it is killed and the namespace is deleted.
    bool reclaim(const QString& node, QString* error);

  private:
    QString dir_;
    QString clusterName_;
    SshdFixture sshd_;
};
