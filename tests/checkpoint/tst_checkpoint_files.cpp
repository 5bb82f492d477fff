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
    void aCheckpointThatIsALinkIsLeftAlone();
    void aLinkInsideADeletedCheckpointIsNotFollowed();
    void aFolderSwappedForALinkWhileDeletingIsNotFollowed();
    void aStagingNameThatIsALinkIsClearedNotFollowed();
    void aCopyOverALinkLeavesItsTargetAlone();
    void sweepingRemovesOnlyWhatTheEngineMade();
    void aCheckpointsFolderThatIsALinkIsNotSwept();
    void aCheckpointsFolderMovedAndLinkedBackTakesNewCheckpoints();
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

namespace {

// A folder outside the experiment that no delete may touch.
QString preciousFolder(const QTemporaryDir& dir, const QString& name) {
    const QString folder = dir.path() + "/elsewhere/" + name;
    writeFile(folder + "/data.txt", "keep me");
    // Shaped like a checkpoint, so only the link in front of it can tell it apart.
    writeFile(folder + "/" + ckpt::kManifestName, "{}");
    return folder;
}

bool untouched(const QString& folder) {
    QFile file(folder + "/data.txt");
    return file.open(QIODevice::ReadOnly) && file.readAll() == "keep me";
}

}  // namespace

void TestCheckpointFiles::aCheckpointThatIsALinkIsLeftAlone() {
    // Retention deletes a checkpoint the history lists; a trial replaced it with a link.
    QTemporaryDir dir;
    const QString target = preciousFolder(dir, "target");
    const QString checkpoint = dir.path() + "/trials/t00000/checkpoints/checkpoint_000050";
    QDir().mkpath(dir.path() + "/trials/t00000/checkpoints");
    QVERIFY(QFile::link(target, checkpoint));
    const ckpt::FileOutcome outcome =
        ckpt::deleteCheckpoint(ckpt::posixFileSystem(), checkpoint.toStdString());
    QVERIFY(!outcome.ok);
    QVERIFY2(QString::fromStdString(outcome.error).contains("symbolic link"),
             outcome.error.c_str());
    QVERIFY(untouched(target));
    QVERIFY(QFileInfo(checkpoint).isSymLink());
}

void TestCheckpointFiles::aLinkInsideADeletedCheckpointIsNotFollowed() {
    QTemporaryDir dir;
    const QString target = preciousFolder(dir, "target");
    const QString checkpoint = dir.path() + "/checkpoint_000001";
    userCheckpoint(checkpoint);
    writeFile(checkpoint + "/" + ckpt::kManifestName, "{}");
    QVERIFY(QFile::link(target, checkpoint + "/optimizer/shared"));
    QVERIFY(QFile::link(target + "/data.txt", checkpoint + "/data.txt"));
    QVERIFY(ckpt::deleteCheckpoint(ckpt::posixFileSystem(), checkpoint.toStdString()).ok);
    QVERIFY(!QFileInfo::exists(checkpoint));
    QVERIFY(untouched(target));
}

void TestCheckpointFiles::aFolderSwappedForALinkWhileDeletingIsNotFollowed() {
    // Another process (the trial) replaces a folder with a link between the engine's look at it
    // and its descent into it.
    QTemporaryDir dir;
    const QString target = preciousFolder(dir, "target");
    const QString checkpoint = dir.path() + "/checkpoint_000001";
    userCheckpoint(checkpoint);
    writeFile(checkpoint + "/" + ckpt::kManifestName, "{}");
    const std::string swapped = (checkpoint + "/optimizer").toStdString();
    FaultyFileSystem fs;
    bool raced = false;
    fs.afterLook = [&](const std::string& path) {
        if (path == swapped && !raced) {
            raced = true;
            QVERIFY(QDir(checkpoint + "/optimizer").removeRecursively());
            QVERIFY(QFile::link(target, checkpoint + "/optimizer"));
        }
    };
    const ckpt::FileOutcome outcome = ckpt::deleteCheckpoint(fs, checkpoint.toStdString());
    QVERIFY(raced);
    QVERIFY2(outcome.ok, outcome.error.c_str());
    QVERIFY(!QFileInfo::exists(checkpoint));
    QVERIFY(untouched(target));
}

void TestCheckpointFiles::aStagingNameThatIsALinkIsClearedNotFollowed() {
    QTemporaryDir dir;
    const QString target = preciousFolder(dir, "target");
    const QString scratch = dir.path() + "/checkpoints/checkpoint_000004.tmp";
    QDir().mkpath(dir.path() + "/checkpoints");
    QVERIFY(QFile::link(target, scratch));
    const ckpt::FileOutcome prepared =
        ckpt::prepareScratchFolder(ckpt::posixFileSystem(), scratch.toStdString());
    QVERIFY2(prepared.ok, prepared.error.c_str());
    QVERIFY(!QFileInfo(scratch).isSymLink());
    QVERIFY(QDir(scratch).isEmpty());
    QVERIFY(untouched(target));

    QVERIFY(QDir(scratch).removeRecursively());
    QVERIFY(QFile::link(target, scratch));
    const ckpt::FileOutcome cleared =
        ckpt::removeStaging(ckpt::posixFileSystem(), scratch.toStdString());
    QVERIFY2(cleared.ok, cleared.error.c_str());
    QVERIFY(!QFileInfo::exists(scratch) && !QFileInfo(scratch).isSymLink());
    QVERIFY(untouched(target));
}

void TestCheckpointFiles::aCopyOverALinkLeavesItsTargetAlone() {
    // An exploit copies a donor's checkpoint into the recipient's folder, where a link and a
    // leftover staging link wait.
    QTemporaryDir dir;
    const QString target = preciousFolder(dir, "target");
    const QString staged = preciousFolder(dir, "staged");
    const QString donor = dir.path() + "/trials/t00001/checkpoints/checkpoint_000010";
    const Tree written = userCheckpoint(donor);
    writeFile(donor + "/" + ckpt::kManifestName, "{}");
    const QString to = dir.path() + "/trials/t00002/checkpoints/checkpoint_000012";
    QDir().mkpath(dir.path() + "/trials/t00002/checkpoints");
    QVERIFY(QFile::link(target, to));
    QVERIFY(QFile::link(staged, to + ".copy.tmp"));
    const ckpt::FileOutcome outcome =
        ckpt::commitCheckpoint(ckpt::posixFileSystem(), donor.toStdString(), to.toStdString(),
                               kManifest, ckpt::Handover::Copy);
    QVERIFY2(outcome.ok, outcome.error.c_str());
    QCOMPARE(readTree(to), withManifest(written));
    QVERIFY(untouched(target));
    QVERIFY(untouched(staged));
}

void TestCheckpointFiles::sweepingRemovesOnlyWhatTheEngineMade() {
    QTemporaryDir dir;
    const QString folder = dir.path() + "/trials/t00000/checkpoints";
    const QString linked = preciousFolder(dir, "linked");
    const QString linkedStaging = preciousFolder(dir, "linked-staging");
    writeFile(folder + "/checkpoint_000001/" + ckpt::kManifestName, "{}");  // listed
    writeFile(folder + "/checkpoint_000002/" + ckpt::kManifestName, "{}");  // a crash's
    writeFile(folder + "/checkpoint_000003.tmp/model.bin", "half");         // a crash's
    writeFile(folder + "/checkpoint_000003.copy.tmp/model.bin", "half");    // a crash's
    writeFile(folder + "/checkpoint_000004/model.bin", "no manifest");      // not the engine's
    writeFile(folder + "/notes/today.txt", "mine");                         // the user's
    QVERIFY(QFile::link(linked, folder + "/checkpoint_000005"));
    QVERIFY(QFile::link(linkedStaging, folder + "/checkpoint_000006.tmp"));
    const ckpt::SweepOutcome swept = ckpt::sweepUnlistedCheckpoints(
        ckpt::posixFileSystem(), folder.toStdString(), {"checkpoint_000001"});
    QVERIFY2(swept.error.empty(), swept.error.c_str());
    QStringList left =
        QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System);
    left.sort();
    QCOMPARE(left, QStringList({"checkpoint_000001", "checkpoint_000004", "checkpoint_000005",
                                "checkpoint_000006.tmp", "notes"}));
    QCOMPARE(int(swept.leftAlone.size()), 2);
    QVERIFY(QString::fromStdString(swept.leftAlone[0] + swept.leftAlone[1])
                .contains("checkpoint_000005 is a symbolic link"));
    QVERIFY(untouched(linked));
    QVERIFY(untouched(linkedStaging));
}

void TestCheckpointFiles::aCheckpointsFolderThatIsALinkIsNotSwept() {
    QTemporaryDir dir;
    const QString elsewhere = dir.path() + "/elsewhere";
    writeFile(elsewhere + "/checkpoint_000002/" + ckpt::kManifestName, "{}");
    writeFile(elsewhere + "/work.tmp/data.txt", "keep me");
    QDir().mkpath(dir.path() + "/trials/t00000");
    const QString folder = dir.path() + "/trials/t00000/checkpoints";
    QVERIFY(QFile::link(elsewhere, folder));
    const ckpt::SweepOutcome swept =
        ckpt::sweepUnlistedCheckpoints(ckpt::posixFileSystem(), folder.toStdString(), {});
    QVERIFY(swept.removed.empty());
    QCOMPARE(int(swept.leftAlone.size()), 1);
    QVERIFY(QFileInfo::exists(elsewhere + "/checkpoint_000002/" + ckpt::kManifestName));
    QVERIFY(QFileInfo::exists(elsewhere + "/work.tmp/data.txt"));
}

void TestCheckpointFiles::aCheckpointsFolderMovedAndLinkedBackTakesNewCheckpoints() {
    // The user moved checkpoints/ to another disk and linked it back: commits and retention go
    // on through the link.
    QTemporaryDir dir;
    const QString otherDisk = dir.path() + "/other-disk/checkpoints";
    QDir().mkpath(otherDisk);
    QDir().mkpath(dir.path() + "/trials/t00000");
    QVERIFY(QFile::link(otherDisk, dir.path() + "/trials/t00000/checkpoints"));
    const QString from = dir.path() + "/trials/t00000/save";
    const Tree written = userCheckpoint(from);
    const QString to = dir.path() + "/trials/t00000/checkpoints/checkpoint_000003";
    const ckpt::FileOutcome outcome =
        ckpt::commitCheckpoint(ckpt::posixFileSystem(), from.toStdString(), to.toStdString(),
                               kManifest, ckpt::Handover::Move);
    QVERIFY2(outcome.ok, outcome.error.c_str());
    QCOMPARE(readTree(otherDisk + "/checkpoint_000003"), withManifest(written));
    QVERIFY(ckpt::deleteCheckpoint(ckpt::posixFileSystem(), to.toStdString()).ok);
    QVERIFY(!QFileInfo::exists(otherDisk + "/checkpoint_000003"));
    QVERIFY(QFileInfo(dir.path() + "/trials/t00000/checkpoints").isSymLink());
}

QTEST_GUILESS_MAIN(TestCheckpointFiles)
#include "tst_checkpoint_files.moc"
