// commit_checkpoint and delete_checkpoint: a committed checkpoint is whole, synced and carries
// its manifest; a failed one leaves nothing half-done behind and the trial's folder where it was;
// only checkpoints are deleted.
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

#include "worker_session.h"
#include "worker_test.h"

using namespace worker_test;

namespace {

void writeFile(const QString& path, const QByteArray& content) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

// A checkpoint as a trial leaves it: files at two levels and a relative symbolic link.
void fillCheckpoint(const QString& dir) {
    writeFile(dir + QStringLiteral("/model.bin"), QByteArray(100000, 'm'));
    writeFile(dir + QStringLiteral("/optimizer/state.bin"), QByteArray(5000, 'o'));
    QVERIFY(QFile::link(QStringLiteral("model.bin"), dir + QStringLiteral("/latest")));
}

void checkCommitted(const QString& to, const QJsonObject& manifest) {
    QCOMPARE(QFileInfo(to + QStringLiteral("/model.bin")).size(), 100000);
    QCOMPARE(QFileInfo(to + QStringLiteral("/optimizer/state.bin")).size(), 5000);
    QCOMPARE(QFileInfo(to + QStringLiteral("/latest")).symLinkTarget(),
             QFileInfo(to + QStringLiteral("/model.bin")).absoluteFilePath());
    QCOMPARE(QJsonDocument::fromJson(
                 readFile(to + QStringLiteral("/.tunedeck_checkpoint.json")).toUtf8())
                 .object(),
             manifest);
    QVERIFY(!QFileInfo::exists(to + QStringLiteral(".tmp")));
}

dev_t deviceOf(const QString& path) {
    struct stat info {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? info.st_dev : 0;
}

}  // namespace

void WorkerTest::commitMovesTheFolderWithItsManifest() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString from = path(QStringLiteral("t1/own_checkpoint"));
    const QString to = path(QStringLiteral("exp/t1/checkpoint_000007"));
    fillCheckpoint(from);
    QDir().mkpath(QFileInfo(to).absolutePath());
    const QJsonObject manifest{
        {"trial", "t1"}, {"iteration", 7}, {"result", QJsonObject{{"loss", 0.5}}}};
    worker.send(handoverOp(QStringLiteral("t1"), from, to, manifest, path(QStringLiteral("t1"))));
    const QJsonObject committed =
        worker.waitForEvent(QStringLiteral("committed"), QStringLiteral("t1"));
    QVERIFY2(committed.value("ok").toBool(), qPrintable(committed.value("error").toString()));
    QCOMPARE(committed.value("to").toString(), to);
    checkCommitted(to, manifest);
    QVERIFY(!QFileInfo::exists(from));
}

void WorkerTest::commitCopiesAcrossFileSystems() {
    QTemporaryDir otherFileSystem(QStringLiteral("/dev/shm/tunedeck-worker-test-XXXXXX"));
    if (!otherFileSystem.isValid() || deviceOf(otherFileSystem.path()) == deviceOf(m_dir->path())) {
        QSKIP("needs /dev/shm on a file system other than the temporary folder's");
    }
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    // The trial's own folder is on the other file system: its checkpoint is moved, by a copy.
    const QString from = otherFileSystem.filePath(QStringLiteral("ckpt"));
    const QString to = path(QStringLiteral("exp/t1/checkpoint_000003"));
    fillCheckpoint(from);
    QDir().mkpath(QFileInfo(to).absolutePath());
    const QJsonObject manifest{{"iteration", 3}};
    worker.send(handoverOp(QStringLiteral("t1"), from, to, manifest, otherFileSystem.path()));
    const QJsonObject committed =
        worker.waitForEvent(QStringLiteral("committed"), QStringLiteral("t1"));
    QVERIFY2(committed.value("ok").toBool(), qPrintable(committed.value("error").toString()));
    checkCommitted(to, manifest);
    QVERIFY(!QFileInfo::exists(from));
}

void WorkerTest::commitSyncsEveryFileBeforeTheRename() {
    const QString strace = QStandardPaths::findExecutable(QStringLiteral("strace"));
    if (strace.isEmpty()) {
        QSKIP("needs strace to watch the worker's fsync calls");
    }
    const QString trace = path(QStringLiteral("strace.log"));
    WorkerSession worker(
        strace,
        {QStringLiteral("-f"), QStringLiteral("-qq"), QStringLiteral("-y"), QStringLiteral("-e"),
         QStringLiteral("trace=fsync,rename,renameat,renameat2"), QStringLiteral("-e"),
         QStringLiteral("signal=none"), QStringLiteral("-o"), trace, WorkerSession::workerPath()});
    if (!worker.waitForHello()) {
        QSKIP("strace cannot trace here (ptrace not permitted)");
    }
    const QString from = path(QStringLiteral("t1/ckpt"));
    const QString to = path(QStringLiteral("exp/t1/checkpoint_000001"));
    fillCheckpoint(from);
    QDir().mkpath(QFileInfo(to).absolutePath());
    worker.send(
        handoverOp(QStringLiteral("t1"), from, to, {{"iteration", 1}}, path(QStringLiteral("t1"))));
    QVERIFY(worker.waitForEvent(QStringLiteral("committed"), QStringLiteral("t1"))
                .value("ok")
                .toBool());
    worker.closeInput();
    QVERIFY(worker.waitForExit(10000));

    const QStringList calls = readFile(trace).split('\n');
    // The index of the first traced call whose line holds every needle, or -1.
    const auto firstCall = [&](const QStringList& needles) {
        for (qsizetype i = 0; i < calls.size(); ++i) {
            if (std::all_of(needles.begin(), needles.end(),
                            [&](const QString& needle) { return calls[i].contains(needle); })) {
                return i;
            }
        }
        return qsizetype(-1);
    };
    const qsizetype rename =
        firstCall({QStringLiteral("rename"), QStringLiteral("\"") + from + QStringLiteral("\"")});
    QVERIFY2(rename >= 0, qPrintable(readFile(trace)));
    for (const QString& synced :
         {from + QStringLiteral("/model.bin"), from + QStringLiteral("/optimizer/state.bin"),
          from + QStringLiteral("/.tunedeck_checkpoint.json"), from + QStringLiteral("/optimizer"),
          from}) {
        const qsizetype at =
            firstCall({QStringLiteral("fsync("), QStringLiteral("<") + synced + ">"});
        QVERIFY2(at >= 0 && at < rename,
                 qPrintable(QStringLiteral("no fsync of %1 before the rename").arg(synced)));
    }
    // The new name itself is made durable: the parent of `to` is synced after the rename.
    const qsizetype parent = firstCall(
        {QStringLiteral("fsync("), QStringLiteral("<") + QFileInfo(to).absolutePath() + ">"});
    QVERIFY2(parent > rename, "the parent of the checkpoint was not synced after the rename");
}

void WorkerTest::commitFailureIsReportedAndTheWorkerCarriesOn() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    struct Case {
        QString to;
        QString reason;
    };
    writeFile(path(QStringLiteral("a_file")), "not a folder");
    const QList<Case> cases = {
        {path(QStringLiteral("a_file/checkpoint_000001")), QStringLiteral("Not a directory")},
        {path(QStringLiteral("a_file/deeper/checkpoint_000001")),
         QStringLiteral("Not a directory")},
    };
    int n = 0;
    for (const Case& c : cases) {
        const QString from = path(QStringLiteral("from%1").arg(++n));
        fillCheckpoint(from);
        worker.send(commitOp(QStringLiteral("t1"), from, c.to, {{"iteration", 1}}));
        const QJsonObject committed =
            worker.waitForEvent(QStringLiteral("committed"), QStringLiteral("t1"));
        QCOMPARE(committed.value("ok").toBool(true), false);
        QCOMPARE(committed.value("to").toString(), c.to);
        QVERIFY2(committed.value("error").toString().contains(c.reason),
                 qPrintable(committed.value("error").toString()));
        // The folder is the trial's (it was copied, or a move was undone) and stays whole;
        // nothing half-done is left behind.
        QCOMPARE(QFileInfo(from + QStringLiteral("/model.bin")).size(), 100000);
        QVERIFY(!QFileInfo::exists(c.to));
        QVERIFY(!QFileInfo::exists(c.to + QStringLiteral(".tmp")));
    }
    // A folder that is not there.
    worker.send(commitOp(QStringLiteral("t1"), path(QStringLiteral("never_written")),
                         path(QStringLiteral("ckpt")), {{"iteration", 1}}));
    QCOMPARE(worker.waitForEvent(QStringLiteral("committed"), QStringLiteral("t1"))
                 .value("ok")
                 .toBool(true),
             false);

    // The worker carries on: the next commit works.
    const QString from = path(QStringLiteral("good"));
    fillCheckpoint(from);
    worker.send(
        commitOp(QStringLiteral("t1"), from, path(QStringLiteral("ckpt")), {{"iteration", 2}}));
    QVERIFY(worker.waitForEvent(QStringLiteral("committed"), QStringLiteral("t1"))
                .value("ok")
                .toBool());
    QVERIFY(worker.running());
}

void WorkerTest::deleteRefusesAFolderThatIsNoCheckpoint() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString precious = path(QStringLiteral("results"));
    writeFile(precious + QStringLiteral("/thesis.tex"), "years of work");
    const QString checkpoint = path(QStringLiteral("exp/t1/checkpoint_000001"));
    writeFile(checkpoint + QStringLiteral("/.tunedeck_checkpoint.json"), "{}");
    writeFile(checkpoint + QStringLiteral("/model.bin"), "weights");
    const QString leftover = path(QStringLiteral("exp/t1/checkpoint_000002.tmp"));
    writeFile(leftover + QStringLiteral("/model.bin"), "half");
    const QString link = path(QStringLiteral("link_to_checkpoint"));
    QVERIFY(QFile::link(checkpoint, link));

    worker.send({{"op", "delete_checkpoint"}, {"path", precious}});
    const QJsonObject refused = worker.waitForEvent(QStringLiteral("error"));
    QVERIFY2(refused.value("message").toString().contains(QStringLiteral("refusing to delete")) &&
                 refused.value("message").toString().contains(precious),
             qPrintable(refused.value("message").toString()));
    QVERIFY(QFileInfo::exists(precious + QStringLiteral("/thesis.tex")));

    worker.send({{"op", "delete_checkpoint"}, {"path", link}});
    QVERIFY(worker.waitForEvent(QStringLiteral("error"))
                .value("message")
                .toString()
                .contains(QStringLiteral("is a symbolic link")));
    QVERIFY(QFileInfo::exists(checkpoint + QStringLiteral("/model.bin")));
    // A trial's link inside a checkpoint goes with the checkpoint; what it points at stays (on a
    // remote node the agent is what deletes).
    QVERIFY(QFile::link(precious, checkpoint + QStringLiteral("/results")));

    worker.send({{"op", "delete_checkpoint"}, {"path", checkpoint}});
    worker.send({{"op", "delete_checkpoint"}, {"path", leftover}});
    worker.send({{"op", "delete_checkpoint"}, {"path", path(QStringLiteral("already_gone"))}});
    // File ops run in order: once this commit is answered, the deletions are done.
    worker.send(commitOp(QStringLiteral("fence"), path(QStringLiteral("nothing")),
                         path(QStringLiteral("nowhere")), {}));
    QVERIFY(!worker.waitForEvent(QStringLiteral("committed"), QStringLiteral("fence")).isEmpty());
    QVERIFY(worker.waitForEvent(QStringLiteral("error"), {}, 0).isEmpty());
    QVERIFY(!QFileInfo::exists(checkpoint));
    QVERIFY(!QFileInfo::exists(leftover));
    QVERIFY(QFileInfo::exists(precious + QStringLiteral("/thesis.tex")));
}

// Issue 33: on a root agent whose trials run as their owner, the trial owns its folder and may
// point `checkpoints` anywhere. The agent's commit and retention used to follow such a link as
// root: the commit landed in a folder only root may write, a delete emptied one.
void WorkerTest::anOwnersCheckpointWorkCannotGoThroughALinkTheTrialPlanted() {
    if (::geteuid() != 0) {
        QSKIP("needs root: only a root agent runs trials as their owner");
    }
    const struct passwd* nobody = ::getpwnam("nobody");
    if (nobody == nullptr) {
        QSKIP("needs the account 'nobody'");
    }
    QVERIFY(QFile::setPermissions(
        m_dir->path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther |
                           QFile::ExeOther | QFile::ReadGroup | QFile::ExeGroup));
    const QString trialDir = path(QStringLiteral("exp/trials/t00001"));
    const QString rootOnly = path(QStringLiteral("root-only"));  // the owner may not write here
    QVERIFY(QDir().mkpath(rootOnly));
    fillCheckpoint(rootOnly + QStringLiteral("/checkpoint_000003"));
    fillCheckpoint(trialDir + QStringLiteral("/own_checkpoint"));
    QVERIFY(QFile::link(rootOnly, trialDir + QStringLiteral("/checkpoints")));
    // As the agent hands a trial its folder (trial_owner.h), links themselves, not their targets.
    QProcess chown;
    chown.start(QStringLiteral("chown"),
                {QStringLiteral("-hR"),
                 QStringLiteral("%1:%2").arg(nobody->pw_uid).arg(nobody->pw_gid), trialDir});
    QVERIFY(chown.waitForFinished() && chown.exitCode() == 0);

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("TUNEDECK_TRIAL_USER"), QStringLiteral("nobody"));
    WorkerSession worker(WorkerSession::workerPath(), {}, environment);
    QVERIFY(worker.waitForHello());
    const QJsonObject manifest{{"trial", "t00001"}, {"iteration", 5}};
    worker.send(handoverOp(QStringLiteral("t00001"), trialDir + QStringLiteral("/own_checkpoint"),
                           trialDir + QStringLiteral("/checkpoints/checkpoint_000005"), manifest,
                           trialDir));
    const QJsonObject committed =
        worker.waitForEvent(QStringLiteral("committed"), QStringLiteral("t00001"));
    QVERIFY2(!committed.isEmpty(), "no committed event");
    QVERIFY(!committed.value("ok").toBool());
    QVERIFY2(!QFileInfo::exists(rootOnly + QStringLiteral("/checkpoint_000005")),
             "the commit went through the trial's link into a folder only root may write");
    // Retention's delete through the same link leaves root's folder alone.
    worker.send({{"op", "delete_checkpoint"},
                 {"path", trialDir + QStringLiteral("/checkpoints/checkpoint_000003")}});
    QVERIFY(!worker.waitForEvent(QStringLiteral("error"), {}, 10000).isEmpty());
    QVERIFY2(QFileInfo::exists(rootOnly + QStringLiteral("/checkpoint_000003/model.bin")),
             "the delete went through the trial's link");

    // In the owner's own folder the same commit is made, and what it made is the owner's.
    QVERIFY(QFile::remove(trialDir + QStringLiteral("/checkpoints")));
    worker.send(handoverOp(QStringLiteral("t00001"), trialDir + QStringLiteral("/own_checkpoint"),
                           trialDir + QStringLiteral("/checkpoints/checkpoint_000005"), manifest,
                           trialDir));
    const QJsonObject own =
        worker.waitForEvent(QStringLiteral("committed"), QStringLiteral("t00001"));
    QVERIFY2(own.value("ok").toBool(), qPrintable(own.value("error").toString()));
    const QString to = trialDir + QStringLiteral("/checkpoints/checkpoint_000005");
    checkCommitted(to, manifest);
    struct stat info {};
    QCOMPARE(
        ::stat(QFile::encodeName(to + QStringLiteral("/.tunedeck_checkpoint.json")).constData(),
               &info),
        0);
    QCOMPARE(info.st_uid, nobody->pw_uid);
}
