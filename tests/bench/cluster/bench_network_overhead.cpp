// Ray Tune's network-overhead release test, scaled down to this machine: N trials on N nodes,
// each reporting one result a second for S seconds (Ray: 200 trials on 200 nodes, 300 s each,
// 2,280 s against the 300 s floor). The nodes are the command provider's namespace nodes
// (tests/cluster/namespace_nodes.h: a network namespace, a veth pair and an sshd each, the agent
// reached over ssh), started from 0 by the autoscaler. It prints the run's total time against the
// floor (the trial length) as a ratio, and the time from a trial becoming pending to its node's
// agent being ready, both measured in the same run from the experiment's SQLite history.
// Built on request (EXCLUDE_FROM_ALL): `cmake --build build --target bench_network_overhead &&
// build/bin/bench_network_overhead [--nodes N] [--seconds S]`; root only (namespaces).
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStringList>
#include <cstdio>

#include "engine_harness.h"
#include "namespace_nodes.h"

namespace {

int option(const QStringList& args, const QString& name, int fallback) {
    const qsizetype at = args.indexOf(name);
    return at >= 0 && at + 1 < args.size() ? args.at(at + 1).toInt() : fallback;
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int nodeCount = option(args, QStringLiteral("--nodes"), 12);
    const int seconds = option(args, QStringLiteral("--seconds"), 25);
    if (const QString why = NamespaceNodes::unavailableBecause(); !why.isEmpty()) {
        std::printf("skipped: %s\n", qPrintable(why));
        return 0;
    }
    EngineHarness engine;
    NamespaceNodes nodes(engine.root());
    NamespaceNodes::Options options;
    options.clusterName = QStringLiteral("netbench");
    options.nodeType = QStringLiteral("node");
    options.maxWorkers = nodeCount;
    options.upscalingSpeed = nodeCount;  // Ray's test starts its 200 nodes up front
    options.idleTimeoutMinutes = 5;
    options.firstCreateFails = false;
    QString error;
    if (nodes.writeCluster(options, &error).isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    QStringList grid;
    for (int i = 0; i < nodeCount; ++i) {
        grid << QString::number(i + 1);  // x = 0 would divide by zero in the trial
    }
    const QString experiment =
        engine.writeFile("exp.yaml", QStringLiteral("name: netbench\n"
                                                    "trainable: {command: [python3, '@TRIAL@']}\n"
                                                    "resources_per_trial: {cpu: 1}\n"
                                                    "search_space:\n"
                                                    "  x: {grid: [%1]}\n"
                                                    "  iterations: %2\n"
                                                    "  sleep: 1.0\n"
                                                    "metric: score\nmode: max\n"
                                                    "cluster: cluster.yaml\n")
                                         .arg(grid.join(QStringLiteral(", ")))
                                         .arg(seconds));
    QElapsedTimer clock;
    clock.start();
    const EngineResult result = engine.run({"run", experiment, "--quiet"}, 600000);
    const double total = double(clock.elapsed()) / 1000.0;
    if (!result.finished || result.exitCode != 0) {
        std::fprintf(stderr, "the run failed:\n%s\n", qPrintable(result.all()));
        return 1;
    }
    const QString db = engine.experimentFolder("netbench") + "/experiment.sqlite";
    const QString results = sqliteQuery(db, "SELECT COUNT(*) FROM results");
    const QString onNodes = sqliteQuery(db, "SELECT COUNT(DISTINCT node_id) FROM trials");
    // A trial waits from the run's first event (all N are wanted at once: the autoscaler counts
    // the searcher's trials before they are made, so their PENDING events come later) to the
    // `ready` event of the node it ran on.
    const QString pendingToReady = sqliteQuery(
        db,
        "WITH start AS (SELECT MIN(timestamp) AS t FROM events), "
        "ready AS (SELECT json_extract(payload, '$.node') AS node, MIN(timestamp) AS t, "
        "MIN(json_extract(payload, '$.details.seconds_from_launch')) AS s FROM events WHERE "
        "type = 'node' AND json_extract(payload, '$.state') = 'ready' GROUP BY node), "
        "waits AS (SELECT ready.t - start.t AS w, ready.s AS s FROM trials, start JOIN ready ON "
        "ready.node = trials.node_id) "
        "SELECT printf('%.2f s (fastest), %.2f s (mean), %.2f s (slowest); of which launch to "
        "ready %.2f .. %.2f s', MIN(w), AVG(w), MAX(w), MIN(s), MAX(s)) FROM waits");
    std::printf(
        "network overhead (Ray Tune release test, scaled): %d trials on %d namespace nodes "
        "(command provider, ssh), 1 result/s for %d s each\n"
        "  results recorded: %s on %s nodes\n"
        "  total %.1f s against the %d s floor: %.3fx (Ray Tune: 2280 s / 300 s = 7.6x; "
        "target 1.1x)\n"
        "  pending to agent ready: %s\n",
        nodeCount, nodeCount, seconds, qPrintable(results), qPrintable(onNodes), total, seconds,
        total / double(seconds), qPrintable(pendingToReady));
    return 0;
}
