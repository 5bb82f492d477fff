// The agent's GPUs against a fake NVML driver (fake_nvml/fake_nvml.cpp) found on its
// LD_LIBRARY_PATH: inventory, CUDA_VISIBLE_DEVICES, a missing or failing driver, usage samples
// with the trials on each card, and cards that are lost while the agent runs.
#include <unistd.h>

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include "fake_gpus.h"
#include "worker_session.h"
#include "worker_test.h"

using namespace worker_test;

namespace {

QStringList uuidsOf(const QJsonArray& gpus) {
    QStringList uuids;
    for (const QJsonValue& gpu : gpus) {
        uuids << gpu.toObject().value("uuid").toString();
    }
    return uuids;
}

QJsonObject gpuOf(const QJsonObject& usage, const QString& uuid) {
    for (const QJsonValue& gpu : usage.value("gpus").toArray()) {
        if (gpu.toObject().value("uuid").toString() == uuid) {
            return gpu.toObject();
        }
    }
    return {};
}

bool realDriverInstalled() {
    QProcess ldconfig;
    ldconfig.start("/sbin/ldconfig", {"-p"});
    ldconfig.waitForFinished(10000);
    return ldconfig.readAllStandardOutput().contains("libnvidia-ml.so.1");
}

// A trial that is a shell with a child: the child stands for the CUDA process the driver reports.
QJsonObject parentAndChildTrial(const QString& trial, const QString& trialDir) {
    return startOp(trial, {"sh", "-c", "sleep 60 & echo $! > child.pid; wait"}, trialDir);
}

qint64 waitForChildPid(const QString& trialDir) {
    QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired()) {
        const QString text = readFile(trialDir + "/child.pid").trimmed();
        if (!text.isEmpty()) {
            return text.toLongLong();
        }
        QTest::qWait(20);
    }
    return 0;
}

bool isUsage(const QJsonObject& e) {
    return e.value("ev").toString() == "usage";
}

}  // namespace

void WorkerTest::gpuInventoryComesFromTheDriver() {
    const QString state = path("nvml.state");
    writeState(state,
               {{"GPU-aaaa-1111", "Fake_A100", 40960}, {"GPU-bbbb-2222", "Fake_H100_SXM", 81920}});
    WorkerSession worker(WorkerSession::workerPath(), {},
                         withDriver(TUNEDECK_FAKE_NVML_DIR, state));
    QVERIFY(worker.waitForHello());
    const QJsonArray gpus = worker.hello().value("gpus").toArray();
    QCOMPARE(gpus.size(), 2);
    QCOMPARE(
        gpus[0].toObject(),
        (QJsonObject{
            {"index", 0}, {"uuid", "GPU-aaaa-1111"}, {"name", "Fake A100"}, {"memory_mb", 40960}}));
    QCOMPARE(gpus[1].toObject().value("name").toString(), QStringLiteral("Fake H100 SXM"));
    QCOMPARE(gpus[1].toObject().value("memory_mb").toInt(), 81920);
    QCOMPARE(worker.hello().value("gpu_note").toString(), QString());
    // Nothing is sampled before the engine asks.
    worker.pump(1500);
    for (const QJsonObject& e : worker.pendingEvents()) {
        QVERIFY2(!isUsage(e), "a usage sample arrived without a monitor op");
    }
}

void WorkerTest::inventoryFlagPrintsTheHelloAndExits() {
    const QString state = path("nvml.state");
    writeState(state, {{"GPU-aaaa-1111"}});
    QProcess agent;
    agent.setProcessEnvironment(withDriver(TUNEDECK_FAKE_NVML_DIR, state));
    agent.start(WorkerSession::workerPath(), {"--inventory"});
    QVERIFY(agent.waitForFinished(10000));
    QCOMPARE(agent.exitCode(), 0);
    const QList<QByteArray> lines = agent.readAllStandardOutput().trimmed().split('\n');
    QCOMPARE(lines.size(), 1);
    const QJsonObject hello = QJsonDocument::fromJson(lines[0]).object();
    QCOMPARE(hello.value("ev").toString(), QStringLiteral("hello"));
    QCOMPARE(uuidsOf(hello.value("gpus").toArray()), QStringList{"GPU-aaaa-1111"});
    QVERIFY(hello.value("cpus").toInt() >= 1);
}

void WorkerTest::cudaVisibleDevicesRestrictsTheOfferedGpus() {
    const QString state = path("nvml.state");
    writeState(state, {{"GPU-aaaa-1111"}, {"GPU-bbbb-2222"}, {"GPU-cccc-3333"}});
    struct Case {
        QString visible;
        QStringList offered;
    };
    const QList<Case> cases = {
        {QString(), {"GPU-aaaa-1111", "GPU-bbbb-2222", "GPU-cccc-3333"}},  // unset: all
        {"2,GPU-aaaa", {"GPU-cccc-3333", "GPU-aaaa-1111"}},  // indices and UUID prefixes, in order
        {"1, bogus, 2", {"GPU-bbbb-2222"}},                  // CUDA stops at the first bad entry
        {"", {}},                                            // set but empty: none
        {"GPU-", {}},                                        // ambiguous prefix: none
    };
    for (const Case& c : cases) {
        WorkerSession worker(WorkerSession::workerPath(), {},
                             withDriver(TUNEDECK_FAKE_NVML_DIR, state, c.visible));
        QVERIFY(worker.waitForHello());
        QCOMPARE(uuidsOf(worker.hello().value("gpus").toArray()), c.offered);
    }
}

void WorkerTest::missingDriverOffersNoGpusAndTheAgentStillWorks() {
    if (realDriverInstalled()) {
        QSKIP("this machine has a real NVIDIA driver in the loader's cache");
    }
    const QString emptyDir = path("no-driver");
    QVERIFY(QDir().mkpath(emptyDir));
    WorkerSession worker(WorkerSession::workerPath(), {}, withDriver(emptyDir, path("nvml.state")));
    QVERIFY(worker.waitForHello());
    QCOMPARE(worker.hello().value("gpus").toArray().size(), 0);
    QVERIFY2(worker.hello().value("gpu_note").toString().contains("libnvidia-ml.so.1"),
             qPrintable(worker.hello().value("gpu_note").toString()));

    // Trials run, and the node's own CPU and memory are still sampled.
    const QString trialDir = path("t1");
    worker.send(startOp("t1", {"sh", "-c", "exit 0"}, trialDir));
    QCOMPARE(worker.waitForEvent("exited", "t1").value("code").toInt(), 0);
    worker.send({{"op", "monitor"}, {"interval_s", 0.2}});
    const QJsonObject usage = worker.waitFor(isUsage, 5000);
    QVERIFY(!usage.isEmpty());
    QCOMPARE(usage.value("gpus").toArray().size(), 0);
    QVERIFY(usage.value("cpu_percent").isDouble());
    QVERIFY(usage.value("memory_total_mb").toInteger() > 0);
    QVERIFY(worker.unreadableLines().isEmpty());
}

void WorkerTest::driverThatCannotStartOffersNoGpus() {
    const QString state = path("nvml.state");
    writeState(state, {{"GPU-aaaa-1111"}}, {"init_error 9"});
    WorkerSession worker(WorkerSession::workerPath(), {},
                         withDriver(TUNEDECK_FAKE_NVML_DIR, state));
    QVERIFY(worker.waitForHello());
    QCOMPARE(worker.hello().value("gpus").toArray().size(), 0);
    QVERIFY2(worker.hello().value("gpu_note").toString().contains("Driver Not Loaded"),
             qPrintable(worker.hello().value("gpu_note").toString()));
}

void WorkerTest::usageIsSampledOnlyWhileAsked() {
    const QString state = path("nvml.state");
    writeState(state, {{"GPU-aaaa-1111"}});
    WorkerSession worker(WorkerSession::workerPath(), {},
                         withDriver(TUNEDECK_FAKE_NVML_DIR, state));
    QVERIFY(worker.waitForHello());
    worker.send({{"op", "monitor"}, {"interval_s", 0.25}});
    worker.pump(2600);
    int samples = 0;
    for (const QJsonObject& e : worker.takeEvents()) {
        samples += isUsage(e) ? 1 : 0;
    }
    // One every 0.25 s, the first one interval after the op: about 10 (a loaded machine may
    // delay a few; none come in bursts).
    QVERIFY2(samples >= 5 && samples <= 11, qPrintable(QString::number(samples)));
    worker.send({{"op", "monitor"}, {"interval_s", 0}});
    worker.pump(300);  // a sample already under way may still arrive
    worker.takeEvents();
    worker.pump(1000);
    for (const QJsonObject& e : worker.takeEvents()) {
        QVERIFY2(!isUsage(e), "sampling went on after monitor 0");
    }
}

void WorkerTest::usageSamplesNameTheTrialsOnEachCard() {
    const QString state = path("nvml.state");
    FakeGpu busy{"GPU-bbbb-2222"};
    busy.memoryUsedMb = 2048;
    busy.utilization = 91;
    busy.temperature = 71;
    busy.powerMw = 250500;
    FakeGpu noSensor{"GPU-aaaa-1111"};
    noSensor.powerMw = -1;
    writeState(state, {noSensor, busy});
    WorkerSession worker(WorkerSession::workerPath(), {},
                         withDriver(TUNEDECK_FAKE_NVML_DIR, state));
    QVERIFY(worker.waitForHello());
    const QString trialDir = path("t1");
    worker.send(parentAndChildTrial("t1", trialDir));
    QVERIFY(!worker.waitForEvent("started", "t1").isEmpty());
    const qint64 child = waitForChildPid(trialDir);
    QVERIFY(child > 0);
    // The trial's child uses the busy card; the test itself (no trial) uses the other one.
    writeState(state, {noSensor, busy},
               {QStringLiteral("process uuid=GPU-bbbb-2222 pid=%1").arg(child),
                QStringLiteral("process gpu=0 pid=%1").arg(::getpid())});
    worker.send({{"op", "monitor"}, {"interval_s", 0.2}});
    const QJsonObject usage = worker.waitFor(
        [](const QJsonObject& e) {
            return isUsage(e) && !gpuOf(e, "GPU-bbbb-2222").value("trials").toArray().isEmpty();
        },
        5000);
    QVERIFY2(!usage.isEmpty(), "no sample named the trial on its card");
    const QJsonObject card = gpuOf(usage, "GPU-bbbb-2222");
    QCOMPARE(card, (QJsonObject{{"index", 1},
                                {"uuid", "GPU-bbbb-2222"},
                                {"name", "Fake A100"},
                                {"utilization_percent", 91},
                                {"memory_used_mb", 2048},
                                {"memory_total_mb", 40960},
                                {"temperature_c", 71},
                                {"power_w", 250.5},
                                {"trials", QJsonArray{"t1"}},
                                {"lost", false}}));
    const QJsonObject other = gpuOf(usage, "GPU-aaaa-1111");
    QCOMPARE(other.value("trials").toArray(), QJsonArray{});  // a process that is no trial
    QVERIFY(other.value("power_w").isNull());                 // a card without a power sensor
    const double cpu = usage.value("cpu_percent").toDouble(-1);
    QVERIFY2(cpu >= 0 && cpu <= 100, qPrintable(QString::number(cpu)));
    const QRegularExpressionMatch total =
        QRegularExpression("MemTotal:\\s+(\\d+) kB").match(readFile("/proc/meminfo"));
    QVERIFY(qAbs(usage.value("memory_total_mb").toInteger() -
                 total.captured(1).toLongLong() / 1024) <= 1);
    QVERIFY(usage.value("memory_used_mb").toInteger() > 0);
    QVERIFY(usage.value("time").toDouble() > 1.6e9);

    // Once the trial has ended its pids name no trial any more.
    worker.send({{"op", "kill"}, {"trial", "t1"}, {"reason", "test"}});
    QVERIFY(!worker.waitForEvent("exited", "t1").isEmpty());
    worker.takeEvents();
    const QJsonObject after = worker.waitFor(isUsage, 5000);
    QCOMPARE(gpuOf(after, "GPU-bbbb-2222").value("trials").toArray(), QJsonArray{});
}

void WorkerTest::legacyDriverStillNamesTheTrials() {
    const QString state = path("nvml.state");
    writeState(state, {{"GPU-aaaa-1111"}});
    WorkerSession worker(WorkerSession::workerPath(), {},
                         withDriver(TUNEDECK_FAKE_NVML_LEGACY_DIR, state));
    QVERIFY(worker.waitForHello());
    const QString trialDir = path("t7");
    worker.send(parentAndChildTrial("t7", trialDir));
    const qint64 child = waitForChildPid(trialDir);
    QVERIFY(child > 0);
    // Several processes of one trial (its shell and its child) count it once.
    const qint64 shell = worker.waitForEvent("started", "t7").value("pid").toInteger();
    writeState(state, {{"GPU-aaaa-1111"}},
               {QStringLiteral("process gpu=0 pid=%1").arg(child),
                QStringLiteral("process gpu=0 pid=%1").arg(shell)});
    worker.send({{"op", "monitor"}, {"interval_s", 0.2}});
    const QJsonObject usage = worker.waitFor(
        [](const QJsonObject& e) {
            return isUsage(e) && !gpuOf(e, "GPU-aaaa-1111").value("trials").toArray().isEmpty();
        },
        5000);
    QCOMPARE(gpuOf(usage, "GPU-aaaa-1111").value("trials").toArray(), QJsonArray{"t7"});
}

void WorkerTest::lostGpuIsReportedOnceAndTheOthersAreStillSampled() {
    const QString state = path("nvml.state");
    FakeGpu first{"GPU-aaaa-1111"};
    FakeGpu second{"GPU-bbbb-2222"};
    writeState(state, {first, second});
    WorkerSession worker(WorkerSession::workerPath(), {},
                         withDriver(TUNEDECK_FAKE_NVML_DIR, state));
    QVERIFY(worker.waitForHello());
    worker.send({{"op", "monitor"}, {"interval_s", 0.2}});
    QVERIFY(!worker.waitFor(isUsage, 5000).isEmpty());

    second.lost = true;
    first.utilization = 80;
    writeState(state, {first, second});
    const QJsonObject lost = worker.waitForEvent("gpu_lost", {}, 5000);
    QCOMPARE(lost.value("uuid").toString(), QStringLiteral("GPU-bbbb-2222"));
    QCOMPARE(lost.value("index").toInt(), 1);
    QVERIFY2(lost.value("reason").toString().contains("GPU is lost"),
             qPrintable(lost.value("reason").toString()));
    worker.takeEvents();
    const QJsonObject usage = worker.waitFor(isUsage, 5000);
    QVERIFY(gpuOf(usage, "GPU-bbbb-2222").value("lost").toBool());
    QVERIFY(gpuOf(usage, "GPU-bbbb-2222").value("utilization_percent").isNull());
    QVERIFY(!gpuOf(usage, "GPU-aaaa-1111").value("lost").toBool());
    QCOMPARE(gpuOf(usage, "GPU-aaaa-1111").value("utilization_percent").toInt(), 80);
    // Lost for good, and said once.
    second.lost = false;
    writeState(state, {first, second});
    worker.pump(1000);
    for (const QJsonObject& e : worker.takeEvents()) {
        QVERIFY(e.value("ev").toString() != "gpu_lost");
        if (isUsage(e)) {
            QVERIFY(gpuOf(e, "GPU-bbbb-2222").value("lost").toBool());
        }
    }
}

void WorkerTest::gpuThatLeavesTheDriversListIsLost() {
    const QString state = path("nvml.state");
    FakeGpu first{"GPU-aaaa-1111"};
    FakeGpu second{"GPU-bbbb-2222"};
    writeState(state, {first, second});
    WorkerSession worker(WorkerSession::workerPath(), {},
                         withDriver(TUNEDECK_FAKE_NVML_DIR, state));
    QVERIFY(worker.waitForHello());
    worker.send({{"op", "monitor"}, {"interval_s", 0.2}});
    QVERIFY(!worker.waitFor(isUsage, 5000).isEmpty());

    // The first card falls off the bus: the driver lists one card, and the second is index 0 now.
    second.utilization = 66;
    writeState(state, {second});
    const QJsonObject lost = worker.waitForEvent("gpu_lost", {}, 5000);
    QCOMPARE(lost.value("uuid").toString(), QStringLiteral("GPU-aaaa-1111"));
    QVERIFY2(lost.value("reason").toString().contains("2 GPUs before, 1 now"),
             qPrintable(lost.value("reason").toString()));
    worker.takeEvents();
    const QJsonObject usage = worker.waitFor(isUsage, 5000);
    QCOMPARE(uuidsOf(usage.value("gpus").toArray()),
             (QStringList{"GPU-aaaa-1111", "GPU-bbbb-2222"}));
    QVERIFY(gpuOf(usage, "GPU-aaaa-1111").value("lost").toBool());
    QCOMPARE(gpuOf(usage, "GPU-bbbb-2222").value("utilization_percent").toInt(), 66);
    QCOMPARE(gpuOf(usage, "GPU-bbbb-2222").value("index").toInt(), 1);  // as the hello said
}

void WorkerTest::malformedMonitorOpIsAnError() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    worker.send({{"op", "monitor"}, {"interval_s", "often"}});
    const QJsonObject error = worker.waitForEvent("error");
    QVERIFY2(error.value("message").toString().contains("interval_s"),
             qPrintable(error.value("message").toString()));
    worker.send({{"op", "monitor"}, {"interval_s", -1}});
    QVERIFY(!worker.waitForEvent("error").isEmpty());
}
