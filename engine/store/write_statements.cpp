#include "store/write_statements.h"

#include <variant>

namespace tunedeck::store {
namespace {

constexpr const char* kSaveExperimentSql = R"sql(
INSERT INTO experiment (id, name, spec_text, spec_file, seed, status, created_at, finished_at,
                        searcher_state, scheduler_state)
VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
ON CONFLICT (id) DO UPDATE SET
    name = excluded.name, spec_text = excluded.spec_text, spec_file = excluded.spec_file,
    seed = excluded.seed, status = excluded.status, created_at = excluded.created_at,
    finished_at = excluded.finished_at, searcher_state = excluded.searcher_state,
    scheduler_state = excluded.scheduler_state
)sql";

constexpr const char* kSetExperimentStatusSql =
    "UPDATE experiment SET status = ?1, finished_at = ?2 WHERE id = 1";

constexpr const char* kSaveSearchStateSql =
    "UPDATE experiment SET searcher_state = ?1, scheduler_state = ?2 WHERE id = 1";

// An upsert, not INSERT OR REPLACE: REPLACE deletes the old row first, which the foreign keys
// of the trial's results would refuse.
constexpr const char* kSaveTrialSql = R"sql(
INSERT INTO trials (id, idx, config, status, failures, iteration, time_total_s, last_result,
                    checkpoint_path, checkpoint_iteration, pending_reason, error_message,
                    node_id, started_at, finished_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
ON CONFLICT (id) DO UPDATE SET
    idx = excluded.idx, config = excluded.config, status = excluded.status,
    failures = excluded.failures, iteration = excluded.iteration,
    time_total_s = excluded.time_total_s, last_result = excluded.last_result,
    checkpoint_path = excluded.checkpoint_path,
    checkpoint_iteration = excluded.checkpoint_iteration,
    pending_reason = excluded.pending_reason, error_message = excluded.error_message,
    node_id = excluded.node_id, started_at = excluded.started_at,
    finished_at = excluded.finished_at
)sql";

constexpr const char* kAppendResultSql =
    "INSERT INTO results (seq, trial_id, iteration, timestamp, data) VALUES (?1, ?2, ?3, ?4, ?5)";

constexpr const char* kDeleteResultsSql =
    "DELETE FROM results WHERE trial_id = ?1 AND iteration > ?2";

constexpr const char* kSeqMarkSql = R"sql(
INSERT INTO counters (name, value) VALUES ('last_seq', ?1)
ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)
)sql";

constexpr const char* kAddCheckpointSql = R"sql(
INSERT INTO checkpoints (id, trial_id, iteration, path, result, created_at, deleted)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0)
)sql";

constexpr const char* kMarkCheckpointDeletedSql =
    "UPDATE checkpoints SET deleted = 1 WHERE id = ?1";

constexpr const char* kAddExploitSql = R"sql(
INSERT INTO exploits (id, trial_id, source_trial_id, iteration, source_iteration, old_config,
                      new_config, reason, timestamp)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
)sql";

constexpr const char* kAppendEventSql =
    "INSERT INTO events (seq, timestamp, type, trial_id, payload) VALUES (?1, ?2, ?3, ?4, ?5)";

constexpr const char* kAppendNodeUsageSql =
    "INSERT INTO node_usage (seq, timestamp, node, data) VALUES (?1, ?2, ?3, ?4)";

// Timestamps are positive, so CAST truncates to the step the sample falls in.
constexpr const char* kThinNodeUsageSql = R"sql(
DELETE FROM node_usage
WHERE timestamp >= ?1 AND timestamp < ?2 AND seq NOT IN (
    SELECT min(seq) FROM node_usage WHERE timestamp >= ?1 AND timestamp < ?2
    GROUP BY node, CAST(timestamp / ?3 AS INTEGER))
)sql";

// Runs a statement that returns no rows and readies it for its next use.
int execute(Statement& statement) {
    const int code = statement.step();
    statement.reset();
    return code == SQLITE_DONE ? SQLITE_OK : code;
}

}  // namespace

int WriteStatements::apply(const WriteOp& op) {
    return std::visit([this](const auto& alternative) { return apply(alternative); }, op);
}

int WriteStatements::prepare(Statement& statement, const char* sql) {
    if (statement.isPrepared()) {
        return SQLITE_OK;
    }
    if (statement.prepare(db_, sql, true)) {
        return SQLITE_OK;
    }
    const int code = sqlite3_errcode(db_);
    return code != SQLITE_OK ? code : SQLITE_ERROR;
}

const QByteArray& WriteStatements::trialIdUtf8(const QString& id) {
    if (id != lastTrialId_) {
        lastTrialId_ = id;
        lastTrialIdUtf8_ = id.toUtf8();
    }
    return lastTrialIdUtf8_;
}

int WriteStatements::apply(const AppendResultOp& op) {
    if (int code = prepare(appendResult_, kAppendResultSql); code != SQLITE_OK) {
        return code;
    }
    const QByteArray data = jsonText(op.result);
    appendResult_.bindInt(1, op.seq);
    appendResult_.bindText(2, trialIdUtf8(op.trialId));
    appendResult_.bindInt(3, op.iteration);
    appendResult_.bindDouble(4, op.timestamp);
    appendResult_.bindText(5, data);
    return execute(appendResult_);
}

int WriteStatements::apply(const AppendEventOp& op) {
    if (int code = prepare(appendEvent_, kAppendEventSql); code != SQLITE_OK) {
        return code;
    }
    const QByteArray type = op.type.toUtf8();
    const QByteArray trialId = op.trialId.toUtf8();
    const QByteArray payload = jsonText(op.payload);
    appendEvent_.bindInt(1, op.seq);
    appendEvent_.bindDouble(2, op.timestamp);
    appendEvent_.bindText(3, type);
    if (op.trialId.isEmpty()) {
        appendEvent_.bindNull(4);
    } else {
        appendEvent_.bindText(4, trialId);
    }
    appendEvent_.bindText(5, payload);
    return execute(appendEvent_);
}

int WriteStatements::apply(const AppendNodeUsageOp& op) {
    if (int code = prepare(appendNodeUsage_, kAppendNodeUsageSql); code != SQLITE_OK) {
        return code;
    }
    const QByteArray node = op.node.toUtf8();
    const QByteArray payload = jsonText(op.payload);
    appendNodeUsage_.bindInt(1, op.seq);
    appendNodeUsage_.bindDouble(2, op.timestamp);
    appendNodeUsage_.bindText(3, node);
    appendNodeUsage_.bindText(4, payload);
    return execute(appendNodeUsage_);
}

int WriteStatements::apply(const ThinNodeUsageOp& op) {
    if (int code = prepare(thinNodeUsage_, kThinNodeUsageSql); code != SQLITE_OK) {
        return code;
    }
    if (int code = prepare(seqMark_, kSeqMarkSql); code != SQLITE_OK) {
        return code;
    }
    thinNodeUsage_.bindDouble(1, op.fromTime);
    thinNodeUsage_.bindDouble(2, op.toTime);
    thinNodeUsage_.bindDouble(3, op.stepS);
    if (int code = execute(thinNodeUsage_); code != SQLITE_OK) {
        return code;
    }
    // As for deleted results: a reopened store never hands out the seq of a thinned sample.
    seqMark_.bindInt(1, op.highestSeq);
    return execute(seqMark_);
}

int WriteStatements::apply(const SaveTrialOp& op) {
    if (int code = prepare(saveTrial_, kSaveTrialSql); code != SQLITE_OK) {
        return code;
    }
    const TrialRecord& record = *op.record;
    const Trial& trial = record.trial;
    const QByteArray id = trial.id.toUtf8();
    const QByteArray config = configJsonText(trial.config, record.configFloats);
    const QByteArray status = trialStatusName(trial.status).toUtf8();
    const QByteArray lastResult = jsonText(trial.lastResult);
    const QByteArray checkpointPath = trial.checkpointPath.toUtf8();
    const QByteArray pendingReason = trial.pendingReason.toUtf8();
    const QByteArray errorMessage = trial.errorMessage.toUtf8();
    const QByteArray nodeId = trial.nodeId.toUtf8();
    Statement& st = saveTrial_;
    st.bindText(1, id);
    st.bindInt(2, trial.index);
    st.bindText(3, config);
    st.bindText(4, status);
    st.bindInt(5, trial.failures);
    st.bindInt(6, trial.iteration);
    st.bindDouble(7, trial.timeTotalS);
    st.bindText(8, lastResult);
    st.bindText(9, checkpointPath);
    st.bindInt(10, trial.checkpointIteration);
    st.bindText(11, pendingReason);
    st.bindText(12, errorMessage);
    st.bindText(13, nodeId);
    st.bindDouble(14, record.startedAt);
    st.bindDouble(15, record.finishedAt);
    return execute(st);
}

int WriteStatements::apply(const AddCheckpointOp& op) {
    if (int code = prepare(addCheckpoint_, kAddCheckpointSql); code != SQLITE_OK) {
        return code;
    }
    const QByteArray trialId = op.trialId.toUtf8();
    const QByteArray path = op.path.toUtf8();
    const QByteArray result = jsonText(op.result);
    Statement& st = addCheckpoint_;
    st.bindInt(1, op.id);
    st.bindText(2, trialId);
    st.bindInt(3, op.iteration);
    st.bindText(4, path);
    st.bindText(5, result);
    st.bindDouble(6, op.createdAt);
    return execute(st);
}

int WriteStatements::apply(const MarkCheckpointDeletedOp& op) {
    if (int code = prepare(markCheckpointDeleted_, kMarkCheckpointDeletedSql); code != SQLITE_OK) {
        return code;
    }
    markCheckpointDeleted_.bindInt(1, op.id);
    return execute(markCheckpointDeleted_);
}

int WriteStatements::apply(const AddExploitOp& op) {
    if (int code = prepare(addExploit_, kAddExploitSql); code != SQLITE_OK) {
        return code;
    }
    const ExploitRecord& record = *op.record;
    const QByteArray trialId = record.trialId.toUtf8();
    const QByteArray sourceTrialId = record.sourceTrialId.toUtf8();
    const QByteArray oldConfig = jsonText(record.oldConfig);
    const QByteArray newConfig = jsonText(record.newConfig);
    const QByteArray reason = record.reason.toUtf8();
    Statement& st = addExploit_;
    st.bindInt(1, record.id);
    st.bindText(2, trialId);
    st.bindText(3, sourceTrialId);
    st.bindInt(4, record.iteration);
    st.bindInt(5, record.sourceIteration);
    st.bindText(6, oldConfig);
    st.bindText(7, newConfig);
    st.bindText(8, reason);
    st.bindDouble(9, record.timestamp);
    return execute(st);
}

int WriteStatements::apply(const DeleteResultsAfterOp& op) {
    if (int code = prepare(deleteResults_, kDeleteResultsSql); code != SQLITE_OK) {
        return code;
    }
    if (int code = prepare(seqMark_, kSeqMarkSql); code != SQLITE_OK) {
        return code;
    }
    const QByteArray trialId = op.trialId.toUtf8();
    deleteResults_.bindText(1, trialId);
    deleteResults_.bindInt(2, op.iteration);
    if (int code = execute(deleteResults_); code != SQLITE_OK) {
        return code;
    }
    seqMark_.bindInt(1, op.highestSeq);
    return execute(seqMark_);
}

int WriteStatements::apply(const SaveExperimentOp& op) {
    if (int code = prepare(saveExperiment_, kSaveExperimentSql); code != SQLITE_OK) {
        return code;
    }
    const ExperimentRecord& record = *op.record;
    const QByteArray name = record.name.toUtf8();
    const QByteArray specText = record.specText.toUtf8();
    const QByteArray specFile = record.specFile.toUtf8();
    const QByteArray status = record.status.toUtf8();
    const QByteArray searcher = jsonText(record.searcherState);
    const QByteArray scheduler = jsonText(record.schedulerState);
    Statement& st = saveExperiment_;
    st.bindText(1, name);
    st.bindText(2, specText);
    st.bindText(3, specFile);
    // SQLite integers are signed: the seed keeps its 64 bits, read back by the same cast.
    st.bindInt(4, static_cast<std::int64_t>(record.seed));
    st.bindText(5, status);
    st.bindDouble(6, record.createdAt);
    st.bindDouble(7, record.finishedAt);
    st.bindText(8, searcher);
    st.bindText(9, scheduler);
    return execute(st);
}

int WriteStatements::apply(const SetExperimentStatusOp& op) {
    if (int code = prepare(setExperimentStatus_, kSetExperimentStatusSql); code != SQLITE_OK) {
        return code;
    }
    const QByteArray status = op.status.toUtf8();
    setExperimentStatus_.bindText(1, status);
    setExperimentStatus_.bindDouble(2, op.finishedAt);
    return execute(setExperimentStatus_);
}

int WriteStatements::apply(const SaveSearchStateOp& op) {
    if (int code = prepare(saveSearchState_, kSaveSearchStateSql); code != SQLITE_OK) {
        return code;
    }
    const QByteArray searcher = jsonText(op.searcherState);
    const QByteArray scheduler = jsonText(op.schedulerState);
    saveSearchState_.bindText(1, searcher);
    saveSearchState_.bindText(2, scheduler);
    return execute(saveSearchState_);
}

}  // namespace tunedeck::store
