// Experiments on elastic clusters, judged from the outside (console, node events, the SQLite
// history, what the provider's own tools show): a real one-host Slurm (test_slurm.cpp) and the
// command provider with nodes made by shell scripts the test writes (test_command_provider.cpp;
// test_namespace_nodes.cpp, whose nodes are network namespaces with an sshd inside).
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QStringList>
#include <vector>

class TestElasticClusters : public QObject {
    Q_OBJECT
  private slots:
    void scalesWithTheDemandAndSurvivesScancel();
    void clusterDownCancelsOnlyItsOwnCluster();
    void commandProviderScalesAndSurvivesAReclaim();
    void commandProviderOnNamespaceNodes();
    void maxWorkersOfARunningClusterCanBeRaised();
    void commandProviderMistakesAreRefusedAtValidate();
    void shippedCloudExamplesValidate();
    void submitRunsOnTheClusterAndTakesItDown();
    void submitTakesTheClusterDownWhenInterrupted();
    void submitRefusesBadArguments();
    void submitOnSlurmLeavesNoJobInSqueue();
};

// The JSON objects of an --events file, in order.
std::vector<QJsonObject> readEventsFile(const QString& path);

// The command provider's test cluster: <dir>/nodes.sh (create, terminate, list; a node is a file
// in <dir>/live/, the first create fails with a quota error unless <dir>/quota-used exists) and
// <dir>/cluster.yaml naming it, with nodes of one CPU, at most two. Returns the cluster file.
QString writeCommandCluster(const QString& dir);
// The lines of a text file; none when it does not exist.
QStringList readLines(const QString& path);
