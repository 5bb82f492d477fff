// Node usage samples in the history: one sequence with events and results (what the control API
// replays), thinning as they age (store/usage_retention.h), and histories written before them.
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <cmath>
#include <map>

#include "store/schema.h"
#include "store_test.h"
#include "store_test_support.h"

using namespace tunedeck;
using namespace store_test;

namespace {

QJsonObject usage(const QString& node, double cpu) {
    return {{"node", node},
            {"cpu_percent", cpu},
            {"memory_used_mb", 1000},
            {"memory_total_mb", 4000},
            {"gpus", QJsonArray{QJsonObject{
                         {"index", 0}, {"uuid", "GPU-a"}, {"trials", QJsonArray{"t00000"}}}}}};
}

}  // namespace

void StoreTest::nodeUsageSharesTheSequenceAndReplaysInOrder() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    auto store = openStore(path);
    QVERIFY(store);
    store->saveTrial(trialRecord(0));
    const std::int64_t e1 = store->appendEvent("experiment_started", {}, {{"name", "x"}}, 10.0);
    const std::int64_t u1 = store->appendNodeUsage("local", 10.5, usage("local", 12.5));
    const std::int64_t r1 = store->appendResult("t00000", 1, 11.0, {{"loss", 1.0}});
    const std::int64_t u2 = store->appendNodeUsage("lab2", 11.5, usage("lab2", 50));
    QVERIFY(e1 < u1 && u1 < r1 && r1 < u2);
    QVERIFY(store->flush().isOk());
    QCOMPARE(store->lastSeq(), u2);

    const std::vector<EventRecord> stream = store->loadEventStream(0, 100);
    QCOMPARE(stream.size(), size_t(4));
    QCOMPARE(stream[1].seq, u1);
    QCOMPARE(stream[1].type, QString("node_usage"));
    QCOMPARE(stream[1].timestamp, 10.5);
    QCOMPARE(stream[1].trialId, QString());
    QCOMPARE(stream[1].payload, usage("local", 12.5));
    QCOMPARE(stream[2].type, QString("result"));
    QCOMPARE(stream[3].payload.value("node").toString(), QString("lab2"));
    QCOMPARE(store->loadEventStream(r1, 100).size(), size_t(1));  // "since N" skips them too

    const std::vector<NodeUsageRecord> lab2 = store->loadNodeUsage("lab2");
    QCOMPARE(lab2.size(), size_t(1));
    QCOMPARE(lab2[0].seq, u2);
    QCOMPARE(lab2[0].node, QString("lab2"));
    QCOMPARE(store->loadNodeUsage().size(), size_t(2));
    // A user's own tool reads the table as documented.
    QCOMPARE(queryText(path,
                       "SELECT json_extract(data, '$.cpu_percent') FROM node_usage "
                       "WHERE node = 'local'"),
             QString("12.5"));

    // Reopened, the sequence goes on after the samples.
    store.reset();
    store = openStore(path);
    QVERIFY(store->appendEvent("x", {}, {}, 12.0) > u2);
}

void StoreTest::oldNodeUsageIsThinnedAsItAges() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    // Seven hours of samples every 10 s from two nodes, in the order they would arrive.
    const double start = 1699999800;  // a multiple of 300 s: the first step is whole
    const double step = 10;
    const int count = 7 * 3600 / 10;
    std::map<std::int64_t, double> timeOfSeq;
    {
        auto store = openStore(path);
        QVERIFY(store);
        for (int i = 0; i < count; ++i) {
            const double t = start + i * step;
            timeOfSeq[store->appendNodeUsage("a", t, usage("a", i))] = t;
            timeOfSeq[store->appendNodeUsage("b", t + 1, usage("b", i))] = t + 1;
        }
        QVERIFY(store->flush().isOk());
    }
    auto store = openStore(path, ExperimentStore::Mode::ReadOnly);
    QVERIFY(store);
    const double last = start + (count - 1) * step;
    for (const QString node : {"a", "b"}) {
        const std::vector<NodeUsageRecord> kept = store->loadNodeUsage(node);
        std::map<std::int64_t, int> perRecentStep;  // 30 s steps from 10 min to 6 h old
        std::map<std::int64_t, int> perOldStep;     // 5 min steps beyond
        int recent = 0;
        for (const NodeUsageRecord& sample : kept) {
            // Thinning runs every 30 s of sample time on whole steps, so the rows just past a
            // tier's age may wait up to a minute (5.5 for the second tier) for their turn.
            const double age = last + (node == "b" ? 1 : 0) - sample.timestamp;
            if (age < 600) {
                ++recent;
            } else if (age > 700 && age < 6 * 3600 - 300) {
                ++perRecentStep[std::int64_t(sample.timestamp / 30)];
                // The sample kept is the step's first: a real sample, not a blend.
                QVERIFY(std::fmod(sample.timestamp, 30) < step);
            } else if (age > 6 * 3600 + 400) {
                ++perOldStep[std::int64_t(sample.timestamp / 300)];
                QVERIFY(std::fmod(sample.timestamp, 300) < step);
            }
        }
        QCOMPARE(recent, 60);  // every sample of the last 10 minutes
        for (const auto& [bucket, n] : perRecentStep) {
            QCOMPARE(n, 1);
        }
        for (const auto& [bucket, n] : perOldStep) {
            QCOMPARE(n, 1);
        }
        // No step is left without its sample.
        QVERIFY(perRecentStep.size() >= size_t((6 * 3600 - 300 - 700) / 30 - 1));
        QVERIFY(perOldStep.size() >= size_t((3600 - 400) / 300 - 1));
        // 2,520 samples became about 60 + 700 + 12.
        QVERIFY2(kept.size() < 850, qPrintable(QString::number(kept.size())));
    }
    // Results are untouched, and thinned seqs are never handed out again.
    store.reset();
    auto writer = openStore(path);
    QVERIFY(writer->appendEvent("x", {}, {}, last + 1) > timeOfSeq.rbegin()->first);
}

void StoreTest::version2HistoryReadsWithoutNodeUsage() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    {
        auto store = openStore(path);
        store->saveTrial(trialRecord(0));
        store->appendEvent("experiment_started", {}, {}, 1.0);
        store->appendResult("t00000", 1, 2.0, {{"loss", 0.5}});
        QVERIFY(store->flush().isOk());
    }
    QVERIFY(execSql(path, "DROP TABLE node_usage; PRAGMA user_version = 2"));
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".")));
        auto store = openStore(path, ExperimentStore::Mode::ReadOnly);
        QVERIFY(store);
        QCOMPARE(store->schemaVersion(), 2);
        QCOMPARE(store->loadEventStream(0, 10).size(), size_t(2));
        QVERIFY(store->loadNodeUsage().empty());
        QCOMPARE(store->lastSeq(), std::int64_t(2));
    }
    auto store = openStore(path);  // opened for writing: upgraded
    QCOMPARE(store->schemaVersion(), kStoreSchemaVersion);
    QCOMPARE(store->appendNodeUsage("local", 3.0, usage("local", 1)), std::int64_t(3));
    QVERIFY(store->flush().isOk());
    QCOMPARE(store->loadNodeUsage().size(), size_t(1));
}
