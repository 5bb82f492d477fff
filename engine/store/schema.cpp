#include "store/schema.h"

#include <QString>
#include <iterator>

#include "store/schema_version.h"
#include "store/sqlite_db.h"

namespace tunedeck::store {
namespace {

// Tuning constants of the connections.
// A writer or reader waits this long for a lock held by another connection (a checkpoint, a
// second process reading the file) before the operation fails as Busy.
constexpr int kBusyTimeoutMs = 5000;
// After a checkpoint the WAL is truncated to this size, so one large batch does not leave a
// large file behind for the life of the experiment.
constexpr const char* kJournalSizeLimit = "PRAGMA journal_size_limit = 67108864";
// 16 MiB page cache: a 20,000-row batch touches the results table and its index without
// spilling dirty pages to the WAL in the middle of the transaction.
constexpr const char* kCacheSize = "PRAGMA cache_size = -16384";

// Schema v1. JSON columns hold QJsonDocument::Compact text. `results.seq` and `events.seq`
// share one sequence assigned by the store, so they are plain INTEGER PRIMARY KEYs (rowids).
// Result and checkpoint rows must name a saved trial; the check is deferred to the commit so
// the order of a trial's first writes inside one batch does not matter.
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE experiment (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    spec_text TEXT NOT NULL DEFAULT '',
    spec_file TEXT NOT NULL DEFAULT '',
    seed INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL DEFAULT 0,
    finished_at REAL NOT NULL DEFAULT 0,
    searcher_state TEXT NOT NULL DEFAULT '{}',
    scheduler_state TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE trials (
    id TEXT PRIMARY KEY,
    idx INTEGER NOT NULL,
    config TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL,
    failures INTEGER NOT NULL DEFAULT 0,
    iteration INTEGER NOT NULL DEFAULT 0,
    time_total_s REAL NOT NULL DEFAULT 0,
    last_result TEXT NOT NULL DEFAULT '{}',
    checkpoint_path TEXT NOT NULL DEFAULT '',
    checkpoint_iteration INTEGER NOT NULL DEFAULT 0,
    pending_reason TEXT NOT NULL DEFAULT '',
    error_message TEXT NOT NULL DEFAULT '',
    node_id TEXT NOT NULL DEFAULT '',
    started_at REAL NOT NULL DEFAULT 0,
    finished_at REAL NOT NULL DEFAULT 0
);
CREATE TABLE results (
    seq INTEGER PRIMARY KEY,
    trial_id TEXT NOT NULL REFERENCES trials(id) DEFERRABLE INITIALLY DEFERRED,
    iteration INTEGER NOT NULL,
    timestamp REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX results_by_trial ON results (trial_id, iteration);
CREATE TABLE checkpoints (
    id INTEGER PRIMARY KEY,
    trial_id TEXT NOT NULL REFERENCES trials(id) DEFERRABLE INITIALLY DEFERRED,
    iteration INTEGER NOT NULL,
    path TEXT NOT NULL,
    result TEXT NOT NULL DEFAULT '{}',
    created_at REAL NOT NULL DEFAULT 0,
    deleted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checkpoints_by_trial ON checkpoints (trial_id, iteration);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    timestamp REAL NOT NULL,
    type TEXT NOT NULL,
    trial_id TEXT,
    payload TEXT NOT NULL DEFAULT '{}'
);
-- The highest seq ever handed out when results were deleted, so a reopened store never reuses
-- the seq of a deleted result (clients replay "everything since N").
CREATE TABLE counters (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
)sql";

// Schema v2: the exploits of population based training, the lineage the GUI draws and
// `pbt-replay` re-runs. Both ends of an exploit must be saved trials (checked at commit, as for
// results), so a lineage never points at a trial the history does not have.
constexpr const char* kSchemaV2 = R"sql(
CREATE TABLE exploits (
    id INTEGER PRIMARY KEY,
    trial_id TEXT NOT NULL REFERENCES trials(id) DEFERRABLE INITIALLY DEFERRED,
    source_trial_id TEXT NOT NULL REFERENCES trials(id) DEFERRABLE INITIALLY DEFERRED,
    iteration INTEGER NOT NULL,
    source_iteration INTEGER NOT NULL,
    old_config TEXT NOT NULL DEFAULT '{}',
    new_config TEXT NOT NULL DEFAULT '{}',
    reason TEXT NOT NULL DEFAULT '',
    timestamp REAL NOT NULL DEFAULT 0
);
CREATE INDEX exploits_by_trial ON exploits (trial_id, id);
)sql";

// Schema v3: samples of each node's CPU, memory and GPU use (the `node_usage` events), in the
// shared sequence so the control API replays them in order with everything else. `data` is the
// event's payload; old samples are thinned as they age (usage_retention.h), by time.
constexpr const char* kSchemaV3 = R"sql(
CREATE TABLE node_usage (
    seq INTEGER PRIMARY KEY,
    timestamp REAL NOT NULL,
    node TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX node_usage_by_time ON node_usage (timestamp);
)sql";

Status queryInt(sqlite3* db, const char* sql, int* out) {
    Statement statement;
    if (Status status = statement.prepare(db, sql, false); !status) {
        return status;
    }
    const int code = statement.step();
    if (code != SQLITE_ROW) {
        return sqliteStatus(db, code, QString::fromLatin1(sql));
    }
    *out = int(statement.columnInt(0));
    return Status::ok();
}

Status applyStep(sqlite3* db, const Migration& step) {
    auto exec = [db](const char* sql, const QString& context) {
        return sqliteStatus(db, sqlite3_exec(db, sql, nullptr, nullptr, nullptr), context);
    };
    const QString context =
        QStringLiteral("upgrading the history to schema version %1").arg(step.version);
    // IMMEDIATE takes the write lock first, so two processes cannot apply the same step twice.
    if (Status status = exec("BEGIN IMMEDIATE", context); !status) {
        return status;
    }
    int current = 0;
    Status status = queryInt(db, "PRAGMA user_version", &current);
    if (status && current < step.version) {
        status = exec(step.sql, context);
        if (status) {
            const QByteArray setVersion =
                QByteArray("PRAGMA user_version = ") + QByteArray::number(step.version);
            status = exec(setVersion.constData(), context);
        }
    }
    if (status) {
        status = exec("COMMIT", context);
    }
    if (!status && sqlite3_get_autocommit(db) == 0) {
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    return status;
}

// Oldest first; the last step's version is the one this build writes and the reader reads.
constexpr Migration kMigrations[] = {
    {1, kSchemaV1},
    {2, kSchemaV2},
    {3, kSchemaV3},
};
static_assert(std::size(kMigrations) == std::size_t(kStoreSchemaVersion) &&
                  kMigrations[std::size(kMigrations) - 1].version == kStoreSchemaVersion,
              "a new migration step raises kStoreSchemaVersion (schema_version.h) with it");

}  // namespace

const std::vector<Migration>& storeMigrations() {
    static const std::vector<Migration> migrations(std::begin(kMigrations), std::end(kMigrations));
    return migrations;
}

Status readSchemaVersion(sqlite3* db, int* version) {
    return queryInt(db, "PRAGMA user_version", version);
}

Status migrateSchema(sqlite3* db, const std::vector<Migration>& migrations) {
    const int latest = migrations.empty() ? 0 : migrations.back().version;
    int current = 0;
    if (Status status = readSchemaVersion(db, &current); !status) {
        return status;
    }
    if (current > latest) {
        return Status::invalid(
            QStringLiteral("this history was written by a newer Tunedeck (schema version %1; "
                           "this version reads up to %2): open it with a newer Tunedeck")
                .arg(current)
                .arg(latest));
    }
    for (const Migration& step : migrations) {
        if (step.version <= current) {
            continue;
        }
        if (Status status = applyStep(db, step); !status) {
            return status;
        }
        current = step.version;
    }
    return Status::ok();
}

// synchronous=NORMAL is safe here because of WAL: a commit appends to the WAL with write() and
// the OS keeps it even if the engine process crashes or is killed; only a power loss or kernel
// crash can lose the last commits, and even then the database rolls back to an earlier
// consistent commit (the WAL is fsynced before each checkpoint copies it into the main file).
// FULL would fsync on every batch, which costs more than the batch itself on most disks.
Status configureWriteConnection(sqlite3* db) {
    const QString context = QStringLiteral("configuring the history database");
    Statement journal;
    if (Status status = journal.prepare(db, "PRAGMA journal_mode = WAL", false); !status) {
        return status;
    }
    const int code = journal.step();
    if (code != SQLITE_ROW) {
        return sqliteStatus(db, code, context);
    }
    if (journal.columnText(0).compare(QLatin1String("wal"), Qt::CaseInsensitive) != 0) {
        return Status::ioError(
            QStringLiteral("%1: the file system does not support WAL mode (journal mode is %2)")
                .arg(context, journal.columnText(0)));
    }
    journal.finalize();
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    for (const char* pragma : {"PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON",
                               kJournalSizeLimit, kCacheSize}) {
        if (Status status =
                sqliteStatus(db, sqlite3_exec(db, pragma, nullptr, nullptr, nullptr), context);
            !status) {
            return status;
        }
    }
    return Status::ok();
}

Status configureReadConnection(sqlite3* db) {
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    return Status::ok();
}

}  // namespace tunedeck::store
