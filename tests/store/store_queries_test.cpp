// The queries behind `best`, `show` and CSV export.
#include <QTemporaryDir>
#include <QTest>

#include "store_test.h"
#include "store_test_support.h"

using namespace tunedeck;
using store_test::openStore;
using store_test::trialRecord;

Q_DECLARE_METATYPE(tunedeck::MetricMode)
Q_DECLARE_METATYPE(tunedeck::ScoreScope)

namespace {

using Scores = QList<QPair<QString, double>>;

Scores toList(const std::vector<TrialScore>& scores) {
    Scores list;
    for (const TrialScore& score : scores) {
        list.append({score.trialId, score.value});
    }
    return list;
}

// Three trials whose rankings differ by scope:
//   t00000 loss 4, 1, 3  (last 3, min 1, avg 8/3)
//   t00001 loss 2 at iteration 2, then 7 at iteration 1: restored from its start, so only the 7
//          counts (last, min, max and avg 7), as the app's live curve goes back
//   t00002 loss 9, 0.5, 6, 5 (last 5, min 0.5, max 9, avg 5.125)
void writeLosses(ExperimentStore& store) {
    for (int i = 0; i < 3; ++i) {
        store.saveTrial(trialRecord(i));
    }
    const double first[] = {4, 1, 3};
    for (int i = 0; i < 3; ++i) {
        store.appendResult("t00000", i + 1, i, {{"loss", first[i]}});
    }
    store.appendResult("t00001", 2, 0, {{"loss", 2}});
    store.appendResult("t00001", 1, 0, {{"loss", 7}});
    const double third[] = {9, 0.5, 6, 5};
    for (int i = 0; i < 4; ++i) {
        store.appendResult("t00002", i + 1, i, {{"loss", third[i]}});
    }
}

}  // namespace

void StoreTest::trialScoresRankByScopeAndMode_data() {
    QTest::addColumn<MetricMode>("mode");
    QTest::addColumn<ScoreScope>("scope");
    QTest::addColumn<Scores>("expected");
    QTest::newRow("last-min") << MetricMode::Min << ScoreScope::Last
                              << Scores{{"t00000", 3}, {"t00002", 5}, {"t00001", 7}};
    QTest::newRow("last-max") << MetricMode::Max << ScoreScope::Last
                              << Scores{{"t00001", 7}, {"t00002", 5}, {"t00000", 3}};
    QTest::newRow("all-min") << MetricMode::Min << ScoreScope::All
                             << Scores{{"t00002", 0.5}, {"t00000", 1}, {"t00001", 7}};
    QTest::newRow("all-max") << MetricMode::Max << ScoreScope::All
                             << Scores{{"t00002", 9}, {"t00001", 7}, {"t00000", 4}};
    QTest::newRow("avg-min") << MetricMode::Min << ScoreScope::Avg
                             << Scores{{"t00000", 8.0 / 3}, {"t00002", 5.125}, {"t00001", 7}};
    QTest::newRow("avg-max") << MetricMode::Max << ScoreScope::Avg
                             << Scores{{"t00001", 7}, {"t00002", 5.125}, {"t00000", 8.0 / 3}};
    // Ray's windowed means: t00002's last 5 are all 4 of its values.
    QTest::newRow("last-5-avg-min")
        << MetricMode::Min << ScoreScope::Last5Avg
        << Scores{{"t00000", 8.0 / 3}, {"t00002", 5.125}, {"t00001", 7}};
}

void StoreTest::trialScoresRankByScopeAndMode() {
    QFETCH(MetricMode, mode);
    QFETCH(ScoreScope, scope);
    QFETCH(Scores, expected);
    QTemporaryDir dir;
    auto store = openStore(dir.filePath("experiment.sqlite"));
    QVERIFY(store);
    writeLosses(*store);
    QVERIFY(store->flush().isOk());
    QCOMPARE(toList(store->trialScores("loss", mode, scope)), expected);
    QVERIFY(store->trialScores("accuracy", mode, scope).empty());
}

void StoreTest::trialScoresSkipNonNumericValues() {
    QTemporaryDir dir;
    auto store = openStore(dir.filePath("experiment.sqlite"));
    QVERIFY(store);
    for (int i = 0; i < 4; ++i) {
        store->saveTrial(trialRecord(i));
    }
    store->appendResult("t00000", 1, 0, {{"acc", 0.7}});
    store->appendResult("t00001", 1, 0, {{"acc", "0.9"}});  // a string is not a score
    store->appendResult("t00002", 1, 0, {{"acc", true}});   // nor is a boolean
    store->appendResult("t00003", 1, 0, {{"acc", 1}});
    store->appendResult("t00003", 2, 0, {{"loss", 0.1}});  // the latest row lacks the metric
    QVERIFY(store->flush().isOk());
    for (ScoreScope scope : {ScoreScope::Last, ScoreScope::All, ScoreScope::Avg}) {
        QCOMPARE(toList(store->trialScores("acc", MetricMode::Max, scope)),
                 (Scores{{"t00003", 1}, {"t00000", 0.7}}));
    }
}

void StoreTest::trialScoresFindKeysWithDotsAndQuotes() {
    QTemporaryDir dir;
    auto store = openStore(dir.filePath("experiment.sqlite"));
    QVERIFY(store);
    store->saveTrial(trialRecord(0));
    store->saveTrial(trialRecord(1));
    // A dotted key is one key, not a path into a nested object.
    store->appendResult("t00000", 1, 0, {{"val.acc", 0.8}, {"val", QJsonObject{{"acc", 0.1}}}});
    store->appendResult("t00001", 1, 0, {{"say \"hi\"", 3}});
    QVERIFY(store->flush().isOk());
    QCOMPARE(toList(store->trialScores("val.acc", MetricMode::Max, ScoreScope::Last)),
             (Scores{{"t00000", 0.8}}));
    QCOMPARE(toList(store->trialScores("say \"hi\"", MetricMode::Max, ScoreScope::All)),
             (Scores{{"t00001", 3}}));
}

void StoreTest::resultKeysAreDistinctAndSorted() {
    QTemporaryDir dir;
    auto store = openStore(dir.filePath("experiment.sqlite"));
    QVERIFY(store);
    QVERIFY(store->resultKeys().isEmpty());
    store->saveTrial(trialRecord(0));
    store->appendResult("t00000", 1, 0, {{"loss", 1}, {"training_iteration", 1}});
    store->appendResult("t00000", 2, 0,
                        {{"loss", 1}, {"acc", 0.5}, {"info", QJsonObject{{"lr", 0.1}}}});
    QVERIFY(store->flush().isOk());
    QCOMPARE(store->resultKeys(), (QStringList{"acc", "info", "loss", "training_iteration"}));
}
