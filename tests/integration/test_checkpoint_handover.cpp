// Checkpoints handed over as Ray 2.x users write them — report(metrics, checkpoint=DIR) with a
// TemporaryDirectory, a folder in the trial directory, a folder of the project — are kept, a
// retry continues from them, and no folder of the user's is ever moved or deleted: checked from
// outside (the checkpoints table, the folders, the project, the console, the exit code).
#include <QDir>
#include <QFile>
#include <QtTest>

#include "engine_harness.h"

class TestCheckpointHandover : public QObject {
    Q_OBJECT
  private slots:
    void checkpointsReportedFromATemporaryFolderAreKept_data();
    void checkpointsReportedFromATemporaryFolderAreKept();
    void aFolderInsideTheTrialIsMovedIntoTheStore();
    void aFolderOfTheProjectIsCopiedAndLeftInPlace();
    void aRetryContinuesFromTheReportedCheckpoint();
    void checkpointDotIsRefusedAndTheProjectIsKept();
    void theExperimentFolderIsRefusedAndItsHistoryKept();
};

namespace {

// The user's trainable, as Ray 2.x's function API writes it (train.report with a
// Checkpoint.from_directory of a temporary folder), restoring with get_checkpoint(). `where`
// says which folder it hands over; `crash_after` makes the first attempt die after that epoch.
const char* const kTrain = R"PY(import json, os, sys, tempfile
import tunedeck

config = tunedeck.get_config()
trial_dir = tunedeck.get_trial_dir()
start = 0
checkpoint = tunedeck.get_checkpoint()
if checkpoint:
    with checkpoint.as_directory() as folder:
        with open(os.path.join(folder, "state.json")) as f:
            start = json.load(f)["epoch"]

def save(folder, epoch):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "state.json"), "w") as f:
        json.dump({"epoch": epoch}, f)

for epoch in range(start + 1, config["epochs"] + 1):
    with open(os.path.join(trial_dir, "epochs.txt"), "a") as f:
        f.write("%d\n" % epoch)
    metrics = {"score": epoch * config["x"]}
    where = config["where"]
    if where == "temp":
        with tempfile.TemporaryDirectory() as tmp:
            save(tmp, epoch)
            tunedeck.report(metrics, checkpoint=tunedeck.Checkpoint.from_directory(tmp))
    elif where == "inside":
        folder = os.path.join(trial_dir, "my_checkpoint")
        save(folder, epoch)
        tunedeck.report(metrics, checkpoint=folder)
    elif where == "project":
        folder = "saved_model_" + os.environ["TUNEDECK_TRIAL_ID"]
        save(folder, epoch)
        tunedeck.report(metrics, checkpoint=folder)
    elif where == "dot":
        save(".", epoch)
        tunedeck.report(metrics, checkpoint=".")
    elif where == "experiment":
        tunedeck.report(metrics, checkpoint=os.path.dirname(os.path.dirname(trial_dir)))
    if epoch == config.get("crash_after") and not checkpoint:
        sys.exit(1)
)PY";

// A project folder as a user has it: the experiment file, the trainable, some data.
QString writeProject(const EngineHarness& h, const QString& where, const QString& extra = {}) {
    const QString project = h.root() + "/project";
    QDir().mkpath(project + "/data");
    QFile data(project + "/data/train.csv");
    data.open(QIODevice::WriteOnly);
    data.write("x,y\n1,2\n");
    data.close();
    QFile train(project + "/train.py");
    train.open(QIODevice::WriteOnly);
    train.write(kTrain);
    train.close();
    const QString yaml = QStringLiteral(R"(name: handover
trainable:
  command: [python3, train.py]
  working_dir: %1
search_space:
  x: {grid: [1.0, 2.0]}
  epochs: 4
  where: %2
%3
metric: score
mode: max
)")
                             .arg(project, where, extra);
    QFile file(project + "/experiment.yaml");
    file.open(QIODevice::WriteOnly);
    file.write(yaml.toUtf8());
    return project + "/experiment.yaml";
}

QString database(const EngineHarness& h) {
    return h.experimentFolder("handover") + "/experiment.sqlite";
}

// The latest checkpoint of `trial` on disk says it was written after `epoch`.
void verifyLatestCheckpoint(const EngineHarness& h, const QString& trial, int epoch) {
    const QString path = sqliteQuery(database(h), QStringLiteral("SELECT path FROM checkpoints "
                                                                 "WHERE trial_id = '%1' AND "
                                                                 "deleted = 0 ORDER BY iteration "
                                                                 "DESC LIMIT 1")
                                                      .arg(trial));
    QVERIFY2(!path.isEmpty(), qPrintable("no checkpoint recorded for " + trial));
    QFile state(path + "/state.json");
    QVERIFY2(state.open(QIODevice::ReadOnly), qPrintable(path));
    QCOMPARE(state.readAll(), QByteArray("{\"epoch\": ") + QByteArray::number(epoch) + "}");
    QVERIFY(QFile::exists(path + "/.tunedeck_checkpoint.json"));
}

QStringList projectFiles(const QString& project) {
    QStringList files;
    QDirIterator it(project, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        files << QDir(project).relativeFilePath(it.next());
    }
    files.sort();
    return files;
}

}  // namespace

void TestCheckpointHandover::checkpointsReportedFromATemporaryFolderAreKept_data() {
    QTest::addColumn<QString>("section");
    QTest::newRow("no checkpoint section") << QString();
    QTest::newRow("checkpoint: {keep: 2}") << QStringLiteral("checkpoint: {keep: 2}");
}

// Regression: every reported checkpoint was lost ("cannot move ... No such file or directory"),
// the checkpoints table stayed empty, and the run exited 0.
void TestCheckpointHandover::checkpointsReportedFromATemporaryFolderAreKept() {
    QFETCH(QString, section);
    EngineHarness h;
    const EngineResult run = h.run({"run", writeProject(h, "temp", section), "--quiet"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.all()));
    QVERIFY2(!run.all().contains("not kept"), qPrintable(run.all()));
    const QString kept = sqliteQuery(database(h),
                                     "SELECT COUNT(*) FROM checkpoints WHERE "
                                     "deleted = 0");
    QCOMPARE(kept, section.isEmpty() ? QStringLiteral("8") : QStringLiteral("4"));
    verifyLatestCheckpoint(h, "t00000", 4);
    verifyLatestCheckpoint(h, "t00001", 4);
}

void TestCheckpointHandover::aFolderInsideTheTrialIsMovedIntoTheStore() {
    EngineHarness h;
    const EngineResult run = h.run({"run", writeProject(h, "inside"), "--quiet"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.all()));
    verifyLatestCheckpoint(h, "t00001", 4);
    // Moved, not copied: the trial's own folder is the engine's.
    QVERIFY(!QFileInfo::exists(h.experimentFolder("handover") + "/trials/t00001/my_checkpoint"));
}

void TestCheckpointHandover::aFolderOfTheProjectIsCopiedAndLeftInPlace() {
    EngineHarness h;
    const EngineResult run = h.run({"run", writeProject(h, "project"), "--quiet"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.all()));
    verifyLatestCheckpoint(h, "t00000", 4);
    QFile left(h.root() + "/project/saved_model_t00000/state.json");
    QVERIFY2(left.open(QIODevice::ReadOnly), "the user's folder was moved away");
    QCOMPARE(left.readAll(), QByteArray("{\"epoch\": 4}"));
    QVERIFY(!QFile::exists(h.root() + "/project/saved_model_t00000/.tunedeck_checkpoint.json"));
}

// Regression: after a crash, the retry started from scratch although the trial had reported a
// checkpoint every epoch.
void TestCheckpointHandover::aRetryContinuesFromTheReportedCheckpoint() {
    EngineHarness h;
    const QString file = writeProject(h, "temp", "  crash_after: 2\nfailure: {max_failures: 1}");
    const EngineResult run = h.run({"run", file, "--quiet"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.all()));
    for (const char* trial : {"t00000", "t00001"}) {
        QFile epochs(h.experimentFolder("handover") + "/trials/" + QString(trial) + "/epochs.txt");
        QVERIFY(epochs.open(QIODevice::ReadOnly));
        QCOMPARE(epochs.readAll(), QByteArray("1\n2\n3\n4\n"));  // none run twice
    }
    QCOMPARE(sqliteQuery(database(h), "SELECT COUNT(*) FROM results"), QStringLiteral("8"));
}

// Regression: checkpoint="." moved the user's project folder (experiment.yaml, train.py, data)
// into the store and deleted it; the run said "Finished" and exited 0.
void TestCheckpointHandover::checkpointDotIsRefusedAndTheProjectIsKept() {
    EngineHarness h;
    const QString file = writeProject(h, "dot");
    const QString project = h.root() + "/project";
    const EngineResult run = h.run({"run", file, "--quiet"});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("refusing to take '" + QDir(project).canonicalPath() +
                              "' as a checkpoint: it is the trial's working directory"),
             qPrintable(run.all()));
    QVERIFY2(run.out.contains("8 checkpoints could not be kept"), qPrintable(run.out));
    QCOMPARE(projectFiles(project),
             QStringList({"data/train.csv", "experiment.yaml", "state.json", "train.py"}));
    QCOMPARE(sqliteQuery(database(h), "SELECT COUNT(*) FROM checkpoints"), QStringLiteral("0"));
    QCOMPARE(sqliteQuery(database(h),
                         "SELECT COUNT(*) FROM events WHERE type = 'warning' AND "
                         "payload LIKE '%refusing to take%'"),
             QStringLiteral("8"));
}

// Regression: naming the experiment folder deleted experiment.sqlite in the middle of the run.
void TestCheckpointHandover::theExperimentFolderIsRefusedAndItsHistoryKept() {
    EngineHarness h;
    const EngineResult run = h.run({"run", writeProject(h, "experiment"), "--quiet"});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("contains the trial's own directory"), qPrintable(run.all()));
    QCOMPARE(sqliteQuery(database(h), "PRAGMA integrity_check"), QStringLiteral("ok"));
    QCOMPARE(sqliteQuery(database(h), "SELECT COUNT(*) FROM results"), QStringLiteral("8"));
    QCOMPARE(h.exportJson(h.experimentFolder("handover")).size(), 2);
}

QTEST_GUILESS_MAIN(TestCheckpointHandover)
#include "test_checkpoint_handover.moc"
