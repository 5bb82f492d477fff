// ExperimentStore's reads, on its own read-only connection: they see committed data only and
// never wait for the writer thread (WAL lets readers and the writer work at the same time).
#include <QByteArray>
#include <QtDebug>

#include "store/schema.h"
#include "store/store_impl.h"

namespace tunedeck {
namespace {

using store::Statement;

// Prepares `sql`, lets `bind` bind its parameters and calls `row` for every row. A failure (the
// file's damage found by SQLite, a stored JSON value that does not parse) ends the query: the
// read methods return what they have, and the store keeps the first failure for readError(), so
// that no command answers from part of a damaged history.
template <typename Bind, typename Row>
Status forEachRow(sqlite3* db, const char* sql, Bind bind, Row row) {
    if (db == nullptr) {
        return Status::ioError(QStringLiteral("the history cannot be read"));
    }
    Statement statement;
    Status status = statement.prepare(db, sql, false);
    if (status) {
        bind(statement);
        int code = SQLITE_ROW;
        while ((code = statement.step()) == SQLITE_ROW) {
            row(statement);
            if (statement.holdsDamagedJson()) {
                break;
            }
        }
        status = statement.holdsDamagedJson()
                     ? Status::corruption(
                           QStringLiteral("reading the history: a stored JSON value is damaged"))
                     : store::sqliteStatus(db, code, QStringLiteral("reading the history"));
        // SQLite's JSON functions meeting a stored value that does not parse: damage too.
        if (!status && status.message().contains(QLatin1String("malformed JSON"))) {
            status = Status::corruption(status.message());
        }
    }
    return status;
}

// forEachRow, keeping its first failure in `firstError` (the store's readError()).
template <typename Bind, typename Row>
Status read(sqlite3* db, Status& firstError, const char* sql, Bind bind, Row row) {
    Status status = forEachRow(db, sql, bind, row);
    if (!status && firstError) {
        firstError = status;
    }
    return status;
}

const auto kNoBinding = [](Statement&) {};

std::int64_t singleInt(sqlite3* db, Status& firstError, const char* sql) {
    std::int64_t value = 0;
    read(db, firstError, sql, kNoBinding, [&](Statement& row) { value = row.columnInt(0); });
    return value;
}

}  // namespace

Status ExperimentStore::loadExperiment(ExperimentRecord* out) const {
    if (Status status = impl_->openReader(); !status) {
        return status;
    }
    bool found = false;
    Status status =
        read(impl_->readHandle(), impl_->readError,
             "SELECT name, spec_text, spec_file, seed, status, created_at, finished_at, "
             "searcher_state, scheduler_state FROM experiment WHERE id = 1",
             kNoBinding, [&](Statement& row) {
                 found = true;
                 out->name = row.columnText(0);
                 out->specText = row.columnText(1);
                 out->specFile = row.columnText(2);
                 out->seed = static_cast<std::uint64_t>(row.columnInt(3));
                 out->status = row.columnText(4);
                 out->createdAt = row.columnDouble(5);
                 out->finishedAt = row.columnDouble(6);
                 out->searcherState = row.columnJson(7);
                 out->schedulerState = row.columnJson(8);
             });
    if (status && !found) {
        return Status::notFound(
            QStringLiteral("%1: no experiment has been recorded in it").arg(impl_->path));
    }
    return store::asDamage(status);
}

std::vector<TrialRecord> ExperimentStore::loadTrials() const {
    std::vector<TrialRecord> trials;
    read(impl_->readHandle(), impl_->readError,
         "SELECT id, idx, config, status, failures, iteration, time_total_s, last_result, "
         "checkpoint_path, checkpoint_iteration, pending_reason, error_message, node_id, "
         "started_at, finished_at FROM trials ORDER BY idx, id",
         kNoBinding, [&](Statement& row) {
             TrialRecord record;
             Trial& trial = record.trial;
             trial.id = row.columnText(0);
             trial.index = row.columnInt(1);
             trial.config = row.columnJson(2);
             record.configFloats = floatPathsInJson(row.columnText(2).toUtf8());
             const QString statusName = row.columnText(3);
             if (auto status = trialStatusFromName(statusName)) {
                 trial.status = *status;
             } else {
                 // Left PENDING: a resume then runs it again rather than losing it.
                 qWarning("trial %s has the unknown status \"%s\"; treating it as PENDING",
                          qPrintable(trial.id), qPrintable(statusName));
             }
             trial.failures = int(row.columnInt(4));
             trial.iteration = row.columnInt(5);
             trial.timeTotalS = row.columnDouble(6);
             trial.lastResult = row.columnJson(7);
             trial.checkpointPath = row.columnText(8);
             trial.checkpointIteration = row.columnInt(9);
             trial.pendingReason = row.columnText(10);
             trial.errorMessage = row.columnText(11);
             trial.nodeId = row.columnText(12);
             record.startedAt = row.columnDouble(13);
             record.finishedAt = row.columnDouble(14);
             trials.push_back(std::move(record));
         });
    return trials;
}

std::vector<StoredCheckpoint> ExperimentStore::loadCheckpoints(const QString& trialId) const {
    std::vector<StoredCheckpoint> checkpoints;
    const QByteArray id = trialId.toUtf8();
    read(
        impl_->readHandle(), impl_->readError,
        "SELECT id, trial_id, iteration, path, result, created_at, deleted FROM checkpoints "
        "WHERE ?1 IS NULL OR trial_id = ?1 ORDER BY id",
        [&](Statement& query) {
            if (!trialId.isEmpty()) {
                query.bindText(1, id);
            }
        },
        [&](Statement& row) {
            StoredCheckpoint checkpoint;
            checkpoint.id = row.columnInt(0);
            checkpoint.trialId = row.columnText(1);
            checkpoint.iteration = row.columnInt(2);
            checkpoint.path = row.columnText(3);
            checkpoint.result = row.columnJson(4);
            checkpoint.createdAt = row.columnDouble(5);
            checkpoint.deleted = row.columnInt(6) != 0;
            checkpoints.push_back(std::move(checkpoint));
        });
    return checkpoints;
}

std::vector<ResultRecord> ExperimentStore::loadResults(const QString& trialId) const {
    std::vector<ResultRecord> results;
    const QByteArray id = trialId.toUtf8();
    // Two statements rather than "?1 IS NULL OR": one trial's rows come from the index.
    const char* sql = trialId.isEmpty()
                          ? "SELECT seq, trial_id, iteration, timestamp, data FROM results "
                            "ORDER BY seq"
                          : "SELECT seq, trial_id, iteration, timestamp, data FROM results "
                            "WHERE trial_id = ?1 ORDER BY seq";
    read(
        impl_->readHandle(), impl_->readError, sql,
        [&](Statement& query) {
            if (!trialId.isEmpty()) {
                query.bindText(1, id);
            }
        },
        [&](Statement& row) {
            ResultRecord record;
            record.seq = row.columnInt(0);
            record.trialId = row.columnText(1);
            record.iteration = row.columnInt(2);
            record.timestamp = row.columnDouble(3);
            record.result = row.columnJson(4);
            results.push_back(std::move(record));
        });
    return results;
}

std::vector<ExploitRecord> ExperimentStore::loadExploits(const QString& trialId) const {
    std::vector<ExploitRecord> exploits;
    if (impl_->schemaVersion < 2) {
        return exploits;  // written before exploits were recorded (opened read-only)
    }
    const QByteArray id = trialId.toUtf8();
    read(
        impl_->readHandle(), impl_->readError,
        "SELECT id, trial_id, source_trial_id, iteration, source_iteration, old_config, "
        "new_config, reason, timestamp FROM exploits WHERE ?1 IS NULL OR trial_id = ?1 "
        "ORDER BY id",
        [&](Statement& query) {
            if (!trialId.isEmpty()) {
                query.bindText(1, id);
            }
        },
        [&](Statement& row) {
            ExploitRecord exploit;
            exploit.id = row.columnInt(0);
            exploit.trialId = row.columnText(1);
            exploit.sourceTrialId = row.columnText(2);
            exploit.iteration = row.columnInt(3);
            exploit.sourceIteration = row.columnInt(4);
            exploit.oldConfig = row.columnJson(5);
            exploit.newConfig = row.columnJson(6);
            exploit.reason = row.columnText(7);
            exploit.timestamp = row.columnDouble(8);
            exploits.push_back(std::move(exploit));
        });
    return exploits;
}

namespace {

// A row of (seq, timestamp, type, trial_id, payload).
EventRecord eventFromRow(Statement& row) {
    EventRecord event;
    event.seq = row.columnInt(0);
    event.timestamp = row.columnDouble(1);
    event.type = row.columnText(2);
    event.trialId = row.columnText(3);  // NULL reads as an empty string
    event.payload = row.columnJson(4);
    return event;
}

}  // namespace

std::vector<EventRecord> ExperimentStore::loadEvents(std::int64_t sinceSeq, int limit) const {
    std::vector<EventRecord> events;
    read(
        impl_->readHandle(), impl_->readError,
        "SELECT seq, timestamp, type, trial_id, payload FROM events WHERE seq > ?1 "
        "ORDER BY seq LIMIT ?2",
        [&](Statement& query) {
            query.bindInt(1, sinceSeq);
            query.bindInt(2, limit < 0 ? -1 : limit);  // a negative LIMIT means no limit
        },
        [&](Statement& row) { events.push_back(eventFromRow(row)); });
    return events;
}

std::vector<EventRecord> ExperimentStore::loadEventsOfType(const QString& type) const {
    std::vector<EventRecord> events;
    const QByteArray typeUtf8 = type.toUtf8();  // bound without a copy: must outlive the query
    read(
        impl_->readHandle(), impl_->readError,
        "SELECT seq, timestamp, type, trial_id, payload FROM events WHERE type = ?1 ORDER BY seq",
        [&](Statement& query) { query.bindText(1, typeUtf8); },
        [&](Statement& row) { events.push_back(eventFromRow(row)); });
    return events;
}

std::vector<EventRecord> ExperimentStore::loadEventStream(std::int64_t sinceSeq, int limit) const {
    std::vector<EventRecord> events;
    // A history written before node usage was recorded (opened read-only) has no such table.
    const char* sql = impl_->schemaVersion >= 3
                          ? "SELECT seq, timestamp, type, trial_id, payload FROM events "
                            "WHERE seq > ?1 "
                            "UNION ALL "
                            "SELECT seq, timestamp, 'result', trial_id, data FROM results "
                            "WHERE seq > ?1 "
                            "UNION ALL "
                            "SELECT seq, timestamp, 'node_usage', NULL, data FROM node_usage "
                            "WHERE seq > ?1 "
                            "ORDER BY seq LIMIT ?2"
                          : "SELECT seq, timestamp, type, trial_id, payload FROM events "
                            "WHERE seq > ?1 "
                            "UNION ALL "
                            "SELECT seq, timestamp, 'result', trial_id, data FROM results "
                            "WHERE seq > ?1 "
                            "ORDER BY seq LIMIT ?2";
    read(
        impl_->readHandle(), impl_->readError, sql,
        [&](Statement& query) {
            query.bindInt(1, sinceSeq);
            query.bindInt(2, limit);
        },
        [&](Statement& row) { events.push_back(eventFromRow(row)); });
    return events;
}

Status ExperimentStore::checkStoredValues() const {
    struct Column {
        int sinceSchema;
        const char* table;
        const char* column;
        const char* where;  // SQL naming the row, for the message
    };
    static const Column columns[] = {
        {1, "experiment", "searcher_state", "'the searcher state'"},
        {1, "experiment", "scheduler_state", "'the scheduler state'"},
        {1, "trials", "config", "'the config of trial ' || id"},
        {1, "trials", "last_result", "'the last result of trial ' || id"},
        {1, "results", "data",
         "'result ' || seq || ' (trial ' || trial_id || ', iteration ' || iteration || ')'"},
        {1, "checkpoints", "result", "'the result of checkpoint ' || id"},
        {1, "events", "payload", "'event ' || seq"},
        {2, "exploits", "old_config", "'exploit ' || id"},
        {2, "exploits", "new_config", "'exploit ' || id"},
        {3, "node_usage", "data", "'node usage sample ' || seq"},
    };
    for (const Column& c : columns) {
        if (impl_->schemaVersion < c.sinceSchema) {
            continue;
        }
        // One JSON object (or empty text, which reads as {}), as the store's reads take it.
        const QByteArray sql =
            QStringLiteral(
                "SELECT %1 FROM %2 WHERE %3 <> '' AND NOT coalesce(CASE WHEN "
                "json_valid(%3) THEN json_type(%3) = 'object' END, 0) LIMIT 1")
                .arg(QLatin1String(c.where), QLatin1String(c.table), QLatin1String(c.column))
                .toUtf8();
        QString damaged;
        const Status status =
            read(impl_->readHandle(), impl_->readError, sql.constData(), kNoBinding,
                 [&](Statement& row) { damaged = row.columnText(0); });
        if (!status) {
            return store::asDamage(status);
        }
        if (!damaged.isEmpty()) {
            const Status found =
                Status::corruption(QStringLiteral("%1 is not a JSON object").arg(damaged));
            if (impl_->readError) {
                impl_->readError = found;
            }
            return store::asDamage(found);
        }
    }
    return Status::ok();
}

std::int64_t ExperimentStore::resultCount() const {
    return singleInt(impl_->readHandle(), impl_->readError, "SELECT count(*) FROM results");
}

std::int64_t ExperimentStore::lastSeq() const {
    if (impl_->schemaVersion < 3) {
        return singleInt(impl_->readHandle(), impl_->readError, R"sql(
SELECT max(coalesce((SELECT max(seq) FROM results), 0),
           coalesce((SELECT max(seq) FROM events), 0),
           coalesce((SELECT value FROM counters WHERE name = 'last_seq'), 0))
)sql");
    }
    return singleInt(impl_->readHandle(), impl_->readError, R"sql(
SELECT max(coalesce((SELECT max(seq) FROM results), 0),
           coalesce((SELECT max(seq) FROM events), 0),
           coalesce((SELECT max(seq) FROM node_usage), 0),
           coalesce((SELECT value FROM counters WHERE name = 'last_seq'), 0))
)sql");
}

std::vector<NodeUsageRecord> ExperimentStore::loadNodeUsage(const QString& node) const {
    std::vector<NodeUsageRecord> samples;
    if (impl_->schemaVersion < 3) {
        return samples;
    }
    const QByteArray name = node.toUtf8();
    read(
        impl_->readHandle(), impl_->readError,
        "SELECT seq, timestamp, node, data FROM node_usage WHERE ?1 IS NULL OR node = ?1 "
        "ORDER BY seq",
        [&](Statement& query) {
            if (!node.isEmpty()) {
                query.bindText(1, name);
            }
        },
        [&](Statement& row) {
            NodeUsageRecord sample;
            sample.seq = row.columnInt(0);
            sample.timestamp = row.columnDouble(1);
            sample.node = row.columnText(2);
            sample.usage = row.columnJson(3);
            samples.push_back(std::move(sample));
        });
    return samples;
}

}  // namespace tunedeck
