// Opening a store and its write side: every write becomes an op queued for the BatchWriter.
#include "store/experiment_store.h"

#include <QFile>
#include <QFileInfo>
#include <QUrl>
#include <QtDebug>
#include <cmath>
#include <iterator>
#include <utility>

#include "store/schema.h"
#include "store/store_impl.h"
#include "store/usage_retention.h"

namespace tunedeck {
namespace {

Status withPath(const Status& status, const QString& path) {
    const QString message = QStringLiteral("%1: %2").arg(path, status.message());
    switch (status.code()) {
        case Status::Code::Ok:
            return status;
        case Status::Code::InvalidArgument:
            return Status::invalid(message);
        case Status::Code::NotFound:
            return Status::notFound(message);
        case Status::Code::IoError:
            return Status::ioError(message);
        case Status::Code::Busy:
            return Status::busy(message);
        case Status::Code::Corruption:
            return Status::corruption(message);
    }
    return status;
}

// The counters continue from what the file holds: seq from both tables and from the mark left by
// deleted results, so a reopened store never hands out a seq a client may already have seen.
struct Counters {
    std::int64_t lastSeq = 0;
    std::int64_t lastCheckpointId = 0;
    std::int64_t lastExploitId = 0;
};

Status readCounters(sqlite3* db, Counters* out) {
    store::Statement query;
    Status status = query.prepare(db, R"sql(
SELECT max(coalesce((SELECT max(seq) FROM results), 0),
           coalesce((SELECT max(seq) FROM events), 0),
           coalesce((SELECT max(seq) FROM node_usage), 0),
           coalesce((SELECT value FROM counters WHERE name = 'last_seq'), 0)),
       coalesce((SELECT max(id) FROM checkpoints), 0),
       coalesce((SELECT max(id) FROM exploits), 0)
)sql",
                                  false);
    if (!status) {
        return status;
    }
    const int code = query.step();
    if (code != SQLITE_ROW) {
        return store::sqliteStatus(db, code, QStringLiteral("reading the history's counters"));
    }
    out->lastSeq = query.columnInt(0);
    out->lastCheckpointId = query.columnInt(1);
    out->lastExploitId = query.columnInt(2);
    return Status::ok();
}

}  // namespace

Status ExperimentStore::Impl::openWriter() {
    auto connection = std::make_unique<store::Connection>();
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (Status status = connection->open(path, flags); !status) {
        return status;
    }
    sqlite3* db = connection->handle();
    // Refuse a newer file before anything (the journal mode included) is changed in it.
    int version = 0;
    // A damaged history is never written into (resume would build on a wrong picture of it).
    Status status = store::checkIntegrity(db);
    if (status) {
        status = store::readSchemaVersion(db, &version);
    }
    if (status && version > kStoreSchemaVersion) {
        status = store::checkReadableSchema(version);
    }
    if (status) {
        status = store::configureWriteConnection(db);
    }
    if (status) {
        status = store::migrateSchema(db, store::storeMigrations());
    }
    if (status) {
        status = store::readSchemaVersion(db, &schemaVersion);
    }
    Counters counters;
    if (status) {
        status = readCounters(db, &counters);
    }
    if (!status) {
        return status;
    }
    lastSeq = counters.lastSeq;
    lastCheckpointId = counters.lastCheckpointId;
    lastExploitId = counters.lastExploitId;
    writer =
        std::make_unique<store::BatchWriter>(std::move(connection), QFileInfo(path).fileName());
    return Status::ok();
}

Status ExperimentStore::Impl::openReader() {
    if (reader.isOpen()) {
        return Status::ok();
    }
    auto tryOpen = [this](const QString& uri) {
        int version = 0;
        Status status = reader.open(uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX);
        if (status) {
            store::configureReadConnection(reader.handle());
            status = store::readSchemaVersion(reader.handle(), &version);  // touches the file
        }
        if (!status) {
            reader.close();
        }
        return status;
    };
    Status status = tryOpen(path);
    if (status || mode == Mode::ReadWrite) {
        return status;  // the fallbacks below are only right for a file nobody writes to
    }
    // Reading a WAL database needs its -shm index, which a read-only folder cannot get when the
    // file has none (it is removed on a clean close, and not copied with the experiment).
    const QFileInfo wal(path + QStringLiteral("-wal"));
    if (!wal.exists() || wal.size() == 0) {
        // All the data is in the main file and nothing can change it: read it as immutable.
        return tryOpen(QUrl::fromLocalFile(path).toString(QUrl::FullyEncoded) +
                       QStringLiteral("?immutable=1"));
    }
    // Commits still in the WAL (the engine was killed) can only be read through an index, so
    // read a private copy of the file and its WAL instead.
    snapshot = std::make_unique<QTemporaryDir>();
    const QString copy = snapshot->filePath(QFileInfo(path).fileName());
    if (!snapshot->isValid() || !QFile::copy(path, copy) ||
        !QFile::copy(wal.filePath(), copy + QStringLiteral("-wal"))) {
        snapshot.reset();
        return status;
    }
    return tryOpen(copy);
}

sqlite3* ExperimentStore::Impl::readHandle() {
    if (Status status = openReader(); !status) {
        qWarning("%s", qPrintable(withPath(status, path).message()));
        return nullptr;
    }
    return reader.handle();
}

bool ExperimentStore::Impl::acceptsWrites() {
    if (mode == Mode::ReadWrite) {
        return true;
    }
    if (readOnlyWriteError.isOk()) {
        readOnlyWriteError = Status::invalid(
            QStringLiteral("%1 was opened read-only; writes are dropped").arg(path));
    }
    return false;
}

ExperimentStore::ExperimentStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Status ExperimentStore::open(const QString& path, Mode mode,
                             std::unique_ptr<ExperimentStore>* out) {
    auto impl = std::make_unique<Impl>();
    impl->path = QFileInfo(path).absoluteFilePath();
    impl->mode = mode;
    if (mode == Mode::ReadOnly) {
        if (!QFileInfo::exists(impl->path)) {
            return Status::notFound(QStringLiteral("%1: no experiment history here").arg(path));
        }
        Status status = impl->openReader();
        if (status) {
            status = store::readSchemaVersion(impl->reader.handle(), &impl->schemaVersion);
        }
        if (status) {
            status = store::checkReadableSchema(impl->schemaVersion);
        }
        if (!status) {
            return withPath(store::asDamage(status), impl->path);
        }
    } else if (Status status = impl->openWriter(); !status) {
        return withPath(store::asDamage(status), impl->path);
    }
    out->reset(new ExperimentStore(std::move(impl)));
    return Status::ok();
}

ExperimentStore::~ExperimentStore() {
    if (impl_->writer) {
        if (Status status = impl_->writer->flush(); !status) {
            qWarning("%s", qPrintable(status.message()));
        }
    }
    // The reader goes first so that closing the write connection, the last one, can checkpoint
    // the WAL into the database file and remove it.
    impl_->reader.close();
    impl_->writer.reset();
}

int ExperimentStore::schemaVersion() const {
    return impl_->schemaVersion;
}

QString ExperimentStore::path() const {
    return impl_->path;
}

void ExperimentStore::saveExperiment(const ExperimentRecord& record) {
    if (impl_->acceptsWrites()) {
        impl_->writer->enqueue(store::SaveExperimentOp{std::make_unique<ExperimentRecord>(record)});
    }
}

void ExperimentStore::setExperimentStatus(const QString& status, double finishedAt) {
    if (impl_->acceptsWrites()) {
        impl_->writer->enqueue(store::SetExperimentStatusOp{status, finishedAt});
    }
}

void ExperimentStore::saveSearchState(const QJsonObject& searcherState,
                                      const QJsonObject& schedulerState) {
    if (impl_->acceptsWrites()) {
        impl_->writer->enqueue(store::SaveSearchStateOp{searcherState, schedulerState});
    }
}

void ExperimentStore::saveTrial(const TrialRecord& record) {
    if (impl_->acceptsWrites()) {
        impl_->writer->enqueue(store::SaveTrialOp{std::make_unique<TrialRecord>(record)});
    }
}

std::int64_t ExperimentStore::appendResult(const QString& trialId, std::int64_t iteration,
                                           double timestamp, const QJsonObject& result) {
    if (!impl_->acceptsWrites()) {
        return 0;
    }
    const std::int64_t seq = ++impl_->lastSeq;
    impl_->writer->enqueue(store::AppendResultOp{seq, iteration, timestamp, trialId, result});
    return seq;
}

void ExperimentStore::deleteResultsAfter(const QString& trialId, std::int64_t iteration) {
    if (impl_->acceptsWrites()) {
        impl_->writer->enqueue(store::DeleteResultsAfterOp{trialId, iteration, impl_->lastSeq});
    }
}

std::int64_t ExperimentStore::addCheckpoint(const QString& trialId, std::int64_t iteration,
                                            const QString& path, const QJsonObject& result,
                                            double createdAt) {
    if (!impl_->acceptsWrites()) {
        return 0;
    }
    const std::int64_t id = ++impl_->lastCheckpointId;
    impl_->writer->enqueue(store::AddCheckpointOp{id, iteration, createdAt, trialId, path, result});
    return id;
}

void ExperimentStore::markCheckpointDeleted(std::int64_t checkpointId) {
    if (impl_->acceptsWrites()) {
        impl_->writer->enqueue(store::MarkCheckpointDeletedOp{checkpointId});
    }
}

std::int64_t ExperimentStore::addExploit(const ExploitRecord& record) {
    if (!impl_->acceptsWrites()) {
        return 0;
    }
    auto queued = std::make_unique<ExploitRecord>(record);
    queued->id = ++impl_->lastExploitId;
    const std::int64_t id = queued->id;
    impl_->writer->enqueue(store::AddExploitOp{std::move(queued)});
    return id;
}

std::int64_t ExperimentStore::appendEvent(const QString& type, const QString& trialId,
                                          const QJsonObject& payload, double timestamp) {
    if (!impl_->acceptsWrites()) {
        return 0;
    }
    const std::int64_t seq = ++impl_->lastSeq;
    impl_->writer->enqueue(store::AppendEventOp{seq, timestamp, type, trialId, payload});
    return seq;
}

std::int64_t ExperimentStore::appendNodeUsage(const QString& node, double timestamp,
                                              const QJsonObject& usage) {
    if (!impl_->acceptsWrites()) {
        return 0;
    }
    const std::int64_t seq = ++impl_->lastSeq;
    impl_->writer->enqueue(store::AppendNodeUsageOp{seq, timestamp, node, usage});
    if (timestamp < impl_->nextUsageThinAt) {
        return seq;
    }
    impl_->nextUsageThinAt = timestamp + store::kUsageThinEveryS;
    std::vector<double>& thinnedUpTo = impl_->usageThinnedUpTo;
    thinnedUpTo.resize(std::size(store::kUsageTiers), 0);
    for (std::size_t tier = 0; tier < std::size(store::kUsageTiers); ++tier) {
        const store::UsageTier& t = store::kUsageTiers[tier];
        // Whole steps only, so a step is never split between two passes.
        const double upTo = std::floor((timestamp - t.olderThanS) / t.stepS) * t.stepS;
        if (upTo > thinnedUpTo[tier]) {
            impl_->writer->enqueue(
                store::ThinNodeUsageOp{thinnedUpTo[tier], upTo, t.stepS, impl_->lastSeq});
            thinnedUpTo[tier] = upTo;
        }
    }
    return seq;
}

Status ExperimentStore::flush() {
    return impl_->writer ? impl_->writer->flush() : impl_->readOnlyWriteError;
}

Status ExperimentStore::readError() const {
    return store::asDamage(impl_->readError);
}

Status ExperimentStore::lastError() const {
    return impl_->writer ? impl_->writer->lastError() : impl_->readOnlyWriteError;
}

}  // namespace tunedeck
