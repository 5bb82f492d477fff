// Gang trials (resources_per_trial.workers): the shipped PyTorch DDP example (gloo, CPU) run by
// the real engine as gangs of 2 ranks on this machine, checked from the outside: the results in
// experiment.sqlite, each rank's weight checksums and the trial's log. A rank killed mid-run
// restarts the gang from its checkpoint; a report from a rank other than 0 fails the trial with
// a clear error; bad gang settings are refused with their place in the file.
#include <signal.h>

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QThread>
#include <QtTest>
#include <algorithm>

#include "engine_harness.h"
#include "ssh_cluster.h"

class TestGangTrials : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void ddpRanksAverageGradientsAndRankZeroReports();
    void aKilledRankRestartsTheGangFromItsCheckpoint();
    void eachRankGetsTheEnvironmentTorchrunGives();
    void aGangAcrossTwoSshNodesSurvivesLosingRankOnesNode();
    void aReportFromRankOneFailsTheTrialWithAClearError();
    void resourceChangingGivesTheLeadingTrialsMoreWorkers();
    void resourceChangingOptionsAreChecked();
    void badGangSettingsAreRefusedWithTheirPlace_data();
    void badGangSettingsAreRefusedWithTheirPlace();

  private:
    bool torchFound_ = false;
};

namespace {

QString exampleScript() {
    return QFileInfo(QStringLiteral(TUNEDECK_SOURCE_DIR "/resources/examples/ddp/train.py"))
        .absoluteFilePath();
}

// One trial of the DDP example: `extra` holds the stop rule and checkpointing.
QString ddpExperiment(const QString& name, const QString& extra) {
    return QStringLiteral(
               "name: %1\n"
               "trainable:\n  command: python3 %2 --lr {lr} --width 16\n"
               "search_space:\n  lr: 0.05\n"
               "resources_per_trial: {cpu: 1, workers: 2}\n"
               "metric: val_loss\nmode: min\n%3")
        .arg(name, exampleScript(), extra);
}

QString trialFolder(const QString& experiment, const QString& trial) {
    return experiment + QStringLiteral("/trials/") + trial;
}

// "STEP CHECKSUM" lines of one rank, in the order written (attempts one after another).
QStringList checksumLines(const QString& trialDir, int rank) {
    QFile file(trialDir + QStringLiteral("/weights-rank%1.txt").arg(rank));
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
}

QString readText(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// The pid of the process whose environment holds every one of `markers`, or 0.
pid_t processWithEnvironment(const QList<QByteArray>& markers) {
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString& pid : pids) {
        bool isNumber = false;
        const int value = pid.toInt(&isNumber);
        if (!isNumber) {
            continue;
        }
        QFile environ(QStringLiteral("/proc/%1/environ").arg(pid));
        if (!environ.open(QIODevice::ReadOnly)) {
            continue;
        }
        const QList<QByteArray> entries = environ.readAll().split('\0');
        if (std::all_of(markers.begin(), markers.end(),
                        [&](const QByteArray& m) { return entries.contains(m); })) {
            return pid_t(value);
        }
    }
    return 0;
}

bool pythonHasTorch() {
    QProcess python;
    python.start(QStringLiteral("python3"), {QStringLiteral("-c"), QStringLiteral("import torch")});
    return python.waitForFinished(60000) && python.exitCode() == 0;
}

}  // namespace

void TestGangTrials::initTestCase() {
    // scripts/test installs python3-torch; a developer's machine without it skips those tests,
    // saying so.
    torchFound_ = pythonHasTorch();
}

void TestGangTrials::ddpRanksAverageGradientsAndRankZeroReports() {
    if (!torchFound_) {
        QSKIP("python3 cannot import torch (Debian: apt-get install python3-torch)");
    }
    EngineHarness engine;
    const QString file = engine.writeFile(
        QStringLiteral("ddp.yaml"),
        ddpExperiment(QStringLiteral("ddp"), QStringLiteral("stop: {training_iteration: 8}\n")));
    const EngineResult run = engine.run({QStringLiteral("run"), file, QStringLiteral("--results"),
                                         engine.resultsRoot(), QStringLiteral("--quiet")});
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.all()));

    const QString folder = engine.experimentFolder(QStringLiteral("ddp"));
    const QString db = folder + QStringLiteral("/experiment.sqlite");
    // Rank 0 reported every step once, and saw a world of 2.
    QCOMPARE(sqliteQuery(db, QStringLiteral("SELECT group_concat(iteration) FROM (SELECT "
                                            "iteration FROM results ORDER BY iteration)")),
             QStringLiteral("1,2,3,4,5,6,7,8"));
    QCOMPARE(sqliteQuery(db, QStringLiteral("SELECT DISTINCT json_extract(data, '$.world_size') "
                                            "FROM results")),
             QStringLiteral("2"));
    QCOMPARE(sqliteQuery(db, QStringLiteral("SELECT status FROM trials")),
             QStringLiteral("TERMINATED"));

    // Gradients were averaged: both ranks hold the same weights after every step.
    const QString trialDir = trialFolder(folder, QStringLiteral("t00000"));
    const QStringList rank0 = checksumLines(trialDir, 0);
    const QStringList rank1 = checksumLines(trialDir, 1);
    QVERIFY2(rank0.size() >= 8, qPrintable(rank0.join('\n')));
    QCOMPARE(rank1.mid(0, 8), rank0.mid(0, 8));

    // Both ranks' output is in the trial's log, each line with its rank.
    const QString log = readText(trialDir + QStringLiteral("/trial.log"));
    QVERIFY2(log.isEmpty() || log.contains(QStringLiteral("[rank ")), qPrintable(log));
    for (const QString& line : log.split('\n', Qt::SkipEmptyParts)) {
        QVERIFY2(line.startsWith(QStringLiteral("[rank ")) ||
                     line.startsWith(QStringLiteral("tunedeck-worker: ")),
                 qPrintable(line));
    }
}

void TestGangTrials::aKilledRankRestartsTheGangFromItsCheckpoint() {
    if (!torchFound_) {
        QSKIP("python3 cannot import torch (Debian: apt-get install python3-torch)");
    }
    EngineHarness engine;
    QString yaml =
        ddpExperiment(QStringLiteral("killed"), QStringLiteral("stop: {training_iteration: 12}\n"
                                                               "checkpoint: {frequency: 4}\n"
                                                               "failure: {max_failures: 2}\n"));
    yaml.replace(QStringLiteral("--width 16"), QStringLiteral("--width 16 --sleep 0.3"));
    const QString file = engine.writeFile(QStringLiteral("killed.yaml"), yaml);
    std::unique_ptr<QProcess> process =
        engine.start({QStringLiteral("run"), file, QStringLiteral("--results"),
                      engine.resultsRoot(), QStringLiteral("--quiet")});
    const QString folder = engine.experimentFolder(QStringLiteral("killed"));
    const QString trialDir = trialFolder(folder, QStringLiteral("t00000"));

    // Rank 1 is killed past the checkpoint of step 4, before step 8's.
    QElapsedTimer waited;
    waited.start();
    while (checksumLines(trialDir, 1).size() < 6 && waited.elapsed() < 60000) {
        QThread::msleep(50);
    }
    const pid_t rank1 = processWithEnvironment(
        {QByteArrayLiteral("TUNEDECK_RANK=1"),
         QByteArrayLiteral("TUNEDECK_TRIAL_DIR=") + QDir(trialDir).absolutePath().toUtf8()});
    QVERIFY2(rank1 > 0, "rank 1 of t00000 is not running");
    QCOMPARE(::kill(rank1, SIGKILL), 0);

    const EngineResult run = EngineHarness::finish(*process);
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.all()));
    const QString db = folder + QStringLiteral("/experiment.sqlite");
    QCOMPARE(sqliteQuery(db, QStringLiteral("SELECT status || ' ' || failures FROM trials")),
             QStringLiteral("TERMINATED 1"));
    // Every step once: nothing lost, nothing repeated past the checkpoint it restarted from.
    QCOMPARE(sqliteQuery(db, QStringLiteral("SELECT group_concat(iteration) FROM (SELECT "
                                            "iteration FROM results ORDER BY seq)")),
             QStringLiteral("1,2,3,4,5,6,7,8,9,10,11,12"));
    QVERIFY2(sqliteQuery(db, QStringLiteral("SELECT group_concat(payload) FROM events WHERE "
                                            "type = 'warning'"))
                 .contains(QStringLiteral("rank 1 was killed by signal 9")),
             qPrintable(sqliteQuery(db, QStringLiteral("SELECT group_concat(payload) FROM "
                                                       "events WHERE type = 'warning'"))));

    // The second attempt began at step 5 on both ranks (restored from step 4) and they agree.
    const QStringList rank0 = checksumLines(trialDir, 0);
    const QStringList rank1Lines = checksumLines(trialDir, 1);
    const auto secondAttempt = [](const QStringList& lines) {
        for (qsizetype i = 1; i < lines.size(); ++i) {
            if (lines[i].section(' ', 0, 0).toInt() <= lines[i - 1].section(' ', 0, 0).toInt()) {
                return lines.mid(i);
            }
        }
        return QStringList();
    };
    const QStringList again0 = secondAttempt(rank0);
    const QStringList again1 = secondAttempt(rank1Lines);
    QVERIFY2(!again0.isEmpty() && again0.front().startsWith(QStringLiteral("5 ")),
             qPrintable(rank0.join('\n')));
    QVERIFY2(again0.size() >= 8, qPrintable(rank0.join('\n')));
    QCOMPARE(again1.mid(0, 8), again0.mid(0, 8));
}

// The DDP example as a gang of 2 ranks on two SSH nodes (network namespaces routed to each
// other), placement strict_spread; rank 1's node dies mid-run and comes back: the gang restarts
// from its checkpoint, which reaches both nodes, with no failure counted and every step once.
void TestGangTrials::aGangAcrossTwoSshNodesSurvivesLosingRankOnesNode() {
    if (!torchFound_) {
        QSKIP("python3 cannot import torch (Debian: apt-get install python3-torch)");
    }
    if (QString why; !NetworkNamespace::available(&why)) {
        QSKIP(qPrintable(QStringLiteral("two-node gangs need network namespaces: ") + why));
    }
    EngineHarness harness;
    Cluster cluster;
    QString skip;
    if (!startSshNodes(harness, cluster, 2, true, &skip)) {
        QSKIP(qPrintable(skip));
    }
    for (const auto& space : cluster.namespaces) {
        QString error;
        QVERIFY2(space->routeToOtherNamespaces(&error), qPrintable(error));
    }
    writeCluster(harness, cluster, QStringLiteral("resources: {cpu: 1}\nnode_timeout_s: 4\n"));
    QDir().mkpath(harness.root() + QStringLiteral("/code"));
    QVERIFY(QFile::copy(exampleScript(), harness.root() + QStringLiteral("/code/train.py")));
    const QString experiment =
        harness.writeFile(QStringLiteral("experiment.yaml"), QStringLiteral(R"(
name: ddp2
cluster: cluster.yaml
trainable:
  command: python3 train.py --lr {lr} --width 16 --sleep 0.2
  working_dir: code
search_space:
  lr: 0.05
resources_per_trial: {cpu: 1, workers: 2, placement: strict_spread}
metric: val_loss
mode: min
stop: {training_iteration: 16}
failure: {max_failures: 0}
)"));
    const QString events = harness.root() + QStringLiteral("/events.jsonl");
    std::unique_ptr<QProcess> engine =
        harness.start({QStringLiteral("run"), experiment, QStringLiteral("--events"), events});

    // Rank 1 trains on the node that is not rank 0's, past the checkpoint of step 4.
    const auto rankFile = [&](int node, int rank) {
        return nodeFolder(cluster, *cluster.nodes[size_t(node)]) +
               QStringLiteral("/experiments/ddp2/trials/t00000/weights-rank%1.txt").arg(rank);
    };
    QElapsedTimer waited;
    waited.start();
    int victim = -1;
    while (victim < 0 && waited.elapsed() < 90000) {
        for (int node = 0; node < 2; ++node) {
            QFile file(rankFile(node, 1));
            if (file.open(QIODevice::ReadOnly) && file.readAll().count('\n') >= 6) {
                victim = node;
            }
        }
        QThread::msleep(100);
    }
    if (victim < 0) {
        QDirIterator logs(cluster.remoteRoot, {QStringLiteral("trial.log")}, QDir::Files,
                          QDirIterator::Subdirectories);
        while (logs.hasNext()) {
            const QString log = logs.next();
            qWarning("%s:\n%s", qPrintable(log), qPrintable(readText(log).right(3000)));
        }
        qWarning("events:\n%s", qPrintable(readText(events).right(3000)));
    }
    QVERIFY2(victim >= 0, "rank 1 did not reach step 6");
    QVERIFY2(!QFile::exists(rankFile(victim, 0)), "both ranks ran on one node");
    // The node goes away (its sshd, sessions and agent; the agent's death takes rank 1 with it)
    // and comes back a moment later.
    SshdFixture& node = *cluster.nodes[size_t(victim)];
    const QString victimName = nodeName(node);
    node.stop();
    QProcess::execute(QStringLiteral("pkill"),
                      {QStringLiteral("-KILL"), QStringLiteral("-f"),
                       nodeFolder(cluster, node) + QStringLiteral("/bin/tunedeck-worker")});
    QTest::qWait(1500);  // the engine sees its agent's link end at once
    QString error;
    QVERIFY2(node.start(&error), qPrintable(error));
    const EngineResult run = EngineHarness::finish(*engine, 300000);
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.all()));

    const QString db =
        harness.experimentFolder(QStringLiteral("ddp2")) + QStringLiteral("/experiment.sqlite");
    // The node's loss is not the trial's failure (max_failures: 0 would have ended it).
    QCOMPARE(sqliteQuery(db, QStringLiteral("SELECT status || ' ' || failures FROM trials")),
             QStringLiteral("TERMINATED 0"));
    QCOMPARE(sqliteQuery(db, QStringLiteral("SELECT group_concat(iteration) FROM (SELECT "
                                            "iteration FROM results ORDER BY seq)")),
             QStringLiteral("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16"));
    QVERIFY2(sqliteQuery(db, QStringLiteral("SELECT COUNT(*) FROM events WHERE type = 'node' AND "
                                            "payload LIKE '%\"lost\"%'"))
                     .toInt() >= 1,
             qPrintable(victimName));
    // The ranks on the two nodes agree on the last steps (after the restart from the checkpoint).
    const int other = 1 - victim;
    const QStringList rank0 = checksumLines(QFileInfo(rankFile(other, 0)).path(), 0);
    const QStringList rank1 = checksumLines(QFileInfo(rankFile(victim, 1)).path(), 1);
    QVERIFY2(rank0.size() >= 4 && rank1.size() >= 4, qPrintable(rank0.join('\n')));
    QCOMPARE(rank1.mid(rank1.size() - 4), rank0.mid(rank0.size() - 4));
    QVERIFY2(rank0.last().startsWith(QStringLiteral("16 ")), qPrintable(rank0.join('\n')));
}

void TestGangTrials::eachRankGetsTheEnvironmentTorchrunGives() {
    EngineHarness engine;
    const QString file = engine.writeFile(
        QStringLiteral("env.yaml"),
        QStringLiteral("name: env\ntrainable:\n  command: python3 %1\n"
                       "search_space:\n  iterations: 6\n"
                       "resources_per_trial: {cpu: 0.5, workers: 3}\nmetric: score\nmode: max\n"
                       "gpu_sample_s: 0.2\n")
            .arg(EngineHarness::trialScript(QStringLiteral("gang_rank.py"))));
    const EngineResult run = engine.run({QStringLiteral("run"), file, QStringLiteral("--results"),
                                         engine.resultsRoot(), QStringLiteral("--quiet")});
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.all()));
    const QString trialDir =
        trialFolder(engine.experimentFolder(QStringLiteral("env")), QStringLiteral("t00000"));
    QString port;
    for (int rank = 0; rank < 3; ++rank) {
        const QJsonObject env =
            QJsonDocument::fromJson(
                readText(trialDir + QStringLiteral("/env-rank%1.json").arg(rank)).toUtf8())
                .object();
        QCOMPARE(env.value("WORLD_SIZE").toString(), QStringLiteral("3"));
        QCOMPARE(env.value("RANK").toString(), QString::number(rank));
        QCOMPARE(env.value("TUNEDECK_RANK").toString(), QString::number(rank));
        QCOMPARE(env.value("LOCAL_RANK").toString(), QString::number(rank));
        QCOMPARE(env.value("LOCAL_WORLD_SIZE").toString(), QStringLiteral("3"));
        QCOMPARE(env.value("NODE_RANK").toString(), QStringLiteral("0"));
        QCOMPARE(env.value("MASTER_ADDR").toString(), QStringLiteral("127.0.0.1"));
        QCOMPARE(env.value("TUNEDECK_TRIAL_ID").toString(), QStringLiteral("t00000"));
        QVERIFY(env.value("MASTER_PORT").toString().toInt() > 0);
        if (rank > 0) {
            QCOMPARE(env.value("MASTER_PORT").toString(), port);  // all meet rank 0 there
        }
        port = env.value("MASTER_PORT").toString();
    }
    const QString log = readText(trialDir + QStringLiteral("/trial.log"));
    for (int rank = 0; rank < 3; ++rank) {
        QVERIFY2(log.contains(QStringLiteral("[rank %1] rank %1 of 3 started").arg(rank)),
                 qPrintable(log));
    }
    // The history says where each rank ran, and its samples name the trial of every rank.
    const QString db =
        engine.experimentFolder(QStringLiteral("env")) + QStringLiteral("/experiment.sqlite");
    QCOMPARE(sqliteQuery(db, QStringLiteral("SELECT json_array_length(payload, '$.ranks') FROM "
                                            "events WHERE type = 'trial_status' AND "
                                            "json_extract(payload, '$.status') = 'RUNNING'")),
             QStringLiteral("3"));
    QCOMPARE(
        sqliteQuery(
            db, QStringLiteral(
                    "SELECT group_concat(DISTINCT json_extract(t.value, "
                    "'$.trial') || '/' || IFNULL(json_extract(t.value, "
                    "'$.rank'), 'none')) FROM (SELECT * FROM node_usage "
                    "ORDER BY json_array_length(data, '$.trials') DESC LIMIT 1), json_each(data, "
                    "'$.trials') AS t")),
        QStringLiteral("t00000/0,t00000/1,t00000/2"));
}

void TestGangTrials::aReportFromRankOneFailsTheTrialWithAClearError() {
    EngineHarness engine;
    const QString file = engine.writeFile(
        QStringLiteral("rank1.yaml"),
        QStringLiteral("name: rank1\ntrainable:\n  command: python3 %1\n"
                       "search_space:\n  iterations: 50\n  rank1_reports: true\n"
                       "resources_per_trial: {cpu: 1, workers: 2}\nmetric: score\nmode: max\n"
                       "failure: {max_failures: 0}\n")
            .arg(EngineHarness::trialScript(QStringLiteral("gang_rank.py"))));
    const EngineResult run = engine.run({QStringLiteral("run"), file, QStringLiteral("--results"),
                                         engine.resultsRoot(), QStringLiteral("--quiet")});
    QVERIFY2(run.finished && run.exitCode == 1, qPrintable(run.all()));
    const QString db =
        engine.experimentFolder(QStringLiteral("rank1")) + QStringLiteral("/experiment.sqlite");
    QCOMPARE(sqliteQuery(db, QStringLiteral("SELECT status FROM trials")), QStringLiteral("ERROR"));
    const QString error = sqliteQuery(db, QStringLiteral("SELECT error_message FROM trials"));
    QVERIFY2(error.contains(QStringLiteral("rank 1 exited with code 1")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("only rank 0 of a gang trial reports")),
             qPrintable(error));
}

// The shipped resource_changing example, shortened: trials start as one DDP process and are
// paused at a checkpoint and restarted with more workers while slots are free (4 ranks of 0.5
// CPU on this 2-CPU machine); each change is a trial_resources event, the trial's next result
// comes from the new WORLD_SIZE, and no step is lost or repeated.
void TestGangTrials::resourceChangingGivesTheLeadingTrialsMoreWorkers() {
    if (!torchFound_) {
        QSKIP("python3 cannot import torch (Debian: apt-get install python3-torch)");
    }
    EngineHarness engine;
    QFile shipped(
        QStringLiteral(TUNEDECK_SOURCE_DIR "/resources/examples/ddp/resource_changing.yaml"));
    QVERIFY(shipped.open(QIODevice::ReadOnly));
    QString yaml = QString::fromUtf8(shipped.readAll());
    yaml.replace(QStringLiteral("python3 train.py"), QStringLiteral("python3 ") + exampleScript());
    yaml.replace(QStringLiteral("--sleep 0.1"), QStringLiteral("--sleep 0.05"));
    yaml.replace(QStringLiteral("[0.02, 0.05, 0.1, 0.2]"), QStringLiteral("[0.05, 0.1]"));
    yaml.replace(QStringLiteral("training_iteration: 24"),
                 QStringLiteral("training_iteration: 10"));
    yaml.replace(QStringLiteral("max_t: 24"), QStringLiteral("max_t: 10"));
    yaml.replace(QStringLiteral("min_iterations: 4"), QStringLiteral("min_iterations: 3"));
    const QString file = engine.writeFile(QStringLiteral("rc.yaml"), yaml);
    const EngineResult run = engine.run({QStringLiteral("run"), file, QStringLiteral("--results"),
                                         engine.resultsRoot(), QStringLiteral("--quiet")});
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.all()));
    const QString db = engine.experimentFolder(QStringLiteral("ddp-resource-changing")) +
                       QStringLiteral("/experiment.sqlite");
    const QStringList changes =
        sqliteQuery(db, QStringLiteral("SELECT group_concat(trial_id || ' ' || "
                                       "json_extract(payload, '$.iteration') || ' ' || "
                                       "json_extract(payload, '$.to_workers'), ';') FROM events "
                                       "WHERE type = 'trial_resources'"))
            .split(';', Qt::SkipEmptyParts);
    QVERIFY2(!changes.isEmpty(), "no trial changed its size");
    bool grew = false;
    for (const QString& change : changes) {
        const QStringList parts = change.split(' ');
        const int to = parts[2].toInt();
        grew = grew || to > 1;
        // The result after the change was trained by the new number of ranks.
        QCOMPARE(sqliteQuery(db, QStringLiteral("SELECT json_extract(data, '$.world_size') FROM "
                                                "results WHERE trial_id = '%1' AND iteration = %2")
                                     .arg(parts[0])
                                     .arg(parts[1].toInt() + 1)),
                 QString::number(to));
    }
    QVERIFY2(grew, qPrintable(changes.join(';')));
    for (const QString& trial : {QStringLiteral("t00000"), QStringLiteral("t00001")}) {
        // Every step once up to where it ended (asha may stop one at its grace period).
        const QStringList steps =
            sqliteQuery(db, QStringLiteral("SELECT group_concat(iteration) FROM (SELECT "
                                           "iteration FROM results WHERE trial_id = '%1' "
                                           "ORDER BY seq)")
                                .arg(trial))
                .split(',');
        QVERIFY2(steps.size() >= 8, qPrintable(steps.join(',')));
        for (qsizetype i = 0; i < steps.size(); ++i) {
            QCOMPARE(steps[i].toLongLong(), qint64(i + 1));
        }
    }
}

void TestGangTrials::resourceChangingOptionsAreChecked() {
    EngineHarness engine;
    for (const auto& [scheduler, expected] :
         {std::pair{QStringLiteral("{type: resource_changing, base: pbt}"),
                    QStringLiteral("base must be one of fifo, asha, median, hyperband, got pbt")},
          std::pair{QStringLiteral("{type: resource_changing, policy: fair}"),
                    QStringLiteral("policy must be distribute or top, got fair")},
          std::pair{QStringLiteral("{type: resource_changing, base: asha, grace_period: -1}"),
                    QStringLiteral("grace_period")}}) {
        const QString file = engine.writeFile(
            QStringLiteral("rc.yaml"),
            QStringLiteral("name: rc\ntrainable:\n  command: python3 %1\n"
                           "search_space: {iterations: 3}\nmetric: score\nmode: max\n"
                           "scheduler: %2\n")
                .arg(EngineHarness::trialScript(QStringLiteral("gang_rank.py")), scheduler));
        const EngineResult validate = engine.run({QStringLiteral("validate"), file});
        QCOMPARE(validate.exitCode, 2);
        QVERIFY2(validate.all().contains(expected), qPrintable(validate.all()));
        QVERIFY2(validate.all().contains(QStringLiteral("rc.yaml:7:")), qPrintable(validate.all()));
    }
}

void TestGangTrials::badGangSettingsAreRefusedWithTheirPlace_data() {
    QTest::addColumn<QString>("resources");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no workers") << QStringLiteral("{cpu: 1, workers: 0}")
                                << QStringLiteral("bad.yaml:5:");
    QTest::newRow("unknown placement")
        << QStringLiteral("{cpu: 1, workers: 2, placement: diagonal}")
        << QStringLiteral("expected pack, spread or strict_spread");
    QTest::newRow("a gang that never fits")
        << QStringLiteral("{cpu: 1, workers: 1000}")
        << QStringLiteral("a gang of 1000 workers never fits the 1 node ");
}

void TestGangTrials::badGangSettingsAreRefusedWithTheirPlace() {
    QFETCH(QString, resources);
    QFETCH(QString, expected);
    EngineHarness engine;
    const QString file = engine.writeFile(
        QStringLiteral("bad.yaml"),
        QStringLiteral("name: bad\ntrainable:\n  command: python3 %1\n"
                       "search_space: {iterations: 3}\nresources_per_trial: %2\n"
                       "metric: score\nmode: max\n")
            .arg(EngineHarness::trialScript(QStringLiteral("gang_rank.py")), resources));
    const EngineResult validate = engine.run({QStringLiteral("validate"), file});
    QCOMPARE(validate.exitCode, 2);
    QVERIFY2(validate.all().contains(expected), qPrintable(validate.all()));
}

QTEST_GUILESS_MAIN(TestGangTrials)
#include "test_gang_trials.moc"
