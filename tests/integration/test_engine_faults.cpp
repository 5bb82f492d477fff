// Bad input and misbehaving trials against the real engine: each gets a clear message, nothing is
// started for bad input, and the engine itself never crashes or corrupts its database.
#include <fcntl.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QtTest>

#include "engine_harness.h"

class TestEngineFaults : public QObject {
    Q_OBJECT
  private slots:
    void badExperimentFilesAreRefusedBeforeAnythingStarts_data();
    void badExperimentFilesAreRefusedBeforeAnythingStarts();
    void aMetricNoTrialReportsStopsTheRunWithItsLocation();
    void misbehavingTrialsFailWithAClearMessage_data();
    void misbehavingTrialsFailWithAClearMessage();
    void aCrashIsRetriedFromTheLatestCheckpoint();
    void failFastStopsTheExperiment();
    void anUnwritableResultsFolderIsReported();
    void aTrialOutOfMemorySaysSoBesideItsRecordedMemory_data();
    void aTrialOutOfMemorySaysSoBesideItsRecordedMemory();
};

namespace {

QString experiment(const QString& name, const QString& searchSpace, const QString& extra = {}) {
    return QStringLiteral(
               "name: %1\ntrainable:\n  command: python3 @TRIAL@\nsearch_space:\n%2\n"
               "metric: score\nmode: max\n%3")
        .arg(name, searchSpace, extra);
}

// A memory cgroup of cgroup v1 (as Slurm's --mem or a container sets one up) with `limitMb` and
// no swap, made for the test and removed with it; empty where the test may not make one.
class MemoryCgroup {
  public:
    explicit MemoryCgroup(int limitMb) {
        const QString path =
            QStringLiteral("/sys/fs/cgroup/memory/tunedeck-test-%1").arg(::getpid());
        if (!QDir().mkpath(path)) {
            return;
        }
        path_ = path;
        const QByteArray bytes = QByteArray::number(qint64(limitMb) << 20);
        if (!write("memory.limit_in_bytes", bytes)) {
            path_.clear();
            return;
        }
        write("memory.memsw.limit_in_bytes", bytes);  // where swap is accounted, none of it
        procs_ = (path_ + QStringLiteral("/cgroup.procs")).toLocal8Bit();
    }
    ~MemoryCgroup() {
        if (!path_.isEmpty()) {
            QDir().rmdir(path_);
        }
    }
    bool made() const { return !path_.isEmpty(); }
    // Runs in the engine's child before exec: the engine, its agent and trials join the group.
    void join() const {
        const int fd = ::open(procs_.constData(), O_WRONLY);
        if (fd >= 0) {
            (void)!::write(fd, "0", 1);
            ::close(fd);
        }
    }

  private:
    bool write(const char* file, const QByteArray& value) const {
        QFile f(path_ + '/' + QLatin1String(file));
        return f.open(QIODevice::WriteOnly) && f.write(value) == value.size();
    }
    QString path_;
    QByteArray procs_;
};

}  // namespace

void TestEngineFaults::badExperimentFilesAreRefusedBeforeAnythingStarts_data() {
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("expected");  // a part of the message, after "bad.yaml:"
    QTest::newRow("malformed yaml") << "name: x\ntrainable: [unclosed\n"
                                    << "bad.yaml:";
    QTest::newRow("empty domain") << experiment("x", "  lr: {uniform: [1, 0]}")
                                  << "search_space.lr";
    QTest::newRow("loguniform at zero")
        << experiment("x", "  lr: {loguniform: [0, 1]}") << "search_space.lr";
    QTest::newRow("unknown algorithm")
        << experiment("x", "  lr: {uniform: [0, 1]}", "search: {algorithm: hyperopt9}\n")
        << "search.algorithm";
    QTest::newRow("unknown scheduler")
        << experiment("x", "  lr: {uniform: [0, 1]}", "scheduler: {type: nope}\n") << "scheduler";
    QTest::newRow("missing command")
        << "name: x\ntrainable: {working_dir: .}\nsearch_space: {a: 1}\n"
        << "trainable";
    QTest::newRow("command not found")
        << QString(experiment("x", "  a: 1")).replace("python3 @TRIAL@", "no-such-trainer-xyz")
        << "no-such-trainer-xyz";
    QTest::newRow("unknown key") << experiment("x", "  a: 1", "num_sample: 3\n") << "num_sample";
}

void TestEngineFaults::badExperimentFilesAreRefusedBeforeAnythingStarts() {
    QFETCH(QString, yaml);
    QFETCH(QString, expected);
    EngineHarness h;
    const QString file = h.writeFile("bad.yaml", yaml);
    for (const char* command : {"validate", "run"}) {
        const EngineResult r = h.run({command, file});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QVERIFY2(r.err.contains(QRegularExpression("bad\\.yaml:\\d+:\\d+")), qPrintable(r.err));
    }
    QVERIFY(QDir(h.resultsRoot()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
}

void TestEngineFaults::aMetricNoTrialReportsStopsTheRunWithItsLocation() {
    EngineHarness h;
    const QString yaml =
        experiment("nometric", "  iterations: 3").replace("metric: score", "metric: accuracy");
    const EngineResult r = h.run({"run", h.writeFile("nometric.yaml", yaml)});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.all().contains("nometric.yaml:6:1: metric: 'accuracy'"), qPrintable(r.all()));
    QVERIFY2(r.all().contains("score"), qPrintable(r.all()));  // what it did report
}

void TestEngineFaults::misbehavingTrialsFailWithAClearMessage_data() {
    QTest::addColumn<QString>("space");
    QTest::addColumn<QString>("message");
    QTest::newRow("NaN metric") << "  nan_at: 2"
                                << "score = \"NaN\", which is not a finite";
    QTest::newRow("string metric") << "  string_at: 2"
                                   << "score = \"high\", which is not";
    QTest::newRow("never reports") << "  hang_at: 1"
                                   << "no message from the trial for 3 s";
    QTest::newRow("100 MB line") << "  flood_at: 2"
                                 << "longer than 1 MiB";
    QTest::newRow("garbage line") << "  garbage_at: 2"
                                  << "is not JSON";
    QTest::newRow("report ending in NUL") << "  nul_at: 2"
                                          << "holds a NUL byte at byte 40";
    QTest::newRow("training_iteration beyond 2^53")
        << "  huge_iteration_at: 2"
        << "training_iteration = 1e+300; it must be a whole number from 0 to 2^53";
    QTest::newRow("crash") << "  crash_at: 2\n  always_crash: true"
                           << "crashing on purpose at iteration 2";
}

void TestEngineFaults::misbehavingTrialsFailWithAClearMessage() {
    QFETCH(QString, space);
    QFETCH(QString, message);
    EngineHarness h;
    const QString yaml =
        experiment("faulty", space + "\n  iterations: 4",
                   "failure: {max_failures: 1, heartbeat_timeout_s: 3}\nnum_samples: 2\n");
    const EngineResult r = h.run({"run", h.writeFile("faulty.yaml", yaml)});
    QCOMPARE(r.exitCode, 1);  // finished, with errored trials
    const QString folder = h.experimentFolder("faulty");
    const EngineResult show = h.run({"show", folder});
    QVERIFY2(show.out.contains("ERROR") && show.out.contains(message), qPrintable(show.out));
    // Each trial was tried twice (max_failures: 1) and the database is whole.
    const QString db = folder + "/experiment.sqlite";
    QCOMPARE(sqliteQuery(db, "SELECT group_concat(failures) FROM trials"), QStringLiteral("2,2"));
    QCOMPARE(sqliteQuery(db, "PRAGMA integrity_check"), QStringLiteral("ok"));
}

void TestEngineFaults::aCrashIsRetriedFromTheLatestCheckpoint() {
    EngineHarness h;
    const QString yaml = experiment("retry", "  crash_at: 7\n  iterations: 10",
                                    "checkpoint: {frequency: 5}\nfailure: {max_failures: 1}\n");
    const EngineResult r = h.run({"run", h.writeFile("retry.yaml", yaml)});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QString folder = h.experimentFolder("retry");
    const QJsonArray exported = h.exportJson(folder);
    QCOMPARE(EngineHarness::statuses(exported).value("t00000").toString(),
             QStringLiteral("TERMINATED"));
    QList<int> iterations;
    for (const QJsonValue& result : exported.first().toObject().value("results").toArray()) {
        iterations << result.toObject().value("training_iteration").toInt();
    }
    QCOMPARE(iterations, (QList<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));  // none lost, none twice
    QFile log(folder + "/trials/t00000/trial.log");
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(log.readAll());
    QVERIFY2(text.contains("start iteration=0 restore=\n"), qPrintable(text));
    QVERIFY2(text.contains("start iteration=5 restore=" + folder +
                           "/trials/t00000/checkpoints/checkpoint_000005"),
             qPrintable(text));
    // Issue 34.13: the retry's lines ran on from the crash's; a line now parts the two.
    const qsizetype crash = text.indexOf("crashing on purpose");
    const qsizetype parted = text.indexOf("\n--- started again at ");
    const qsizetype retry = text.indexOf("start iteration=5");
    QVERIFY2(crash >= 0 && crash < parted && parted < retry, qPrintable(text));
    QCOMPARE(text.count("--- started again at "), 1);
}

void TestEngineFaults::failFastStopsTheExperiment() {
    EngineHarness h;
    const QString yaml = experiment("fast", "  crash_at: 1\n  always_crash: true\n  sleep: 0.3",
                                    "failure: {fail_fast: true}\nnum_samples: 20\n"
                                    "max_concurrent_trials: 1\n");
    const EngineResult r = h.run({"run", h.writeFile("fast.yaml", yaml)});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.all().contains("fail_fast"), qPrintable(r.all()));
    QVERIFY(h.exportJson(h.experimentFolder("fast")).size() < 20);
}

void TestEngineFaults::anUnwritableResultsFolderIsReported() {
    EngineHarness h;
    const QString file = h.writeFile("ok.yaml", experiment("ok", "  iterations: 1"));
    const EngineResult r = h.run({"run", file, "--results", "/dev/null/results"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("/dev/null/results") && r.err.contains("Not a directory"),
             qPrintable(r.err));
}

// A trial that runs out of memory says so in `show` (not a bare "killed by signal 9"), and the
// memory it took on the way is in the history, sample by sample, beside its results.
void TestEngineFaults::aTrialOutOfMemorySaysSoBesideItsRecordedMemory_data() {
    QTest::addColumn<bool>("inCgroup");
    QTest::addColumn<QString>("limit");
    QTest::addColumn<QString>("message");
    QTest::newRow("ulimit -v: MemoryError") << false << "\n  memory_limit_mb: 330"
                                            << "exited with status 1: out of memory at ";
    QTest::newRow("memory cgroup: the OOM killer")
        << true << ""
        << "out of memory: the kernel's OOM killer ended it (signal 9) at ";
}

void TestEngineFaults::aTrialOutOfMemorySaysSoBesideItsRecordedMemory() {
    QFETCH(bool, inCgroup);
    QFETCH(QString, limit);
    QFETCH(QString, message);
    const MemoryCgroup cgroup(320);
    if (inCgroup && !cgroup.made()) {
        QSKIP(
            "this test may not make a memory cgroup (it needs root and cgroup v1's memory "
            "controller at /sys/fs/cgroup/memory)");
    }
    EngineHarness h;
    const QString yaml = experiment("oom", "  grow_mb: 40\n  sleep: 0.25\n  iterations: 40" + limit,
                                    "gpu_sample_s: 0.2\n");
    auto engine = h.start(
        {"run", h.writeFile("oom.yaml", yaml)},
        inCgroup ? std::function<void()>([&cgroup] { cgroup.join(); }) : std::function<void()>());
    const EngineResult r = EngineHarness::finish(*engine);
    QCOMPARE(r.exitCode, 1);  // finished, its trial in ERROR
    const QString folder = h.experimentFolder("oom");
    const EngineResult show = h.run({"show", folder});
    QVERIFY2(show.out.contains(message), qPrintable(show.out));
    // The samples of its resident memory grew past half of what it reached, every one of them
    // naming the trial; its CPU use is there too.
    const QString db = folder + "/experiment.sqlite";
    const QString perTrial =
        "FROM node_usage, json_each(node_usage.data, '$.trials') AS t "
        "WHERE json_extract(t.value, '$.trial') = 't00000'";
    const double peakMb =
        sqliteQuery(db, "SELECT max(json_extract(t.value, '$.rss_mb')) " + perTrial).toDouble();
    const double firstMb = sqliteQuery(db, "SELECT json_extract(t.value, '$.rss_mb') " + perTrial +
                                               " ORDER BY node_usage.seq LIMIT 1")
                               .toDouble();
    QVERIFY2(peakMb > 160 && firstMb < peakMb / 2,
             qPrintable(QStringLiteral("first %1 MiB, peak %2 MiB").arg(firstMb).arg(peakMb)));
    QVERIFY(sqliteQuery(db, "SELECT count(json_extract(t.value, '$.cpu_percent')) " + perTrial)
                .toInt() > 0);
}

QTEST_GUILESS_MAIN(TestEngineFaults)
#include "test_engine_faults.moc"
