#include "store/batch_writer.h"

#include <utility>

namespace tunedeck::store {
namespace {

// Tuning constants of the batching.
// A write waits at most this long before its transaction starts: short enough that the GUI's
// charts and a crash lose little, long enough that a commit is amortised over many rows.
constexpr auto kMaxBatchDelay = std::chrono::milliseconds(50);
// A batch is committed as soon as it holds this many ops, so a burst becomes several
// transactions of a bounded size rather than one huge one.
constexpr std::size_t kBatchOps = 20000;
// Past this many queued ops the caller waits for the writer: a stalled disk, or trials that
// report faster than SQLite commits (report windows), must slow the engine down rather than grow
// its memory (about 1 s of results at 50k/s; 250,000 let the engine grow to 125 MB).
constexpr std::size_t kMaxQueuedOps = 50000;

}  // namespace

BatchWriter::BatchWriter(std::unique_ptr<Connection> connection, QString fileName)
    : connection_(std::move(connection)),
      statements_(std::make_unique<WriteStatements>(connection_->handle())),
      fileName_(std::move(fileName)),
      thread_([this] { run(); }) {}

BatchWriter::~BatchWriter() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wakeWriter_.notify_one();
    thread_.join();
    statements_.reset();  // statements are finalised before their connection closes
    connection_->close();
}

void BatchWriter::enqueue(WriteOp&& op) {
    std::unique_lock lock(mutex_);
    if (queued_ >= kMaxQueuedOps) {
        progress_.wait(lock, [this] { return queued_ < kMaxQueuedOps || !error_.isOk(); });
    }
    if (!error_.isOk()) {
        return;
    }
    if (queue_.empty() || queue_.back().ops.size() >= kBatchOps) {
        Batch& batch = queue_.emplace_back();
        if (!spare_.empty()) {
            batch.ops.swap(spare_.back());
            spare_.pop_back();
        }
        batch.firstQueuedAt = std::chrono::steady_clock::now();
    }
    queue_.back().ops.push_back(std::move(op));
    ++queued_;
    ++enqueued_;
    // Waking the writer costs a system call, so only the first op and the first full batch do
    // it; the writer's timed wait and its loop take care of everything in between.
    if (queued_ == 1 || (queue_.size() == 1 && queue_.front().ops.size() == kBatchOps)) {
        wakeWriter_.notify_one();
    }
}

Status BatchWriter::flush() {
    std::unique_lock lock(mutex_);
    const std::uint64_t target = enqueued_;
    if (finished_ < target) {
        flushRequested_ = true;
        wakeWriter_.notify_one();
        progress_.wait(lock, [&] { return finished_ >= target; });
    }
    return error_;
}

Status BatchWriter::lastError() const {
    std::lock_guard lock(mutex_);
    return error_;
}

void BatchWriter::run() {
    std::vector<WriteOp> batch;
    std::unique_lock lock(mutex_);
    for (;;) {
        wakeWriter_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) {
            return;  // stopping, nothing left
        }
        wakeWriter_.wait_until(lock, queue_.front().firstQueuedAt + kMaxBatchDelay, [this] {
            return stopping_ || flushRequested_ || queue_.front().ops.size() >= kBatchOps;
        });
        batch.swap(queue_.front().ops);
        queue_.pop_front();
        queued_ -= batch.size();
        if (queue_.empty()) {
            flushRequested_ = false;  // this batch holds the last op any waiting flush needs
        }
        const bool failed = !error_.isOk();
        lock.unlock();
        progress_.notify_all();  // a caller blocked on a full queue may go on

        Status status = failed ? Status::ok() : commit(batch);
        const std::size_t count = batch.size();
        batch.clear();  // releases the results' memory outside the lock

        lock.lock();
        if (!status && error_.isOk()) {
            error_ = status;
        }
        finished_ += count;
        if (spare_.size() < 2) {
            spare_.push_back(std::move(batch));
            batch = std::vector<WriteOp>();
        }
        progress_.notify_all();
    }
}

Status BatchWriter::commit(std::vector<WriteOp>& batch) {
    sqlite3* db = connection_->handle();
    // IMMEDIATE takes the write lock up front, so a second process holding the file fails the
    // batch here (after the busy timeout) instead of in the middle of it.
    int code = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    for (std::size_t i = 0; code == SQLITE_OK && i < batch.size(); ++i) {
        code = statements_->apply(batch[i]);
    }
    if (code == SQLITE_OK) {
        code = sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    }
    if (code == SQLITE_OK) {
        return Status::ok();
    }
    Status status = sqliteStatus(db, code, QStringLiteral("cannot write %1").arg(fileName_));
    // A failed batch leaves nothing behind: the database stays at its last commit.
    if (sqlite3_get_autocommit(db) == 0) {
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    return status;
}

}  // namespace tunedeck::store
