// Trials that fail or must be stopped: every failure is an event about the trial, never a dead
// worker, and no trial process outlives its worker.
#include <signal.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QTest>

#include "worker_session.h"
#include "worker_test.h"

using namespace worker_test;

namespace {

// Run through sh, so the scripts need no executable bit in the checkout.
QStringList shellScript(const QString& name) {
    return {QStringLiteral("sh"), trialScript(name)};
}

QStringList shell(const QString& script) {
    return {QStringLiteral("sh"), QStringLiteral("-c"), script};
}

// A trial that says it is ready, then sleeps; SIGTERM ends it (exec: the shell is the sleep).
const char* kCooperative = "echo '{\"type\":\"log\",\"message\":\"ready\"}' >&4; exec sleep 60";

// Whether no process of the group runs any more (zombies waiting for init do not run).
bool groupGone(qint64 pgid) {
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        const QString stat = readFile(QStringLiteral("/proc/%1/stat").arg(entry));
        const qsizetype close = stat.lastIndexOf(')');
        if (close < 0) {
            continue;
        }
        // After the command's ")": state, ppid, pgrp.
        const QStringList fields = stat.mid(close + 2).split(' ');
        if (fields.size() > 2 && fields[2].toLongLong() == pgid &&
            fields[0] != QLatin1String("Z")) {
            return false;
        }
    }
    return true;
}

// The message of the next `log` line the trial sent (what a test script says about itself).
QString loggedMessage(WorkerSession& worker, const QString& trial) {
    return worker.waitForMessage(trial, QStringLiteral("log"))
        .value("msg")
        .toObject()
        .value("message")
        .toString();
}

}  // namespace

void WorkerTest::missingCommandExitsWith127() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("nocmd");
    worker.send(
        startOp(t, {QStringLiteral("tunedeck-no-such-command"), QStringLiteral("--x")}, path(t)));
    const QJsonObject exited = worker.waitForEvent(QStringLiteral("exited"), t);
    QCOMPARE(exited.value("code").toInt(), 127);
    QVERIFY(exited.value("signal").isNull());
    const QString tail = joinedTail(exited);
    QVERIFY2(tail.contains(QStringLiteral("'tunedeck-no-such-command'")) &&
                 tail.contains(QStringLiteral("No such file or directory")),
             qPrintable(tail));
    QVERIFY(worker.waitForEvent(QStringLiteral("started"), t, 0).isEmpty());
    // The user finds the reason in the trial's own log too.
    QVERIFY(readFile(path(t + QStringLiteral("/trial.log")))
                .contains(QStringLiteral("tunedeck-no-such-command")));

    // A path that exists but cannot run.
    const QString script = path(QStringLiteral("not_executable.sh"));
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#!/bin/sh\necho never\n");
    file.close();
    QVERIFY(file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    worker.send(startOp(QStringLiteral("notexec"), {script}, path(QStringLiteral("notexec"))));
    const QJsonObject denied =
        worker.waitForEvent(QStringLiteral("exited"), QStringLiteral("notexec"));
    QCOMPARE(denied.value("code").toInt(), 127);
    QVERIFY2(joinedTail(denied).contains(QStringLiteral("Permission denied")),
             qPrintable(joinedTail(denied)));
    QVERIFY(worker.running());
}

void WorkerTest::badWorkingDirectoryExitsWith127() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("badcwd");
    worker.send(startOp(t, {QStringLiteral("true")}, path(t), {}, path(QStringLiteral("nowhere"))));
    const QJsonObject exited = worker.waitForEvent(QStringLiteral("exited"), t);
    QCOMPARE(exited.value("code").toInt(), 127);
    QVERIFY2(joinedTail(exited).contains(QStringLiteral("working directory")),
             qPrintable(joinedTail(exited)));
}

void WorkerTest::garbageOnTheChannelFailsTheTrial() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("garbage");
    QElapsedTimer clock;
    clock.start();
    worker.send(startOp(t, shellScript(QStringLiteral("garbage.sh")), path(t)));
    QVERIFY(!worker.waitForMessage(t, QStringLiteral("log")).isEmpty());
    const QJsonObject error = worker.waitForEvent(QStringLiteral("trial_error"), t);
    QCOMPARE(error.value("message").toString(),
             QStringLiteral(
                 "line 2 of the trial channel is not JSON: epoch 1: loss=0.25 (this is not JSON)"));
    const QJsonObject exited = worker.waitForEvent(QStringLiteral("exited"), t);
    QCOMPARE(exited.value("signal").toInt(), int(SIGKILL));
    QVERIFY(exited.value("code").isNull());
    QVERIFY2(clock.elapsed() < 5000, "the trial was not killed at once");
    QVERIFY(joinedTail(exited).contains(QStringLiteral("is not JSON")));
    QVERIFY(worker.running());
}

void WorkerTest::lineThatIsNotAnObjectFailsTheTrial() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("array");
    worker.send(startOp(t, shell(QStringLiteral("echo '[1, 2, 3]' >&4; sleep 60")), path(t)));
    QCOMPARE(worker.waitForEvent(QStringLiteral("trial_error"), t).value("message").toString(),
             QStringLiteral("line 1 of the trial channel is not a JSON object: [1, 2, 3]"));
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t).value("signal").toInt(),
             int(SIGKILL));

    // Nesting the engine's parser could not read is refused too; ordinary nesting is not.
    const auto nested = [&](const QString& id, int depth) {
        const QString script = QStringLiteral(
                                   "import os, time\n"
                                   "os.write(4, b'{\"type\":\"log\",\"x\":' + b'[' * %1 + "
                                   "b']' * %1 + b'}\\n')\n"
                                   "time.sleep(60)\n")
                                   .arg(depth);
        worker.send(startOp(id, {m_python, QStringLiteral("-c"), script}, path(id)));
    };
    nested(QStringLiteral("deep"), 600);
    const QString tooDeep =
        worker.waitForEvent(QStringLiteral("trial_error"), QStringLiteral("deep"))
            .value("message")
            .toString();
    QVERIFY2(tooDeep.startsWith(QStringLiteral("line 1 of the trial channel is nested too deeply")),
             qPrintable(tooDeep));
    nested(QStringLiteral("fine"), 100);
    QVERIFY(!worker.waitForMessage(QStringLiteral("fine"), QStringLiteral("log")).isEmpty());
    worker.send({{"op", "kill"}, {"trial", "fine"}, {"reason", "done"}});
    QVERIFY(!worker.waitForEvent(QStringLiteral("exited"), QStringLiteral("fine")).isEmpty());
}

void WorkerTest::lineTheEngineCannotReadFailsTheTrialAtOnce() {
    // Each line is written by a trial that then waits; the agent must refuse it at once, naming
    // the problem, and never relay what the engine's parser (Qt's, as WorkerSession reads the
    // agent) would drop: the trial then waited out its heartbeat timeout.
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const auto startWriting = [&](const QString& id, const QByteArray& line) {
        QFile lineFile(path(id + QStringLiteral(".line")));
        if (!lineFile.open(QIODevice::WriteOnly)) {
            return false;
        }
        lineFile.write(line + '\n');
        lineFile.close();
        worker.send(startOp(id,
                            {m_python, QStringLiteral("-c"),
                             QStringLiteral("import os, sys, time\n"
                                            "os.write(4, open(sys.argv[1], 'rb').read())\n"
                                            "time.sleep(60)\n"),
                             lineFile.fileName()},
                            path(id)));
        return true;
    };
    struct Case {
        const char* trial;
        QByteArray line;
        const char* message;
    };
    const QByteArray report = R"({"type":"report","metrics":{"loss":0.5}})";
    const QList<Case> cases = {
        {"nul_at_end", report + '\0',
         "line 1 of the trial channel holds a NUL byte at byte 41, which the engine cannot read"},
        {"nul_then_text", report + QByteArray("\0{}", 3), "holds a NUL byte at byte 41"},
        {"cr_nul", report + QByteArray("\r\0", 2), "holds a NUL byte at byte 42"},
        {"escape_in_string", QByteArray(R"({"type":"log","message":"a)") + "\x1b[31mred\"}",
         "holds the control character 0x1b at byte 27"},
        {"underflow", R"({"type":"report","metrics":{"loss":1e-400}})",
         "holds the number 1e-400, which a double cannot hold"},
        {"byte_order_mark", "\xEF\xBB\xBF" + report, "is not a JSON object"},
    };
    for (const Case& c : cases) {
        const QString id = QString::fromLatin1(c.trial);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(startWriting(id, c.line));
        const QString message =
            worker.waitForEvent(QStringLiteral("trial_error"), id).value("message").toString();
        QVERIFY2(message.contains(QLatin1String(c.message)),
                 qPrintable(id + QStringLiteral(": ") + message));
        QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), id).value("signal").toInt(),
                 int(SIGKILL));
        QVERIFY2(clock.elapsed() < 5000, qPrintable(id + QStringLiteral(": not refused at once")));
        // Nothing of it reached the engine's side as a line it cannot read.
        QVERIFY2(worker.unreadableLines().isEmpty(),
                 qPrintable(QString::fromLatin1(worker.unreadableLines().value(0).toHex())));
    }
    // What the engine can read still passes: a tab, a carriage return, an escaped NUL, a number
    // near the smallest a double holds, and zero written small.
    const QString fine = QStringLiteral("fine");
    QVERIFY(startWriting(fine, R"({"type":"log",)"
                               "\t"
                               R"("message":"a\u0000b","x":1e-310,"y":0e-400})"
                               "\r"));
    const QJsonObject relayed = worker.waitForMessage(fine, QStringLiteral("log"));
    QVERIFY2(!relayed.isEmpty(), qPrintable(QString::fromUtf8(worker.unreadableLines().value(0))));
    QCOMPARE(relayed.value("msg").toObject().value("message").toString(),
             QStringLiteral("a") + QChar(0) + QStringLiteral("b"));
    worker.send({{"op", "kill"}, {"trial", fine}, {"reason", "done"}});
    QVERIFY(!worker.waitForEvent(QStringLiteral("exited"), fine).isEmpty());
    QVERIFY(worker.unreadableLines().isEmpty());
}

void WorkerTest::hugeLineFailsTheTrialWithoutGrowingTheWorker() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("huge");
    worker.send(startOp(t, shellScript(QStringLiteral("huge_line.sh")), path(t)));
    const QJsonObject error = worker.waitForEvent(QStringLiteral("trial_error"), t, 30000);
    QCOMPARE(error.value("message").toString(),
             QStringLiteral("the trial wrote a line longer than 1 MiB"));
    QVERIFY(!worker.waitForEvent(QStringLiteral("exited"), t).isEmpty());
    const qint64 peakKb = peakMemoryKb(worker.workerPid());
    QVERIFY2(peakKb > 0 && peakKb < 50 * 1024,
             qPrintable(QStringLiteral("the worker peaked at %1 KiB").arg(peakKb)));
}

void WorkerTest::killEscalatesToSigkillForAHungTrial() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("hung");
    worker.send(startOp(t, shellScript(QStringLiteral("ignores_sigterm.sh")), path(t)));
    QVERIFY(!worker.waitForMessage(t, QStringLiteral("log")).isEmpty());
    QElapsedTimer clock;
    clock.start();
    worker.send({{"op", "kill"}, {"trial", t}, {"reason", "no progress for 600 s"}});
    const QJsonObject exited = worker.waitForEvent(QStringLiteral("exited"), t, 15000);
    const qint64 took = clock.elapsed();
    QCOMPARE(exited.value("signal").toInt(), int(SIGKILL));
    QVERIFY2(took >= 4500 && took < 9000, qPrintable(QString::number(took)));
    QVERIFY2(
        joinedTail(exited).contains(QStringLiteral("stopping the trial: no progress for 600 s")),
        qPrintable(joinedTail(exited)));
}

void WorkerTest::killTerminatesACooperativeTrialAtOnce() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("polite");
    worker.send(startOp(t, shell(QString::fromLatin1(kCooperative)), path(t)));
    QVERIFY(!worker.waitForMessage(t, QStringLiteral("log")).isEmpty());
    QElapsedTimer clock;
    clock.start();
    worker.send({{"op", "kill"}, {"trial", t}, {"reason", "early stopping"}});
    const QJsonObject exited = worker.waitForEvent(QStringLiteral("exited"), t);
    QCOMPARE(exited.value("signal").toInt(), int(SIGTERM));
    QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
    // Killing a trial that has already gone is not an error.
    worker.send({{"op", "kill"}, {"trial", t}, {"reason", "again"}});
    worker.pump(300);
    QVERIFY(worker.waitForEvent(QStringLiteral("error"), {}, 0).isEmpty());
}

void WorkerTest::leftoverProcessesOfATrialAreKilled() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("leaves");
    worker.send(startOp(t, shellScript(QStringLiteral("leaves_a_child.sh")), path(t)));
    const qint64 helper = loggedMessage(worker, t).toLongLong();
    QVERIFY(helper > 0);
    // Its last line has no newline; it still counts.
    QVERIFY(!worker.waitForMessage(t, QStringLiteral("done")).isEmpty());
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t).value("code").toInt(-1), 0);
    QTRY_VERIFY_WITH_TIMEOUT(processGone(helper), 3000);
}

namespace {

// The daemon and the orphan pids a leaves_a_daemon.sh trial logged.
QList<qint64> strayPids(WorkerSession& worker, const QString& trial) {
    QList<qint64> pids;
    for (const QString& pid : loggedMessage(worker, trial).split(' ', Qt::SkipEmptyParts)) {
        pids << pid.toLongLong();
    }
    return pids;
}

}  // namespace

// A daemon that left the trial's process group (setsid) and ignores SIGTERM, and a helper
// orphaned by a double fork, outlived the trial and the engine (issue 33); they stay while the
// trial runs and end with it.
void WorkerTest::daemonsATrialLeftAreEndedWithIt() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("daemons");
    worker.send(startOp(t, shellScript(QStringLiteral("leaves_a_daemon.sh")) << "3", path(t)));
    const QList<qint64> strays = strayPids(worker, t);
    QCOMPARE(strays.size(), 2);
    QTest::qWait(2000);  // two sweeps of the agent while the trial runs
    QVERIFY2(!processGone(strays[0]) && !processGone(strays[1]), "ended while its trial ran");
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t).value("code").toInt(-1), 0);
    QTRY_VERIFY_WITH_TIMEOUT(processGone(strays[1]), 3000);  // SIGTERM
    QTRY_VERIFY_WITH_TIMEOUT(processGone(strays[0]), 9000);  // SIGKILL after the grace
    QVERIFY(worker.running());
}

void WorkerTest::closingStdinEndsTheDaemonsOfRunningTrials() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("daemons");
    worker.send(startOp(t, shellScript(QStringLiteral("leaves_a_daemon.sh")) << "300", path(t)));
    const QList<qint64> strays = strayPids(worker, t);
    QCOMPARE(strays.size(), 2);
    worker.closeInput();  // the engine died
    QVERIFY(worker.waitForExit(15000));
    QTRY_VERIFY_WITH_TIMEOUT(processGone(strays[0]) && processGone(strays[1]), 3000);
}

namespace {

// The trial's cgroup folder `pid` is in, if an agent made one for it (trial_cgroups.h): its
// path in its hierarchy.
QString agentCgroupOf(qint64 pid) {
    QFile file(QStringLiteral("/proc/%1/cgroup").arg(pid));
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (line.contains("/tunedeck-agent-")) {
            return QString::fromUtf8(line.mid(line.indexOf(':', line.indexOf(':') + 1) + 1));
        }
    }
    return {};
}

// Whether the cgroup folder `path` exists in any mounted hierarchy.
bool cgroupFolderExists(const QString& path) {
    QFile mounts(QStringLiteral("/proc/self/mounts"));
    if (!mounts.open(QIODevice::ReadOnly)) {
        return false;
    }
    for (const QByteArray& line : mounts.readAll().split('\n')) {
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() > 2 && fields[2].startsWith("cgroup") &&
            QFileInfo(QString::fromUtf8(fields[1]) + path).isDir()) {
            return true;
        }
    }
    return false;
}

// While it lives, this test process (and the agents it starts) sits in a cgroup folder of its
// own under its cgroup, in each hierarchy an agent may use (v2, v1 pids, v1 freezer). An agent
// ends what dead agents left among its siblings, so without this an agent that another test
// starts meanwhile (ctest -j) would end the killed agent's daemon before `next` could.
class PrivateCgroup {
  public:
    PrivateCgroup() {
        const QString own =
            QStringLiteral("tunedeck-test-%1").arg(QCoreApplication::applicationPid());
        for (const QString& parent : ownFolders()) {
            const QString folder = parent + QLatin1Char('/') + own;
            if ((QDir().mkdir(folder) || QFileInfo(folder).isDir()) &&
                writeText(folder + QStringLiteral("/cgroup.procs"), "0")) {
                m_moved.append({parent, folder});
            }
        }
    }
    ~PrivateCgroup() {
        for (const auto& [parent, folder] : m_moved) {
            writeText(parent + QStringLiteral("/cgroup.procs"), "0");
            QDir().rmdir(folder);
        }
    }
    PrivateCgroup(const PrivateCgroup&) = delete;
    PrivateCgroup& operator=(const PrivateCgroup&) = delete;

  private:
    static bool writeText(const QString& path, const char* text) {
        QFile file(path);
        return file.open(QIODevice::WriteOnly | QIODevice::Unbuffered) && file.write(text) > 0;
    }
    // This process's cgroup folder in the v2 hierarchy and the v1 pids and freezer ones that
    // are mounted (mountinfo: a container's mount shows a subtree, whose root is cut off).
    static QStringList ownFolders() {
        QStringList folders;
        const QList<QByteArray> cgroups =
            readFile(QStringLiteral("/proc/self/cgroup")).toUtf8().split('\n');
        for (const QByteArray& line :
             readFile(QStringLiteral("/proc/self/mountinfo")).toUtf8().split('\n')) {
            const qsizetype dash = line.indexOf(" - ");
            if (dash < 0) {
                continue;
            }
            const QList<QByteArray> before = line.left(dash).split(' ');
            const QList<QByteArray> after = line.mid(dash + 3).split(' ');
            if (before.size() < 5 || after.size() < 3) {
                continue;
            }
            QByteArray controller;
            if (after[0] == "cgroup") {
                const QList<QByteArray> options = after[2].split(',');
                controller = options.contains("pids")      ? "pids"
                             : options.contains("freezer") ? "freezer"
                                                           : "";
                if (controller.isEmpty()) {
                    continue;
                }
            } else if (after[0] != "cgroup2") {
                continue;
            }
            for (const QByteArray& entry : cgroups) {
                const QList<QByteArray> fields = entry.split(':');
                if (fields.size() < 3 ||
                    (controller.isEmpty() ? fields[0] != "0" || !fields[1].isEmpty()
                                          : !fields[1].split(',').contains(controller))) {
                    continue;
                }
                QByteArray path = fields.mid(2).join(':');
                if (before[3] != "/") {
                    if (!path.startsWith(before[3])) {
                        continue;
                    }
                    path = path.mid(before[3].size());
                }
                QString folder = QString::fromUtf8(before[4] + path);
                while (folder.size() > 1 && folder.endsWith(QLatin1Char('/'))) {
                    folder.chop(1);
                }
                folders.append(folder);
            }
        }
        return folders;
    }

    QList<std::pair<QString, QString>> m_moved;  // (the cgroup left, the folder made)
};
}  // namespace

// A daemon with a session and an environment of its own (nothing marks it as the trial's, so
// the subreaper's token sweep leaves it) is in the trial's cgroup, and ends with the trial.
void WorkerTest::aDaemonThatClearedItsEnvironmentEndsWithItsTrial() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("clean");
    worker.send(
        startOp(t, shellScript(QStringLiteral("leaves_a_clean_daemon.sh")) << "2", path(t)));
    const qint64 daemon = loggedMessage(worker, t).toLongLong();
    QVERIFY(daemon > 0);
    const QString cgroup = agentCgroupOf(daemon);
    if (cgroup.isEmpty()) {
        ::kill(pid_t(daemon), SIGKILL);
        QSKIP("the agent cannot make a cgroup per trial here (no writable cgroup hierarchy)");
    }
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t).value("code").toInt(-1), 0);
    QTRY_VERIFY_WITH_TIMEOUT(processGone(daemon), 3000);
    // Its folder goes with it.
    QVERIFY(cgroupFolderExists(cgroup.section(QLatin1Char('/'), 0, -2)));
    QTRY_VERIFY2_WITH_TIMEOUT(!cgroupFolderExists(cgroup), qPrintable(cgroup), 3000);
    QVERIFY(worker.running());
}

// An agent killed with SIGKILL ends nothing; the next agent on the node ends what its trials
// left (their cgroup folders outlive it).
void WorkerTest::whatAKilledAgentLeftIsEndedByTheNext() {
    const PrivateCgroup apart;
    qint64 daemon = 0;
    {
        WorkerSession first;
        QVERIFY(first.waitForHello());
        const QString t = QStringLiteral("clean");
        first.send(
            startOp(t, shellScript(QStringLiteral("leaves_a_clean_daemon.sh")) << "300", path(t)));
        daemon = loggedMessage(first, t).toLongLong();
        QVERIFY(daemon > 0);
        if (agentCgroupOf(daemon).isEmpty()) {
            ::kill(pid_t(daemon), SIGKILL);
            QSKIP("the agent cannot make a cgroup per trial here (no writable cgroup hierarchy)");
        }
        ::kill(pid_t(first.workerPid()), SIGKILL);
        QVERIFY(first.waitForExit(5000));
    }
    QTest::qWait(300);
    QVERIFY2(!processGone(daemon), "the daemon should have outlived the killed agent");
    WorkerSession next;
    QVERIFY(next.waitForHello());
    QTRY_VERIFY_WITH_TIMEOUT(processGone(daemon), 3000);
}

void WorkerTest::closingStdinStopsEveryTrial() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    worker.send(startOp(QStringLiteral("a"), shellScript(QStringLiteral("ignores_sigterm.sh")),
                        path(QStringLiteral("a"))));
    worker.send(startOp(QStringLiteral("b"), shell(QString::fromLatin1(kCooperative)),
                        path(QStringLiteral("b"))));
    const qint64 a = worker.waitForEvent(QStringLiteral("started"), QStringLiteral("a"))
                         .value("pid")
                         .toInteger();
    const qint64 b = worker.waitForEvent(QStringLiteral("started"), QStringLiteral("b"))
                         .value("pid")
                         .toInteger();
    QVERIFY(!worker.waitForMessage(QStringLiteral("a"), QStringLiteral("log")).isEmpty());
    QVERIFY(!worker.waitForMessage(QStringLiteral("b"), QStringLiteral("log")).isEmpty());
    QVERIFY(!processGone(a) && !processGone(b));

    worker.closeInput();  // the engine died, or the SSH channel dropped
    QVERIFY(worker.waitForExit(15000));
    QCOMPARE(worker.exitStatus(), QProcess::NormalExit);
    QCOMPARE(worker.exitCode(), 0);
    QVERIFY(processGone(a));
    QVERIFY(processGone(b));
    // The sleeping children of `a` too (SIGKILL takes a moment to land).
    QTRY_VERIFY_WITH_TIMEOUT(groupGone(a) && groupGone(b), 2000);
}

void WorkerTest::shutdownReportsEveryExitThenExits() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("s1");
    worker.send(startOp(t, shell(QString::fromLatin1(kCooperative)), path(t)));
    QVERIFY(!worker.waitForMessage(t, QStringLiteral("log")).isEmpty());
    // An op after shutdown is not carried out.
    worker.sendRaw(R"({"op":"shutdown"})"
                   "\n"
                   R"({"op":"start","trial":"late","argv":["true"],"trial_dir":")" +
                   path(QStringLiteral("late")).toUtf8() + "\"}\n");
    const QJsonObject exited = worker.waitForEvent(QStringLiteral("exited"), t);
    QCOMPARE(exited.value("signal").toInt(), int(SIGTERM));
    QVERIFY(worker.waitForExit(10000));
    QCOMPARE(worker.exitCode(), 0);
    QVERIFY(worker.waitForEvent(QStringLiteral("started"), QStringLiteral("late"), 0).isEmpty());
}
