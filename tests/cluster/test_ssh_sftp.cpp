// SftpClient against a real OpenSSH server on 127.0.0.1, whose "remote" home is a local folder
// of the fixture: trees each way byte for byte with their modes and times, mkdir -p, rm -rf,
// listings, replacing files, errors that name the host and path, and a node that goes away in
// the middle of a transfer.
#include <map>

#include <fcntl.h>
#include <sys/stat.h>

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include "cluster/ssh/sftp_client.h"
#include "ssh_test_support.h"

using namespace tunedeck::ssh;
using namespace tunedeck::ssh::testing;

namespace {

struct FileFacts {
    bool isDir = false;
    qint64 size = 0;
    quint32 mode = 0;
    qint64 mtime = 0;
    QByteArray sha256;
};

// Every file and folder under `root` by relative path.
std::map<QString, FileFacts> describeTree(const QString& root) {
    std::map<QString, FileFacts> facts;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        struct stat info {};
        ::lstat(QFile::encodeName(path).constData(), &info);
        FileFacts fact;
        fact.isDir = S_ISDIR(info.st_mode);
        fact.mode = info.st_mode & 07777;
        fact.mtime = info.st_mtime;
        if (!fact.isDir) {
            fact.size = info.st_size;
            QFile file(path);
            file.open(QIODevice::ReadOnly);
            QCryptographicHash hash(QCryptographicHash::Sha256);
            hash.addData(&file);
            fact.sha256 = hash.result();
        }
        facts[QDir(root).relativeFilePath(path)] = fact;
    }
    return facts;
}

void writeRandomFile(const QString& path, qint64 size, quint32 mode, qint64 mtime) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QByteArray block(1024 * 1024, Qt::Uninitialized);
    for (qint64 left = size; left > 0;) {
        const qint64 n = qMin<qint64>(left, block.size());
        QRandomGenerator::global()->fillRange(reinterpret_cast<quint32*>(block.data()),
                                              block.size() / 4);
        QCOMPARE(file.write(block.constData(), n), n);
        left -= n;
    }
    file.close();
    QVERIFY(::chmod(QFile::encodeName(path).constData(), mode) == 0);
    const timespec times[2] = {{mtime, 0}, {mtime, 0}};
    QVERIFY(::utimensat(AT_FDCWD, QFile::encodeName(path).constData(), times, 0) == 0);
}

// The tree of the tests: nested folders, an empty file, a 20 MB file, 200 small files, and
// modes and times that are not the defaults.
void makeCheckpointTree(const QString& root) {
    QVERIFY(QDir().mkpath(root + "/nested/deeper/deepest"));
    QVERIFY(QDir().mkpath(root + "/empty folder"));
    QVERIFY(QDir().mkpath(root + "/small"));
    writeRandomFile(root + "/model.bin", 20 * 1024 * 1024, 0640, 1600000000);
    writeRandomFile(root + "/empty", 0, 0600, 1600000100);
    writeRandomFile(root + "/run.sh", 300, 0755, 1600000200);
    writeRandomFile(root + "/nested/deeper/deepest/state.pt", 123457, 0644, 1600000300);
    writeRandomFile(root + "/nested/it's $(weird) name", 77, 0644, 1600000400);
    for (int i = 0; i < 200; ++i) {
        writeRandomFile(root + QString("/small/part-%1").arg(i, 3, 10, QLatin1Char('0')),
                        (i * 997) % 9000, 0644, 1600001000 + i);
    }
    QVERIFY(::chmod(QFile::encodeName(root + "/nested/deeper").constData(), 0750) == 0);
    const timespec times[2] = {{1500000000, 0}, {1500000000, 0}};
    QVERIFY(::utimensat(AT_FDCWD, QFile::encodeName(root + "/nested").constData(), times, 0) == 0);
}

void compareTrees(const QString& expectedRoot, const QString& actualRoot) {
    const std::map<QString, FileFacts> expected = describeTree(expectedRoot);
    const std::map<QString, FileFacts> actual = describeTree(actualRoot);
    QStringList expectedNames;
    QStringList actualNames;
    for (const auto& [name, fact] : expected) {
        expectedNames.append(name);
    }
    for (const auto& [name, fact] : actual) {
        actualNames.append(name);
    }
    QCOMPARE(actualNames, expectedNames);
    for (const auto& [name, want] : expected) {
        const FileFacts& got = actual.at(name);
        QVERIFY2(got.isDir == want.isDir, qPrintable(name));
        QVERIFY2(got.size == want.size, qPrintable(name));
        QVERIFY2(got.sha256 == want.sha256, qPrintable(name + ": content differs"));
        QVERIFY2(got.mode == want.mode, qPrintable(QString("%1: mode %2, expected %3")
                                                       .arg(name)
                                                       .arg(got.mode, 0, 8)
                                                       .arg(want.mode, 0, 8)));
        QVERIFY2(got.mtime == want.mtime, qPrintable(name + ": mtime differs"));
    }
}

// Waits for one SftpClient callback.
struct Outcome {
    bool done = false;
    bool ok = false;
    QString error;
    SftpClient::Done callback() {
        return [this](bool success, const QString& message) {
            done = true;
            ok = success;
            error = message;
        };
    }
    bool wait(int timeoutMs = 60000) {
        return waitUntil([this] { return done; }, timeoutMs);
    }
};

}  // namespace

class TestSshSftp : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void init();

    void knowsItsHomeFolder();
    void copiesATreeBothWaysByteForByteWithModesAndTimes();
    void listsARemoteTreeWithSizesTimesAndFolders();
    void makesPathsLikeMkdirP();
    void removesTreesLikeRmRf();
    void replacesFilesAndLeavesNoPartFiles();
    void namesHostAndPathInErrors();
    void neverCallsBackFromInsideTheCall();
    void runsManyRequestsAtOnceBesideAnExecChannel();
    void failsPendingTransfersWhenTheNodeGoesAway();

  private:
    SftpClient* sftp();

    std::unique_ptr<SshdFixture> sshd_;
    QTemporaryDir dir_;
    QString knownHosts_;
    std::unique_ptr<SshSession> session_;
};

void TestSshSftp::initTestCase() {
    QString why;
    if (!sshdAvailable(&why)) {
        QSKIP(qPrintable(why));
    }
    sshd_ = std::make_unique<SshdFixture>();
    QString error;
    QVERIFY2(sshd_->start(&error), qPrintable(error));
    knownHosts_ = dir_.filePath("known_hosts");
    QVERIFY(sshd_->writeKnownHosts(knownHosts_));
}

void TestSshSftp::init() {
    if (!sshd_->isRunning()) {
        QString error;
        QVERIFY2(sshd_->start(&error), qPrintable(error));
    }
    if (!session_ || !session_->isConnected()) {
        OpenResult opened = openSession(endpointFor(*sshd_, knownHosts_));
        QVERIFY2(opened.connected,
                 qPrintable(opened.failure ? opened.failure->message : "timeout"));
        session_ = std::move(opened.session);
    }
    // A clean remote home for every test.
    QDir home(sshd_->homeDir());
    for (const QString& entry :
         home.entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot)) {
        QFileInfo(home.filePath(entry)).isDir() ? QDir(home.filePath(entry)).removeRecursively()
                                                : QFile::remove(home.filePath(entry));
    }
}

SftpClient* TestSshSftp::sftp() {
    SftpClient* client = session_->sftp();
    return client;
}

void TestSshSftp::knowsItsHomeFolder() {
    Outcome made;
    sftp()->makePath("~/probe", made.callback());
    QVERIFY(made.wait());
    QVERIFY2(made.ok, qPrintable(made.error));
    QCOMPARE(sftp()->homeDirectory(), QDir(sshd_->homeDir()).canonicalPath());
    QVERIFY(QFileInfo(sshd_->homeDir() + "/probe").isDir());
}

void TestSshSftp::copiesATreeBothWaysByteForByteWithModesAndTimes() {
    const QString local = dir_.filePath("checkpoint");
    makeCheckpointTree(local);
    Outcome put;
    sftp()->putTree(local, "~/runs/trial 7/checkpoint_000010", put.callback());
    QVERIFY(put.wait());
    QVERIFY2(put.ok, qPrintable(put.error));
    compareTrees(local, sshd_->homeDir() + "/runs/trial 7/checkpoint_000010");

    const QString back = dir_.filePath("back/checkpoint");
    Outcome get;
    sftp()->getTree("~/runs/trial 7/checkpoint_000010", back, get.callback());
    QVERIFY(get.wait());
    QVERIFY2(get.ok, qPrintable(get.error));
    compareTrees(local, back);
    QDir(dir_.filePath("back")).removeRecursively();
}

void TestSshSftp::listsARemoteTreeWithSizesTimesAndFolders() {
    const QString remote = sshd_->homeDir() + "/listed";
    QVERIFY(QDir().mkpath(remote + "/a/b"));
    writeRandomFile(remote + "/a/b/file.bin", 4321, 0600, 1650000000);
    writeRandomFile(remote + "/top.txt", 12, 0644, 1650000100);
    bool done = false;
    bool ok = false;
    std::vector<RemoteEntry> entries;
    sftp()->listTree("~/listed",
                     [&](bool success, const QString& error, std::vector<RemoteEntry> listed) {
                         done = true;
                         ok = success;
                         entries = std::move(listed);
                         QVERIFY2(success, qPrintable(error));
                     });
    QVERIFY(waitUntil([&] { return done; }, 20000));
    QVERIFY(ok);
    QCOMPARE(entries.size(), size_t(4));
    QCOMPARE(entries[0].path, QString("a"));
    QVERIFY(entries[0].isDir);
    QCOMPARE(entries[1].path, QString("a/b"));
    QVERIFY(entries[1].isDir);
    QCOMPARE(entries[2].path, QString("a/b/file.bin"));
    QVERIFY(!entries[2].isDir);
    QCOMPARE(entries[2].size, qint64(4321));
    QCOMPARE(entries[2].mtime, qint64(1650000000));
    QCOMPARE(entries[2].mode & 07777, quint32(0600));
    QCOMPARE(entries[3].path, QString("top.txt"));
    QCOMPARE(entries[3].size, qint64(12));
    QCOMPARE(entries[3].mtime, qint64(1650000100));

    Outcome missing;
    sftp()->listTree("~/nothing here",
                     [&](bool success, const QString& error, std::vector<RemoteEntry>) {
                         missing.callback()(success, error);
                     });
    QVERIFY(missing.wait());
    QVERIFY(!missing.ok);
    QVERIFY2(missing.error.contains("nothing here"), qPrintable(missing.error));
}

void TestSshSftp::makesPathsLikeMkdirP() {
    Outcome first;
    sftp()->makePath("~/a/b/c/d", first.callback());
    QVERIFY(first.wait());
    QVERIFY2(first.ok, qPrintable(first.error));
    QVERIFY(QFileInfo(sshd_->homeDir() + "/a/b/c/d").isDir());
    Outcome again;
    sftp()->makePath(sshd_->homeDir() + "/a/b/c/d/", again.callback());
    QVERIFY(again.wait());
    QVERIFY2(again.ok, qPrintable(again.error));

    writeRandomFile(sshd_->homeDir() + "/a/blocker", 5, 0644, 1600000000);
    Outcome blocked;
    sftp()->makePath("~/a/blocker/sub", blocked.callback());
    QVERIFY(blocked.wait());
    QVERIFY(!blocked.ok);
    QVERIFY2(blocked.error.contains("blocker"), qPrintable(blocked.error));
}

void TestSshSftp::removesTreesLikeRmRf() {
    const QString tree = sshd_->homeDir() + "/old run";
    QVERIFY(QDir().mkpath(tree + "/x/y/z"));
    QVERIFY(QDir().mkpath(tree + "/empty"));
    for (int i = 0; i < 150; ++i) {
        writeRandomFile(tree + QString("/x/f%1").arg(i), 10, 0644, 1600000000);
    }
    writeRandomFile(tree + "/x/y/z/deep", 10, 0400, 1600000000);
    QVERIFY(QFile::link("/etc/hostname", tree + "/x/link"));
    // A trial's links to folders outside, on a remote node: removed as links, never followed.
    const QString outside = dir_.filePath("outside");
    QVERIFY(QDir().mkpath(outside));
    writeRandomFile(outside + "/keep", 10, 0644, 1600000000);
    QVERIFY(QFile::link(outside, tree + "/x/y/folder-link"));
    QVERIFY(QFile::link(outside, sshd_->homeDir() + "/linked run"));
    Outcome removed;
    sftp()->removeTree("~/old run", removed.callback());
    QVERIFY(removed.wait());
    QVERIFY2(removed.ok, qPrintable(removed.error));
    QVERIFY(!QFileInfo::exists(tree));
    QVERIFY(QFileInfo::exists("/etc/hostname"));  // a link is removed, not followed
    QVERIFY(QFileInfo::exists(outside + "/keep"));
    Outcome linkRemoved;
    sftp()->removeTree("~/linked run", linkRemoved.callback());
    QVERIFY(linkRemoved.wait());
    QVERIFY2(linkRemoved.ok, qPrintable(linkRemoved.error));
    QVERIFY(!QFileInfo(sshd_->homeDir() + "/linked run").isSymLink());
    QVERIFY(QFileInfo::exists(outside + "/keep"));

    Outcome missing;
    sftp()->removeTree("~/never existed", missing.callback());
    QVERIFY(missing.wait());
    QVERIFY2(missing.ok, qPrintable(missing.error));

    writeRandomFile(sshd_->homeDir() + "/single", 10, 0644, 1600000000);
    Outcome single;
    sftp()->removeTree("~/single", single.callback());
    QVERIFY(single.wait());
    QVERIFY2(single.ok, qPrintable(single.error));
    QVERIFY(!QFileInfo::exists(sshd_->homeDir() + "/single"));
}

void TestSshSftp::replacesFilesAndLeavesNoPartFiles() {
    const QString first = dir_.filePath("first");
    const QString second = dir_.filePath("second");
    writeRandomFile(first, 100000, 0644, 1600000000);
    writeRandomFile(second, 5000, 0600, 1600000500);
    Outcome put1;
    sftp()->putFile(first, "~/result.bin", put1.callback());
    QVERIFY(put1.wait());
    QVERIFY2(put1.ok, qPrintable(put1.error));
    Outcome put2;
    sftp()->putFile(second, "~/result.bin", put2.callback());
    QVERIFY(put2.wait());
    QVERIFY2(put2.ok, qPrintable(put2.error));
    const std::map<QString, FileFacts> remote = describeTree(sshd_->homeDir());
    QCOMPARE(remote.size(), size_t(1));
    QCOMPARE(remote.at("result.bin").sha256, describeTree(dir_.path()).at("second").sha256);
    QCOMPARE(remote.at("result.bin").mode, quint32(0600));

    // getFile replaces a local file the same way.
    const QString local = dir_.filePath("fetched.bin");
    writeRandomFile(local, 7, 0644, 1600000000);
    Outcome get;
    sftp()->getFile("~/result.bin", local, get.callback());
    QVERIFY(get.wait());
    QVERIFY2(get.ok, qPrintable(get.error));
    QCOMPARE(describeTree(dir_.path()).at("fetched.bin").sha256, remote.at("result.bin").sha256);
    QVERIFY(!QFile::exists(local + ".part"));

    Outcome renamed;
    writeRandomFile(sshd_->homeDir() + "/other.bin", 3, 0644, 1600000000);
    sftp()->rename("~/other.bin", "~/result.bin", renamed.callback());
    QVERIFY(renamed.wait());
    QVERIFY2(renamed.ok, qPrintable(renamed.error));
    QCOMPARE(QFileInfo(sshd_->homeDir() + "/result.bin").size(), qint64(3));
    QVERIFY(!QFile::exists(sshd_->homeDir() + "/other.bin"));
}

void TestSshSftp::namesHostAndPathInErrors() {
    const QString host = QString("127.0.0.1:%1").arg(sshd_->port());
    Outcome missingRemote;
    sftp()->getFile("~/no/such/file", dir_.filePath("x"), missingRemote.callback());
    QVERIFY(missingRemote.wait());
    QVERIFY(!missingRemote.ok);
    QVERIFY2(missingRemote.error.contains(host + ":" + sshd_->homeDir()),
             qPrintable(missingRemote.error));
    QVERIFY2(missingRemote.error.contains("no/such/file"), qPrintable(missingRemote.error));
    QVERIFY(!QFile::exists(dir_.filePath("x")) && !QFile::exists(dir_.filePath("x.part")));

    Outcome missingLocal;
    sftp()->putFile(dir_.filePath("not here"), "~/target", missingLocal.callback());
    QVERIFY(missingLocal.wait());
    QVERIFY(!missingLocal.ok);
    QVERIFY2(missingLocal.error.contains(dir_.filePath("not here")),
             qPrintable(missingLocal.error));
    QVERIFY(!QFile::exists(sshd_->homeDir() + "/target.part"));

    Outcome intoMissingFolder;
    writeRandomFile(dir_.filePath("payload"), 10, 0644, 1600000000);
    sftp()->putFile(dir_.filePath("payload"), "~/missing folder/target",
                    intoMissingFolder.callback());
    QVERIFY(intoMissingFolder.wait());
    QVERIFY(!intoMissingFolder.ok);
    QVERIFY2(intoMissingFolder.error.contains(host) &&
                 intoMissingFolder.error.contains("missing folder/target.part"),
             qPrintable(intoMissingFolder.error));
}

void TestSshSftp::neverCallsBackFromInsideTheCall() {
    bool returned = false;
    bool calledEarly = false;
    Outcome outcome;
    sftp()->putFile(dir_.filePath("does not exist"), "~/x", [&](bool ok, const QString& error) {
        calledEarly = !returned;
        outcome.callback()(ok, error);
    });
    returned = true;
    QVERIFY(outcome.wait());
    QVERIFY(!calledEarly);
}

void TestSshSftp::runsManyRequestsAtOnceBesideAnExecChannel() {
    // 30 uploads and a listing queued at once, while an exec channel echoes through cat:
    // every callback comes exactly once and the channel's bytes stay intact.
    CommandResult echo;
    std::unique_ptr<ExecChannel> cat = session_->exec("cat");
    record(cat.get(), &echo);
    QByteArray sent;
    std::vector<int> calls(30, 0);
    int failures = 0;
    for (int i = 0; i < 30; ++i) {
        const QString local = dir_.filePath(QString("many-%1").arg(i));
        writeRandomFile(local, 50000 + i * 3000, 0644, 1600000000 + i);
        sftp()->putFile(local, QString("~/many-%1").arg(i), [&, i](bool ok, const QString& error) {
            ++calls[i];
            if (!ok) {
                ++failures;
                qWarning() << error;
            }
        });
    }
    Outcome made;
    sftp()->makePath("~/a folder made meanwhile", made.callback());
    bool listed = false;
    sftp()->listTree("~", [&](bool ok, const QString& error, std::vector<RemoteEntry>) {
        listed = true;
        QVERIFY2(ok, qPrintable(error));
    });
    for (int i = 0; i < 500; ++i) {
        const QByteArray line = "line " + QByteArray::number(i) + '\n';
        sent += line;
        cat->write(line);
    }
    cat->closeStdin();
    QVERIFY(made.wait());
    QVERIFY2(made.ok, qPrintable(made.error));
    QVERIFY(waitUntil(
        [&] {
            return std::all_of(calls.begin(), calls.end(), [](int c) { return c > 0; }) &&
                   echo.finished;
        },
        60000));
    waitUntil([] { return false; }, 100);
    for (int c : calls) {
        QCOMPARE(c, 1);
    }
    QCOMPARE(echo.standardOutput, sent);
    QCOMPARE(failures, 0);
    QVERIFY(listed);
    for (int i = 0; i < 30; ++i) {
        QCOMPARE(QFileInfo(sshd_->homeDir() + QString("/many-%1").arg(i)).size(),
                 qint64(50000 + i * 3000));
    }
}

void TestSshSftp::failsPendingTransfersWhenTheNodeGoesAway() {
    const QString big = dir_.filePath("big.bin");
    writeRandomFile(big, 16 * 1024 * 1024, 0644, 1600000000);
    Outcome ready;
    sftp()->makePath("~", ready.callback());
    QVERIFY(ready.wait());
    QVERIFY2(ready.ok, qPrintable(ready.error));
    QString lost;
    connect(session_.get(), &SshSession::disconnected, this,
            [&](const QString& why) { lost = why; });
    // The node hangs (its kernel still takes bytes until its buffers are full), then goes.
    sshd_->freezeSessions();
    Outcome put;
    Outcome queued;
    sftp()->putFile(big, "~/big.bin", put.callback());
    sftp()->putFile(big, "~/big2.bin", queued.callback());
    waitUntil([] { return false; }, 300);
    QVERIFY(!put.done && !queued.done);
    sshd_->stop();
    QVERIFY(put.wait(10000));
    QVERIFY(queued.wait(1000));
    QVERIFY(!put.ok && !queued.ok);
    QVERIFY2(put.error.contains("lost"), qPrintable(put.error));
    QVERIFY2(put.error.contains(QString("127.0.0.1:%1").arg(sshd_->port())), qPrintable(put.error));
    QVERIFY(waitUntil([&] { return !lost.isEmpty(); }, 5000));
    QFile::remove(big);
    session_.reset();
}

QTEST_GUILESS_MAIN(TestSshSftp)
#include "test_ssh_sftp.moc"
