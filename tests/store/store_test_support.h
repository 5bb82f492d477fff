// Helpers shared by the store tests: opening stores, building records, and looking at the
// database file directly with SQLite (what another process, or a user with sqlite3, would see).
#pragma once

#include <sqlite3.h>
#include <sys/mount.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
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

// Makes a folder unwritable for the rest of its scope: chmod for a normal user, a read-only
// bind mount for root (whom permissions do not stop).
class ReadOnlyFolder {
  public:
    explicit ReadOnlyFolder(QString path) : path_(std::move(path)) {}
    ~ReadOnlyFolder() {
        if (mounted_) {
            umount2(path_.toUtf8().constData(), MNT_DETACH);
        } else {
            QFile::setPermissions(path_, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        }
    }

    bool apply(QString* why) {
        if (geteuid() == 0) {
            if (!enterPrivateMountNamespace(why)) {
                return false;
            }
            const QByteArray dir = path_.toUtf8();
            if (mount(dir.constData(), dir.constData(), nullptr, MS_BIND, nullptr) != 0) {
                *why = QStringLiteral("bind mount failed: %1").arg(qt_error_string(errno));
                return false;
            }
            mounted_ = true;
            if (mount(nullptr, dir.constData(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY,
                      nullptr) != 0) {
                *why = QStringLiteral("read-only remount failed: %1").arg(qt_error_string(errno));
                return false;
            }
        } else {
            QFile::setPermissions(path_, QFile::ReadOwner | QFile::ExeOwner);
        }
        QFile probe(QDir(path_).filePath("probe"));
        if (probe.open(QIODevice::WriteOnly)) {
            *why = QStringLiteral("the folder is still writable");
            return false;
        }
        return true;
    }

  private:
    QString path_;
    bool mounted_ = false;
};

}  // namespace store_test
