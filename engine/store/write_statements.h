// How each queued write becomes SQL: the write connection's prepared statements, prepared
// once and reused for every batch. Used by the writer thread only.
#pragma once

#include <sqlite3.h>

#include <QByteArray>
#include <QString>

#include "store/sqlite_db.h"
#include "store/write_ops.h"

namespace tunedeck::store {

class WriteStatements {
  public:
    explicit WriteStatements(sqlite3* db) : db_(db) {}

    // Runs one op in the current transaction; returns an SQLite result code (SQLITE_OK).
    int apply(const WriteOp& op);

  private:
    int apply(const SaveExperimentOp& op);
    int apply(const SetExperimentStatusOp& op);
    int apply(const SaveSearchStateOp& op);
    int apply(const SaveTrialOp& op);
    int apply(const AppendResultOp& op);
    int apply(const DeleteResultsAfterOp& op);
    int apply(const AddCheckpointOp& op);
    int apply(const MarkCheckpointDeletedOp& op);
    int apply(const AddExploitOp& op);
    int apply(const AppendEventOp& op);
    int apply(const AppendNodeUsageOp& op);
    int apply(const ThinNodeUsageOp& op);

    // Prepares `statement` the first time it is needed.
    int prepare(Statement& statement, const char* sql);
    const QByteArray& trialIdUtf8(const QString& id);

    sqlite3* db_;
    Statement saveExperiment_, setExperimentStatus_, saveSearchState_, saveTrial_, appendResult_,
        deleteResults_, seqMark_, addCheckpoint_, markCheckpointDeleted_, addExploit_, appendEvent_,
        appendNodeUsage_, thinNodeUsage_;
    // A result names the same trial as the one before it most of the time.
    QString lastTrialId_;
    QByteArray lastTrialIdUtf8_;
};

}  // namespace tunedeck::store
