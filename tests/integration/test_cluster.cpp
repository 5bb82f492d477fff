// Clusters over SSH with real parts: OpenSSH servers started by the test (each one a "node"), the
// real tunedeck-engine (`cluster ...`, `run`) and the real agent copied to every node, real SQLite
// files. Each node is a network namespace of its own, reached over a veth pair, where the test
// may make namespaces (root, outside a locked-down container); otherwise the nodes are sshd on
// loopback ports, said once in the output, and the partition test is skipped. The nodes share
// this machine's disk, but each keeps its files in a folder of its own (storage: copy), so
// checkpoints really travel over SFTP.
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>
#include <memory>
#include <set>
#include <vector>

#include "engine_harness.h"
#include "netns_fixture.h"
#include "ssh_cluster.h"
#include "sshd_fixture.h"

namespace {

// The engine run as a user runs it from a folder of their project (`folder`, under the
// harness's root), with a home of the test's own: accepted host keys go to its known_hosts, not
// the real one.
EngineResult runInFolder(EngineHarness& harness, const QString& folder, const QStringList& args) {
    QProcess engine;
    QProcessEnvironment env = harness.environment();
    env.insert("HOME", harness.root() + "/home");
    QDir().mkpath(harness.root() + "/home");
    engine.setProcessEnvironment(env);
    engine.setWorkingDirectory(harness.root() + "/" + folder);
    engine.start(EngineHarness::enginePath(), args);
    return EngineHarness::finish(engine, 180000);
}

class TestCluster : public QObject {
    Q_OBJECT

  private:
    bool startNodes(EngineHarness& harness, Cluster& cluster, int count, bool trusted = true) {
        return startSshNodes(harness, cluster, count, trusted, &skipReason_);
    }

    static int countLines(const QString& path) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            return 0;
        }
        return int(file.readAll().count('\n'));
    }

    // Polls the engine's --events file until an event satisfies `wanted` or `timeoutMs` passes;
    // returns that event, or an empty object.
    template <typename Predicate>
    static QJsonObject waitForEvent(const QString& events, Predicate wanted, int timeoutMs) {
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < timeoutMs) {
            QFile file(events);
            if (file.open(QIODevice::ReadOnly)) {
                for (const QByteArray& line : file.readAll().split('\n')) {
                    if (const QJsonObject event = QJsonDocument::fromJson(line).object();
                        wanted(event)) {
                        return event;
                    }
                }
            }
            QTest::qWait(100);
        }
        return {};
    }

    static bool isNodeEvent(const QJsonObject& event, const QString& node, const char* state) {
        return event.value("type").toString() == QLatin1String("node") &&
               event.value("node").toString() == node &&
               event.value("state").toString() == QLatin1String(state);
    }

    // Waits until a trial that runs on `node` has reported a few results.
    static bool waitForTrialOn(const QString& events, const QString& node) {
        const QJsonObject running = waitForEvent(
            events,
            [&](const QJsonObject& event) {
                return event.value("type").toString() == QLatin1String("trial_status") &&
                       event.value("status").toString() == QLatin1String("RUNNING") &&
                       event.value("node").toString() == node;
            },
            60000);
        const QString trial = running.value("trial").toString();
        return !trial.isEmpty() &&
               !waitForEvent(
                    events,
                    [&](const QJsonObject& event) {
                        return event.value("trial").toString() == trial &&
                               event.value("type").toString() == QLatin1String("result") &&
                               event.value("result")
                                       .toObject()
                                       .value("training_iteration")
                                       .toInt() >= 3;
                    },
                    60000)
                    .isEmpty();
    }

    // After a run with `trials` trials of `iterations` each that lost `victim` for a while:
    // every trial finished, none repeated more than 5 iterations, at least one that ran on the
    // victim was started again after the loss, the node was lost and re-admitted, nothing
    // counted against the trials, SQLite is whole.
    static void checkNothingWasLost(const EngineHarness& harness, const QString& folder,
                                    const QString& events, const QString& victim, int trials,
                                    int iterations) {
        const QJsonObject statuses = EngineHarness::statuses(harness.exportJson(folder));
        QCOMPARE(statuses.size(), trials);
        for (const QString& id : statuses.keys()) {
            QCOMPARE(statuses.value(id).toString(), QStringLiteral("TERMINATED"));
        }
        QFile file(events);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QMap<QString, int> reports;
        std::set<QString> ranOnVictim;
        std::set<QString> resumed;
        bool lost = false;
        bool readmitted = false;
        for (const QByteArray& line : file.readAll().split('\n')) {
            const QJsonObject event = QJsonDocument::fromJson(line).object();
            if (event.value("type").toString() == QLatin1String("result")) {
                ++reports[event.value("trial").toString()];
            }
            if (event.value("type").toString() == QLatin1String("trial_status") &&
                event.value("status").toString() == QLatin1String("RUNNING")) {
                const QString trial = event.value("trial").toString();
                if (lost && ranOnVictim.count(trial)) {
                    resumed.insert(trial);
                } else if (!lost && event.value("node").toString() == victim) {
                    ranOnVictim.insert(trial);
                }
            }
            lost = lost || isNodeEvent(event, victim, "lost");
            readmitted = readmitted || (lost && isNodeEvent(event, victim, "up"));
        }
        QVERIFY2(lost, "the victim was never declared lost");
        QVERIFY2(readmitted, "the victim was not re-admitted after it came back");
        for (auto it = reports.cbegin(); it != reports.cend(); ++it) {
            QVERIFY2(
                it.value() <= iterations + 5,
                qPrintable(QStringLiteral("%1 reported %2 results").arg(it.key()).arg(it.value())));
        }
        QVERIFY2(!resumed.empty(), "no trial of the victim was started again after the loss");
        const QString db = folder + "/experiment.sqlite";
        QCOMPARE(sqliteQuery(db, "PRAGMA integrity_check"), QStringLiteral("ok"));
        // Nothing counted against the trials: a lost node is not their fault.
        QCOMPARE(sqliteQuery(db, "SELECT MAX(failures) FROM trials"), QStringLiteral("0"));
    }

    // Starts `run` of a 30-iteration experiment of `samples` trials across the cluster's nodes
    // (the cluster file must be written), checkpointing every 5, with its events written to
    // <root>/events.jsonl; `extra` is more YAML (placement).
    static std::unique_ptr<QProcess> startFailoverRun(EngineHarness& harness, const QString& name,
                                                      int samples, double sleep,
                                                      const QString& extra = {}) {
        QDir().mkpath(harness.root() + "/code");
        QFile::copy(EngineHarness::trialScript("behaviour.py"),
                    harness.root() + "/code/behaviour.py");
        const QString experiment = harness.writeFile(
            "experiment.yaml", QStringLiteral("name: %1\n"
                                              "cluster: cluster.yaml\n"
                                              "trainable:\n"
                                              "  command: [python3, behaviour.py]\n"
                                              "  working_dir: code\n"
                                              "search_space:\n"
                                              "  x: {uniform: [0, 1]}\n"
                                              "  iterations: 30\n"
                                              "  sleep: %2\n"
                                              "num_samples: %3\n"
                                              "metric: score\n"
                                              "mode: max\n"
                                              "checkpoint: {frequency: 5}\n"
                                              "failure: {max_failures: 0}\n")
                                       .arg(name)
                                       .arg(sleep)
                                       .arg(samples) +
                                   extra);
        return harness.start(
            {"run", experiment, "--quiet", "--events", harness.root() + "/events.jsonl"});
    }

    QString skipReason_;

  private slots:
    void upTwiceDoesNoWorkTheSecondTime();
    void setupFailureOnOneNodeNamesItAndLeavesTheOthers();
    void unknownHostKeyIsRefusedUnlessAccepted();
    void changedHostKeyIsAlwaysRefused();
    void wrongKeyIsRefused();
    void unreachableNodeIsReportedQuickly();
    void configValuesAndPathsCannotInjectShellCommands();
    void experimentRunsAcrossNodesAndCheckpointsComeHome();
    void nodeKilledMidRunLosesNothing();
    void partitionedNodeIsDeclaredLostAfterItsTimeout();
    void nniRemoteConfigRunsItsTrialsOnTheMachine();
    void aRootEnginesTrialsRunAsTheOwnerOnARootNode();
    void submittedOptunaScriptRunsItsTrialsOnTheCluster();
    void submittedRayScriptKeepsItsCheckpointsAndDrawnValues();
};

void TestCluster::upTwiceDoesNoWorkTheSecondTime() {
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 2)) {
        QSKIP(qPrintable(skipReason_));
    }
    QDir().mkpath(harness.root() + "/mount");
    harness.writeFile("mount/data.txt", "some data\n");
    const QString log = harness.root() + "/setup.log";
    const QString file =
        writeCluster(harness, cluster,
                     QStringLiteral("file_mounts: {\"~/td-test-mount-%1\": ./mount}\n"
                                    "setup_commands: [\"echo ran >> %2\"]\n")
                         .arg(cluster.nodes.front()->port())
                         .arg(log));
    const EngineResult first = harness.run({"cluster", "up", file});
    QVERIFY2(first.exitCode == 0, qPrintable(first.all()));
    QCOMPARE(countLines(log), 2);  // once per node
    QVERIFY2(first.out.contains(QRegularExpression(" CPUs?, ")),
             qPrintable(first.out));  // inventory
    QVERIFY2(first.out.contains("copied"), qPrintable(first.out));

    const EngineResult second = harness.run({"cluster", "up", file});
    QVERIFY2(second.exitCode == 0, qPrintable(second.all()));
    QCOMPARE(countLines(log), 2);  // the setup did not run again
    QVERIFY2(!second.out.contains("copied"), qPrintable(second.out));  // nothing was sent
    QCOMPARE(second.out.count("setup unchanged"), 2);

    // A changed setup runs again.
    writeCluster(harness, cluster,
                 QStringLiteral("file_mounts: {\"~/td-test-mount-%1\": ./mount}\n"
                                "setup_commands: [\"echo ran >> %2\", \"true\"]\n")
                     .arg(cluster.nodes.front()->port())
                     .arg(log));
    const EngineResult third = harness.run({"cluster", "up", file});
    QVERIFY2(third.exitCode == 0, qPrintable(third.all()));
    QCOMPARE(countLines(log), 4);
    // The mount landed in each node's home folder.
    for (const auto& node : cluster.nodes) {
        QVERIFY(QFile::exists(
            node->homeDir() +
            QStringLiteral("/td-test-mount-%1/data.txt").arg(cluster.nodes.front()->port())));
    }
}

void TestCluster::setupFailureOnOneNodeNamesItAndLeavesTheOthers() {
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 2)) {
        QSKIP(qPrintable(skipReason_));
    }
    // The second node's home holds a file that makes the setup fail there only.
    QFile marker(cluster.nodes[1]->homeDir() + "/broken");
    QVERIFY(marker.open(QIODevice::WriteOnly));
    marker.close();
    const QString file = writeCluster(
        harness, cluster, QStringLiteral("setup_commands: [\"test ! -e \\\"$HOME/broken\\\"\"]\n"));
    const EngineResult result = harness.run({"cluster", "up", file});
    QCOMPARE(result.exitCode, 1);
    const QString broken = nodeName(*cluster.nodes[1]);
    QVERIFY2(result.err.contains(QStringLiteral("[%1] setup command failed").arg(broken)),
             qPrintable(result.all()));
    QVERIFY2(result.out.contains("1 node ok, 1 failed"), qPrintable(result.out));
    // The healthy node finished its setup (its stamp is there); the broken one has none.
    QVERIFY(QFile::exists(nodeFolder(cluster, *cluster.nodes[0]) + "/setup.sha256"));
    QVERIFY(!QFile::exists(nodeFolder(cluster, *cluster.nodes[1]) + "/setup.sha256"));
}

void TestCluster::unknownHostKeyIsRefusedUnlessAccepted() {
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 1, false)) {
        QSKIP(qPrintable(skipReason_));
    }
    const QString file = writeCluster(harness, cluster, {});
    const EngineResult refused = harness.run({"cluster", "status", file});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.all().contains(cluster.nodes[0]->hostKeyFingerprint()),
             qPrintable(refused.all()));
    QCOMPARE(countLines(cluster.knownHosts), 0);

    const EngineResult accepted =
        harness.run({"cluster", "status", file, "--accept-new-host-keys"});
    QVERIFY2(accepted.exitCode == 0, qPrintable(accepted.all()));
    QCOMPARE(countLines(cluster.knownHosts), 1);
    const EngineResult again = harness.run({"cluster", "status", file});
    QVERIFY2(again.exitCode == 0, qPrintable(again.all()));
}

void TestCluster::changedHostKeyIsAlwaysRefused() {
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 1)) {
        QSKIP(qPrintable(skipReason_));
    }
    const QString file = writeCluster(harness, cluster, {});
    QString error;
    QVERIFY2(cluster.nodes[0]->regenerateHostKey(&error), qPrintable(error));
    const EngineResult result = harness.run({"cluster", "status", file, "--accept-new-host-keys"});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.all().contains("changed", Qt::CaseInsensitive), qPrintable(result.all()));
    QVERIFY2(result.all().contains(cluster.nodes[0]->hostKeyFingerprint()),
             qPrintable(result.all()));
    QCOMPARE(countLines(cluster.knownHosts), 1);  // the old line is left for the user to judge
}

void TestCluster::wrongKeyIsRefused() {
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 1)) {
        QSKIP(qPrintable(skipReason_));
    }
    const QString otherKey = harness.root() + "/other_key";
    QCOMPARE(QProcess::execute("ssh-keygen", {"-q", "-t", "ed25519", "-N", "", "-f", otherKey}), 0);
    QString file = writeCluster(harness, cluster, {});
    QFile yaml(file);
    QVERIFY(yaml.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(yaml.readAll());
    yaml.close();
    text.replace(cluster.nodes[0]->userKeyPath(), otherKey);
    file = harness.writeFile("cluster.yaml", text);
    const EngineResult result = harness.run({"cluster", "status", file});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.all().contains("authentication", Qt::CaseInsensitive),
             qPrintable(result.all()));
    QFile key(otherKey);
    QVERIFY(key.open(QIODevice::ReadOnly));
    const QByteArray keyText = key.readAll();
    const QByteArray keyBody = keyText.split('\n').value(1);
    QVERIFY(!keyBody.isEmpty());
    QVERIFY2(!result.all().toUtf8().contains(keyBody), "key material in a message");
}

void TestCluster::unreachableNodeIsReportedQuickly() {
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 1)) {
        QSKIP(qPrintable(skipReason_));
    }
    const int port = cluster.nodes[0]->port();
    cluster.nodes[0]->stop();  // nothing listens there now
    const QString file = writeCluster(harness, cluster, {});
    QElapsedTimer clock;
    clock.start();
    const EngineResult result = harness.run({"cluster", "status", file});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.all().contains(QStringLiteral("%1:%2").arg(cluster.nodes[0]->host()).arg(port)),
             qPrintable(result.all()));
    QVERIFY2(clock.elapsed() < 15000, "an unreachable node held the command up");
}

void TestCluster::configValuesAndPathsCannotInjectShellCommands() {
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 1)) {
        QSKIP(qPrintable(skipReason_));
    }
    const QString work = harness.root() + "/inject";
    QDir().mkpath(work);
    QDir().mkpath(harness.root() + "/mount");
    harness.writeFile("mount/a.txt", "a\n");
    // A remote_root, a mount target and an rsync target that would each run a command if they
    // reached a shell unquoted.
    const QString evil =
        QStringLiteral("x $(touch %1/PWNED1) `touch %1/PWNED2` '; touch %1/PWNED3; '").arg(work);
    QString file =
        writeCluster(harness, cluster,
                     QStringLiteral("file_mounts: {\"%1/mount %2\": ./mount}\n").arg(work, evil));
    // A remote_root is refused before anything runs: it becomes part of commands on the nodes.
    QFile yaml(file);
    QVERIFY(yaml.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(yaml.readAll());
    yaml.close();
    text.replace(QStringLiteral("remote_root: ") + cluster.remoteRoot,
                 QStringLiteral("remote_root: \"%1/root %2\"").arg(work, evil));
    const QString evilRoot = harness.writeFile("evil-root.yaml", text);
    const EngineResult refused = harness.run({"cluster", "up", evilRoot});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("evil-root.yaml:") && refused.err.contains("remote_root"),
             qPrintable(refused.all()));
    // Mount targets and rsync targets may hold any character: they never reach a shell unquoted.
    const EngineResult up = harness.run({"cluster", "up", file});
    QVERIFY2(up.exitCode == 0, qPrintable(up.all()));
    const EngineResult rsync = harness.run({"cluster", "rsync-up", file, harness.root() + "/mount",
                                            QStringLiteral("%1/target %2").arg(work, evil)});
    QVERIFY2(rsync.exitCode == 0, qPrintable(rsync.all()));
    for (const char* pwned : {"PWNED1", "PWNED2", "PWNED3"}) {
        QVERIFY2(!QFile::exists(work + "/" + pwned), pwned);
    }
    // The folders exist under their literal names.
    QVERIFY(QFile::exists(QStringLiteral("%1/mount %2/a.txt").arg(work, evil)));
    QVERIFY(QFile::exists(QStringLiteral("%1/target %2/a.txt").arg(work, evil)));
    QVERIFY(QFile::exists(nodeFolder(cluster, *cluster.nodes[0]) + "/bin/tunedeck-worker"));
}

void TestCluster::experimentRunsAcrossNodesAndCheckpointsComeHome() {
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 2)) {
        QSKIP(qPrintable(skipReason_));
    }
    writeCluster(harness, cluster, QStringLiteral("resources: {cpu: 2}\n"));
    QDir().mkpath(harness.root() + "/code");
    QVERIFY(QFile::copy(EngineHarness::trialScript("behaviour.py"),
                        harness.root() + "/code/behaviour.py"));
    const QString experiment = harness.writeFile("experiment.yaml", R"(
name: spread
cluster: cluster.yaml
trainable:
  command: [python3, behaviour.py]
  working_dir: code
search_space:
  x: {grid: [1, 2, 3, 4]}
  iterations: 9
  # Short: spread waits for both nodes instead of running all four on the first one up.
  sleep: 0.02
metric: score
mode: max
placement: spread
checkpoint: {frequency: 3, keep: 2}
)");
    const EngineResult result = harness.run({"run", experiment});
    if (result.exitCode != 0) {
        QDirIterator logs(cluster.remoteRoot, {"trial.log"}, QDir::Files,
                          QDirIterator::Subdirectories);
        while (logs.hasNext()) {
            QFile log(logs.next());
            log.open(QIODevice::ReadOnly);
            qWarning("%s:\n%s", qPrintable(log.fileName()), log.readAll().constData());
        }
    }
    QVERIFY2(result.exitCode == 0, qPrintable(result.all()));
    const QString folder = harness.experimentFolder("spread");
    const QJsonObject statuses = EngineHarness::statuses(harness.exportJson(folder));
    QCOMPARE(statuses.size(), 4);
    for (const QString& id : statuses.keys()) {
        QCOMPARE(statuses.value(id).toString(), QStringLiteral("TERMINATED"));
        // Each trial's last checkpoint is in this machine's experiment folder, whole.
        QVERIFY2(QFile::exists(folder + "/trials/" + id +
                               "/checkpoints/checkpoint_000009/.tunedeck_checkpoint.json"),
                 qPrintable(id));
    }
    const QString db = folder + "/experiment.sqlite";
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(DISTINCT node_id) FROM trials"), QStringLiteral("2"));
    // The trials ran from each node's own copy of the code.
    for (const auto& node : cluster.nodes) {
        QVERIFY(
            QFile::exists(nodeFolder(cluster, *node) + "/experiments/spread/code/behaviour.py"));
    }
}

void TestCluster::nodeKilledMidRunLosesNothing() {
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 3)) {
        QSKIP(qPrintable(skipReason_));
    }
    writeCluster(harness, cluster, QStringLiteral("resources: {cpu: 3}\nnode_timeout_s: 5\n"));
    const QString events = harness.root() + "/events.jsonl";
    std::unique_ptr<QProcess> engine = startFailoverRun(harness, "chaos", 16, 0.15);
    // Once trials run on the victim, it goes away (sshd, its sessions and the agent), and comes
    // back a few seconds later.
    SshdFixture& victim = *cluster.nodes[1];
    QVERIFY2(waitForTrialOn(events, nodeName(victim)), "no trial started on the victim node");
    victim.stop();
    const QString victimWorker = nodeFolder(cluster, victim) + "/bin/tunedeck-worker";
    QProcess::execute("pkill", {"-KILL", "-f", victimWorker});
    QTest::qWait(6000);
    QString error;
    QVERIFY2(victim.start(&error), qPrintable(error));
    const EngineResult result = EngineHarness::finish(*engine, 300000);
    QVERIFY2(result.exitCode == 0, qPrintable(result.all()));
    checkNothingWasLost(harness, harness.experimentFolder("chaos"), events, nodeName(victim), 16,
                        30);
}

// A pulled cable: the node's packets are dropped, so no connection closes and nothing is
// refused. Only the agent's silence tells, and the engine must act on it within node_timeout_s.
void TestCluster::partitionedNodeIsDeclaredLostAfterItsTimeout() {
    if (QString why; !NetworkNamespace::available(&why)) {
        QSKIP(qPrintable(QStringLiteral("a partition needs network namespaces: ") + why));
    }
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 2)) {
        QSKIP(qPrintable(skipReason_));
    }
    constexpr int kNodeTimeoutS = 4;
    writeCluster(harness, cluster,
                 QStringLiteral("resources: {cpu: 2}\nnode_timeout_s: %1\n").arg(kNodeTimeoutS));
    const QString events = harness.root() + "/events.jsonl";
    std::unique_ptr<QProcess> engine =
        startFailoverRun(harness, "partition", 8, 0.3, QStringLiteral("placement: spread\n"));
    SshdFixture& victim = *cluster.nodes[1];
    const QString victimName = nodeName(victim);
    QVERIFY2(waitForTrialOn(events, victimName), "no trial started on the victim node");
    QString error;
    QVERIFY2(cluster.namespaces[1]->setLinkUp(false, &error), qPrintable(error));
    const double partitionedAt = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    // The events file is written in batches: the event's own time says when the engine acted.
    const QJsonObject lost = waitForEvent(
        events, [&](const QJsonObject& event) { return isNodeEvent(event, victimName, "lost"); },
        (kNodeTimeoutS + 10) * 1000);
    QVERIFY2(!lost.isEmpty(), "the partitioned node was never declared lost");
    const double noticedS = lost.value("time").toDouble() - partitionedAt;
    // Within the timeout, plus the agent's heartbeat period and the engine's check interval.
    QVERIFY2(noticedS <= kNodeTimeoutS + 2.5,
             qPrintable(QStringLiteral("lost after %1 s").arg(noticedS)));
    qInfo("partitioned node declared lost after %.2f s (node_timeout_s: %d)", noticedS,
          kNodeTimeoutS);
    QTest::qWait(3000);
    QVERIFY2(cluster.namespaces[1]->setLinkUp(true, &error), qPrintable(error));
    const EngineResult result = EngineHarness::finish(*engine, 300000);
    QVERIFY2(result.exitCode == 0, qPrintable(result.all()));
    checkNothingWasLost(harness, harness.experimentFolder("partition"), events, victimName, 8, 30);
}

// Issue 32: an NNI config with trainingService remote, as its user writes it, runs unchanged
// with `tunedeck-engine run config.yml`: its machine is an SSH node that gets the trial code,
// and the trials' `import nni` works there.
void TestCluster::nniRemoteConfigRunsItsTrialsOnTheMachine() {
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 1, false)) {
        QSKIP(qPrintable(skipReason_));
    }
    const SshdFixture& machine = *cluster.nodes.front();
    QDir().mkpath(harness.root() + "/nni");
    harness.writeFile("nni/search_space.json", R"({
  "lr": {"_type": "loguniform", "_value": [0.0001, 0.1]},
  "layers": {"_type": "choice", "_value": [1, 2, 3]}
})");
    harness.writeFile("nni/trial.py", R"(import json
import math

import nni

params = nni.get_next_parameter()
with open("ran_%s.json" % nni.get_trial_id(), "w") as f:
    json.dump(params, f)
acc = 0.0
for epoch in range(3):
    acc = (1 - abs(math.log10(params["lr"]) + 2) / 3) * (1 - 0.5 ** (epoch + 1))
    nni.report_intermediate_result(acc)
nni.report_final_result(acc)
)");
    const QString config = harness.writeFile(
        "nni/config.yml", QStringLiteral("experimentName: nni_remote\n"
                                         "searchSpaceFile: search_space.json\n"
                                         "trialCommand: python3 trial.py\n"
                                         "trialCodeDirectory: .\n"
                                         "trialConcurrency: 2\n"
                                         "maxTrialNumber: 4\n"
                                         "tuner:\n"
                                         "  name: TPE\n"
                                         "  classArgs: {optimize_mode: maximize, seed: 3}\n"
                                         "trainingService:\n"
                                         "  platform: remote\n"
                                         "  machineList:\n"
                                         "    - host: %1\n"
                                         "      port: %2\n"
                                         "      user: %3\n"
                                         "      sshKeyFile: %4\n")
                              .arg(machine.host())
                              .arg(machine.port())
                              .arg(machine.user(), machine.userKeyPath()));
    // known_hosts goes to a home of the test's own, not the real one.
    const EngineResult result =
        runInFolder(harness, "nni", {"run", config, "--quiet", "--accept-new-host-keys"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.all()));

    const QString db = harness.experimentFolder("nni_remote") + "/experiment.sqlite";
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'"),
             QStringLiteral("4"));
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(DISTINCT trial_id) FROM results WHERE iteration = 3"),
             QStringLiteral("4"));
    QCOMPARE(sqliteQuery(db, "SELECT DISTINCT node_id FROM trials"), nodeName(machine));
    // Each trial ran in the machine's copy of the code folder, with the config it was given.
    QDirIterator ran(machine.homeDir() + "/.tunedeck", {"ran_t*.json"}, QDir::Files,
                     QDirIterator::Subdirectories);
    int runs = 0;
    while (ran.hasNext()) {
        ran.next();
        ++runs;
    }
    QCOMPARE(runs, 4);
    QVERIFY(!QFile::exists(harness.root() + "/nni/ran_t00000.json"));
}

// Issue 32: `tunedeck-engine submit CLUSTER.yaml SCRIPT.py` runs an unchanged Optuna script whose
// trials run on the cluster's node (storage: copy): the objective, pickled on this machine, and
// the script's folder reach the node; the study the script prints holds the trials' results.
void TestCluster::submittedOptunaScriptRunsItsTrialsOnTheCluster() {
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 1, false)) {
        QSKIP(qPrintable(skipReason_));
    }
    const SshdFixture& machine = *cluster.nodes.front();
    const QString clusterFile = writeCluster(harness, cluster, {});
    QDir().mkpath(harness.root() + "/project");
    harness.writeFile("project/helpers.py", "def bowl(x):\n    return (x - 1.0) ** 2\n");
    harness.writeFile("project/tune.py", R"(import os
import sys

import optuna

from helpers import bowl


def objective(trial):
    x = trial.suggest_float("x", -3.0, 3.0)
    trial.set_user_attr("ran_in", os.getcwd())
    trial.set_user_attr("objective_from", sys.argv[-1])
    return bowl(x)


if __name__ == "__main__":
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(study_name="on_cluster",
                                sampler=optuna.samplers.TPESampler(seed=2))
    study.optimize(objective, n_trials=4)
    print("Trials:", len(study.trials), "best value: %.6f" % study.best_value)
    for trial in study.trials:
        print("Trial %d ran in %s from %s" % (trial.number, trial.user_attrs["ran_in"],
                                            trial.user_attrs["objective_from"]))
)");
    const EngineResult result = runInFolder(
        harness, "project", {"submit", "--accept-new-host-keys", "--stop", clusterFile, "tune.py"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.all()));
    QVERIFY2(result.out.contains("Trials: 4 best value: "), qPrintable(result.all()));

    const QString db = harness.experimentFolder("on_cluster") + "/experiment.sqlite";
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'"),
             QStringLiteral("4"));
    QCOMPARE(sqliteQuery(db, "SELECT DISTINCT node_id FROM trials"), nodeName(machine));
    const QString best =
        sqliteQuery(db, "SELECT MIN(json_extract(last_result, '$.value')) FROM trials");
    QVERIFY2(result.out.contains(QStringLiteral("best value: %1").arg(best.toDouble(), 0, 'f', 6)),
             qPrintable(best + "\n" + result.out));
    // Each trial ran in the node's copy of the project, with the copy of the objective there.
    const QRegularExpression ran(QStringLiteral("Trial \\d ran in (\\S+) from (\\S+)"));
    int trials = 0;
    for (auto it = ran.globalMatch(result.out); it.hasNext(); ++trials) {
        const QRegularExpressionMatch match = it.next();
        QVERIFY2(match.captured(1).startsWith(cluster.remoteRoot + "/") &&
                     match.captured(1).endsWith("/experiments/on_cluster/code"),
                 qPrintable(match.captured(0)));
        QVERIFY2(match.captured(2).startsWith(cluster.remoteRoot + "/") &&
                     match.captured(2).contains("/experiments/on_cluster/files/0-on_cluster-"),
                 qPrintable(match.captured(0)));
    }
    QCOMPARE(trials, 4);
    // What each trial left in its folder on the node came back with it (its log among it).
    for (const char* trial : {"t00000", "t00003"}) {
        const QString folder =
            harness.experimentFolder("on_cluster") + "/trials/" + QLatin1String(trial);
        QVERIFY2(QFile::exists(folder + "/trial.log"), qPrintable(folder));
        QVERIFY2(QFile::exists(folder + "/optuna_trial.json"), qPrintable(folder));
    }
    // --stop took the cluster down afterwards.
    QVERIFY2(result.out.contains("lab down: 1 node ok"), qPrintable(result.all()));
}

// Issue 32: a Ray Tune script submitted to a cluster: its function trainable runs on the node,
// its dict checkpoints come back here, and what the trial drew with tune.sample_from (kept in its
// folder on the node) reaches the script's results.
void TestCluster::submittedRayScriptKeepsItsCheckpointsAndDrawnValues() {
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 1)) {
        QSKIP(qPrintable(skipReason_));
    }
    const QString clusterFile = writeCluster(harness, cluster, {});
    QDir().mkpath(harness.root() + "/project");
    harness.writeFile("project/tune_ray.py", R"(import json
import os

from ray import train, tune
from ray.train import Checkpoint


def trainable(config):
    start = 0
    checkpoint = train.get_checkpoint()
    if checkpoint:
        start = checkpoint.to_dict()["step"]
    for step in range(start, 3):
        loss = (config["lr"] - 0.1) ** 2 + config["momentum"] / 10 + 1.0 / (step + 1)
        train.report({"loss": loss, "where": os.getcwd()},
                     checkpoint=Checkpoint.from_dict({"step": step + 1}))


if __name__ == "__main__":
    space = {"lr": tune.grid_search([0.05, 0.1, 0.2]),
             "momentum": tune.sample_from(lambda spec: spec.config.lr * 2)}
    results = tune.Tuner(trainable, param_space=space,
                         tune_config=tune.TuneConfig(metric="loss", mode="min"),
                         run_config=train.RunConfig(name="ray_on_cluster")).fit()
    best = results.get_best_result()
    print("Best config:", json.dumps(best.config, sort_keys=True))
    print("Best checkpoint step:", best.checkpoint.to_dict()["step"])
    print("Ran in:", best.metrics["where"])
)");
    const EngineResult result =
        runInFolder(harness, "project", {"submit", clusterFile, "tune_ray.py"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.all()));
    QVERIFY2(result.out.contains(R"(Best config: {"lr": 0.05, "momentum": 0.1})"),
             qPrintable(result.all()));
    QVERIFY2(result.out.contains("Best checkpoint step: 3"), qPrintable(result.all()));
    QVERIFY2(result.out.contains("Ran in: " + cluster.remoteRoot + "/"), qPrintable(result.out));

    const QString db = harness.experimentFolder("ray_on_cluster") + "/experiment.sqlite";
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'"),
             QStringLiteral("3"));
    QCOMPARE(sqliteQuery(db, "SELECT DISTINCT node_id FROM trials"),
             nodeName(*cluster.nodes.front()));
}

// Issue 33.5: a root engine running someone's experiment (serve as the system service sets
// TUNEDECK_TRIAL_USER) has its trials on an SSH node whose agent logs in as root run as that
// user of the node, as on its own machine; before, they ran as root there.
void TestCluster::aRootEnginesTrialsRunAsTheOwnerOnARootNode() {
    if (::geteuid() != 0) {
        QSKIP("needs root: the test makes a user with useradd and logs in to the node as root");
    }
    EngineHarness harness;
    Cluster cluster;
    if (!startNodes(harness, cluster, 1)) {
        QSKIP(qPrintable(skipReason_));
    }
    const QString user = QStringLiteral("tdnode%1").arg(::getpid());
    auto runTool = [](const QString& program, const QStringList& arguments) {
        QProcess tool;
        tool.start(program, arguments);
        return tool.waitForFinished(30000) && tool.exitStatus() == QProcess::NormalExit &&
               tool.exitCode() == 0;
    };
    QVERIFY(runTool("useradd", {"-M", "-s", "/bin/sh", user}));
    const std::shared_ptr<void> removeUser(nullptr, [&](void*) { runTool("userdel", {user}); });
    const passwd* account = ::getpwnam(user.toUtf8().constData());
    QVERIFY(account != nullptr);
    const uid_t uid = account->pw_uid;
    // The node's folders are on this machine's disk: the user must be able to reach them.
    QVERIFY(::chmod(harness.root().toUtf8().constData(), 0755) == 0);
    writeCluster(harness, cluster, {});
    const QString experiment = harness.writeFile("experiment.yaml", R"yaml(
name: owned
cluster: cluster.yaml
trainable:
  command: [python3, -c, "import os; open(os.environ['TUNEDECK_TRIAL_DIR'] + '/uid.txt', 'w').write(str(os.getuid()))"]
search_space:
  x: {grid: [1, 2]}
)yaml");
    QProcess engine;
    QProcessEnvironment env = harness.environment();
    env.insert("TUNEDECK_TRIAL_USER", user);
    engine.setProcessEnvironment(env);
    engine.start(EngineHarness::enginePath(), {"run", experiment, "--quiet"});
    const EngineResult result = EngineHarness::finish(engine, 120000);
    QVERIFY2(result.exitCode == 0, qPrintable(result.all()));
    for (const QString& trial : {QStringLiteral("t00000"), QStringLiteral("t00001")}) {
        QFile written(nodeFolder(cluster, *cluster.nodes.front()) + "/experiments/owned/trials/" +
                      trial + "/uid.txt");
        QVERIFY2(written.open(QIODevice::ReadOnly), qPrintable(written.fileName()));
        QCOMPARE(written.readAll(), QByteArray::number(uid));
    }
}

}  // namespace

QTEST_GUILESS_MAIN(TestCluster)
#include "test_cluster.moc"
