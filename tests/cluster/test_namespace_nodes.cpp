// The command provider with nodes that are hosts of their own: each create makes a network
// namespace with a veth pair and an sshd inside (namespace_nodes.h), connect is ssh to it, and
// terminate deletes it. One run checks, from the outside (the console, the node and trial events
// in the SQLite history, the exported results, `ip netns` and the script's logs): a quota
// error from create said in its own words and retried after 2 s, two nodes for two waiting
// trials, a node deleted behind the engine's back (a spot reclaim) whose trial resumes elsewhere
// with no failure counted and nothing lost, an idle node terminated, no namespace left. Skipped
// with the reason when namespaces cannot be made (not root) or OpenSSH is missing.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <algorithm>

#include "elastic_cluster_tests.h"
#include "engine_harness.h"
#include "namespace_nodes.h"

void TestElasticClusters::commandProviderOnNamespaceNodes() {
    if (const QString why = NamespaceNodes::unavailableBecause(); !why.isEmpty()) {
        QSKIP(qPrintable(why));
    }
    EngineHarness engine;
    NamespaceNodes nodes(engine.root());
    QString error;
    QVERIFY2(!nodes.writeCluster(NamespaceNodes::Options{}, &error).isEmpty(), qPrintable(error));
    // Four one-CPU trials on one-CPU nodes, two nodes at most; the last runs longest, so a node
    // that runs out of trials idles past the 3 s timeout while it runs.
    const QString experiment = engine.writeFile("exp.yaml",
                                                "name: ns\n"
                                                "trainable: {command: [python3, '@TRIAL@']}\n"
                                                "resources_per_trial: {cpu: 1}\n"
                                                "search_space:\n"
                                                "  iterations: {grid: [4, 4, 4, 20]}\n"
                                                "  sleep: 0.25\n"
                                                "metric: score\nmode: max\n"
                                                "checkpoint: {frequency: 2}\n"
                                                "cluster: cluster.yaml\n");
    QElapsedTimer runTime;
    runTime.start();
    auto process = engine.start({"run", experiment});

    // Once a trial has reported on a node, that node's namespace is deleted: its cable cut, its
    // processes killed, as a reclaimed spot instance goes.
    const QString db = engine.experimentFolder("ns") + "/experiment.sqlite";
    QString reclaimed;
    QElapsedTimer waited;
    waited.start();
    while (reclaimed.isEmpty() && waited.elapsed() < 20000 &&
           process->state() == QProcess::Running) {
        QTest::qWait(100);
        reclaimed = sqliteQuery(db,
                                "SELECT t.node_id FROM trials t WHERE t.status = 'RUNNING' "
                                "AND EXISTS (SELECT 1 FROM results r WHERE r.trial_id = t.id) "
                                "ORDER BY t.id LIMIT 1");
    }
    QVERIFY2(!reclaimed.isEmpty(), "no trial reported on a node");
    QVERIFY2(nodes.liveNodes().contains(reclaimed), qPrintable(nodes.liveNodes().join(' ')));
    QVERIFY2(nodes.reclaim(reclaimed, &error), qPrintable(error));
    const EngineResult result = EngineHarness::finish(*process, 60000);
    const double seconds = double(runTime.elapsed()) / 1000.0;
    QVERIFY2(result.finished && result.exitCode == 0, qPrintable(result.all()));

    // The console: the quota error in create's own words with the wait before the next try, two
    // nodes for the first two trials, an idle node terminated.
    QVERIFY2(result.out.contains("did not start: the create command failed (exit status 3): "
                                 "error: quota exceeded for instances of type small; next "
                                 "launch in 2 s"),
             qPrintable(result.all()));
    QVERIFY2(QRegularExpression("launching 2 x small \\(tunedeck-nstest-[0-9a-f]{6}-\\d+, "
                                "tunedeck-nstest-[0-9a-f]{6}-\\d+\\) for t00000, t00001")
                 .match(result.out)
                 .hasMatch(),
             qPrintable(result.all()));
    const QRegularExpressionMatch idle =
        QRegularExpression("terminating (tunedeck-nstest-\\S+): idle for \\d+ s").match(result.out);
    QVERIFY2(idle.hasMatch(), qPrintable(result.out));

    // The history's node events: the reclaimed node lost, the failed and the lost node replaced.
    const auto nodeEvents = [&](const QString& state) {
        return sqliteQuery(db, QStringLiteral("SELECT group_concat(json_extract(payload, '$.node'),"
                                              " ' ') FROM events WHERE type = 'node' AND "
                                              "json_extract(payload, '$.state') = '%1'")
                                   .arg(state))
            .split(' ', Qt::SkipEmptyParts);
    };
    QVERIFY2(nodeEvents("lost").contains(reclaimed), qPrintable(nodeEvents("lost").join(' ')));
    QVERIFY2(nodeEvents("launch_failed").size() == 1,
             qPrintable(nodeEvents("launch_failed").join(' ')));
    QVERIFY2(nodeEvents("launching").size() >= 4, qPrintable(nodeEvents("launching").join(' ')));
    // The idle node, once its terminate command has run, is said to be gone.
    QVERIFY2(nodeEvents("terminated").contains(idle.captured(1)),
             qPrintable(nodeEvents("terminated").join(' ')));
    // Its trial went back to PENDING for that reason, with no failure counted.
    QVERIFY2(sqliteQuery(db, QStringLiteral("SELECT COUNT(*) FROM events WHERE type = "
                                            "'trial_status' AND json_extract(payload, '$.status')"
                                            " = 'PENDING' AND json_extract(payload, '$.reason') "
                                            "LIKE 'node %1 lost: %'")
                                 .arg(reclaimed))
                     .toInt() >= 1,
             qPrintable(sqliteQuery(db,
                                    "SELECT group_concat(payload, '\n') FROM events WHERE "
                                    "type = 'trial_status'")));
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'"),
             QStringLiteral("4"));
    QCOMPARE(sqliteQuery(db, "SELECT SUM(failures) FROM trials"), QStringLiteral("0"));
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM results"), QStringLiteral("32"));
    QCOMPARE(sqliteQuery(db,
                         "SELECT COUNT(*) FROM (SELECT DISTINCT trial_id, iteration FROM "
                         "results)"),
             QStringLiteral("32"));
    // Every trial ran on a namespace node, and the exported results have every iteration once.
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE node_id LIKE 'tunedeck-nstest-%'"),
             QStringLiteral("4"));
    const QString csv = engine.root() + "/results.csv";
    const EngineResult exported =
        engine.run({"export", engine.experimentFolder("ns"), "--format", "csv", "-o", csv});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.all()));
    QStringList rows = readLines(csv);
    QVERIFY(!rows.isEmpty());
    rows.removeFirst();  // the header
    QCOMPARE(rows.size(), 32);
    rows.removeDuplicates();
    QCOMPARE(rows.size(), 32);

    // The provider's side: every node created (the failed one too) was terminated, none is left.
    const QStringList created = readLines(engine.root() + "/created.log");
    QStringList terminated;
    for (int i = 0; i < 50 && !nodes.liveNodes().isEmpty(); ++i) {
        QTest::qWait(100);
    }
    terminated = readLines(engine.root() + "/terminated.log");
    QVERIFY2(nodes.liveNodes().isEmpty(), qPrintable("left: " + nodes.liveNodes().join(' ')));
    QVERIFY2(terminated.contains(idle.captured(1)), qPrintable(terminated.join(' ')));
    for (const QString& node : created) {
        QVERIFY2(terminated.contains(node), qPrintable(node + " was never terminated"));
    }
    const QString ready = sqliteQuery(
        db,
        "SELECT printf('%.2f s .. %.2f s over %d nodes', MIN(s), MAX(s), COUNT(*)) FROM (SELECT "
        "json_extract(payload, '$.details.seconds_from_launch') AS s FROM events WHERE type = "
        "'node' AND json_extract(payload, '$.state') = 'ready')");
    qInfo(
        "run took %.1f s with %lld namespace nodes created; launch to agent ready (create: "
        "namespace, veth, sshd; connect: ssh): %s",
        seconds, qlonglong(created.size()), qPrintable(ready));
}
