// `tunedeck-engine submit CLUSTER.yaml EXPERIMENT.yaml [--start] [--stop]` as a user runs it, on
// the command provider's test cluster (nodes are files in live/ made by a shell script, agents
// local tunedeck-worker processes): the exit code, the experiment's results, and the cluster
// down afterwards (live/ empty, also of a node an earlier, killed run left), after a run that
// finished and after one interrupted with Ctrl-C.
#include <signal.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include "elastic_cluster_tests.h"
#include "engine_harness.h"

namespace {

// A node left by an earlier run that was killed: only `cluster down` (submit --stop) ends it.
void leaveAStaleNode(const QString& dir) {
    QDir().mkpath(dir + "/live");
    QFile stale(dir + "/live/stale-node");
    stale.open(QIODevice::WriteOnly);
    QDir().mkpath(dir + "/quota-used");  // every create succeeds
}

QString experiment(const EngineHarness& engine, const QString& name, int iterations) {
    return engine.writeFile(name + ".yaml",
                            QStringLiteral("name: %1\n"
                                           "trainable: {command: [python3, '@TRIAL@']}\n"
                                           "resources_per_trial: {cpu: 1}\n"
                                           "search_space:\n"
                                           "  x: {grid: [1, 2]}\n"
                                           "  iterations: %2\n"
                                           "  sleep: 0.1\n"
                                           "metric: score\nmode: max\n")
                                .arg(name)
                                .arg(iterations));
}

}  // namespace

void TestElasticClusters::submitRunsOnTheClusterAndTakesItDown() {
    EngineHarness engine;
    const QString cluster = writeCommandCluster(engine.root());
    leaveAStaleNode(engine.root());
    const EngineResult result =
        engine.run({"submit", cluster, experiment(engine, "sub", 3), "--start", "--stop"}, 60000);
    QVERIFY2(result.finished && result.exitCode == 0, qPrintable(result.all()));
    // --start shows the cluster's live nodes (the CLI works); --stop takes every one down.
    QVERIFY2(result.out.contains("[stale-node] live"), qPrintable(result.out));
    QVERIFY2(result.out.contains("cmdtest down: 1 node terminated, 0 failed."),
             qPrintable(result.out));
    const QString db = engine.experimentFolder("sub") + "/experiment.sqlite";
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'"),
             QStringLiteral("2"));
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM results"), QStringLiteral("6"));
    QVERIFY2(sqliteQuery(db,
                         "SELECT COUNT(*) FROM trials WHERE node_id LIKE "
                         "'tunedeck-cmdtest-%'") == "2",
             "the trials did not run on the cluster's nodes");
    QVERIFY2(QDir(engine.root() + "/live").isEmpty(),
             qPrintable("left: " + QDir(engine.root() + "/live").entryList().join(' ')));
    QVERIFY(readLines(engine.root() + "/terminated.log").contains("stale-node"));
}

void TestElasticClusters::submitTakesTheClusterDownWhenInterrupted() {
    EngineHarness engine;
    const QString cluster = writeCommandCluster(engine.root());
    leaveAStaleNode(engine.root());
    auto process = engine.start({"submit", cluster, experiment(engine, "long", 100), "--stop"});
    const QString db = engine.experimentFolder("long") + "/experiment.sqlite";
    QElapsedTimer waited;
    waited.start();
    while (sqliteQuery(db, "SELECT COUNT(*) FROM results").toInt() == 0 &&
           waited.elapsed() < 20000 && process->state() == QProcess::Running) {
        QTest::qWait(100);
    }
    QVERIFY2(QDir(engine.root() + "/live").entryList(QDir::Files).size() >= 2,
             "no node of the run was up");
    ::kill(pid_t(process->processId()), SIGINT);  // Ctrl-C
    const EngineResult result = EngineHarness::finish(*process, 30000);
    QVERIFY2(result.finished && result.exitCode == 3, qPrintable(result.all()));
    QVERIFY2(result.out.contains("cmdtest down: "), qPrintable(result.out));
    QVERIFY2(QDir(engine.root() + "/live").isEmpty(),
             qPrintable("left: " + QDir(engine.root() + "/live").entryList().join(' ')));
}

void TestElasticClusters::submitRefusesBadArguments() {
    EngineHarness engine;
    const QString cluster = writeCommandCluster(engine.root());
    const QString exp = experiment(engine, "args", 1);

    EngineResult result = engine.run({"submit", cluster});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("submit"), qPrintable(result.err));

    result = engine.run({"submit", exp, cluster});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(exp + " is an experiment file; submit takes the cluster file "
                                       "first: tunedeck-engine submit CLUSTER.yaml "
                                       "EXPERIMENT.yaml"),
             qPrintable(result.err));

    // An experiment that names another cluster is not silently moved.
    QFile::copy(cluster, engine.root() + "/other.yaml");
    const QString named =
        engine.writeFile("named.yaml",
                         "name: named\ntrainable: {command: [python3, '@TRIAL@']}\n"
                         "metric: score\nmode: max\ncluster: other.yaml\n");
    result = engine.run({"submit", cluster, named, "--stop"});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(named + ":5:1: cluster: names " + engine.root() +
                                 "/other.yaml, but submit runs it on " + cluster),
             qPrintable(result.err));
    QVERIFY2(!QDir(engine.resultsRoot() + "/named").exists(), "the experiment was started");
}
