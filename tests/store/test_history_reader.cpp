// The read-only history reader (store/history_reader.h) against files the real store wrote: what
// ExperimentStore recorded is read back field by field, the metric's curve of each trial comes
// from one pass over the results, and a file the reader cannot read (a newer schema, no schema)
// is refused with a message naming the file and the versions.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "store/history_reader.h"
#include "store/schema_version.h"
#include "store_test_support.h"

using namespace tunedeck;
using store_test::execSql;
using store_test::openStore;
using store_test::ReadOnlyFolder;
using store_test::trialRecord;

namespace {

std::unique_ptr<store::HistoryReader> openReader(const QString& path) {
    std::unique_ptr<store::HistoryReader> reader;
    const Status status = store::HistoryReader::open(path, &reader);
    if (!status) {
        qWarning("%s", qPrintable(status.message()));
    }
    return reader;
}

// Two trials and one PBT exploit, with results that have the metric, lack it, nest it, or name
// a trial the history does not list.
bool writeHistory(const QString& path) {
    auto store = openStore(path);
    if (!store) {
        return false;
    }
    ExperimentRecord experiment;
    experiment.name = QStringLiteral("toy");
    experiment.specText = QStringLiteral("name: toy\nmetric: loss\nmode: min\n");
    experiment.status = QStringLiteral("finished");
    experiment.createdAt = 1000;
    store->saveExperiment(experiment);
    TrialRecord first = trialRecord(0);
    first.trial.config = QJsonObject{{"lr", 1.0}, {"model", QJsonObject{{"depth", 3}}}};
    first.configFloats = {QStringLiteral("lr")};
    first.trial.status = TrialStatus::Terminated;
    first.trial.iteration = 3;
    first.trial.nodeId = QStringLiteral("lab2");
    first.startedAt = 1001;
    first.finishedAt = 1010;
    store->saveTrial(first);
    TrialRecord second = trialRecord(1);
    second.trial.status = TrialStatus::Error;
    second.trial.errorMessage = QStringLiteral("exit code 3");
    second.trial.iteration = 1;
    store->saveTrial(second);
    store->appendResult(first.trial.id, 1, 1002, {{"loss", 0.5}});
    store->appendResult(second.trial.id, 1, 1003, {{"loss", 0.9}});
    store->appendResult(first.trial.id, 2, 1004, {{"accuracy", 0.7}});  // no loss
    store->appendResult(first.trial.id, 3, 1005, {{"loss", 0.25}});
    ExploitRecord exploit;
    exploit.trialId = second.trial.id;
    exploit.sourceTrialId = first.trial.id;
    exploit.iteration = 1;
    exploit.sourceIteration = 3;
    exploit.oldConfig = second.trial.config;
    exploit.newConfig = QJsonObject{{"lr", 0.02}};
    exploit.reason = QStringLiteral("pbt: copying t00000");
    exploit.timestamp = 1006;
    store->addExploit(exploit);
    store->appendEvent(QStringLiteral("node"), {}, {{"node", "lab2"}, {"gpu_sharing", "mps"}},
                       1007);
    store->appendNodeUsage(QStringLiteral("lab2"), 1008, {{"cpu_percent", 12.5}});
    return bool(store->flush());
}

using Scores = QList<QPair<QString, double>>;

// The ranking `best`, `show` and `ls` print: the curves of `metric`, scored and ranked.
Scores ranked(const QString& path, const QString& metric, MetricMode mode, ScoreScope scope) {
    auto reader = openReader(path);
    std::vector<store::HistoryTrial> trials;
    std::vector<store::MetricCurve> curves;
    std::int64_t results = 0;
    if (!reader || !reader->readTrials(&trials) ||
        !reader->readCurves(metric, trials, &curves, &results)) {
        return {{"cannot read", 0}};
    }
    Scores list;
    for (const TrialScore& score : store::rankTrials(trials, curves, mode, scope)) {
        list.append({score.trialId, score.value});
    }
    return list;
}

// Three trials whose rankings differ by scope:
//   t00000 loss 4, 1, 3  (last 3, min 1, avg 8/3)
//   t00001 loss 2 at iteration 2, then 7 at iteration 1: restored from its start, so only the 7
//          counts (last, min, max and avg 7), as the app's live curve goes back
//   t00002 loss 9, 0.5, 6, 5 (last 5, min 0.5, max 9, avg 5.125)
bool writeLosses(const QString& path) {
    auto store = openStore(path);
    if (!store) {
        return false;
    }
    for (int i = 0; i < 3; ++i) {
        store->saveTrial(trialRecord(i));
    }
    const double first[] = {4, 1, 3};
    for (int i = 0; i < 3; ++i) {
        store->appendResult("t00000", i + 1, i, {{"loss", first[i]}});
    }
    store->appendResult("t00001", 2, 0, {{"loss", 2}});
    store->appendResult("t00001", 1, 0, {{"loss", 7}});
    const double third[] = {9, 0.5, 6, 5};
    for (int i = 0; i < 4; ++i) {
        store->appendResult("t00002", i + 1, i, {{"loss", third[i]}});
    }
    return bool(store->flush());
}

}  // namespace

Q_DECLARE_METATYPE(tunedeck::MetricMode)
Q_DECLARE_METATYPE(tunedeck::ScoreScope)

class TestHistoryReader : public QObject {
    Q_OBJECT
  private slots:
    void readsBackWhatTheStoreWrote();
    void curvesHoldTheResultsWithTheMetricInOrder();
    void nestedMetricIsFoundByItsPath();
    void newerSchemaIsRefusedNamingFileAndVersions();
    void fileWithoutSchemaIsRefusedNamingIt();
    void aHistoryIsNeverReadThroughASymbolicLink();
    void missingFileIsRefusedNamingIt();
    void olderHistoryReadsWithoutExploitsOrUsage();
    void resultsAreReadInPlaceMemberByMember();
    void aDamagedValueFailsTheReadAsDamage();
    void readOnlyFolderWithUncheckpointedWalShowsAllCommits();
    void trialsRankByScopeAndMode_data();
    void trialsRankByScopeAndMode();
    void rankingSkipsNonNumericValues();
    void rankingFindsKeysWithDotsAndQuotes();
};

void TestHistoryReader::readsBackWhatTheStoreWrote() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    QVERIFY(writeHistory(path));
    auto reader = openReader(path);
    QVERIFY(reader);
    QCOMPARE(reader->schemaVersion(), kStoreSchemaVersion);

    store::HistoryExperiment experiment;
    QVERIFY(reader->readExperiment(&experiment));
    QCOMPARE(experiment.name, QString("toy"));
    QCOMPARE(experiment.status, QString("finished"));
    QCOMPARE(experiment.specText, QString("name: toy\nmetric: loss\nmode: min\n"));
    QCOMPARE(experiment.createdAt, 1000.0);

    std::vector<store::HistoryTrial> trials;
    QVERIFY(reader->readTrials(&trials));
    QCOMPARE(trials.size(), std::size_t(2));
    QCOMPARE(trials[0].id, trialIdForIndex(0));
    QCOMPARE(trials[0].config.value("model").toObject().value("depth").toInt(), 3);
    QCOMPARE(trials[0].configFloats, FloatPaths{QStringLiteral("lr")});  // 1.0 stays a float
    QCOMPARE(trials[0].status, QString("TERMINATED"));
    QCOMPARE(trials[0].iteration, std::int64_t(3));
    QCOMPARE(trials[0].node, QString("lab2"));
    QCOMPARE(trials[0].startedAt, 1001.0);
    QCOMPARE(trials[0].finishedAt, 1010.0);
    QCOMPARE(trials[1].status, QString("ERROR"));
    QCOMPARE(trials[1].errorMessage, QString("exit code 3"));

    std::vector<store::HistoryExploit> exploits;
    QVERIFY(reader->readExploits(&exploits));
    QCOMPARE(exploits.size(), std::size_t(1));
    QCOMPARE(exploits[0].trialId, trialIdForIndex(1));
    QCOMPARE(exploits[0].sourceTrialId, trialIdForIndex(0));
    QCOMPARE(exploits[0].sourceIteration, std::int64_t(3));
    QCOMPARE(exploits[0].newConfig.value("lr").toDouble(), 0.02);
    QCOMPARE(exploits[0].newConfigFloats, FloatPaths{QStringLiteral("lr")});
    QCOMPARE(exploits[0].reason, QString("pbt: copying t00000"));
    QCOMPARE(exploits[0].timestamp, 1006.0);

    std::vector<QJsonObject> nodeEvents;
    QVERIFY(reader->readEvents(QStringLiteral("node"), &nodeEvents));
    QCOMPARE(nodeEvents.size(), std::size_t(1));
    QCOMPARE(nodeEvents[0].value("gpu_sharing").toString(), QString("mps"));
    std::vector<store::HistoryNodeUsage> usage;
    QVERIFY(reader->readNodeUsage(&usage));
    QCOMPARE(usage.size(), std::size_t(1));
    QCOMPARE(usage[0].node, QString("lab2"));
    QCOMPARE(usage[0].usage.value("cpu_percent").toDouble(), 12.5);

    std::int64_t lastSeq = 0;
    QVERIFY(reader->readLastSeq(&lastSeq));
    QCOMPARE(lastSeq, openStore(path, ExperimentStore::Mode::ReadOnly)->lastSeq());
}

void TestHistoryReader::curvesHoldTheResultsWithTheMetricInOrder() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    QVERIFY(writeHistory(path));
    auto reader = openReader(path);
    QVERIFY(reader);
    std::vector<store::HistoryTrial> trials;
    QVERIFY(reader->readTrials(&trials));
    std::vector<store::MetricCurve> curves;
    std::int64_t results = 0;
    QVERIFY(reader->readCurves(QStringLiteral("loss"), trials, &curves, &results));
    QCOMPARE(results, std::int64_t(4));
    QCOMPARE(curves.size(), std::size_t(2));
    QCOMPARE(curves[0].iterations, (std::vector<double>{1, 3}));  // iteration 2 had no loss
    QCOMPARE(curves[0].timestamps, (std::vector<double>{1002, 1005}));
    QCOMPARE(curves[0].values, (std::vector<double>{0.5, 0.25}));
    QCOMPARE(curves[1].values, (std::vector<double>{0.9}));
    // A trial the caller leaves out: its results are counted, drawn nowhere.
    trials.pop_back();
    QVERIFY(reader->readCurves(QStringLiteral("loss"), trials, &curves, &results));
    QCOMPARE(results, std::int64_t(4));
    QCOMPARE(curves.size(), std::size_t(1));
    QCOMPARE(curves[0].values, (std::vector<double>{0.5, 0.25}));
}

void TestHistoryReader::nestedMetricIsFoundByItsPath() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    {
        auto store = openStore(path);
        QVERIFY(store);
        store->saveTrial(trialRecord(0));
        store->appendResult(trialIdForIndex(0), 1, 1, {{"val", QJsonObject{{"loss", 0.75}}}});
        store->appendResult(trialIdForIndex(0), 2, 2, {{"val/loss", 0.5}});
        QVERIFY(store->flush());
    }
    auto reader = openReader(path);
    QVERIFY(reader);
    std::vector<store::HistoryTrial> trials;
    QVERIFY(reader->readTrials(&trials));
    std::vector<store::MetricCurve> curves;
    std::int64_t results = 0;
    QVERIFY(reader->readCurves(QStringLiteral("val/loss"), trials, &curves, &results));
    QCOMPARE(curves[0].values, (std::vector<double>{0.75, 0.5}));
}

void TestHistoryReader::newerSchemaIsRefusedNamingFileAndVersions() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    QVERIFY(writeHistory(path));
    const int newer = kStoreSchemaVersion + 4;
    QVERIFY(execSql(path, qPrintable(QStringLiteral("PRAGMA user_version = %1").arg(newer))));
    std::unique_ptr<store::HistoryReader> reader;
    const Status status = store::HistoryReader::open(path, &reader);
    QVERIFY(!status);
    QVERIFY(!reader);
    QVERIFY2(status.message().startsWith(path + ": "), qPrintable(status.message()));
    QVERIFY2(status.message().contains(QStringLiteral("schema version %1").arg(newer)),
             qPrintable(status.message()));
    QVERIFY2(status.message().contains(QStringLiteral("reads up to %1").arg(kStoreSchemaVersion)),
             qPrintable(status.message()));
}

void TestHistoryReader::fileWithoutSchemaIsRefusedNamingIt() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    QVERIFY(execSql(path, "CREATE TABLE unrelated (x)"));
    std::unique_ptr<store::HistoryReader> reader;
    Status status = store::HistoryReader::open(path, &reader);
    QVERIFY(!status);
    QVERIFY2(status.message().startsWith(path + ": ") && status.message().contains("no schema"),
             qPrintable(status.message()));

    QFile garbage(dir.filePath("garbage.sqlite"));
    QVERIFY(garbage.open(QIODevice::WriteOnly));
    garbage.write(QByteArray(4096, 'x'));
    garbage.close();
    status = store::HistoryReader::open(garbage.fileName(), &reader);
    QVERIFY(!status);
    QVERIFY2(status.message().startsWith(garbage.fileName() + ": "), qPrintable(status.message()));
}

// An engine running as root reads its users' folders: a user who swaps experiment.sqlite for a
// link to someone else's history, after the server looked and before it opens, reads nothing.
void TestHistoryReader::aHistoryIsNeverReadThroughASymbolicLink() {
    QTemporaryDir dir;
    const QString real = dir.filePath("other/experiment.sqlite");
    QVERIFY(QDir(dir.path()).mkpath("other") && QDir(dir.path()).mkpath("mine"));
    QVERIFY(writeLosses(real));
    const QString link = dir.filePath("mine/experiment.sqlite");
    QVERIFY(QFile::link(real, link));
    std::unique_ptr<store::HistoryReader> reader;
    QVERIFY(store::HistoryReader::open(real, &reader));  // the file itself reads
    const Status status = store::HistoryReader::open(link, &reader);
    QVERIFY2(!status, "the history was read through a symbolic link");
    std::unique_ptr<ExperimentStore> store;
    QVERIFY2(!ExperimentStore::open(link, ExperimentStore::Mode::ReadOnly, &store),
             "the store opened a history through a symbolic link");
}

void TestHistoryReader::missingFileIsRefusedNamingIt() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    std::unique_ptr<store::HistoryReader> reader;
    const Status status = store::HistoryReader::open(path, &reader);
    QVERIFY(!status);
    QVERIFY2(status.message().startsWith(path + ": "), qPrintable(status.message()));
    QVERIFY(!QFile::exists(path));  // reading makes no file
}

void TestHistoryReader::olderHistoryReadsWithoutExploitsOrUsage() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    QVERIFY(writeHistory(path));
    // What a version-1 history lacks: the tables of v2 and v3.
    QVERIFY(execSql(path, "DROP TABLE exploits; DROP TABLE node_usage; PRAGMA user_version = 1"));
    auto reader = openReader(path);
    QVERIFY(reader);
    QCOMPARE(reader->schemaVersion(), 1);
    std::vector<store::HistoryExploit> exploits{store::HistoryExploit{}};
    QVERIFY(reader->readExploits(&exploits));
    QVERIFY(exploits.empty());
    std::vector<store::HistoryNodeUsage> usage{store::HistoryNodeUsage{}};
    QVERIFY(reader->readNodeUsage(&usage));
    QVERIFY(usage.empty());
    std::vector<store::HistoryTrial> trials;
    QVERIFY(reader->readTrials(&trials));
    QCOMPARE(trials.size(), std::size_t(2));
}

// `show`, `best` and `export` read every result through readResults: each one's members as its
// text spells them, with their kinds, in the order they were recorded.
void TestHistoryReader::resultsAreReadInPlaceMemberByMember() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    {
        auto store = openStore(path);
        QVERIFY(store);
        store->saveTrial(trialRecord(0));
        store->appendResult(trialIdForIndex(0), 1, 1002,
                            {{"loss", 0.5},
                             {"note", "a \"quoted\" word"},
                             {"ok", true},
                             {"val", QJsonObject{{"loss", 0.25}}}});
        store->appendResult(trialIdForIndex(0), 2, 1003, {{"loss", 2}});
        QVERIFY(store->flush());
    }
    auto reader = openReader(path);
    QVERIFY(reader);
    QStringList seen;
    const Status status = reader->readResults([&](const store::HistoryResult& result) {
        QString line =
            QStringLiteral("%1@%2:")
                .arg(QString::fromUtf8(result.trialId.data(), qsizetype(result.trialId.size())))
                .arg(result.iteration);
        for (const store::JsonMember& member : *result.members) {
            line += QStringLiteral(" %1=%2").arg(
                QString::fromUtf8(member.key.data(), qsizetype(member.key.size())),
                store::jsonMemberValue(member).toVariant().toString());
            if (member.kind == store::JsonKind::Object) {
                line += QStringLiteral("{}");
            }
        }
        seen << line;
    });
    QVERIFY2(status, qPrintable(status.message()));
    QCOMPARE(seen, (QStringList{"t00000@1: loss=0.5 note=a \"quoted\" word ok=true val={}",
                                "t00000@2: loss=2"}));
}

// Issue 33: a history with a damaged value must not answer from the rest. The reader the app
// and the command line share says so, as Corruption, instead of skipping the result.
void TestHistoryReader::aDamagedValueFailsTheReadAsDamage() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    QVERIFY(writeHistory(path));
    // Cut after the metric: a scan that stops at the metric would still read 0.25 from it.
    QVERIFY(execSql(path,
                    "UPDATE results SET data = substr(data, 1, 12) WHERE seq = "
                    "(SELECT max(seq) FROM results WHERE data LIKE '{\"loss\":0.25%')"));
    auto reader = openReader(path);
    QVERIFY(reader);
    std::vector<store::HistoryTrial> trials;
    QVERIFY(reader->readTrials(&trials));
    std::vector<store::MetricCurve> curves;
    std::int64_t results = 0;
    Status status = reader->readCurves(QStringLiteral("loss"), trials, &curves, &results);
    QCOMPARE(status.code(), Status::Code::Corruption);
    QVERIFY2(status.message().contains(path) &&
                 status.message().contains("a stored JSON value is damaged"),
             qPrintable(status.message()));
    int seen = 0;
    status = reader->readResults([&](const store::HistoryResult&) { ++seen; });
    QCOMPARE(status.code(), Status::Code::Corruption);
    // A trial's last result damaged too: its row is not read as an empty one.
    QVERIFY(execSql(path, "UPDATE trials SET last_result = '{\"loss\":' WHERE idx = 0"));
    reader = openReader(path);
    QVERIFY(reader);
    QCOMPARE(reader->readTrials(&trials).code(), Status::Code::Corruption);
}

// A history copied while its engine still ran (the last commits only in its WAL) into a folder
// the reader cannot write: every commit is read, as ExperimentStore reads it, not the main
// file's older picture.
void TestHistoryReader::readOnlyFolderWithUncheckpointedWalShowsAllCommits() {
    QTemporaryDir dir;
    const QString folder = dir.filePath("copied");
    QVERIFY(QDir().mkpath(folder));
    const QString copy = QDir(folder).filePath("experiment.sqlite");
    {
        auto store = openStore(dir.filePath("experiment.sqlite"));
        QVERIFY(store);
        store->saveTrial(trialRecord(0));
        for (int i = 1; i <= 50; ++i) {
            store->appendResult(trialIdForIndex(0), i, i, {{"loss", 1.0 / i}});
        }
        QVERIFY(store->flush().isOk());
        QVERIFY(QFile::copy(store->path(), copy));
        QVERIFY(QFile::copy(store->path() + "-wal", copy + "-wal"));
    }
    QVERIFY(QFileInfo(copy + "-wal").size() > 0);
    ReadOnlyFolder readOnly(folder);
    QString why;
    if (!readOnly.apply(&why)) {
        QSKIP(qPrintable("cannot make a read-only folder here: " + why));
    }
    auto reader = openReader(copy);
    QVERIFY(reader);
    std::int64_t results = 0;
    QVERIFY(reader->readResultCount(&results));
    QCOMPARE(results, std::int64_t(50));
    std::vector<store::HistoryTrial> trials;
    QVERIFY(reader->readTrials(&trials));
    QCOMPARE(trials.size(), std::size_t(1));
}

void TestHistoryReader::trialsRankByScopeAndMode_data() {
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

void TestHistoryReader::trialsRankByScopeAndMode() {
    QFETCH(MetricMode, mode);
    QFETCH(ScoreScope, scope);
    QFETCH(Scores, expected);
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    QVERIFY(writeLosses(path));
    QCOMPARE(ranked(path, "loss", mode, scope), expected);
    QVERIFY(ranked(path, "accuracy", mode, scope).isEmpty());
}

void TestHistoryReader::rankingSkipsNonNumericValues() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    {
        auto store = openStore(path);
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
    }
    for (ScoreScope scope : {ScoreScope::Last, ScoreScope::All, ScoreScope::Avg}) {
        QCOMPARE(ranked(path, "acc", MetricMode::Max, scope),
                 (Scores{{"t00003", 1}, {"t00000", 0.7}}));
    }
}

void TestHistoryReader::rankingFindsKeysWithDotsAndQuotes() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    {
        auto store = openStore(path);
        QVERIFY(store);
        store->saveTrial(trialRecord(0));
        store->saveTrial(trialRecord(1));
        // A dotted key is one key, not a path into a nested object.
        store->appendResult("t00000", 1, 0, {{"val.acc", 0.8}, {"val", QJsonObject{{"acc", 0.1}}}});
        store->appendResult("t00001", 1, 0, {{"say \"hi\"", 3}});
        QVERIFY(store->flush().isOk());
    }
    QCOMPARE(ranked(path, "val.acc", MetricMode::Max, ScoreScope::Last), (Scores{{"t00000", 0.8}}));
    QCOMPARE(ranked(path, "say \"hi\"", MetricMode::Max, ScoreScope::All), (Scores{{"t00001", 3}}));
    // A path with '/' reaches into the nested object, as Ray names nested metrics.
    QCOMPARE(ranked(path, "val/acc", MetricMode::Max, ScoreScope::Last), (Scores{{"t00000", 0.1}}));
}

QTEST_GUILESS_MAIN(TestHistoryReader)
#include "test_history_reader.moc"
