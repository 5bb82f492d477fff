// Checkpoint folders are put in place whole or not at all, and a folder the user handed over is
// never lost: the module under a full disk, failed renames and fsyncs, a crash at every step and
// the power cut after it (tests/checkpoint/faulty_file_system.h), and the handover rule.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <cerrno>
#include <map>

#include "checkpoint/checkpoint_files.h"
#include "faulty_file_system.h"

namespace ckpt = tunedeck::checkpoint;
using Tree = std::map<QString, QByteArray>;  // relative path -> content ("<dir>" for folders)

namespace {

const std::string kManifest = "{\"trial\": \"t00000\", \"iteration\": 3}\n";

void writeFile(const QString& path, const QByteArray& content) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

// What a trial writes: a model file, a nested folder, an empty file.
Tree userCheckpoint(const QString& folder) {
    writeFile(folder + "/model.bin", QByteArray(300000, 'm'));
    writeFile(folder + "/optimizer/state.json", "{\"step\": 3}");
    writeFile(folder + "/empty", "");
    return {{"model.bin", QByteArray(300000, 'm')},
            {"optimizer", "<dir>"},
            {"optimizer/state.json", "{\"step\": 3}"},
            {"empty", ""}};
}

Tree readTree(const QString& folder) {
    Tree tree;
    QDirIterator it(folder, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = QDir(folder).relativeFilePath(path);
        if (it.fileInfo().isDir()) {
            tree[relative] = "<dir>";
        } else {
            QFile file(path);
            file.open(QIODevice::ReadOnly);
            tree[relative] = file.readAll();
        }
    }
    return tree;
}

Tree withManifest(Tree tree) {
    tree[ckpt::kManifestName] = QByteArray::fromStdString(kManifest);
    return tree;
}

// Everything below `folder` as never synced, the way a trial leaves what it just wrote.
void markWrittenByTrial(FaultyFileSystem& fs, const QString& folder) {
    fs.notSynced(folder.toStdString());
    QDirIterator it(folder, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        fs.notSynced(it.next().toStdString());
    }
}

QStringList leftovers(const QString& folder) {
    return QDir(folder).entryList({"*.tmp"}, QDir::AllEntries | QDir::Hidden);
}

ckpt::HandoverChoice choose(const QString& folder, const QString& trialDir, const QString& project,
                            const QString& experiment) {
    ckpt::HandoverPlaces places;
    places.trialDir = trialDir.toStdString();
    places.folders = {{project.toStdString(), "the trial's working directory"},
                      {experiment.toStdString(), "the experiment folder"}};
    std::string resolved;
    return ckpt::chooseHandoverOnDisk(ckpt::posixFileSystem(), folder.toStdString(), places,
                                      &resolved);
}

}  // namespace

class TestCheckpointFiles : public QObject {
    Q_OBJECT
  private slots:
    void aFolderHandedOverIsCopiedAndLeftAsItWas();
    void aFolderInsideTheTrialIsMoved();
    void theCheckpointsFolderIsCreatedWhenMissing();
    void dotTheProjectAndTheExperimentAreRefused();
    void aFullDiskLeavesTheUserFolderAndNoCheckpoint_data();
    void aFullDiskLeavesTheUserFolderAndNoCheckpoint();
    void aFailedMoveLeavesTheFolderWhereItWas();
    void aCommittedCheckpointSurvivesAPowerCut_data();
    void aCommittedCheckpointSurvivesAPowerCut();
    void aCrashAtAnyStepLeavesAWholeCheckpointOrNone_data();
    void aCrashAtAnyStepLeavesAWholeCheckpointOrNone();
    void aReplacedCheckpointIsTheOldOrTheNewOneAfterACrash();
    void aFetchedFolderIsPublishedDurably();
    void onlyCheckpointFoldersAreDeleted();
};

void TestCheckpointFiles::aFolderHandedOverIsCopiedAndLeftAsItWas() {
    QTemporaryDir dir;
    const QString user = dir.path() + "/tmpabc123";
    const Tree written = userCheckpoint(user);
    const QString to = dir.path() + "/exp/trials/t00000/checkpoints/checkpoint_000003";
    const ckpt::FileOutcome outcome =
        ckpt::commitCheckpoint(ckpt::posixFileSystem(), user.toStdString(), to.toStdString(),
                               kManifest, ckpt::Handover::Copy);
    QVERIFY2(outcome.ok, outcome.error.c_str());
    QCOMPARE(readTree(to), withManifest(written));
    QCOMPARE(readTree(user), written);  // not moved, and no manifest written into it
}

void TestCheckpointFiles::aFolderInsideTheTrialIsMoved() {
    QTemporaryDir dir;
    const QString trial = dir.path() + "/exp/trials/t00000";
    const QString user = trial + "/my_checkpoint";
    const Tree written = userCheckpoint(user);
    const ckpt::HandoverChoice choice =
        choose(user, trial, dir.path() + "/project", dir.path() + "/exp");
    QVERIFY(choice.how == ckpt::Handover::Move);
    const QString to = trial + "/checkpoints/checkpoint_000001";
    const ckpt::FileOutcome outcome = ckpt::commitCheckpoint(
        ckpt::posixFileSystem(), user.toStdString(), to.toStdString(), kManifest, *choice.how);
    QVERIFY2(outcome.ok, outcome.error.c_str());
    QCOMPARE(readTree(to), withManifest(written));
    QVERIFY(!QFileInfo::exists(user));
}

// Regression: a report's folder was lost with "cannot move ... No such file or directory" when
// the trial's checkpoints/ folder did not exist yet (no save had been asked for).
void TestCheckpointFiles::theCheckpointsFolderIsCreatedWhenMissing() {
    QTemporaryDir dir;
    const QString trial = dir.path() + "/exp/trials/t00000";
    QVERIFY(QDir().mkpath(trial));
    for (const ckpt::Handover how : {ckpt::Handover::Move, ckpt::Handover::Copy}) {
        const QString user = trial + "/ckpt";
        const Tree written = userCheckpoint(user);
        const QString to = trial + QStringLiteral("/checkpoints/checkpoint_00000%1").arg(int(how));
        const ckpt::FileOutcome outcome = ckpt::commitCheckpoint(
            ckpt::posixFileSystem(), user.toStdString(), to.toStdString(), kManifest, how);
        QVERIFY2(outcome.ok, outcome.error.c_str());
        QCOMPARE(readTree(to), withManifest(written));
        QDir(user).removeRecursively();
        QDir(trial + "/checkpoints").removeRecursively();
    }
}

// Regression: checkpoint="." moved and then deleted the user's project folder.
void TestCheckpointFiles::dotTheProjectAndTheExperimentAreRefused() {
    QTemporaryDir dir;
    const QString project = dir.path() + "/project";
    const QString experiment = dir.path() + "/results/exp";
    const QString trial = experiment + "/trials/t00000";
    QVERIFY(QDir().mkpath(project + "/data"));
    QVERIFY(QDir().mkpath(trial + "/checkpoints/checkpoint_000002"));
    writeFile(trial + "/checkpoints/checkpoint_000002/" + ckpt::kManifestName, "{}");
    const struct {
        QString folder;
        const char* says;
    } refused[] = {
        {project, "is the trial's working directory"},
        {project + "/data/..", "is the trial's working directory"},
        {dir.path(), "contains the trial's own directory"},
        {experiment, "contains the trial's own directory"},
        {trial, "is the trial's own directory"},
        {"/", "contains"},
    };
    for (const auto& c : refused) {
        const ckpt::HandoverChoice choice = choose(c.folder, trial, project, experiment);
        QVERIFY2(!choice.how, qPrintable(c.folder));
        QVERIFY2(QString::fromStdString(choice.refusal).contains(c.says), choice.refusal.c_str());
        QVERIFY(QString::fromStdString(choice.refusal).contains("refusing to take"));
    }
    // Inside the project: copied, never moved. A committed checkpoint (get_checkpoint()'s
    // folder, handed back): copied. Inside the trial: moved.
    QVERIFY(choose(project + "/data", trial, project, experiment).how == ckpt::Handover::Copy);
    QVERIFY(choose(trial + "/checkpoints/checkpoint_000002", trial, project, experiment).how ==
            ckpt::Handover::Copy);
    QVERIFY(QDir().mkpath(trial + "/ckpt"));
    QVERIFY(choose(trial + "/ckpt", trial, project, experiment).how == ckpt::Handover::Move);
    QVERIFY(
        QString::fromStdString(choose(dir.path() + "/missing", trial, project, experiment).refusal)
            .contains("No such file or directory"));
}

void TestCheckpointFiles::aFullDiskLeavesTheUserFolderAndNoCheckpoint_data() {
    QTest::addColumn<int>("call");
    QTest::addColumn<int>("nth");
    QTest::addColumn<int>("error");
    QTest::addColumn<QString>("says");
    QTest::newRow("first write") << int(FaultyFileSystem::Call::Write) << 1 << ENOSPC
                                 << "No space left on device";
    QTest::newRow("third write") << int(FaultyFileSystem::Call::Write) << 3 << ENOSPC
                                 << "No space left on device";
    QTest::newRow("an fsync") << int(FaultyFileSystem::Call::Sync) << 2 << EIO
                              << "Input/output error";
    QTest::newRow("the rename") << int(FaultyFileSystem::Call::Rename) << 1 << EIO
                                << "Input/output error";
}

void TestCheckpointFiles::aFullDiskLeavesTheUserFolderAndNoCheckpoint() {
    QFETCH(int, call);
    QFETCH(int, nth);
    QFETCH(int, error);
    QFETCH(QString, says);
    QTemporaryDir dir;
    const QString user = dir.path() + "/tmpabc123";
    const Tree written = userCheckpoint(user);
    const QString checkpoints = dir.path() + "/exp/trials/t00000/checkpoints";
    const QString to = checkpoints + "/checkpoint_000003";
    FaultyFileSystem fs;
    fs.failAt(FaultyFileSystem::Call(call), nth, error);
    const ckpt::FileOutcome outcome = ckpt::commitCheckpoint(
        fs, user.toStdString(), to.toStdString(), kManifest, ckpt::Handover::Copy);
    QVERIFY(!outcome.ok);
    QVERIFY2(QString::fromStdString(outcome.error).contains(says), outcome.error.c_str());
    QCOMPARE(readTree(user), written);
    QVERIFY(!QFileInfo::exists(to));
    QCOMPARE(leftovers(checkpoints), QStringList());
}

void TestCheckpointFiles::aFailedMoveLeavesTheFolderWhereItWas() {
    QTemporaryDir dir;
    const QString trial = dir.path() + "/exp/trials/t00000";
    const QString user = trial + "/ckpt";
    const Tree written = userCheckpoint(user);
    FaultyFileSystem fs;
    fs.failAt(FaultyFileSystem::Call::Rename, 1, EIO);
    const QString to = trial + "/checkpoints/checkpoint_000001";
    const ckpt::FileOutcome outcome = ckpt::commitCheckpoint(
        fs, user.toStdString(), to.toStdString(), kManifest, ckpt::Handover::Move);
    QVERIFY(!outcome.ok);
    QCOMPARE(readTree(user), written);  // the manifest written for the move is taken back
    QVERIFY(!QFileInfo::exists(to));
}

void TestCheckpointFiles::aCommittedCheckpointSurvivesAPowerCut_data() {
    QTest::addColumn<bool>("move");
    QTest::newRow("copied") << false;
    QTest::newRow("moved") << true;
}

void TestCheckpointFiles::aCommittedCheckpointSurvivesAPowerCut() {
    QFETCH(bool, move);
    QTemporaryDir dir;
    const QString trial = dir.path() + "/exp/trials/t00000";
    const QString user = trial + "/ckpt";
    const Tree written = userCheckpoint(user);
    FaultyFileSystem fs;
    markWrittenByTrial(fs, user);
    const QString to = trial + "/checkpoints/checkpoint_000001";
    const ckpt::FileOutcome outcome =
        ckpt::commitCheckpoint(fs, user.toStdString(), to.toStdString(), kManifest,
                               move ? ckpt::Handover::Move : ckpt::Handover::Copy);
    QVERIFY2(outcome.ok, outcome.error.c_str());
    fs.dropUnsyncedData();
    QCOMPARE(readTree(to), withManifest(written));
}

void TestCheckpointFiles::aCrashAtAnyStepLeavesAWholeCheckpointOrNone_data() {
    aCommittedCheckpointSurvivesAPowerCut_data();
}

void TestCheckpointFiles::aCrashAtAnyStepLeavesAWholeCheckpointOrNone() {
    QFETCH(bool, move);
    int crashes = 0;
    for (int step = 1;; ++step) {
        QTemporaryDir dir;
        const QString trial = dir.path() + "/exp/trials/t00000";
        QVERIFY(QDir().mkpath(trial + "/checkpoints"));
        const QString user = move ? trial + "/ckpt" : dir.path() + "/tmpabc123";
        const Tree written = userCheckpoint(user);
        FaultyFileSystem fs;
        if (move) {
            markWrittenByTrial(fs, user);  // a copied folder is the user's: its fate too
        }
        fs.failAt(FaultyFileSystem::Call::Any, step, EIO, /*andAfter=*/true);
        const QString to = trial + "/checkpoints/checkpoint_000001";
        const ckpt::FileOutcome outcome =
            ckpt::commitCheckpoint(fs, user.toStdString(), to.toStdString(), kManifest,
                                   move ? ckpt::Handover::Move : ckpt::Handover::Copy);
        const bool crashed = fs.callsMade() >= step;
        fs.dropUnsyncedData();
        if (outcome.ok) {
            QCOMPARE(readTree(to), withManifest(written));  // reported kept: it is kept
        } else if (QFileInfo::exists(to)) {
            QCOMPARE(readTree(to), withManifest(written));  // visible means whole
        }
        if (!move) {
            QCOMPARE(readTree(user), written);
        }
        if (!crashed) {
            break;  // the commit got through every step
        }
        ++crashes;
    }
    QVERIFY2(crashes > 10, "the fault never hit the commit's steps");
}

void TestCheckpointFiles::aReplacedCheckpointIsTheOldOrTheNewOneAfterACrash() {
    for (int step = 1;; ++step) {
        QTemporaryDir dir;
        const QString to = dir.path() + "/checkpoints/checkpoint_000004";
        writeFile(to + "/model.bin", "old weights");
        writeFile(to + "/" + ckpt::kManifestName, "{\"old\": true}");
        const Tree old = readTree(to);
        const QString user = dir.path() + "/new";
        const Tree written = userCheckpoint(user);
        FaultyFileSystem fs;
        fs.failAt(FaultyFileSystem::Call::Any, step, EIO, true);
        const ckpt::FileOutcome outcome = ckpt::commitCheckpoint(
            fs, user.toStdString(), to.toStdString(), kManifest, ckpt::Handover::Copy);
        const bool crashed = fs.callsMade() >= step;
        fs.dropUnsyncedData();
        const Tree now = readTree(to);
        QVERIFY2(now == old || now == withManifest(written), qPrintable(QString::number(step)));
        if (outcome.ok) {
            QVERIFY(now == withManifest(written));
        }
        if (!crashed) {
            break;
        }
    }
}

void TestCheckpointFiles::aFetchedFolderIsPublishedDurably() {
    QTemporaryDir dir;
    const QString staging = dir.path() + "/trials/t00001/checkpoints/checkpoint_000002.tmp";
    Tree written = userCheckpoint(staging);
    writeFile(staging + "/" + ckpt::kManifestName, QByteArray::fromStdString(kManifest));
    written[ckpt::kManifestName] = QByteArray::fromStdString(kManifest);
    FaultyFileSystem fs;
    markWrittenByTrial(fs, staging);  // as SFTP left it: written, not synced
    const QString to = dir.path() + "/trials/t00001/checkpoints/checkpoint_000002";
    const ckpt::FileOutcome outcome =
        ckpt::publishFolder(fs, staging.toStdString(), to.toStdString());
    QVERIFY2(outcome.ok, outcome.error.c_str());
    fs.dropUnsyncedData();
    QCOMPARE(readTree(to), written);
}

void TestCheckpointFiles::onlyCheckpointFoldersAreDeleted() {
    QTemporaryDir dir;
    const QString project = dir.path() + "/project";
    writeFile(project + "/train.py", "print()");
    const ckpt::FileOutcome refused =
        ckpt::deleteCheckpoint(ckpt::posixFileSystem(), project.toStdString());
    QVERIFY(!refused.ok);
    QVERIFY(QString::fromStdString(refused.error).contains("not a checkpoint folder"));
    QVERIFY(QFileInfo::exists(project + "/train.py"));
    const QString checkpoint = dir.path() + "/checkpoint_000001";
    writeFile(checkpoint + "/" + ckpt::kManifestName, "{}");
    QVERIFY(ckpt::deleteCheckpoint(ckpt::posixFileSystem(), checkpoint.toStdString()).ok);
    QVERIFY(!QFileInfo::exists(checkpoint));
}

QTEST_GUILESS_MAIN(TestCheckpointFiles)
#include "tst_checkpoint_files.moc"
