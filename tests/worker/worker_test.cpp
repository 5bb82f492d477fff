#include "worker_test.h"

#include <sched.h>
#include <signal.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTest>
#include <cerrno>

#include "tunedeck/version.h"
#include "worker_session.h"

using namespace worker_test;

namespace worker_test {

QString trialScript(const QString& name) {
    return QStringLiteral(TUNEDECK_TEST_DATA_DIR "/trials/") + name;
}
QString cppTrialPath() {
    return QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck_test_cpp_trial");
}
QString floodTrialPath() {
    return QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck_test_flood_trial");
}

QJsonObject startOp(const QString& trial, const QStringList& argv, const QString& trialDir,
                    const QJsonObject& env, const QString& cwd) {
    return {{"op", "start"},
            {"trial", trial},
            {"argv", QJsonArray::fromStringList(argv)},
            {"env", env},
            {"cwd", cwd.isEmpty() ? trialDir : cwd},
            {"trial_dir", trialDir}};
}

QJsonObject trialEnv(const QString& trial, const QJsonObject& config, const QString& trialDir,
                     const QString& restore, qint64 iteration) {
    return {{"TUNEDECK_TRIAL_ID", trial},
            {"TUNEDECK_EXPERIMENT", "worker-test"},
            {"TUNEDECK_CONFIG",
             QString::fromUtf8(QJsonDocument(config).toJson(QJsonDocument::Compact))},
            {"TUNEDECK_TRIAL_DIR", trialDir},
            {"TUNEDECK_RESTORE", restore},
            {"TUNEDECK_ITERATION", QString::number(iteration)},
            {"CUDA_VISIBLE_DEVICES", ""},
            {"PYTHONPATH", QStringLiteral(TUNEDECK_SOURCE_DIR "/engine/sdk/python")}};
}

QJsonObject pythonStartOp(const QString& python, const QString& trial, const QString& script,
                          const QJsonObject& config, const QString& trialDir,
                          const QString& restore, qint64 iteration) {
    return startOp(trial, {python, trialScript(script)}, trialDir,
                   trialEnv(trial, config, trialDir, restore, iteration));
}

QJsonObject answerOp(const QString& trial, const QString& action, const QString& path) {
    QJsonObject answer{{"action", action}};
    if (!path.isEmpty()) {
        answer.insert("path", path);
    }
    return {{"op", "answer"}, {"trial", trial}, {"answer", answer}};
}

QJsonObject commitOp(const QString& trial, const QString& from, const QString& to,
                     const QJsonObject& manifest) {
    return {{"op", "commit_checkpoint"},
            {"trial", trial},
            {"from", from},
            {"to", to},
            {"manifest", manifest}};
}

QJsonObject handoverOp(const QString& trial, const QString& from, const QString& to,
                       const QJsonObject& manifest, const QString& trialDir) {
    QJsonObject op = commitOp(trial, from, to, manifest);
    op.insert("handover", "trial");
    op.insert("trial_dir", trialDir);
    return op;
}

bool processGone(qint64 pid) {
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
        return true;
    }
    const QString stat = readFile(QStringLiteral("/proc/%1/stat").arg(pid));
    const qsizetype close = stat.lastIndexOf(')');
    return close > 0 && stat.mid(close + 2, 1) == QLatin1String("Z");
}

qint64 peakMemoryKb(qint64 pid) {
    const QString status = readFile(QStringLiteral("/proc/%1/status").arg(pid));
    const QRegularExpressionMatch match =
        QRegularExpression(QStringLiteral("VmHWM:\\s+(\\d+) kB")).match(status);
    return match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

QString readFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(file.readAll());
}

QString joinedTail(const QJsonObject& exited) {
    QStringList lines;
    for (const QJsonValue& line : exited.value("log_tail").toArray()) {
        lines << line.toString();
    }
    return lines.join('\n');
}

}  // namespace worker_test

void WorkerTest::initTestCase() {
    QVERIFY2(QFile::exists(WorkerSession::workerPath()), "tunedeck-worker is not built");
    m_python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    QVERIFY2(!m_python.isEmpty(), "python3 must be on PATH (any version >= 3.9)");
}

void WorkerTest::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

QString WorkerTest::path(const QString& relative) const {
    return m_dir->filePath(relative);
}

void WorkerTest::versionAndHelpFlags() {
    QProcess version;
    version.start(WorkerSession::workerPath(), {QStringLiteral("--version")});
    QVERIFY(version.waitForFinished(10000));
    QCOMPARE(version.exitCode(), 0);
    const QString printed = QString::fromUtf8(version.readAllStandardOutput());
    QVERIFY2(printed.contains(QStringLiteral(TUNEDECK_VERSION)) &&
                 printed.contains(QStringLiteral(TUNEDECK_GIT_COMMIT)),
             qPrintable(printed));

    QProcess help;
    help.start(WorkerSession::workerPath(), {QStringLiteral("--help")});
    QVERIFY(help.waitForFinished(10000));
    QCOMPARE(help.exitCode(), 0);
    QVERIFY(help.readAllStandardOutput().contains("Usage: tunedeck-worker"));

    QProcess wrong;
    wrong.start(WorkerSession::workerPath(), {QStringLiteral("--frobnicate")});
    QVERIFY(wrong.waitForFinished(10000));
    QCOMPARE(wrong.exitCode(), 2);
    QVERIFY(wrong.readAllStandardError().contains("--frobnicate"));
}

void WorkerTest::helloReportsTheNodeInventory() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QJsonObject hello = worker.hello();
    QCOMPARE(hello.value("version").toString(), QStringLiteral(TUNEDECK_VERSION));
    QCOMPARE(hello.value("commit").toString(), QStringLiteral(TUNEDECK_GIT_COMMIT));
    QVERIFY(hello.value("pid").toInteger() > 0);
    QCOMPARE(peakMemoryKb(hello.value("pid").toInteger()) > 0, true);  // it is a live process
    QCOMPARE(hello.value("hostname").toString(), QSysInfo::machineHostName());

    cpu_set_t set;
    CPU_ZERO(&set);
    QCOMPARE(sched_getaffinity(0, sizeof set, &set), 0);
    QCOMPARE(hello.value("cpus").toInt(), CPU_COUNT(&set));

    const QRegularExpressionMatch total =
        QRegularExpression(QStringLiteral("MemTotal:\\s+(\\d+) kB"))
            .match(readFile(QStringLiteral("/proc/meminfo")));
    QVERIFY(total.hasMatch());
    QVERIFY(qAbs(hello.value("memory_mb").toInteger() - total.captured(1).toLongLong() / 1024) <=
            1);
    QVERIFY(hello.value("gpus").isArray());
    QVERIFY(worker.unreadableLines().isEmpty());
}

void WorkerTest::heartbeatArrivesEverySecond() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    worker.pump(4500);
    QVERIFY2(worker.heartbeats() >= 3 && worker.heartbeats() <= 5,
             qPrintable(QString::number(worker.heartbeats())));
}

void WorkerTest::malformedOpsAreReportedAndServiceContinues() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    worker.sendRaw("this is not json\n");
    worker.sendRaw("[1,2,3]\n");
    worker.sendRaw("{\"no_op\":true}\n");
    worker.sendRaw("{\"op\":\"explode\"}\n");
    worker.sendRaw("{\"op\":\"start\"}\n");
    worker.sendRaw("{\"op\":\"answer\",\"trial\":\"t9\"}\n");
    worker.sendRaw(QByteArray(2 * 1024 * 1024, 'z') + '\n');
    worker.send(startOp(QStringLiteral("bad"), {}, path(QStringLiteral("bad"))));

    const QStringList expected = {QStringLiteral("not a JSON object: this is not json"),
                                  QStringLiteral("not a JSON object: [1,2,3]"),
                                  QStringLiteral("without an \"op\""),
                                  QStringLiteral("unknown op \"explode\""),
                                  QStringLiteral("start: \"trial\" must be"),
                                  QStringLiteral("answer: \"answer\" must be a JSON object"),
                                  QStringLiteral("longer than 1 MiB"),
                                  QStringLiteral("start: \"argv\" must be a non-empty array")};
    for (const QString& fragment : expected) {
        const QJsonObject error = worker.waitForEvent(QStringLiteral("error"));
        QVERIFY2(error.value("message").toString().contains(fragment),
                 qPrintable(QStringLiteral("expected '%1' in '%2'")
                                .arg(fragment, error.value("message").toString())));
    }
    // The engine waits for `started` or `exited` of a start it sent: it gets the latter.
    const QJsonObject refused =
        worker.waitForEvent(QStringLiteral("exited"), QStringLiteral("bad"));
    QCOMPARE(refused.value("code").toInt(), 127);

    // ... and the worker still serves.
    worker.send(startOp(QStringLiteral("ok"),
                        {QStringLiteral("sh"), QStringLiteral("-c"),
                         QStringLiteral("echo '{\"type\":\"done\"}' >&4")},
                        path(QStringLiteral("ok"))));
    QVERIFY(!worker.waitForEvent(QStringLiteral("started"), QStringLiteral("ok")).isEmpty());
    QVERIFY(!worker.waitForMessage(QStringLiteral("ok"), QStringLiteral("done")).isEmpty());
    QCOMPARE(
        worker.waitForEvent(QStringLiteral("exited"), QStringLiteral("ok")).value("code").toInt(-1),
        0);
    QVERIFY(worker.running());
}

QTEST_GUILESS_MAIN(WorkerTest)
