// ExperimentStore's private state, shared by its write side (experiment_store.cpp) and its
// queries (store_queries.cpp). Same thread contract as ExperimentStore.
#pragma once

#include <QString>
#include <QTemporaryDir>
#include <cstdint>
#include <memory>
#include <vector>

#include "store/batch_writer.h"
#include "store/experiment_store.h"
#include "store/sqlite_db.h"

namespace tunedeck {

struct ExperimentStore::Impl {
    QString path;  // absolute
    Mode mode = Mode::ReadWrite;
    int schemaVersion = 0;

    std::unique_ptr<store::BatchWriter> writer;  // ReadWrite only
    Status readOnlyWriteError;                   // sticky error of a write in ReadOnly mode
    Status readError;                            // the first read that failed (readError())
    // The last seq / checkpoint id / exploit id handed out (enqueue time, caller's thread).
    std::int64_t lastSeq = 0;
    std::int64_t lastCheckpointId = 0;
    std::int64_t lastExploitId = 0;
    // Node usage thinning (usage_retention.h): when it runs next, and how far each tier has
    // thinned (nothing yet at open, so the first run also covers what an earlier run left).
    double nextUsageThinAt = 0;
    std::vector<double> usageThinnedUpTo;

    // A private copy read instead of a file that cannot be read in place (see openReader).
    std::unique_ptr<QTemporaryDir> snapshot;
    // Opened at the first read in ReadWrite mode, at open() in ReadOnly mode.
    store::Connection reader;

    // The read connection, opening it if needed; null (with a warning logged) if it cannot open.
    sqlite3* readHandle();
    Status openReader();
    Status openWriter();
    bool acceptsWrites();
};

}  // namespace tunedeck
