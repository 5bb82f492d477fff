// The command node provider, run for real: a cluster whose create, terminate, list and connect
// are the user's own commands, here one shell script the test writes. A "node" is a file in
// live/ (what a cloud's API would list) and its agent a tunedeck-worker that connect starts on
// this machine. The run is judged as a user would: the console's decisions, the node events, the
// SQLite history, and what the script's own logs say was created and terminated.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>
#include <algorithm>

#include "elastic_cluster_tests.h"
#include "engine_harness.h"
#include "serve_session.h"

namespace {

// create NAME TYPE: the first create fails as a full quota does; later ones print "ID ADDRESS".
// The node is a file in live/ holding its type; list prints the live ids; terminate deletes one.
// clang-format off
constexpr char kNodesScript[] = R"sh(#!/bin/sh
cd "$(dirname "$0")" || exit 1
case "$1" in
create)
    if mkdir quota-used 2>/dev/null; then
        echo "error: quota exceeded for instances of type $3" >&2
        exit 3
    fi
    mkdir -p live && echo "$3" > "live/$2" && echo "$2" >> created.log
    echo "creating $2 ..."
    echo "$2 127.0.0.1"
    ;;
terminate)
    rm -f "live/$2" && echo "$2" >> terminated.log
    ;;
list)
    mkdir -p live && ls live
    ;;
esac
)sh";
// clang-format on

}  // namespace

QStringList readLines(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
}

QString writeCommandCluster(const QString& dir) {
    QFile script(dir + "/nodes.sh");
    if (script.open(QIODevice::WriteOnly)) {
        script.write(kNodesScript);
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    QFile cluster(dir + "/cluster.yaml");
    if (cluster.open(QIODevice::WriteOnly)) {
        cluster.write(
            "cluster_name: cmdtest\n"
            "provider:\n"
            "  type: command\n"
            "  create: ./nodes.sh create {node} {type}\n"
            "  terminate: ./nodes.sh terminate {id}\n"
            "  list: ./nodes.sh list\n"
            "  connect: exec {worker}\n"
            "  list_interval_s: 0.5\n"
            "available_node_types:\n"
            "  small:\n"
            "    resources: {CPU: 1}\n"
            "    max_workers: 2\n"
            "idle_timeout_minutes: 0.05\n");
    }
    return cluster.fileName();
}

void TestElasticClusters::commandProviderScalesAndSurvivesAReclaim() {
    EngineHarness engine;
    writeCommandCluster(engine.root());
    // Four one-CPU trials on one-CPU nodes, two nodes at most. The last trial runs longest, so a
    // node that runs out of trials idles past the 3 s timeout while it runs.
    const QString experiment = engine.writeFile("exp.yaml",
                                                "name: cmd\n"
                                                "trainable: {command: [python3, '@TRIAL@']}\n"
                                                "resources_per_trial: {cpu: 1}\n"
                                                "search_space:\n"
                                                "  iterations: {grid: [4, 4, 4, 20]}\n"
                                                "  sleep: 0.25\n"
                                                "metric: score\nmode: max\n"
                                                "checkpoint: {frequency: 2}\n"
                                                "cluster: cluster.yaml\n");
    const QString eventsFile = engine.root() + "/events.jsonl";
    QElapsedTimer runTime;
    runTime.start();
    auto process = engine.start({"run", experiment, "--events", eventsFile});

    // Once a trial has reported on a node, the node disappears from `list`, as a reclaimed spot
    // instance does: its agent is still connected, only the provider says it is gone.
    const QString db = engine.experimentFolder("cmd") + "/experiment.sqlite";
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
    QVERIFY(QFile::remove(engine.root() + "/live/" + reclaimed));
    const EngineResult result = EngineHarness::finish(*process, 60000);
    const double seconds = double(runTime.elapsed()) / 1000.0;
    QVERIFY2(result.finished && result.exitCode == 0, qPrintable(result.all()));

    // The decisions as the console said them: two nodes for the first two trials, the quota
    // error in the create command's own words with the wait before the next try, and an idle
    // node terminated.
    QVERIFY2(QRegularExpression("launching 2 x small \\(tunedeck-cmdtest-[0-9a-f]{6}-1, "
                                "tunedeck-cmdtest-[0-9a-f]{6}-2\\) for t00000, t00001")
                 .match(result.out)
                 .hasMatch(),
             qPrintable(result.all()));
    QVERIFY2(result.out.contains("did not start: the create command failed (exit status 3): "
                                 "error: quota exceeded for instances of type small; next "
                                 "launch in 2 s"),
             qPrintable(result.all()));
    const QRegularExpressionMatch idle =
        QRegularExpression("terminating (tunedeck-cmdtest-\\S+): idle for \\d+ s")
            .match(result.out);
    QVERIFY2(idle.hasMatch(), qPrintable(result.out));

    // Node events: the reclaimed node lost, its trial back to PENDING for that reason.
    bool lost = false;
    bool trialMoved = false;
    int launched = 0;
    std::vector<double> readySeconds;
    for (const QJsonObject& event : readEventsFile(eventsFile)) {
        const QString type = event.value("type").toString();
        if (type == "trial_status") {
            trialMoved =
                trialMoved ||
                (event.value("status").toString() == "PENDING" &&
                 event.value("reason").toString().contains("node " + reclaimed +
                                                           " lost: it is gone from the output of "
                                                           "the provider's list command"));
        } else if (type == "node") {
            const QString state = event.value("state").toString();
            launched += state == "launching" ? 1 : 0;
            lost = lost || (state == "lost" && event.value("node").toString() == reclaimed);
            if (state == "ready") {
                readySeconds.push_back(
                    event.value("details").toObject().value("seconds_from_launch").toDouble());
            }
        }
    }
    QVERIFY2(lost, "no node event said the reclaimed node was lost");
    QVERIFY2(trialMoved, "no trial went back to PENDING for the reclaimed node");
    QVERIFY2(launched >= 4, "the failed and the reclaimed nodes were not replaced");

    // Nothing lost, no failure counted, every iteration once.
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'"),
             QStringLiteral("4"));
    QCOMPARE(sqliteQuery(db, "SELECT SUM(failures) FROM trials"), QStringLiteral("0"));
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM results"), QStringLiteral("32"));
    QCOMPARE(sqliteQuery(db,
                         "SELECT COUNT(*) FROM (SELECT DISTINCT trial_id, iteration FROM "
                         "results)"),
             QStringLiteral("32"));

    // The provider's side: the idle node and, after the run, every node created was given back
    // with the terminate command; none is left live.
    const QStringList created = readLines(engine.root() + "/created.log");
    QStringList terminated;
    for (int i = 0; i < 50; ++i) {
        terminated = readLines(engine.root() + "/terminated.log");
        if (QDir(engine.root() + "/live").isEmpty()) {
            break;
        }
        QTest::qWait(100);
    }
    QVERIFY2(terminated.contains(idle.captured(1)), qPrintable(terminated.join(' ')));
    for (const QString& node : created) {
        QVERIFY2(terminated.contains(node), qPrintable(node + " was never terminated"));
    }
    QVERIFY2(QDir(engine.root() + "/live").isEmpty(),
             qPrintable("nodes left: " + QDir(engine.root() + "/live").entryList().join(' ')));
    std::sort(readySeconds.begin(), readySeconds.end());
    qInfo(
        "run took %.1f s with %lld nodes created; launch to agent ready with the command "
        "provider (create, then connect): %.2f s (fastest) .. %.2f s (slowest) over %zu nodes",
        seconds, qlonglong(created.size()), readySeconds.empty() ? 0.0 : readySeconds.front(),
        readySeconds.empty() ? 0.0 : readySeconds.back(), readySeconds.size());
}

void TestElasticClusters::maxWorkersOfARunningClusterCanBeRaised() {
    // An experiment served on a cluster of one node at most; once its first trial reports,
    // `tunedeck-engine set-max-workers` raises the cap to 3 through serve (the control API's
    // set_max_workers) and the autoscaler launches for the trials waiting.
    EngineHarness engine;
    const QString clusterFile = writeCommandCluster(engine.root());
    QVERIFY(QDir().mkpath(engine.root() + "/quota-used"));  // no quota error this time
    QFile cluster(clusterFile);
    QVERIFY(cluster.open(QIODevice::ReadOnly));
    const QByteArray text = cluster.readAll().replace("max_workers: 2", "max_workers: 1");
    cluster.close();
    QVERIFY(cluster.open(QIODevice::WriteOnly | QIODevice::Truncate));
    cluster.write(text);
    cluster.close();
    const QString experiment = engine.writeFile("exp.yaml",
                                                "name: cap\n"
                                                "trainable: {command: [python3, '@TRIAL@']}\n"
                                                "resources_per_trial: {cpu: 1}\n"
                                                "search_space:\n"
                                                "  x: {grid: [1, 2, 3, 4]}\n"
                                                "  iterations: 12\n"
                                                "  sleep: 0.25\n"
                                                "metric: score\nmode: max\n"
                                                "cluster: cluster.yaml\n");
    ServeProcess serve;
    QVERIFY(serve.start(engine, {"--listen", "unix:" + ServeProcess::localSocketPath(engine),
                                 "--capacity", "cpu=8"}));
    ServeClient client(serve.address());
    QVERIFY(client.hello().value("ok").toBool());
    const QJsonObject started = client.ask({{"op", "start"}, {"path", experiment}}, 30000);
    QVERIFY2(started.value("ok").toBool(), qPrintable(QJsonDocument(started).toJson()));
    const QString db = started.value("folder").toString() + "/experiment.sqlite";
    const QString name = started.value("experiment").toString();
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < 20000 &&
           sqliteQuery(db, "SELECT COUNT(*) FROM results").toInt() == 0) {
        QTest::qWait(100);
    }
    const auto setMaxWorkers = [&](const QString& type, const QString& cap) {
        return engine.run({"set-max-workers", name, type, cap, "--connect", serve.address()});
    };
    // Mistakes are refused with why; the cap is taken.
    const EngineResult unknown = setMaxWorkers("large", "3");
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains("cap: set_max_workers: no node type 'large' in the cluster "
                                  "(known: small)"),
             qPrintable(unknown.all()));
    const EngineResult negative = setMaxWorkers("small", "many");
    QCOMPARE(negative.exitCode, 2);
    QVERIFY2(negative.err.contains("max_workers: expected a whole number from 0, not 'many'"),
             qPrintable(negative.all()));
    const EngineResult raised = setMaxWorkers("small", "3");
    QVERIFY2(raised.exitCode == 0, qPrintable(raised.all()));
    QCOMPARE(raised.out, QStringLiteral("cap: max_workers of small is 3 from now on.\n"));
    waited.restart();
    while (waited.elapsed() < 30000 &&
           sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'") != "4") {
        QTest::qWait(100);
    }
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'"),
             QStringLiteral("4"));
    // The history's node events: one node launched before the new cap, two more after it (three
    // trials waited), none beyond it.
    const QString launchingBefore = sqliteQuery(
        db,
        "SELECT COUNT(*) FROM events WHERE type = 'node' AND json_extract(payload, '$.state') = "
        "'launching' AND seq < (SELECT seq FROM events WHERE type = 'node' AND "
        "json_extract(payload, '$.state') = 'max_workers' AND "
        "json_extract(payload, '$.details.max_workers') = 3)");
    QCOMPARE(launchingBefore, QStringLiteral("1"));
    QCOMPARE(sqliteQuery(db,
                         "SELECT COUNT(*) FROM events WHERE type = 'node' AND "
                         "json_extract(payload, '$.state') = 'launching'"),
             QStringLiteral("3"));
}

void TestElasticClusters::commandProviderMistakesAreRefusedAtValidate() {
    EngineHarness engine;
    engine.writeFile("cluster.yaml",
                     "cluster_name: cmdtest\n"
                     "provider:\n"
                     "  type: command\n"
                     "  create: ./nodes.sh create {node} {node_config.zone}\n"
                     "  list: ./nodes.sh list {node}\n"
                     "  connect: exec {worker} {nod}\n"
                     "available_node_types:\n"
                     "  small:\n"
                     "    resources: {CPU: 1}\n");
    const EngineResult result =
        engine.run({"validate", engine.writeFile("exp.yaml",
                                                 "name: cmd\n"
                                                 "trainable: {command: [python3, "
                                                 "'@TRIAL@']}\n"
                                                 "metric: score\nmode: max\n"
                                                 "cluster: cluster.yaml\n")});
    QCOMPARE(result.exitCode, 2);
    const QString cluster = engine.root() + "/cluster.yaml";
    for (const QString& expected : {
             cluster + ":2:1: provider.terminate: required key is missing",
             cluster + ":6:12: provider.connect: {nod} is not a placeholder of connect",
             cluster + ":8:3: available_node_types.small.node_config.zone: required key is "
                       "missing (provider.create uses {node_config.zone})",
             cluster + ":5:9: provider.list: {node} is not a placeholder of list (known: "
                       "{cluster};",
         }) {
        QVERIFY2(result.err.contains(expected), qPrintable(expected + "\n---\n" + result.err));
    }
}

void TestElasticClusters::shippedCloudExamplesValidate() {
    // The AWS, GCP, Kubernetes and Slurm files users start from load without a problem or a
    // warning.
    EngineHarness engine;
    for (const char* name : {"aws", "gcp", "kubernetes", "slurm"}) {
        const QString cluster =
            QStringLiteral(TUNEDECK_SOURCE_DIR "/resources/examples/clusters/%1.yaml").arg(name);
        const EngineResult result = engine.run(
            {"validate", engine.writeFile(QStringLiteral("%1.yaml").arg(name),
                                          QStringLiteral("name: cloud\n"
                                                         "trainable: {command: [python3, "
                                                         "'@TRIAL@']}\n"
                                                         "resources_per_trial: {cpu: 4, gpu: 1}\n"
                                                         "metric: score\nmode: max\n"
                                                         "cluster: %1\n")
                                              .arg(cluster))});
        QVERIFY2(result.exitCode == 0 && result.err.isEmpty(), qPrintable(name + result.all()));
        QVERIFY2(result.out.contains(": ok."), qPrintable(result.all()));
    }
}
