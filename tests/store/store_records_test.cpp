// Every record type goes in and comes back out; seq and ids behave as clients rely on.
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include "store/sqlite_db.h"
#include "store_test.h"
#include "store_test_support.h"

using namespace tunedeck;
using store_test::openStore;
using store_test::trialRecord;

namespace {

QString dbPath(const QTemporaryDir& dir) {
    return dir.filePath("experiment.sqlite");
}

}  // namespace

void StoreTest::experimentRoundTrips() {
    QTemporaryDir dir;
    auto store = openStore(dbPath(dir));
    QVERIFY(store);

    ExperimentRecord missing;
    QCOMPARE(store->loadExperiment(&missing).code(), Status::Code::NotFound);

    ExperimentRecord record;
    record.name = "mnist-asha";
    record.specText = "name: mnist-asha\nmetric: loss\n# é\n";
    record.specFile = "/experiments/mnist.yaml";
    record.seed = 0xfedcba9876543210ULL;  // above INT64_MAX: must survive SQLite's signed integers
    record.status = "running";
    record.createdAt = 1700000000.25;
    record.searcherState = QJsonObject{{"kind", "random"}, {"draws", 3}};
    record.schedulerState = QJsonObject{{"rungs", QJsonArray{1, 3, 9}}};
    store->saveExperiment(record);
    QVERIFY(store->flush().isOk());

    ExperimentRecord loaded;
    QVERIFY(store->loadExperiment(&loaded).isOk());
    QCOMPARE(loaded.name, record.name);
    QCOMPARE(loaded.specText, record.specText);
    QCOMPARE(loaded.specFile, record.specFile);
    QCOMPARE(loaded.seed, record.seed);
    QCOMPARE(loaded.status, record.status);
    QCOMPARE(loaded.createdAt, record.createdAt);
    QCOMPARE(loaded.finishedAt, 0.0);
    QCOMPARE(loaded.searcherState, record.searcherState);
    QCOMPARE(loaded.schedulerState, record.schedulerState);

    store->saveSearchState(QJsonObject{{"draws", 10}}, QJsonObject{{"rungs", QJsonArray{1}}});
    store->setExperimentStatus("finished", 1700000100.5);
    QVERIFY(store->flush().isOk());
    QVERIFY(store->loadExperiment(&loaded).isOk());
    QCOMPARE(loaded.status, QString("finished"));
    QCOMPARE(loaded.finishedAt, 1700000100.5);
    QCOMPARE(loaded.searcherState, (QJsonObject{{"draws", 10}}));
    QCOMPARE(loaded.schedulerState, (QJsonObject{{"rungs", QJsonArray{1}}}));
    QCOMPARE(loaded.name, record.name);  // the other columns are kept
}

void StoreTest::trialsRoundTripAndUpdateInPlace() {
    QTemporaryDir dir;
    auto store = openStore(dbPath(dir));
    QVERIFY(store);

    TrialRecord second = trialRecord(1);
    Trial& t = second.trial;
    t.config = QJsonObject{{"lr", 0.1}, {"layers", QJsonArray{64, 32}}, {"opt", "adam"}};
    t.status = TrialStatus::Error;
    t.failures = 2;
    t.iteration = 17;
    t.timeTotalS = 42.5;
    t.lastResult = QJsonObject{{"loss", 0.25}, {"training_iteration", 17}};
    t.checkpointPath = "/results/t00001/checkpoint_000017";
    t.checkpointIteration = 17;
    t.pendingReason = "waiting for 1 GPU";
    t.errorMessage = "exit code 1\nTraceback: ...";
    t.nodeId = "node-2";
    second.startedAt = 100.5;
    second.finishedAt = 200.25;
    store->saveTrial(second);  // saved first, but listed second (by index)
    store->saveTrial(trialRecord(0));
    QVERIFY(store->flush().isOk());

    std::vector<TrialRecord> trials = store->loadTrials();
    QCOMPARE(trials.size(), size_t(2));
    QCOMPARE(trials[0].trial.id, QString("t00000"));
    QCOMPARE(trials[0].trial.status, TrialStatus::Pending);
    const Trial& u = trials[1].trial;
    QCOMPARE(u.id, t.id);
    QCOMPARE(u.index, t.index);
    QCOMPARE(u.config, t.config);
    QCOMPARE(u.status, t.status);
    QCOMPARE(u.failures, t.failures);
    QCOMPARE(u.iteration, t.iteration);
    QCOMPARE(u.timeTotalS, t.timeTotalS);
    QCOMPARE(u.lastResult, t.lastResult);
    QCOMPARE(u.checkpointPath, t.checkpointPath);
    QCOMPARE(u.checkpointIteration, t.checkpointIteration);
    QCOMPARE(u.pendingReason, t.pendingReason);
    QCOMPARE(u.errorMessage, t.errorMessage);
    QCOMPARE(u.nodeId, t.nodeId);
    QCOMPARE(trials[1].startedAt, second.startedAt);
    QCOMPARE(trials[1].finishedAt, second.finishedAt);

    // Saving again updates the row in place, and the trial's results stay attached to it.
    store->appendResult(t.id, 18, 1.0, QJsonObject{{"loss", 0.2}});
    t.status = TrialStatus::Terminated;
    t.iteration = 18;
    store->saveTrial(second);
    QVERIFY(store->flush().isOk());
    trials = store->loadTrials();
    QCOMPARE(trials.size(), size_t(2));
    QCOMPARE(trials[1].trial.status, TrialStatus::Terminated);
    QCOMPARE(trials[1].trial.iteration, std::int64_t(18));
    QCOMPARE(store->loadResults(t.id).size(), size_t(1));
}

void StoreTest::resultsAndEventsShareOneIncreasingSeq() {
    QTemporaryDir dir;
    auto store = openStore(dbPath(dir));
    QVERIFY(store);
    store->saveTrial(trialRecord(0));
    store->saveTrial(trialRecord(1));

    const std::int64_t e1 = store->appendEvent("experiment_started", {}, {{"trials", 2}}, 10.0);
    const std::int64_t r1 = store->appendResult("t00000", 1, 11.0, {{"loss", 1.0}});
    const std::int64_t r2 = store->appendResult("t00001", 1, 11.5, {{"loss", 2.0}});
    const std::int64_t e2 = store->appendEvent("trial_paused", "t00000", {{"why", "pbt"}}, 12.0);
    const std::int64_t r3 = store->appendResult("t00000", 2, 12.5, {{"loss", 0.5}});
    QCOMPARE(e1, std::int64_t(1));
    QVERIFY(e1 < r1 && r1 < r2 && r2 < e2 && e2 < r3);
    QVERIFY(store->flush().isOk());
    QCOMPARE(store->lastSeq(), r3);
    QCOMPARE(store->resultCount(), std::int64_t(3));

    const std::vector<ResultRecord> all = store->loadResults();
    QCOMPARE(all.size(), size_t(3));
    QCOMPARE(all[0].seq, r1);
    QCOMPARE(all[1].seq, r2);
    QCOMPARE(all[2].seq, r3);
    QCOMPARE(all[1].trialId, QString("t00001"));
    QCOMPARE(all[2].iteration, std::int64_t(2));
    QCOMPARE(all[2].timestamp, 12.5);
    QCOMPARE(all[2].result, (QJsonObject{{"loss", 0.5}}));
    const std::vector<ResultRecord> first = store->loadResults("t00000");
    QCOMPARE(first.size(), size_t(2));
    QCOMPARE(first[1].seq, r3);

    const std::vector<EventRecord> events = store->loadEvents(0);
    QCOMPARE(events.size(), size_t(2));
    QCOMPARE(events[0].seq, e1);
    QCOMPARE(events[0].type, QString("experiment_started"));
    QCOMPARE(events[0].trialId, QString());
    QCOMPARE(events[0].payload, (QJsonObject{{"trials", 2}}));
    QCOMPARE(events[0].timestamp, 10.0);
    QCOMPARE(events[1].trialId, QString("t00000"));
    QCOMPARE(store->loadEvents(e1).size(), size_t(1));
    QCOMPARE(store->loadEvents(e2).size(), size_t(0));
    QCOMPARE(store->loadEvents(0, 1).size(), size_t(1));
    QCOMPARE(store->loadEvents(0, 1)[0].seq, e1);
}

void StoreTest::seqContinuesAfterReopen() {
    QTemporaryDir dir;
    std::int64_t last = 0;
    {
        auto store = openStore(dbPath(dir));
        QVERIFY(store);
        store->saveTrial(trialRecord(0));
        store->appendResult("t00000", 1, 1.0, {{"loss", 1.0}});
        last = store->appendEvent("trial_started", "t00000", {}, 1.0);
    }  // the destructor commits without an explicit flush
    auto store = openStore(dbPath(dir));
    QVERIFY(store);
    QCOMPARE(store->lastSeq(), last);
    const std::int64_t next = store->appendResult("t00000", 2, 2.0, {{"loss", 0.5}});
    QCOMPARE(next, last + 1);
    QCOMPARE(store->appendEvent("trial_finished", "t00000", {}, 2.0), last + 2);
}

void StoreTest::seqIsNotReusedAfterDeletingTheNewestResults() {
    QTemporaryDir dir;
    std::int64_t newest = 0;
    {
        auto store = openStore(dbPath(dir));
        QVERIFY(store);
        store->saveTrial(trialRecord(0));
        for (int i = 1; i <= 5; ++i) {
            newest = store->appendResult("t00000", i, i, {{"loss", 1.0 / i}});
        }
        store->deleteResultsAfter("t00000", 2);  // removes the three newest seqs
    }
    auto store = openStore(dbPath(dir));
    QVERIFY(store);
    QCOMPARE(store->resultCount(), std::int64_t(2));
    // A client that saw `newest` before the engine restarted must not miss the next result.
    QCOMPARE(store->appendResult("t00000", 3, 6.0, {{"loss", 0.3}}), newest + 1);
}

void StoreTest::checkpointsRoundTrip() {
    QTemporaryDir dir;
    std::int64_t firstId = 0;
    std::int64_t secondId = 0;
    {
        auto store = openStore(dbPath(dir));
        QVERIFY(store);
        store->saveTrial(trialRecord(0));
        store->saveTrial(trialRecord(1));
        firstId = store->addCheckpoint("t00000", 5, "/r/t00000/checkpoint_000005",
                                       {{"loss", 0.5}, {"training_iteration", 5}}, 50.0);
        secondId = store->addCheckpoint("t00001", 3, "/r/t00001/checkpoint_000003", {}, 30.0);
        store->addCheckpoint("t00000", 10, "/r/t00000/checkpoint_000010", {{"loss", 0.4}}, 100.0);
        QVERIFY(firstId > 0 && secondId == firstId + 1);
        store->markCheckpointDeleted(firstId);
        QVERIFY(store->flush().isOk());

        const std::vector<StoredCheckpoint> all = store->loadCheckpoints();
        QCOMPARE(all.size(), size_t(3));
        const StoredCheckpoint& c = all[0];
        QCOMPARE(c.id, firstId);
        QCOMPARE(c.trialId, QString("t00000"));
        QCOMPARE(c.iteration, std::int64_t(5));
        QCOMPARE(c.path, QString("/r/t00000/checkpoint_000005"));
        QCOMPARE(c.result, (QJsonObject{{"loss", 0.5}, {"training_iteration", 5}}));
        QCOMPARE(c.createdAt, 50.0);
        QVERIFY(c.deleted);
        QVERIFY(!all[1].deleted);

        const std::vector<StoredCheckpoint> ofFirst = store->loadCheckpoints("t00000");
        QCOMPARE(ofFirst.size(), size_t(2));
        QCOMPARE(ofFirst[1].iteration, std::int64_t(10));
    }
    auto store = openStore(dbPath(dir));
    QVERIFY(store);
    QCOMPARE(store->addCheckpoint("t00001", 6, "/r/t00001/checkpoint_000006", {}, 60.0),
             secondId + 2);
}

void StoreTest::flushMakesWritesVisibleToAReadOnlyStore() {
    QTemporaryDir dir;
    auto writer = openStore(dbPath(dir));
    QVERIFY(writer);
    writer->saveTrial(trialRecord(0));
    writer->appendResult("t00000", 1, 1.0, {{"loss", 1.0}});
    QVERIFY(writer->flush().isOk());

    auto reader = openStore(dbPath(dir), ExperimentStore::Mode::ReadOnly);
    QVERIFY(reader);
    QCOMPARE(reader->resultCount(), std::int64_t(1));

    // The writer keeps the file open; each flush is visible to the other connection at once.
    for (int i = 2; i <= 4; ++i) {
        writer->appendResult("t00000", i, i, {{"loss", 1.0 / i}});
        QVERIFY(writer->flush().isOk());
        QCOMPARE(reader->resultCount(), std::int64_t(i));
        QCOMPARE(writer->resultCount(), std::int64_t(i));
    }
    QCOMPARE(reader->loadTrials().size(), size_t(1));
    QCOMPARE(reader->lastSeq(), writer->lastSeq());
}

void StoreTest::writesAreCommittedWithoutAFlush() {
    QTemporaryDir dir;
    auto store = openStore(dbPath(dir));
    QVERIFY(store);
    store->saveTrial(trialRecord(0));
    store->appendResult("t00000", 1, 1.0, {{"loss", 1.0}});
    // Live charts read the file while the engine runs: a batch is committed within ~50 ms.
    QTRY_COMPARE_WITH_TIMEOUT(store->resultCount(), std::int64_t(1), 2000);
}

void StoreTest::deleteResultsAfterIsOrderedWithOtherWrites() {
    QTemporaryDir dir;
    auto store = openStore(dbPath(dir));
    QVERIFY(store);
    store->saveTrial(trialRecord(0));
    store->saveTrial(trialRecord(1));
    for (int i = 1; i <= 6; ++i) {
        store->appendResult("t00000", i, i, {{"loss", 10.0 - i}, {"attempt", 1}});
        store->appendResult("t00001", i, i, {{"loss", 20.0 - i}});
    }
    // Resume t00000 from its iteration-3 checkpoint: later results are replaced, all before one
    // flush, so the delete must apply between the writes queued around it.
    store->deleteResultsAfter("t00000", 3);
    store->appendResult("t00000", 4, 7.0, {{"loss", 5.5}, {"attempt", 2}});
    QVERIFY(store->flush().isOk());

    const std::vector<ResultRecord> rows = store->loadResults("t00000");
    QCOMPARE(rows.size(), size_t(4));
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(rows[i].iteration, std::int64_t(i + 1));
        QCOMPARE(rows[i].result["attempt"].toInt(), 1);
    }
    QCOMPARE(rows[3].iteration, std::int64_t(4));
    QCOMPARE(rows[3].result["attempt"].toInt(), 2);
    QCOMPARE(store->loadResults("t00001").size(), size_t(6));  // other trials untouched
}

void StoreTest::resultOfAnUnsavedTrialIsRefused() {
    QTemporaryDir dir;
    auto store = openStore(dbPath(dir));
    QVERIFY(store);
    store->saveTrial(trialRecord(0));
    QVERIFY(store->flush().isOk());
    store->appendResult("t00000", 1, 1.0, {{"loss", 1.0}});
    store->appendResult("t09999", 1, 1.0, {{"loss", 1.0}});
    const Status status = store->flush();
    QVERIFY(!status.isOk());
    QVERIFY2(status.message().contains("FOREIGN KEY"), qPrintable(status.message()));
    QCOMPARE(store->resultCount(), std::int64_t(0));  // the whole batch was rolled back
}

void StoreTest::readOnlyStoreDropsWrites() {
    QTemporaryDir dir;
    {
        auto store = openStore(dbPath(dir));
        QVERIFY(store);
        store->saveTrial(trialRecord(0));
    }
    auto reader = openStore(dbPath(dir), ExperimentStore::Mode::ReadOnly);
    QVERIFY(reader);
    QVERIFY(reader->flush().isOk());
    reader->appendResult("t00000", 1, 1.0, {{"loss", 1.0}});
    const Status status = reader->flush();
    QCOMPARE(status.code(), Status::Code::InvalidArgument);
    QVERIFY2(status.message().contains("read-only"), qPrintable(status.message()));
    QCOMPARE(reader->lastError().code(), Status::Code::InvalidArgument);
    QCOMPARE(reader->resultCount(), std::int64_t(0));
    QCOMPARE(reader->schemaVersion(), kStoreSchemaVersion);
}

void StoreTest::jsonColumnsReadBackAsWritten() {
    // Every kind of value a result holds, written by the store's own serialiser, comes back
    // from SQLite exactly as it went in (and as Qt's parser reads it).
    const QJsonObject result{
        {"loss", 0.1},
        {"tiny", 1e-300},
        {"huge", 1.7976931348623157e308},
        {"negative", -2.5e-7},
        {"whole", 3.0},
        {"big_whole", 9007199254740993.0},
        {"count", qint64(-42)},
        {"flag", true},
        {"none", QJsonValue::Null},
        {"quotes", "say \"hi\""},
        {"backslash", "C:\\temp"},
        {"text", "quote \" backslash \\ tab \t newline \n bell \u0007 \u00e9\u4e2d\U0001F600"},
        {"k\u00e9y \"odd\"", 1},
        {"nested", QJsonObject{{"list", QJsonArray{1, 2.5, "x", QJsonArray{}, QJsonObject{}}}}},
    };
    QTemporaryDir dir;
    std::unique_ptr<ExperimentStore> store = openStore(dbPath(dir));
    const TrialRecord record = trialRecord(0);
    const Trial& t = record.trial;
    store->saveTrial(record);
    store->appendResult(t.id, 1, 10.0, result);
    QVERIFY(store->flush().isOk());
    const QByteArray text = store::jsonText(result);
    QCOMPARE(QJsonDocument::fromJson(text).object(), result);
    const std::vector<ResultRecord> rows = store->loadResults(t.id);
    QCOMPARE(rows.size(), std::size_t(1));
    QCOMPARE(rows.front().result, result);
}
