// The agent's MPS daemon (gpu_sharing), against a stand-in for NVIDIA's nvidia-cuda-mps-control
// put first on the agent's PATH: it records how it was called and what it read, as the real one
// would be called. The real daemon is run on a GPU machine (resources/examples/cuda-mlp).
#include <unistd.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTest>

#include "fake_gpus.h"
#include "worker_session.h"
#include "worker_test.h"

using namespace worker_test;

namespace {

QProcessEnvironment withControl(QProcessEnvironment env, const QString& bin) {
    env.insert("PATH", bin + ":" + env.value("PATH"));
    env.remove("CUDA_MPS_PIPE_DIRECTORY");
    env.remove("CUDA_MPS_LOG_DIRECTORY");
    return env;
}

// The agent's environment: one fake card (its driver state in `dir`), the stand-in control
// program of `bin` first on PATH, and CUDA_VISIBLE_DEVICES as given (unset when null).
QProcessEnvironment oneGpuWithControl(const QString& dir, const QString& bin,
                                      const QString& visibleDevices = QString()) {
    const QString state = dir + "/nvml.state";
    writeState(state, {{"GPU-aaaa-1111"}});
    return withControl(withDriver(TUNEDECK_FAKE_NVML_DIR, state, visibleDevices), bin);
}

// A trial that writes the MPS pipe folder it was given to mps.txt in its folder.
QString pipeSeenBy(WorkerSession& worker, const QString& trial, const QString& trialDir,
                   const QJsonObject& env) {
    worker.send(startOp(trial, {"sh", "-c", "printf %s \"$CUDA_MPS_PIPE_DIRECTORY\" > mps.txt"},
                        trialDir, env));
    const QJsonObject exited = worker.waitForEvent("exited", trial);
    if (exited.value("code").toInt(-1) != 0) {
        return QStringLiteral("(trial failed: %1)").arg(joinedTail(exited));
    }
    return readFile(trialDir + "/mps.txt");
}

}  // namespace

void WorkerTest::mpsDaemonServesTheGpuTrialsAndStopsWithTheAgent() {
    const QString log = path("control.log");
    WorkerSession worker(WorkerSession::workerPath(), {},
                         oneGpuWithControl(m_dir->path(), writeFakeMpsControl(path("fake"), log)));
    QVERIFY(worker.waitForHello());

    worker.send({{"op", "gpu_sharing"}, {"mode", "mps"}});
    const QJsonObject answer = worker.waitForEvent("gpu_sharing");
    QCOMPARE(answer.value("mode").toString(), QStringLiteral("mps"));
    QVERIFY2(!answer.contains("reason"), qPrintable(answer.value("reason").toString()));
    const QRegularExpressionMatch started =
        QRegularExpression(R"(args=-d pipe=(/tmp/tunedeck-mps\.\w+)/pipe log=\1/log)")
            .match(readFile(log));
    QVERIFY2(started.hasMatch(), qPrintable(readFile(log)));
    const QString root = started.captured(1);
    QVERIFY(QDir(root + "/pipe").exists());

    // Trials on a GPU reach the daemon; a CPU trial, and one that names its own, do not.
    QCOMPARE(pipeSeenBy(worker, "gpu", path("gpu"), {{"CUDA_VISIBLE_DEVICES", "GPU-aaaa-1111"}}),
             root + "/pipe");
    QCOMPARE(pipeSeenBy(worker, "cpu", path("cpu"), {{"CUDA_VISIBLE_DEVICES", ""}}), QString());
    QCOMPARE(pipeSeenBy(worker, "own", path("own"),
                        {{"CUDA_VISIBLE_DEVICES", "GPU-aaaa-1111"},
                         {"CUDA_MPS_PIPE_DIRECTORY", "/srv/mps"}}),
             QStringLiteral("/srv/mps"));

    // Asked again, the agent keeps the daemon it has.
    worker.send({{"op", "gpu_sharing"}, {"mode", "mps"}});
    QCOMPARE(worker.waitForEvent("gpu_sharing").value("mode").toString(), QStringLiteral("mps"));
    QCOMPARE(readFile(log).count("args=-d"), 1);

    // The agent's exit ends the daemon and removes its folder.
    worker.send({{"op", "shutdown"}});
    QVERIFY(worker.waitForExit(15000));
    const QString calls = readFile(log);
    QVERIFY2(calls.contains(QStringLiteral("args= pipe=%1/pipe").arg(root)), qPrintable(calls));
    QVERIFY2(calls.trimmed().endsWith("quit"), qPrintable(calls));
    QVERIFY(!QDir(root).exists());
}

void WorkerTest::mpsThatCannotStartLeavesTheTrialsTimeSlicing() {
    const QString log = path("control.log");
    const QString bin =
        writeFakeMpsControl(path("fake"), log, "An instance of this daemon is already running");
    WorkerSession worker(WorkerSession::workerPath(), {}, oneGpuWithControl(m_dir->path(), bin));
    QVERIFY(worker.waitForHello());
    worker.send({{"op", "gpu_sharing"}, {"mode", "mps"}});
    const QJsonObject answer = worker.waitForEvent("gpu_sharing");
    QCOMPARE(answer.value("mode").toString(), QStringLiteral("time_slicing"));
    const QString reason = answer.value("reason").toString();
    QVERIFY2(reason.contains("nvidia-cuda-mps-control failed (exit status 1): An instance of this "
                             "daemon is already running"),
             qPrintable(reason));
    QCOMPARE(pipeSeenBy(worker, "gpu", path("gpu"), {{"CUDA_VISIBLE_DEVICES", "GPU-aaaa-1111"}}),
             QString());

    // A mode the agent does not know is an error, and the agent carries on.
    worker.send({{"op", "gpu_sharing"}, {"mode", "fast"}});
    QVERIFY2(worker.waitForEvent("error").value("message").toString().contains("gpu_sharing"),
             "no error for an unknown mode");

    // A node that offers no GPU does not start a daemon at all.
    const QString before = readFile(log);
    WorkerSession noGpus(WorkerSession::workerPath(), {},
                         oneGpuWithControl(m_dir->path(), bin, ""));  // the card hidden
    QVERIFY(noGpus.waitForHello());
    noGpus.send({{"op", "gpu_sharing"}, {"mode", "mps"}});
    const QJsonObject none = noGpus.waitForEvent("gpu_sharing");
    QCOMPARE(none.value("mode").toString(), QStringLiteral("time_slicing"));
    QCOMPARE(none.value("reason").toString(), QStringLiteral("this node offers no GPUs"));
    QCOMPARE(readFile(log), before);
}

void WorkerTest::anOrphanedMpsDaemonIsStoppedByTheNextAgent() {
    // The folders two earlier agents left: one was killed (its pid is free now), one still runs
    // (this test process stands for it).
    QProcess gone;
    gone.start("true", {});
    QVERIFY(gone.waitForStarted(10000));
    const qint64 gonePid = gone.processId();
    QVERIFY(gone.waitForFinished(10000));
    const auto leftBehind = [](qint64 agent) {
        QByteArray pattern = "/tmp/tunedeck-mps.XXXXXX";
        if (::mkdtemp(pattern.data()) == nullptr) {
            return QString();
        }
        const QString root = QString::fromLocal8Bit(pattern);
        QDir().mkpath(root + "/pipe");
        QFile pid(root + "/agent.pid");
        if (!pid.open(QIODevice::WriteOnly)) {
            return QString();
        }
        pid.write(QByteArray::number(agent) + '\n');
        return root;
    };
    const QString orphan = leftBehind(gonePid);
    const QString alive = leftBehind(QCoreApplication::applicationPid());
    QVERIFY(!orphan.isEmpty() && !alive.isEmpty());

    const QString log = path("control.log");
    WorkerSession worker(WorkerSession::workerPath(), {},
                         oneGpuWithControl(m_dir->path(), writeFakeMpsControl(path("fake"), log)));
    QVERIFY(worker.waitForHello());
    worker.send({{"op", "gpu_sharing"}, {"mode", "mps"}});
    QCOMPARE(worker.waitForEvent("gpu_sharing").value("mode").toString(), QStringLiteral("mps"));

    // The orphan's daemon was told to quit through its own pipe, and its folder is gone; the
    // living agent's is left alone.
    const QString calls = readFile(log);
    QVERIFY2(calls.contains(QStringLiteral("args= pipe=%1/pipe").arg(orphan)), qPrintable(calls));
    QVERIFY(!calls.contains(alive));
    QVERIFY(!QDir(orphan).exists());
    QVERIFY(QDir(alive).exists());
    QDir(alive).removeRecursively();
}
