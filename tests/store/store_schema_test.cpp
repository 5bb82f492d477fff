// Schema versioning, migrations, and opening files the store did not just create.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include "store/schema.h"
#include "store_test.h"
#include "store_test_support.h"

using namespace tunedeck;
using store_test::execSql;
using store_test::openStore;
using store_test::queryText;
using store_test::ReadOnlyFolder;
using store_test::trialRecord;

namespace {

bool tableExists(const QString& path, const char* name) {
    const QByteArray sql =
        QByteArray("SELECT count(*) FROM sqlite_master WHERE name = '") + name + "'";
    return queryText(path, sql.constData()) == "1";
}

}  // namespace

void StoreTest::newFileGetsTheCurrentSchemaInWalMode() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    {
        auto store = openStore(path);
        QVERIFY(store);
        QCOMPARE(store->schemaVersion(), kStoreSchemaVersion);
        QCOMPARE(store->path(), path);
    }
    QCOMPARE(queryText(path, "PRAGMA user_version"), QString::number(kStoreSchemaVersion));
    QCOMPARE(queryText(path, "PRAGMA journal_mode"), QString("wal"));
    for (const char* name : {"experiment", "trials", "results", "checkpoints", "events",
                             "results_by_trial", "exploits", "exploits_by_trial"}) {
        QVERIFY2(tableExists(path, name), name);
    }
}

void StoreTest::reopeningKeepsEverything() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    {
        auto store = openStore(path);
        QVERIFY(store);
        ExperimentRecord experiment;
        experiment.name = "keep";
        store->saveExperiment(experiment);
        store->saveTrial(trialRecord(0));
        store->appendResult("t00000", 1, 1.0, {{"loss", 1.0}});
    }
    for (auto mode : {ExperimentStore::Mode::ReadWrite, ExperimentStore::Mode::ReadOnly}) {
        auto store = openStore(path, mode);
        QVERIFY(store);
        QCOMPARE(store->schemaVersion(), kStoreSchemaVersion);
        ExperimentRecord experiment;
        QVERIFY(store->loadExperiment(&experiment).isOk());
        QCOMPARE(experiment.name, QString("keep"));
        QCOMPARE(store->loadTrials().size(), size_t(1));
        QCOMPARE(store->resultCount(), std::int64_t(1));
    }
}

void StoreTest::newerSchemaIsRefusedAndLeftUntouched() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    // Written by a future version in rollback-journal mode: opening must not switch it to WAL.
    QVERIFY(execSql(path, "CREATE TABLE future (x); PRAGMA user_version = 7"));
    for (auto mode : {ExperimentStore::Mode::ReadWrite, ExperimentStore::Mode::ReadOnly}) {
        std::unique_ptr<ExperimentStore> store;
        const Status status = ExperimentStore::open(path, mode, &store);
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QVERIFY(!store);
        QVERIFY2(status.message().contains("newer Tunedeck"), qPrintable(status.message()));
        QVERIFY2(status.message().contains("schema version 7"), qPrintable(status.message()));
        QVERIFY2(status.message().contains(path), qPrintable(status.message()));
    }
    QCOMPARE(queryText(path, "PRAGMA user_version"), QString("7"));
    QCOMPARE(queryText(path, "PRAGMA journal_mode"), QString("delete"));
    QVERIFY(!tableExists(path, "results"));
}

void StoreTest::migrationsRunStepByStep() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    // Each step fails if run twice (CREATE TABLE), so a re-run would show as an error.
    const std::vector<store::Migration> v1 = {{1, "CREATE TABLE a (x)"}};
    const std::vector<store::Migration> v3 = {
        {1, "CREATE TABLE a (x)"},
        {2, "ALTER TABLE a ADD COLUMN y"},
        {3, "CREATE TABLE c (z); INSERT INTO c SELECT x FROM a"},
    };
    int version = -1;
    QVERIFY(store::migrateSchema(db, v1).isOk());
    QVERIFY(store::readSchemaVersion(db, &version).isOk());
    QCOMPARE(version, 1);
    QVERIFY(sqlite3_exec(db, "INSERT INTO a VALUES (5)", nullptr, nullptr, nullptr) == SQLITE_OK);
    const Status upgraded = store::migrateSchema(db, v3);
    QVERIFY2(upgraded.isOk(), qPrintable(upgraded.message()));
    QVERIFY(store::readSchemaVersion(db, &version).isOk());
    QCOMPARE(version, 3);
    QVERIFY(sqlite3_exec(db, "SELECT y FROM a", nullptr, nullptr, nullptr) == SQLITE_OK);
    QVERIFY(store::migrateSchema(db, v3).isOk());  // already current: nothing runs
    QCOMPARE(store::migrateSchema(db, v1).code(), Status::Code::InvalidArgument);
    sqlite3_close(db);
    QCOMPARE(queryText(path, "SELECT z FROM c"), QString("5"));

    // An empty SQLite file (version 0) is upgraded by the store itself.
    const QString empty = dir.filePath("empty.sqlite");
    QVERIFY(execSql(empty, "PRAGMA user_version = 0"));
    auto store = openStore(empty);
    QVERIFY(store);
    QCOMPARE(store->schemaVersion(), kStoreSchemaVersion);
}

void StoreTest::failedMigrationStepLeavesThePreviousVersion() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    const std::vector<store::Migration> steps = {
        {1, "CREATE TABLE a (x)"},
        {2, "CREATE TABLE b (x); INSERT INTO no_such_table VALUES (1)"},
    };
    const Status status = store::migrateSchema(db, steps);
    QVERIFY(!status.isOk());
    QVERIFY2(status.message().contains("schema version 2"), qPrintable(status.message()));
    int version = -1;
    QVERIFY(store::readSchemaVersion(db, &version).isOk());
    QCOMPARE(version, 1);
    QVERIFY(sqlite3_get_autocommit(db) != 0);  // no transaction left open
    sqlite3_close(db);
    QVERIFY(tableExists(path, "a"));
    QVERIFY(!tableExists(path, "b"));  // the failed step's first statement was rolled back
}

void StoreTest::garbageFileIsReportedAsCorrupt() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.sqlite");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray("this is not a database\n").repeated(400));
    file.close();
    for (auto mode : {ExperimentStore::Mode::ReadWrite, ExperimentStore::Mode::ReadOnly}) {
        std::unique_ptr<ExperimentStore> store;
        const Status status = ExperimentStore::open(path, mode, &store);
        QCOMPARE(status.code(), Status::Code::Corruption);
        QVERIFY(status.message().contains(path));
    }
}

void StoreTest::readOnlyOpenOfMissingFileIsNotFound() {
    QTemporaryDir dir;
    const QString path = dir.filePath("missing.sqlite");
    std::unique_ptr<ExperimentStore> store;
    QCOMPARE(ExperimentStore::open(path, ExperimentStore::Mode::ReadOnly, &store).code(),
             Status::Code::NotFound);
    QVERIFY(!QFileInfo::exists(path));  // and nothing was created
}

void StoreTest::openInAMissingFolderIsAnIoError() {
    QTemporaryDir dir;
    const QString path = dir.filePath("missing/experiment.sqlite");
    std::unique_ptr<ExperimentStore> store;
    const Status status = ExperimentStore::open(path, ExperimentStore::Mode::ReadWrite, &store);
    QCOMPARE(status.code(), Status::Code::IoError);
    QVERIFY2(status.message().contains(path), qPrintable(status.message()));
    QVERIFY(!store);
}

void StoreTest::readOnlyOpenWorksInAReadOnlyFolder() {
    QTemporaryDir dir;
    const QString folder = dir.filePath("copied");
    QVERIFY(QDir().mkpath(folder));
    const QString path = QDir(folder).filePath("experiment.sqlite");
    {
        auto store = openStore(path);
        QVERIFY(store);
        store->saveTrial(trialRecord(0));
        store->appendResult("t00000", 1, 1.0, {{"loss", 1.0}});
    }  // a clean close leaves neither -wal nor -shm
    QVERIFY(!QFileInfo::exists(path + "-shm"));

    ReadOnlyFolder readOnly(folder);
    QString why;
    if (!readOnly.apply(&why)) {
        QSKIP(qPrintable("cannot make a read-only folder here: " + why));
    }
    auto store = openStore(path, ExperimentStore::Mode::ReadOnly);
    QVERIFY(store);
    QCOMPARE(store->resultCount(), std::int64_t(1));
    QCOMPARE(store->loadTrials().size(), size_t(1));
    QCOMPARE(store->loadResults().size(), size_t(1));
}

void StoreTest::readOnlyFolderWithUncheckpointedWalShowsAllCommits() {
    QTemporaryDir dir;
    const QString folder = dir.filePath("copied");
    QVERIFY(QDir().mkpath(folder));
    const QString copy = QDir(folder).filePath("experiment.sqlite");
    {
        // Copy the files while the engine still has them open: the results are committed but
        // only in the WAL, as after a crash, and the copy has no -shm index.
        auto store = openStore(dir.filePath("experiment.sqlite"));
        QVERIFY(store);
        store->saveTrial(trialRecord(0));
        for (int i = 1; i <= 50; ++i) {
            store->appendResult("t00000", i, i, {{"loss", 1.0 / i}});
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
    auto store = openStore(copy, ExperimentStore::Mode::ReadOnly);
    QVERIFY(store);
    QCOMPARE(store->resultCount(), std::int64_t(50));
    QCOMPARE(store->loadTrials().size(), size_t(1));
}
