// The store's writer thread: it owns the write connection and commits queued writes in batched
// transactions. enqueue(), flush() and lastError() may be called from any thread; the
// connection is touched only by the writer thread once the BatchWriter is constructed.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/status.h"
#include "store/sqlite_db.h"
#include "store/write_ops.h"
#include "store/write_statements.h"

namespace tunedeck::store {

class BatchWriter {
  public:
    // `fileName` names the database in error messages.
    BatchWriter(std::unique_ptr<Connection> connection, QString fileName);
    ~BatchWriter();  // commits what is queued, then joins the thread

    BatchWriter(const BatchWriter&) = delete;
    BatchWriter& operator=(const BatchWriter&) = delete;

    // Cheap: takes a lock and appends. Dropped once a write has failed.
    void enqueue(WriteOp&& op);
    // Blocks until every op enqueued before the call is committed (or dropped after an error).
    Status flush();
    Status lastError() const;

  private:
    void run();
    Status commit(std::vector<WriteOp>& batch);

    std::unique_ptr<Connection> connection_;
    std::unique_ptr<WriteStatements> statements_;
    QString fileName_;

    // Queued ops in batches of at most kBatchOps, oldest first: a burst becomes several
    // transactions of bounded size, each committed as soon as it is full.
    struct Batch {
        std::vector<WriteOp> ops;
        std::chrono::steady_clock::time_point firstQueuedAt;
    };

    mutable std::mutex mutex_;
    std::condition_variable wakeWriter_;  // ops arrived, a flush is waiting, or stopping
    std::condition_variable progress_;    // a batch was taken or committed
    std::deque<Batch> queue_;
    std::vector<std::vector<WriteOp>> spare_;  // emptied batches, reused for their capacity
    std::size_t queued_ = 0;                   // ops in queue_
    std::uint64_t enqueued_ = 0;               // ops ever accepted
    std::uint64_t finished_ = 0;               // ops committed or dropped
    bool flushRequested_ = false;
    bool stopping_ = false;
    Status error_;

    std::thread thread_;  // last: starts once everything above is initialised
};

}  // namespace tunedeck::store
