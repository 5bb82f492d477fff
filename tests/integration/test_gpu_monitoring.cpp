// GPUs through the real tunedeck-engine, with the fake NVML driver of tests/worker on the agent's
// library path: each trial sees only its own cards, node usage samples reach SQLite and the
// events file with the trials on each card, a lost card gets no more trials, `gpu_sharing: mps`
// reaches the agent, and `validate` refuses more GPUs than the largest node has.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSet>
#include <QtTest>

#include "engine_harness.h"
#include "fake_gpus.h"

class TestGpuMonitoring : public QObject {
    Q_OBJECT
  private slots:
    void init();
    void cleanup();
    void trialsSeeOnlyTheirCardsAndUsageIsRecorded();
    void aTrialWithoutGpusSeesNone();
    void aLostCardGetsNoMoreTrials();
    void mpsIsAskedOfTheAgentAndAFallbackIsWarned();
    void validateRefusesMoreGpusThanTheLargestNodeHas();
    void validateWithoutADriverSaysWhy();
    void validateJudgesSshNodesByTheirDeclaredResources();

  private:
    // The engine (and so its agent) finds the fake driver through this process's environment.
    void useDriver(const QString& libraryDir, const QStringList& gpuLines);
    std::unique_ptr<EngineHarness> h_;
    QString state_;
    QByteArray path_;  // PATH before a test changed it
};

namespace {

const QString kUuidA = QStringLiteral("GPU-0000aaaa-1111-2222-3333-444455556666");
const QString kUuidB = QStringLiteral("GPU-0000bbbb-1111-2222-3333-444455556666");

QString gpuLine(const QString& uuid, int memoryMb = 40960) {
    return QStringLiteral(
               "gpu uuid=%1 name=Fake_A100 memory_total_mb=%2 memory_used_mb=512 "
               "utilization=42 temperature=61 power_mw=150000")
        .arg(uuid)
        .arg(memoryMb);
}

QString experiment(const QString& name, const QString& resources, const QString& more = {}) {
    return QStringLiteral(R"(name: %1
trainable:
  command: python3 %2
resources_per_trial: %3
search_space:
  iterations: 6
  sleep: 0.3
num_samples: 4
metric: score
mode: max
gpu_sample_s: 0.2
)")
               .arg(name, EngineHarness::trialScript("gpu_trial.py"), resources) +
           more;
}

// Every trial's `cuda_visible_devices` as reported, by trial id (from its last result).
QMap<QString, QString> devicesByTrial(const QJsonArray& exported) {
    QMap<QString, QString> devices;
    for (const QJsonValue& t : exported) {
        const QJsonArray results = t.toObject().value("results").toArray();
        devices[t.toObject().value("trial_id").toString()] =
            results.isEmpty() ? QString()
                              : results.last().toObject().value("cuda_visible_devices").toString();
    }
    return devices;
}

}  // namespace

void TestGpuMonitoring::init() {
    h_ = std::make_unique<EngineHarness>();
    state_ = h_->root() + "/nvml.state";
}

void TestGpuMonitoring::cleanup() {
    if (!path_.isNull()) {
        qputenv("PATH", path_);
        path_.clear();
    }
    qunsetenv("LD_LIBRARY_PATH");
    qunsetenv("TUNEDECK_FAKE_NVML_STATE");
    h_.reset();
}

void TestGpuMonitoring::useDriver(const QString& libraryDir, const QStringList& gpuLines) {
    QFile file(state_);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write((gpuLines.join('\n') + '\n').toUtf8());
    file.close();
    qputenv("LD_LIBRARY_PATH", libraryDir.toUtf8());
    qputenv("TUNEDECK_FAKE_NVML_STATE", state_.toUtf8());
    qunsetenv("CUDA_VISIBLE_DEVICES");
}

void TestGpuMonitoring::trialsSeeOnlyTheirCardsAndUsageIsRecorded() {
    useDriver(TUNEDECK_FAKE_NVML_DIR, {gpuLine(kUuidA), gpuLine(kUuidB)});
    const QString events = h_->root() + "/events.jsonl";
    const EngineResult r =
        h_->run({"run", h_->writeFile("gpus.yaml", experiment("gpus", "{cpu: 0.01, gpu: 0.5}")),
                 "--events", events, "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QString folder = h_->experimentFolder("gpus");

    // Isolation: one card each, by UUID, and two trials (0.5 each) per card.
    const QMap<QString, QString> devices = devicesByTrial(h_->exportJson(folder));
    QCOMPARE(devices.size(), 4);
    QMap<QString, int> perCard;
    for (const QString& d : devices) {
        perCard[d]++;
    }
    QCOMPARE(perCard, (QMap<QString, int>{{kUuidA, 2}, {kUuidB, 2}}));

    // Usage samples in the history, naming the trials on each card.
    const QString db = folder + "/experiment.sqlite";
    QVERIFY(sqliteQuery(db, "SELECT count(*) FROM node_usage").toInt() >= 5);
    const QString firstCard = devices.value("t00000");
    const QString samplesNamingIt =
        sqliteQuery(db, QStringLiteral("SELECT count(*) FROM node_usage, json_each(data, '$.gpus') "
                                       "AS g WHERE json_extract(g.value, '$.uuid') = '%1' AND "
                                       "EXISTS (SELECT 1 FROM json_each(g.value, '$.trials') AS t "
                                       "WHERE t.value = 't00000')")
                            .arg(firstCard));
    QVERIFY2(samplesNamingIt.toInt() >= 1, qPrintable(samplesNamingIt));
    QCOMPARE(sqliteQuery(db, "SELECT count(*) FROM node_usage WHERE node != 'local'"),
             QStringLiteral("0"));
    // Each trial's own share (issue 22): the card memory its process holds, which the fake
    // driver gives as 256 MiB a process, beside its CPU and resident memory.
    QCOMPARE(sqliteQuery(db,
                         "SELECT max(json_extract(t.value, '$.gpu_memory_mb')) FROM "
                         "node_usage, json_each(data, '$.trials') AS t WHERE "
                         "json_extract(t.value, '$.trial') = 't00000'"),
             QStringLiteral("256"));

    // The events file carries them in the envelope, with exactly the fields the app reads.
    QFile file(events);
    QVERIFY(file.open(QIODevice::ReadOnly));
    int usageEvents = 0;
    qint64 lastSeq = 0;
    for (const QByteArray& line : file.readAll().split('\n')) {
        const QJsonObject event = QJsonDocument::fromJson(line).object();
        if (event.value("type").toString() != "node_usage") {
            continue;
        }
        ++usageEvents;
        QVERIFY(event.value("seq").toInteger() > lastSeq);
        lastSeq = event.value("seq").toInteger();
        const QStringList eventKeys = event.keys();
        QCOMPARE(QSet<QString>(eventKeys.begin(), eventKeys.end()),
                 (QSet<QString>{"v", "seq", "time", "type", "node", "cpu_percent", "memory_used_mb",
                                "memory_total_mb", "gpus", "trials"}));
        for (const QJsonValue& trial : event.value("trials").toArray()) {
            const QStringList trialKeys = trial.toObject().keys();
            QCOMPARE(
                QSet<QString>(trialKeys.begin(), trialKeys.end()),
                (QSet<QString>{"trial", "cpu_percent", "rss_mb", "processes", "gpu_memory_mb"}));
        }
        QCOMPARE(event.value("node").toString(), QStringLiteral("local"));
        const QJsonArray gpus = event.value("gpus").toArray();
        QCOMPARE(gpus.size(), 2);
        const QJsonObject gpu = gpus[0].toObject();
        const QStringList gpuKeys = gpu.keys();
        QCOMPARE(QSet<QString>(gpuKeys.begin(), gpuKeys.end()),
                 (QSet<QString>{"index", "uuid", "name", "utilization_percent", "memory_used_mb",
                                "memory_total_mb", "temperature_c", "power_w", "trials", "lost"}));
        QCOMPARE(gpu.value("uuid").toString(), kUuidA);
        QCOMPARE(gpu.value("name").toString(), QStringLiteral("Fake A100"));
        QCOMPARE(gpu.value("utilization_percent").toDouble(), 42.0);
        QCOMPARE(gpu.value("memory_total_mb").toInteger(), qint64(40960));
        QCOMPARE(gpu.value("temperature_c").toDouble(), 61.0);
        QCOMPARE(gpu.value("power_w").toDouble(), 150.0);
    }
    QVERIFY2(usageEvents >= 5, qPrintable(QString::number(usageEvents)));
}

void TestGpuMonitoring::aTrialWithoutGpusSeesNone() {
    useDriver(TUNEDECK_FAKE_NVML_DIR, {gpuLine(kUuidA)});
    const QString yaml =
        experiment("nogpu", "{cpu: 0.01}").replace("num_samples: 4", "num_samples: 1");
    const EngineResult r = h_->run({"run", h_->writeFile("nogpu.yaml", yaml), "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    // Set, and empty: CUDA then shows the trial no card at all.
    QCOMPARE(devicesByTrial(h_->exportJson(h_->experimentFolder("nogpu"))).value("t00000"),
             QString(""));
}

void TestGpuMonitoring::aLostCardGetsNoMoreTrials() {
    useDriver(TUNEDECK_FAKE_NVML_DIR, {gpuLine(kUuidA), gpuLine(kUuidB)});
    const QString marker = h_->root() + "/lost-once";
    const QString yaml = experiment("lost", "{cpu: 0.01, gpu: 1}",
                                    "max_concurrent_trials: 1\nfailure: {max_failures: 1}\n")
                             .replace("num_samples: 4", "num_samples: 3")
                             .replace("  sleep: 0.3", "  sleep: 0.1\n  lose_card: " + marker);
    const EngineResult r = h_->run({"run", h_->writeFile("lost.yaml", yaml), "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY(QFile::exists(marker));  // the first attempt did lose its card
    const QString folder = h_->experimentFolder("lost");
    const QJsonArray exported = h_->exportJson(folder);
    for (const QJsonValue& s : EngineHarness::statuses(exported)) {
        QCOMPARE(s.toString(), QStringLiteral("TERMINATED"));
    }
    // The failed attempt's retry and every later trial ran on the card that was left.
    const QMap<QString, QString> devices = devicesByTrial(exported);
    QCOMPARE(devices.values(), (QStringList{kUuidB, kUuidB, kUuidB}));
    const QString db = folder + "/experiment.sqlite";
    QCOMPARE(sqliteQuery(db, QStringLiteral("SELECT json_extract(payload, '$.details.uuid') FROM "
                                            "events WHERE type = 'node' AND json_extract(payload, "
                                            "'$.state') = 'gpu_lost'")),
             kUuidA);
    QCOMPARE(sqliteQuery(db, "SELECT failures FROM trials WHERE id = 't00000'"),
             QStringLiteral("1"));
    QVERIFY(sqliteQuery(db, QStringLiteral("SELECT count(*) FROM events WHERE type = 'warning' "
                                           "AND payload LIKE '%%%1%%was lost%%t00000%%'")
                                .arg(kUuidA))
                .toInt() == 1);
}

void TestGpuMonitoring::mpsIsAskedOfTheAgentAndAFallbackIsWarned() {
    useDriver(TUNEDECK_FAKE_NVML_DIR, {gpuLine(kUuidA)});
    // A stand-in for NVIDIA's control program, first on the agent's PATH: it starts (exit 0), or
    // refuses as the real one does when another daemon holds its pipe folder.
    path_ = qgetenv("PATH");
    qputenv("PATH", (h_->root() + "/bin:").toUtf8() + path_);
    const auto run = [&](const QString& name, const QString& failure) {
        QVERIFY(!worker_test::writeFakeMpsControl(h_->root(), {}, failure).isEmpty());
        const QString yaml = experiment(name, "{cpu: 0.01, gpu: 0.5}", "gpu_sharing: mps\n")
                                 .replace("num_samples: 4", "num_samples: 2");
        const EngineResult r = h_->run({"run", h_->writeFile(name + ".yaml", yaml), "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    };
    const auto sharing = [&](const QString& name) {
        return sqliteQuery(h_->experimentFolder(name) + "/experiment.sqlite",
                           "SELECT json_extract(payload, '$.details.mode') || ' ' || "
                           "ifnull(json_extract(payload, '$.details.reason'), '') FROM events "
                           "WHERE type = 'node' AND json_extract(payload, '$.state') = "
                           "'gpu_sharing'");
    };
    const auto warnings = [&](const QString& name) {
        return sqliteQuery(h_->experimentFolder(name) + "/experiment.sqlite",
                           "SELECT count(*) FROM events WHERE type = 'warning' AND payload LIKE "
                           "'%MPS did not start%daemon is already running%time slicing%'");
    };

    run("mps", {});
    QCOMPARE(sharing("mps"), QStringLiteral("mps "));
    QCOMPARE(warnings("mps"), QStringLiteral("0"));

    run("fallback", "An instance of this daemon is already running");
    QVERIFY2(sharing("fallback").startsWith("time_slicing nvidia-cuda-mps-control failed"),
             qPrintable(sharing("fallback")));
    QCOMPARE(warnings("fallback"), QStringLiteral("1"));
    // The trials ran all the same, on the card they were given.
    for (const QJsonValue& s :
         EngineHarness::statuses(h_->exportJson(h_->experimentFolder("fallback")))) {
        QCOMPARE(s.toString(), QStringLiteral("TERMINATED"));
    }
}

void TestGpuMonitoring::validateRefusesMoreGpusThanTheLargestNodeHas() {
    useDriver(TUNEDECK_FAKE_NVML_DIR, {gpuLine(kUuidA), gpuLine(kUuidB)});
    const QString tooMany = h_->writeFile("many.yaml", experiment("many", "{cpu: 1, gpu: 4}"));
    for (const char* command : {"validate", "run"}) {
        const EngineResult r = h_->run({command, tooMany});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.all().contains(QRegularExpression(
                     "many\\.yaml:4:\\d+: resources_per_trial: no node has 4 GPUs \\(the "
                     "largest, 'local', has 2\\)")),
                 qPrintable(r.all()));
    }
    QCOMPARE(h_->run({"validate", "--file-only", tooMany}).exitCode, 0);
    QCOMPARE(
        h_->run({"validate", h_->writeFile("two.yaml", experiment("two", "{gpu: 2}"))}).exitCode,
        0);
    const EngineResult memory =
        h_->run({"validate",
                 h_->writeFile("mem.yaml", experiment("mem", "{gpu: 0.5, gpu_memory_mb: 50000}"))});
    QCOMPARE(memory.exitCode, 2);
    QVERIFY2(
        memory.err.contains("no GPU has 50000 MB of memory (gpu_memory_mb; the largest, on node "
                            "'local', has 40960 MB)"),
        qPrintable(memory.err));
    // The agent's own CUDA_VISIBLE_DEVICES restricts what this machine offers.
    qputenv("CUDA_VISIBLE_DEVICES", kUuidB.toUtf8());
    const EngineResult restricted =
        h_->run({"validate", h_->writeFile("two.yaml", experiment("two", "{gpu: 2}"))});
    qunsetenv("CUDA_VISIBLE_DEVICES");
    QCOMPARE(restricted.exitCode, 2);
    QVERIFY2(restricted.err.contains("no node has 2 GPUs (the largest, 'local', has 1)"),
             qPrintable(restricted.err));
}

void TestGpuMonitoring::validateWithoutADriverSaysWhy() {
    const QString emptyDir = h_->root() + "/no-driver";
    QVERIFY(QDir().mkpath(emptyDir));
    useDriver(emptyDir, {});
    QProcess ldconfig;
    ldconfig.start("/sbin/ldconfig", {"-p"});
    ldconfig.waitForFinished(10000);
    if (ldconfig.readAllStandardOutput().contains("libnvidia-ml.so.1")) {
        QSKIP("this machine has a real NVIDIA driver in the loader's cache");
    }
    const EngineResult r =
        h_->run({"validate", h_->writeFile("one.yaml", experiment("one", "{gpu: 1}"))});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("no node has 1 GPU (the largest, 'local', has 0) (local: no NVIDIA "
                            "driver: libnvidia-ml.so.1"),
             qPrintable(r.err));
    // A CPU experiment is fine on the same machine.
    QCOMPARE(
        h_->run({"validate", h_->writeFile("cpu.yaml", experiment("cpu", "{cpu: 1}"))}).exitCode,
        0);
}

void TestGpuMonitoring::validateJudgesSshNodesByTheirDeclaredResources() {
    h_->writeFile("key", "not a real key\n");
    const QString cluster = QStringLiteral(R"(cluster_name: lab
provider:
  type: ssh
  head_ip: {host: 10.0.0.1, resources: {gpu: 1}}
  worker_ips:
    - {host: 10.0.0.2, resources: {gpu: 2}}
auth: {ssh_user: alice, ssh_private_key: key}
)");
    h_->writeFile("cluster.yaml", cluster);
    const QString many = h_->writeFile(
        "many.yaml", experiment("many", "{cpu: 1, gpu: 4}", "cluster: cluster.yaml\n"));
    const EngineResult r = h_->run({"validate", many});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("no node has 4 GPUs (the largest, '10.0.0.2', has 2)"),
             qPrintable(r.err));
    QCOMPARE(
        h_->run({"validate", h_->writeFile("fits.yaml", experiment("fits", "{cpu: 64, gpu: 2}",
                                                                   "cluster: cluster.yaml\n"))})
            .exitCode,
        0);  // CPUs are not stated: the agents count them when the run starts

    // A node whose GPUs are left to its agent may have any number: checked when it connects.
    h_->writeFile("cluster.yaml", QString(cluster).replace(
                                      "worker_ips:\n    - {host: 10.0.0.2, resources: {gpu: 2}}",
                                      "worker_ips: [10.0.0.2]"));
    QCOMPARE(h_->run({"validate", many}).exitCode, 0);
}

QTEST_GUILESS_MAIN(TestGpuMonitoring)
#include "test_gpu_monitoring.moc"
