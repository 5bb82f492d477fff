// Nothing is lost when the engine dies: kill -9 at any moment then `resume` finishes every trial
// with no result twice; Ctrl-C exits 3 and resumes; one engine per folder; a full disk; resume
// deletes nothing through a symbolic link.
#include <signal.h>

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QtTest>

#include "engine_harness.h"

class TestEngineRecovery : public QObject {
    Q_OBJECT
  private slots:
    void killNineThenResumeLosesNothing();
    void interruptExitsThreeAndResumes();
    void aSecondInterruptQuitsAtOnce();
    void aKilledAgentIsRestartedAndItsTrialsContinue();
    void pausedTrialsResumeFromTheirCheckpoints();
    void aSecondEngineOnTheSameFolderIsRefused();
    void aFullDiskWhileCheckpointingFailsCleanly();
    void resumeNeverDeletesThroughASymbolicLink();
    void aDamagedHistoryIsNeverTrusted();
    void anInterruptedRunWithADamagedResultIsNotResumed();
};

namespace {

const char* const kLong = R"(name: long
trainable:
  command: python3 @TRIAL@
search_space:
  x: {uniform: [1, 2]}
  iterations: 20
  sleep: 0.05
num_samples: 6
metric: score
mode: max
checkpoint: {frequency: 3, keep: 2}
max_concurrent_trials: 3
seed: 11
)";

// Every trial reported iterations 1..n exactly once, in order.
void verifyCompleteResults(const QJsonArray& exported, int trials, int iterations) {
    QCOMPARE(exported.size(), trials);
    for (const QJsonValue& t : exported) {
        const QJsonObject trial = t.toObject();
        QCOMPARE(trial.value("status").toString(), QStringLiteral("TERMINATED"));
        QList<int> seen;
        for (const QJsonValue& r : trial.value("results").toArray()) {
            seen << r.toObject().value("training_iteration").toInt();
        }
        QList<int> expected;
        for (int i = 1; i <= iterations; ++i) {
            expected << i;
        }
        QCOMPARE(seen, expected);
    }
}

}  // namespace

void TestEngineRecovery::killNineThenResumeLosesNothing() {
    EngineHarness h;
    const QString folder = h.experimentFolder("long");
    std::unique_ptr<QProcess> engine = h.start({"run", h.writeFile("long.yaml", kLong)});
    QVERIFY(EngineHarness::waitForFile(folder + "/experiment.sqlite", 20000));
    // Kill at a few different moments, resuming in between.
    int restoredAttempts = 0;
    for (int round = 0; round < 3; ++round) {
        if (round == 0) {
            // The first kill comes once a trial has a committed checkpoint to continue from,
            // and its row had time to reach SQLite (on a busy machine the trials' first results
            // can take longer than a fixed pause).
            QVERIFY(EngineHarness::waitForFile(
                folder + "/trials/t00000/checkpoints/checkpoint_000003/.tunedeck_checkpoint.json",
                30000));
            QThread::msleep(300 + QRandomGenerator::global()->bounded(300));
        } else {
            QThread::msleep(700 + QRandomGenerator::global()->bounded(600));
        }
        ::kill(pid_t(engine->processId()), SIGKILL);
        engine->waitForFinished(10000);
        engine = h.start({"resume", folder});
    }
    const EngineResult last = EngineHarness::finish(*engine, 180000);
    QVERIFY2(last.exitCode == 0, qPrintable(last.all()));
    verifyCompleteResults(h.exportJson(folder), 6, 20);
    for (const QString& trial :
         QDir(folder + "/trials").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile log(folder + "/trials/" + trial + "/trial.log");
        QVERIFY(log.open(QIODevice::ReadOnly));
        restoredAttempts += int(log.readAll().count("restore=" + folder.toUtf8()));
    }
    QVERIFY2(restoredAttempts > 0, "no trial continued from a checkpoint after a kill");
    QCOMPARE(sqliteQuery(folder + "/experiment.sqlite", "PRAGMA integrity_check"),
             QStringLiteral("ok"));
    QCOMPARE(sqliteQuery(folder + "/experiment.sqlite",
                         "SELECT COUNT(*) FROM (SELECT trial_id, iteration FROM results "
                         "GROUP BY trial_id, iteration HAVING COUNT(*) > 1)"),
             QStringLiteral("0"));
}

void TestEngineRecovery::interruptExitsThreeAndResumes() {
    EngineHarness h;
    const QString folder = h.experimentFolder("long");
    std::unique_ptr<QProcess> engine = h.start({"run", h.writeFile("long.yaml", kLong)});
    QVERIFY(EngineHarness::waitForFile(folder + "/trials/t00000/checkpoints", 30000));
    ::kill(pid_t(engine->processId()), SIGINT);
    const EngineResult interrupted = EngineHarness::finish(*engine, 30000);
    QCOMPARE(interrupted.exitCode, 3);
    QVERIFY2(interrupted.all().contains("tunedeck-engine resume " + folder),
             qPrintable(interrupted.all()));
    const EngineResult resumed = h.run({"resume", folder, "--quiet"});
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.all()));
    verifyCompleteResults(h.exportJson(folder), 6, 20);
    // Resuming a finished experiment is harmless.
    QCOMPARE(h.run({"resume", folder, "--quiet"}).exitCode, 0);
}

void TestEngineRecovery::aSecondInterruptQuitsAtOnce() {
    EngineHarness h;
    const QString folder = h.experimentFolder("stubborn");
    const QString yaml = QString(kLong)
                             .replace("name: long", "name: stubborn")
                             .replace("sleep: 0.05", "sleep: 0.05\n  ignore_sigterm: true");
    std::unique_ptr<QProcess> engine = h.start({"run", h.writeFile("stubborn.yaml", yaml)});
    QVERIFY(EngineHarness::waitForFile(folder + "/trials/t00000/checkpoints", 30000));
    ::kill(pid_t(engine->processId()), SIGINT);  // trials ignore SIGTERM: a stop takes 5 s
    QThread::msleep(300);
    QElapsedTimer timer;
    timer.start();
    ::kill(pid_t(engine->processId()), SIGINT);
    const EngineResult interrupted = EngineHarness::finish(*engine, 30000);
    QCOMPARE(interrupted.exitCode, 3);
    QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
    const EngineResult resumed = h.run({"resume", folder, "--quiet"});
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.all()));
    verifyCompleteResults(h.exportJson(folder), 6, 20);
}

void TestEngineRecovery::aKilledAgentIsRestartedAndItsTrialsContinue() {
    EngineHarness h;
    const QString folder = h.experimentFolder("long");
    std::unique_ptr<QProcess> engine = h.start({"run", h.writeFile("long.yaml", kLong)});
    QVERIFY(EngineHarness::waitForFile(folder + "/trials/t00000/checkpoints", 30000));
    QProcess pgrep;
    pgrep.start("pgrep", {"-P", QString::number(engine->processId()), "tunedeck-worker"});
    QVERIFY(pgrep.waitForFinished(5000));
    const qint64 agent = pgrep.readAllStandardOutput().trimmed().toLongLong();
    QVERIFY2(agent > 0, "no tunedeck-worker under the engine");
    ::kill(pid_t(agent), SIGKILL);
    const EngineResult r = EngineHarness::finish(*engine, 180000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    verifyCompleteResults(h.exportJson(folder), 6, 20);
    // Losing the agent is not the trials' fault: no failure is counted.
    QCOMPARE(sqliteQuery(folder + "/experiment.sqlite", "SELECT SUM(failures) FROM trials"),
             QStringLiteral("0"));
}

void TestEngineRecovery::pausedTrialsResumeFromTheirCheckpoints() {
    // The median rule without hard stops pauses trials (save, exit) to give way to waiting ones;
    // each comes back from the checkpoint it wrote and reports every iteration exactly once.
    EngineHarness h;
    const QString yaml = R"(name: pause
trainable:
  command: python3 @TRIAL@
search_space:
  x: {grid: [1, 2, 3, 4, 5, 6]}
  iterations: 12
metric: score
mode: max
scheduler: {type: median, time_attr: training_iteration, grace_period: 2,
            min_samples_required: 2, hard_stop: false}
max_concurrent_trials: 2
)";
    const QString events = h.root() + "/events.jsonl";
    const EngineResult r = h.run({"run", h.writeFile("pause.yaml", yaml), "--events", events});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    verifyCompleteResults(h.exportJson(h.experimentFolder("pause")), 6, 12);
    QFile file(events);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.contains("\"status\":\"PAUSED\""));
    QVERIFY(text.contains("restored from iteration"));
}

void TestEngineRecovery::aSecondEngineOnTheSameFolderIsRefused() {
    EngineHarness h;
    const QString folder = h.experimentFolder("long");
    std::unique_ptr<QProcess> engine = h.start({"run", h.writeFile("long.yaml", kLong)});
    QVERIFY(EngineHarness::waitForFile(folder + "/engine.lock", 20000));
    QThread::msleep(300);
    const EngineResult second = h.run({"resume", folder});
    QCOMPARE(second.exitCode, 2);
    QVERIFY2(second.err.contains(QStringLiteral("pid %1").arg(engine->processId())),
             qPrintable(second.err));
    ::kill(pid_t(engine->processId()), SIGKILL);
    engine->waitForFinished(10000);
}

void TestEngineRecovery::resumeNeverDeletesThroughASymbolicLink() {
    // A trial plants links in its checkpoints folder, and a user moves another trial's whole
    // checkpoints folder to another disk and links it back; then the engine dies and `resume`
    // cleans what the crash left. What the links point at is not the experiment's: all of it
    // stays, and the moved trial goes on from its checkpoints.
    EngineHarness h;
    const QString folder = h.experimentFolder("long");
    std::unique_ptr<QProcess> engine = h.start({"run", h.writeFile("long.yaml", kLong)});
    // Killed once two unfinished trials have a checkpoint in the history.
    const auto unfinishedWithCheckpoints = [&] {
        return sqliteQuery(folder + "/experiment.sqlite",
                           "SELECT group_concat(id, ' ') FROM (SELECT id FROM trials "
                           "WHERE status != 'TERMINATED' AND EXISTS (SELECT 1 FROM checkpoints c "
                           "WHERE c.trial_id = trials.id AND NOT c.deleted) ORDER BY id)")
            .split(' ', Qt::SkipEmptyParts);
    };
    QTRY_VERIFY_WITH_TIMEOUT(unfinishedWithCheckpoints().size() >= 2, 30000);
    ::kill(pid_t(engine->processId()), SIGKILL);
    engine->waitForFinished(10000);
    QThread::msleep(500);  // the agent saw the pipe close and ended its trials
    const QStringList unfinished = unfinishedWithCheckpoints();
    QVERIFY2(unfinished.size() >= 2, qPrintable(unfinished.join(',')));

    const QString precious = h.root() + "/precious";
    const auto writePrecious = [&](const QString& name) {
        QDir().mkpath(precious + '/' + name);
        QFile file(precious + '/' + name + "/data.txt");
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("keep me");
        // Shaped like a checkpoint, so only the link itself can tell it apart.
        QFile manifest(precious + '/' + name + "/.tunedeck_checkpoint.json");
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write("{}");
    };
    writePrecious("linked");
    writePrecious("staging");
    writePrecious("inside");
    const QString hostile = folder + "/trials/" + unfinished[0] + "/checkpoints";
    QVERIFY(QFile::link(precious + "/linked", hostile + "/checkpoint_000050"));
    QVERIFY(QFile::link(precious + "/staging", hostile + "/checkpoint_000051.tmp"));
    // An unlisted checkpoint (a crash between its rename and the history) holding a link: the
    // checkpoint goes, what its link points at stays.
    QVERIFY(QDir().mkpath(hostile + "/checkpoint_000052"));
    QFile unlisted(hostile + "/checkpoint_000052/.tunedeck_checkpoint.json");
    QVERIFY(unlisted.open(QIODevice::WriteOnly));
    unlisted.close();
    QVERIFY(QFile::link(precious + "/inside", hostile + "/checkpoint_000052/weights"));

    const QString moved = folder + "/trials/" + unfinished[1] + "/checkpoints";
    const QString otherDisk = h.root() + "/other-disk/checkpoints";
    QVERIFY(QDir().mkpath(h.root() + "/other-disk"));
    QVERIFY(QDir().rename(moved, otherDisk));
    QVERIFY(QFile::link(otherDisk, moved));

    const QString events = h.root() + "/events.jsonl";
    const EngineResult resumed = h.run({"resume", folder, "--events", events}, 180000);
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.all()));
    for (const char* name : {"linked", "staging", "inside"}) {
        QFile kept(precious + '/' + name + "/data.txt");
        QVERIFY2(kept.open(QIODevice::ReadOnly), name);
        QCOMPARE(kept.readAll(), QByteArray("keep me"));
    }
    QVERIFY(QFileInfo(hostile + "/checkpoint_000050").isSymLink());
    QVERIFY(!QFileInfo::exists(hostile + "/checkpoint_000052"));
    QFile log(events);
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QByteArray said = log.readAll();
    QVERIFY2(said.contains("checkpoint_000050 is a symbolic link"), said.constData());
    verifyCompleteResults(h.exportJson(folder), 6, 20);
    // The moved trial went on from its checkpoints, which stayed on the other disk.
    QVERIFY(QFileInfo(moved).isSymLink());
    QVERIFY2(!QDir(otherDisk).entryList({"checkpoint_0000*"}, QDir::Dirs).isEmpty(),
             qPrintable(otherDisk));
    QFile movedLog(folder + "/trials/" + unfinished[1] + "/trial.log");
    QVERIFY(movedLog.open(QIODevice::ReadOnly));
    QVERIFY2(movedLog.readAll().contains("restore=" + folder.toUtf8()),
             "the trial whose checkpoints moved started again from nothing");
}

// Issue 33: flipped bytes in experiment.sqlite made `best` print an error and then a wrong best
// trial with exit 0, and `resume` wrote into the damaged file.
void TestEngineRecovery::aDamagedHistoryIsNeverTrusted() {
    EngineHarness h;
    const EngineResult ran = h.run({"run", h.writeFile("long.yaml", kLong)}, 180000);
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.all()));
    const QString folder = h.experimentFolder("long");
    const QString database = folder + "/experiment.sqlite";
    const EngineResult before = h.run({"best", folder, "--format", "json"});
    QCOMPARE(before.exitCode, 0);

    // A damaged value inside a row: the file's structure is whole, its content is not.
    QVERIFY(sqliteExec(database,
                       "UPDATE results SET data = substr(data, 1, 20) WHERE seq = "
                       "(SELECT min(seq) FROM results WHERE trial_id = 't00002')"));
    // `resume` of this finished run read no result and exited 0; it refuses like the others.
    for (const QStringList& command :
         {QStringList{"best", folder}, QStringList{"show", folder},
          QStringList{"export", folder, "--format", "csv"}, QStringList{"resume", folder}}) {
        const EngineResult r = h.run(command);
        QVERIFY2(r.exitCode == 2, qPrintable(command.first() + ": " + r.all()));
        QVERIFY2(r.err.contains("the history is damaged"), qPrintable(r.all()));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    }

    const EngineResult listed = h.run({"ls", "--results", h.resultsRoot()});
    QVERIFY2(listed.out.contains("damaged") && !listed.out.contains("score="),
             qPrintable(listed.all()));

    // `recover` drops that result and says so; the history answers again, as before the damage.
    const EngineResult recovered = h.run({"recover", folder});
    QVERIFY2(recovered.exitCode == 0, qPrintable(recovered.all()));
    QVERIFY2(recovered.out.contains("1 result whose stored values were damaged"),
             qPrintable(recovered.out));
    QVERIFY2(recovered.out.contains("trial t00002 has no result for 1 of its iterations"),
             qPrintable(recovered.out));
    QVERIFY(QFileInfo::exists(folder + "/experiment.damaged.sqlite"));
    const EngineResult after = h.run({"best", folder, "--format", "json"});
    QCOMPARE(after.exitCode, 0);
    QCOMPARE(after.out, before.out);

    // Pages of the file itself damaged: resume refuses to write into it.
    QFile file(database);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.size() > 6 * 4096);
    file.seek(file.size() / 4096 / 2 * 4096);
    file.write(QByteArray(4096, char(0xAB)));
    file.close();
    const EngineResult refused = h.run({"resume", folder});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("the history is damaged"), qPrintable(refused.all()));
    QVERIFY2(refused.err.contains("tunedeck-engine recover"), qPrintable(refused.all()));
    const EngineResult salvaged = h.run({"recover", folder});
    QVERIFY2(salvaged.exitCode == 0, qPrintable(salvaged.all()));
    QVERIFY2(salvaged.out.contains("Lost:"), qPrintable(salvaged.out));
    QCOMPARE(sqliteQuery(folder + "/experiment.sqlite", "PRAGMA integrity_check"),
             QStringLiteral("ok"));
}

// Issue 33: recovery reads only each trial's latest checkpoint, so an interrupted run whose
// earlier results were damaged resumed (exit 0) and went on writing into the file.
void TestEngineRecovery::anInterruptedRunWithADamagedResultIsNotResumed() {
    EngineHarness h;
    const QString folder = h.experimentFolder("long");
    std::unique_ptr<QProcess> engine = h.start({"run", h.writeFile("long.yaml", kLong)});
    QVERIFY(EngineHarness::waitForFile(
        folder + "/trials/t00000/checkpoints/checkpoint_000003/.tunedeck_checkpoint.json", 30000));
    ::kill(pid_t(engine->processId()), SIGINT);
    QCOMPARE(EngineHarness::finish(*engine, 30000).exitCode, 3);
    const QString database = folder + "/experiment.sqlite";
    const QString seq = sqliteQuery(database, "SELECT min(seq) FROM results");
    QVERIFY(
        sqliteExec(database, "UPDATE results SET data = substr(data, 1, 20) WHERE seq = " + seq));
    const QString resultsBefore = sqliteQuery(database, "SELECT count(*) FROM results");

    const EngineResult resumed = h.run({"resume", folder, "--quiet"});
    QVERIFY2(resumed.exitCode == 2, qPrintable(resumed.all()));
    QVERIFY2(resumed.err.contains("the history is damaged") &&
                 resumed.err.contains(QStringLiteral("result %1 (trial t0000").arg(seq)) &&
                 resumed.err.contains("tunedeck-engine recover"),
             qPrintable(resumed.all()));
    // Nothing was written into it.
    QCOMPARE(sqliteQuery(database, "SELECT count(*) FROM results"), resultsBefore);

    // Salvaged, the run goes on to the end; only the damaged result is missing.
    QVERIFY(h.run({"recover", folder}).exitCode == 0);
    const EngineResult after = h.run({"resume", folder, "--quiet"});
    QVERIFY2(after.exitCode == 0, qPrintable(after.all()));
    QCOMPARE(sqliteQuery(database, "SELECT count(DISTINCT trial_id) FROM results"),
             QStringLiteral("6"));
}

void TestEngineRecovery::aFullDiskWhileCheckpointingFailsCleanly() {
    // A real full disk: the results root is a 6 MiB tmpfs in a private mount namespace.
    if (QProcess::execute("unshare", {"-m", "true"}) != 0) {
        QSKIP("needs unshare -m (root or user namespaces) to mount a small tmpfs");
    }
    EngineHarness h;
    const QString yaml = R"(name: full
trainable:
  command: python3 @TRIAL@
search_space:
  iterations: 8
  checkpoint_mb: 2
metric: score
mode: max
checkpoint: {frequency: 1}
failure: {max_failures: 1}
)";
    const QString file = h.writeFile("full.yaml", yaml);
    const QString disk = h.root() + "/disk";
    QDir().mkpath(disk);
    QProcess shell;
    shell.setProcessEnvironment(h.environment());
    shell.start("unshare", {"-m", "sh", "-c",
                            QStringLiteral("mount -t tmpfs -o size=6m tmpfs '%1' && '%2' run '%3' "
                                           "--results '%1' --quiet; code=$?; "
                                           "sqlite3 '%1/full/experiment.sqlite' "
                                           "'PRAGMA integrity_check' || echo no-sqlite3-cli; "
                                           "exit $code")
                                .arg(disk, EngineHarness::enginePath(), file)});
    QVERIFY(shell.waitForFinished(120000));
    const QString out =
        QString::fromUtf8(shell.readAllStandardOutput() + shell.readAllStandardError());
    QCOMPARE(shell.exitStatus(), QProcess::NormalExit);
    QCOMPARE(shell.exitCode(), 1);  // finished with an errored trial, not a crash
    // Which write meets the full disk first depends on timing: a checkpoint (the trial fails
    // with the system's message) or the history (SQLite's); either way the user is told.
    QVERIFY2(out.contains("No space left on device") || out.contains("database or disk is full"),
             qPrintable(out));
    QVERIFY2(out.contains("\nok\n") || out.contains("no-sqlite3-cli"), qPrintable(out));
}

QTEST_GUILESS_MAIN(TestEngineRecovery)
#include "test_engine_recovery.moc"
