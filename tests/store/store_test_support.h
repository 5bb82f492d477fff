// Helpers shared by the store tests: opening stores, building records, and looking at the
// database file directly with SQLite (what another process, or a user with sqlite3, would see).
#pragma once

#include <sqlite3.h>

#include <QString>
#include <QTest>
#include <memory>

#include "store/experiment_store.h"

namespace store_test {

inline std::unique_ptr<tunedeck::ExperimentStore> openStore(
    const QString& path,
    tunedeck::ExperimentStore::Mode mode = tunedeck::ExperimentStore::Mode::ReadWrite) {
    std::unique_ptr<tunedeck::ExperimentStore> store;
    const tunedeck::Status status = tunedeck::ExperimentStore::open(path, mode, &store);
    if (!status) {
        qWarning("cannot open %s: %s", qPrintable(path), qPrintable(status.message()));
        return nullptr;
    }
    return store;
}

inline tunedeck::TrialRecord trialRecord(std::int64_t index) {
    tunedeck::TrialRecord record;
    record.trial.id = tunedeck::trialIdForIndex(index);
    record.trial.index = index;
    record.trial.config = QJsonObject{{"lr", 0.01 * double(index + 1)}};
    return record;
}

// One value of a query, as text, run on a fresh read-write connection ("" when it fails).
inline QString queryText(const QString& path, const char* sql) {
    sqlite3* db = nullptr;
    QString value;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READWRITE, nullptr) ==
        SQLITE_OK) {
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) == SQLITE_OK &&
            sqlite3_step(statement) == SQLITE_ROW) {
            value =
                QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
        }
        sqlite3_finalize(statement);
    }
    sqlite3_close_v2(db);
    return value;
}

inline bool execSql(const QString& path, const char* sql) {
    sqlite3* db = nullptr;
    bool ok = sqlite3_open_v2(path.toUtf8().constData(), &db,
                              SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) == SQLITE_OK &&
              sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close_v2(db);
    return ok;
}

inline QString integrityCheck(const QString& path) {
    return queryText(path, "PRAGMA integrity_check");
}

// Enters a private mount namespace so the test may mount file systems that no other process
// sees. Needs CAP_SYS_ADMIN; returns false with the reason otherwise.
bool enterPrivateMountNamespace(QString* why);

}  // namespace store_test
