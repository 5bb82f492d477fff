// What the store does when the disk refuses writes or the engine is killed, and how fast it is.
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <time.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <algorithm>
#include <functional>
#include <map>

#include "store_test.h"
#include "store_test_support.h"

using namespace tunedeck;
using store_test::openStore;
using store_test::trialRecord;

namespace {

// The committed history is a prefix of what was written: every trial's iterations run 1..n
// without a gap, and results and events together hold seq 1..N without a gap.
void verifyPrefix(const ExperimentStore& store, std::int64_t* resultCount) {
    std::map<QString, std::int64_t> lastIteration;
    std::vector<std::int64_t> seqs;
    for (const ResultRecord& row : store.loadResults()) {
        std::int64_t& last = lastIteration[row.trialId];
        QVERIFY2(row.iteration == last + 1, qPrintable(QStringLiteral("%1: iteration %2 follows %3")
                                                           .arg(row.trialId)
                                                           .arg(row.iteration)
                                                           .arg(last)));
        last = row.iteration;
        seqs.push_back(row.seq);
    }
    for (const EventRecord& event : store.loadEvents(0)) {
        seqs.push_back(event.seq);
    }
    std::sort(seqs.begin(), seqs.end());
    for (std::size_t i = 0; i < seqs.size(); ++i) {
        QVERIFY2(seqs[i] == std::int64_t(i + 1),
                 qPrintable(QStringLiteral("seq %1 at position %2").arg(seqs[i]).arg(i + 1)));
    }
    *resultCount = store.resultCount();
}

double cpuSeconds(clockid_t clock) {
    timespec now{};
    clock_gettime(clock, &now);
    return double(now.tv_sec) + double(now.tv_nsec) / 1e9;
}

QJsonObject sampleResult(std::int64_t iteration) {
    return {{"loss", 1.0 / double(iteration)},
            {"accuracy", 1.0 - 1.0 / double(iteration + 1)},
            {"training_iteration", qint64(iteration)},
            {"time_this_iter_s", 0.01},
            {"time_total_s", 0.01 * double(iteration)},
            {"lr", 0.001},
            {"node", "node-1"},
            {"done", false}};
}

// Commits 1000 results, breaks the disk, writes until the store reports it, then repairs the
// disk and checks that the committed history is intact and the file usable again.
void checkStickyWriteError(const QString& path, const std::function<void()>& breakDisk,
                           const std::function<void()>& repairDisk, const QString& expectedText) {
    auto store = openStore(path);
    QVERIFY(store);
    store->saveTrial(trialRecord(0));
    std::int64_t iteration = 0;
    while (iteration < 1000) {
        ++iteration;
        store->appendResult("t00000", iteration, 0, sampleResult(iteration));
    }
    QVERIFY(store->flush().isOk());

    breakDisk();
    Status error;
    while (error.isOk() && iteration < 400000) {
        for (int i = 0; i < 20000; ++i) {
            ++iteration;
            store->appendResult("t00000", iteration, 0, sampleResult(iteration));
        }
        error = store->flush();
    }
    QCOMPARE(error.code(), Status::Code::IoError);
    QVERIFY2(error.message().contains(expectedText), qPrintable(error.message()));
    QVERIFY2(error.message().contains("experiment.sqlite"), qPrintable(error.message()));
    QCOMPARE(store->lastError().message(), error.message());
    store->appendEvent("after_error", {}, {}, 0);  // dropped, and the error stays
    QCOMPARE(store->flush().message(), error.message());
    store.reset();  // flushes and closes without crashing or hanging
    repairDisk();

    QCOMPARE(store_test::integrityCheck(path), QString("ok"));
    store = openStore(path);
    QVERIFY(store);
    std::int64_t count = 0;
    verifyPrefix(*store, &count);
    QVERIFY(count >= 1000);
    QVERIFY(count < iteration);
    QVERIFY(store->loadEvents(0).empty());
    store->appendResult("t00000", count + 1, 0, sampleResult(count + 1));
    QVERIFY(store->flush().isOk());
}

}  // namespace

void StoreTest::fileSizeLimitGivesStickyErrorAndKeepsCommittedData() {
    // RLIMIT_FSIZE makes every write past the limit fail (EFBIG) without needing root.
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    rlimit original{};
    QVERIFY(getrlimit(RLIMIT_FSIZE, &original) == 0);
    struct sigaction ignore = {};
    struct sigaction previous = {};
    ignore.sa_handler = SIG_IGN;
    auto breakDisk = [&] {
        sigaction(SIGXFSZ, &ignore, &previous);  // the default action would kill the test
        const qint64 used = std::max(QFileInfo(path).size(), QFileInfo(path + "-wal").size());
        rlimit limited = original;
        limited.rlim_cur = rlim_t(used + 1024 * 1024);
        QVERIFY(setrlimit(RLIMIT_FSIZE, &limited) == 0);
    };
    auto repairDisk = [&] {
        setrlimit(RLIMIT_FSIZE, &original);
        sigaction(SIGXFSZ, &previous, nullptr);
    };
    checkStickyWriteError(path, breakDisk, repairDisk, "I/O error");
    repairDisk();  // also when a check above returned early
}

void StoreTest::fullDiskGivesStickyErrorAndKeepsCommittedData() {
    QString why;
    if (!store_test::enterPrivateMountNamespace(&why)) {
        QSKIP(qPrintable("a small tmpfs needs a private mount namespace (root): " + why));
    }
    QTemporaryDir dir;
    const QByteArray mountPoint = dir.path().toUtf8();
    if (mount("tmpfs", mountPoint.constData(), "tmpfs", 0, "size=4m") != 0) {
        QSKIP(qPrintable("cannot mount a tmpfs: " + qt_error_string(errno)));
    }
    struct Unmount {
        QByteArray path;
        ~Unmount() { umount2(path.constData(), MNT_DETACH); }
    } unmount{mountPoint};

    // Space the user can free once the disk is full.
    const QString ballast = dir.filePath("ballast");
    QFile file(ballast);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(QByteArray(512 * 1024, 'b')), qint64(512 * 1024));
    file.close();

    checkStickyWriteError(
        dir.filePath("experiment.sqlite"), [] {}, [&] { QVERIFY(QFile::remove(ballast)); }, "full");
}

void StoreTest::killedWriterLeavesAConsistentPrefix() {
    const QString helper = QDir(TUNEDECK_BIN_DIR).filePath("store_crash_writer");
    QVERIFY2(QFileInfo(helper).isExecutable(), qPrintable(helper + " is missing"));
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    std::int64_t previousCount = 0;
    // Each round kills the writer at a different moment and resumes from what it left.
    for (int round = 0; round < 4; ++round) {
        QProcess writer;
        writer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        writer.start(helper, {path});
        QVERIFY(writer.waitForStarted());
        QVERIFY2(writer.waitForReadyRead(30000), "the writer never committed its first batch");
        QCOMPARE(writer.readAll().trimmed(), QByteArray("ready"));
        QThread::msleep(100 + QRandomGenerator::global()->bounded(900));
        writer.kill();  // SIGKILL: no destructor, no flush
        QVERIFY(writer.waitForFinished());
        QCOMPARE(writer.exitStatus(), QProcess::CrashExit);

        QCOMPARE(store_test::integrityCheck(path), QString("ok"));
        auto store = openStore(path, ExperimentStore::Mode::ReadOnly);
        QVERIFY(store);
        std::int64_t count = 0;
        verifyPrefix(*store, &count);
        if (QTest::currentTestFailed()) {
            return;
        }
        QVERIFY2(count > previousCount, "the writer made no progress after a restart");
        qInfo("round %d: %lld results committed before the kill", round, qlonglong(count));
        previousCount = count;
    }
}

void StoreTest::throughput() {
    QTemporaryDir dir;
    auto store = openStore(dir.filePath("experiment.sqlite"));
    QVERIFY(store);
    constexpr int kTrials = 100;
    constexpr int kResults = 300000;
    for (int i = 0; i < kTrials; ++i) {
        store->saveTrial(trialRecord(i));
    }
    QVERIFY(store->flush().isOk());
    std::vector<QJsonObject> results;
    results.reserve(kResults);
    for (int i = 0; i < kResults; ++i) {
        results.push_back(sampleResult(i / kTrials + 1));
    }
    std::vector<QString> ids;
    for (int i = 0; i < kTrials; ++i) {
        ids.push_back(trialIdForIndex(i));
    }

    // A burst: the writer's own speed. The calls past the queue's limit wait for the writer,
    // so the caller's cost is the median call.
    const double processCpuBefore = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
    const double callerCpuBefore = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
    QElapsedTimer timer;
    timer.start();
    std::vector<qint64> callNs(kResults);
    for (int i = 0; i < kResults; ++i) {
        const qint64 before = timer.nsecsElapsed();
        store->appendResult(ids[i % kTrials], i / kTrials + 1, 0, results[i]);
        callNs[i] = timer.nsecsElapsed() - before;
    }
    QVERIFY(store->flush().isOk());
    const double burstS = double(timer.nsecsElapsed()) / 1e9;
    // The writer thread's CPU time per row tells its speed on a core of its own, which the
    // wall-clock figure does not when other processes share the machine.
    const double writerCpuS = (cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - processCpuBefore) -
                              (cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - callerCpuBefore);
    QCOMPARE(store->resultCount(), std::int64_t(kResults));
    std::nth_element(callNs.begin(), callNs.begin() + kResults / 2, callNs.end());
    const qint64 medianNs = callNs[kResults / 2];

    // What serialising on the caller's thread would have added to each appendResult.
    QElapsedTimer serialise;
    serialise.start();
    qint64 bytes = 0;
    for (int i = 0; i < 20000; ++i) {
        bytes += QJsonDocument(results[i]).toJson(QJsonDocument::Compact).size();
    }
    const double serialiseNs = double(serialise.nsecsElapsed()) / 20000;

    // The engine's pace: 50 results every millisecond (50,000/s) for two seconds, as an event
    // loop would deliver them; the slowest tick is how long the loop was held up.
    constexpr int kTicks = 2000;
    constexpr int kPerTick = 50;
    qint64 slowestTickNs = 0;
    timer.restart();
    for (int tick = 0; tick < kTicks; ++tick) {
        const qint64 start = timer.nsecsElapsed();
        for (int i = 0; i < kPerTick; ++i) {
            const int n = tick * kPerTick + i;
            store->appendResult(ids[n % kTrials], kResults / kTrials + 1 + n / kTrials, 0,
                                results[n]);
        }
        slowestTickNs = std::max(slowestTickNs, timer.nsecsElapsed() - start);
        const qint64 next = qint64(tick + 1) * 1000000;
        if (timer.nsecsElapsed() < next) {
            QThread::usleep(quint64((next - timer.nsecsElapsed()) / 1000));
        }
    }
    const qint64 producedNs = timer.nsecsElapsed();
    QVERIFY(store->flush().isOk());
    const double lagMs = double(timer.nsecsElapsed() - producedNs) / 1e6;
    QCOMPARE(store->resultCount(), std::int64_t(kResults + kTicks * kPerTick));

    qInfo(
        "burst: %d results committed in %.2f s: %.0f rows/s; the writer thread used %.2f us "
        "of CPU per row (%.0f rows/s on an idle core)",
        kResults, burstS, kResults / burstS, writerCpuS * 1e6 / kResults, kResults / writerCpuS);
    qInfo(
        "appendResult: median %lld ns on the caller's thread; serialising the result there "
        "would add %.0f ns (%lld-byte rows)",
        qlonglong(medianNs), serialiseNs, qlonglong(bytes / 20000));
    qInfo(
        "paced at 50,000 results/s for %.2f s: slowest 1 ms tick %.2f ms, last commit %.0f ms "
        "after the last result",
        double(producedNs) / 1e9, double(slowestTickNs) / 1e6, lagMs);
}
