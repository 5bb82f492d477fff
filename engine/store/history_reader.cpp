#include "store/history_reader.h"

#include <sqlite3.h>

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QUrl>
#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>

#include "core/best_trial.h"
#include "core/float_path_list.h"
#include "store/result_metric.h"
#include "store/schema_version.h"
#include "store/sqlite_db.h"
#include "store/stored_json.h"

namespace tunedeck::store {

namespace {

// Tuning constants of the read.
// A lock held by the engine's writer (a checkpoint of the WAL) is waited for this long.
constexpr int kBusyTimeoutMs = 5000;
// The file mapped rather than read page by page: a tenth less time for a million results.
constexpr const char* kMapFile = "PRAGMA mmap_size = 1073741824";
// Read-only, and used by one thread: no locking inside SQLite (a tenth of the read's time).
// A history is never opened through a symbolic link: an engine running as root reads its users'
// folders, whose owner could swap one in for someone else's history between a check and the open.
constexpr int kOpenFlags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW;

struct CloseDb {
    void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct Finalize {
    void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Db = std::unique_ptr<sqlite3, CloseDb>;
using Rows = std::unique_ptr<sqlite3_stmt, Finalize>;

std::string_view bytesAt(sqlite3_stmt* s, int column) {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(s, column));
    return data ? std::string_view(data, std::size_t(sqlite3_column_bytes(s, column)))
                : std::string_view();
}

QString textAt(sqlite3_stmt* s, int column) {
    const std::string_view bytes = bytesAt(s, column);
    return QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
}

// A JSON object column; {} for empty text. Text that is no JSON object is damage (the engine
// writes only objects): {} too, and `damaged` is set, as the store's reads do.
QJsonObject objectAt(sqlite3_stmt* s, int column, bool* damaged) {
    const std::string_view bytes = bytesAt(s, column);
    if (bytes.empty()) {
        return {};
    }
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(
        QByteArray::fromRawData(bytes.data(), qsizetype(bytes.size())), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        *damaged = true;
        return {};
    }
    return document.object();
}

// A config column: the object, and which of its numbers are floats. The engine writes 1.0 as
// 1.0 (core/config_json.h), which QJsonDocument reads back as 1, so the floats come from the
// text itself, as ExperimentStore::loadTrials finds them.
// Configs of one search space mostly have the same float paths ({"lr"}): `seen` keeps one
// shared copy of each set, instead of a hash table per config (a tenth of reading 20,000 trials
// went to building them).
QJsonObject configAt(sqlite3_stmt* s, int column, FloatPaths* floats, bool* damaged,
                     std::vector<FloatPaths>* seen) {
    constexpr std::size_t kSetsKept = 16;  // a space's float paths differ only by its choices
    const std::string_view bytes = bytesAt(s, column);
    const QStringList paths =
        floatPathListInJson(QByteArray::fromRawData(bytes.data(), qsizetype(bytes.size())));
    const auto same = [&paths](const FloatPaths& known) {
        return known.size() == paths.size() &&
               std::all_of(paths.begin(), paths.end(),
                           [&known](const QString& path) { return known.contains(path); });
    };
    if (const auto known = std::find_if(seen->begin(), seen->end(), same); known != seen->end()) {
        *floats = *known;
    } else {
        *floats = FloatPaths(paths.begin(), paths.end());
        if (seen->size() < kSetsKept) {
            seen->push_back(*floats);
        }
    }
    return objectAt(s, column, damaged);
}

}  // namespace

struct HistoryReader::Impl {
    QString path;
    // A private copy read instead of a file that cannot be read in place (see open): declared
    // before `db`, so it is removed after the connection to it closed.
    std::unique_ptr<QTemporaryDir> snapshot;
    Db db;
    int version = 0;
    bool damaged = false;  // a stored JSON value did not parse: set by the read that met it

    // SQLite's damage to the file (SQLITE_CORRUPT, SQLITE_NOTADB) is Corruption, as the store
    // says it (store/sqlite_db.h).
    Status failure(const QString& what, int code) const {
        return sqliteStatus(db.get(), code, QStringLiteral("%1: %2").arg(path, what));
    }

    Status prepare(const char* sql, Rows* out) {
        damaged = false;
        sqlite3_stmt* raw = nullptr;
        if (const int code = sqlite3_prepare_v2(db.get(), sql, -1, &raw, nullptr);
            code != SQLITE_OK) {
            return failure(QStringLiteral("cannot read the history"), code);
        }
        out->reset(raw);
        return Status::ok();
    }

    // SQLITE_ROW while rows come; an error once they stop for any reason but the end, or when
    // a value read was damaged.
    Status finished(int code) const {
        if (damaged) {
            return Status::corruption(
                QStringLiteral("%1: reading the history: a stored JSON value is damaged")
                    .arg(path));
        }
        return code == SQLITE_DONE ? Status::ok()
                                   : failure(QStringLiteral("cannot read the history"), code);
    }
};

Status HistoryReader::open(const QString& path, std::unique_ptr<HistoryReader>* out) {
    if (!QFileInfo::exists(path)) {
        return Status::notFound(QStringLiteral("%1: no such file").arg(path));
    }
    auto impl = std::make_unique<Impl>();
    impl->path = path;
    auto tryOpen = [&impl](const QByteArray& uri, int flags) {
        sqlite3* raw = nullptr;
        const int code = sqlite3_open_v2(uri.constData(), &raw, kOpenFlags | flags, nullptr);
        impl->db.reset(raw);
        if (code != SQLITE_OK) {
            return impl->failure(QStringLiteral("cannot open it"), code);
        }
        sqlite3_busy_timeout(raw, kBusyTimeoutMs);
        // Reading the version touches the file: a WAL history whose -shm index cannot be made
        // fails here.
        Rows rows;
        Status status = impl->prepare("PRAGMA user_version", &rows);
        if (const int step = status ? sqlite3_step(rows.get()) : SQLITE_ROW; step != SQLITE_ROW) {
            status = impl->failure(QStringLiteral("cannot read its schema version"), step);
        }
        if (status) {
            impl->version = sqlite3_column_int(rows.get(), 0);
        }
        return status;
    };
    Status status = tryOpen(QFile::encodeName(path), 0);
    const QFileInfo wal(path + QStringLiteral("-wal"));
    if (!status && (!wal.exists() || wal.size() == 0)) {
        // A copy in a read-only folder: nothing can change it, so it is read as immutable.
        status = tryOpen(QUrl::fromLocalFile(path).toEncoded() + "?immutable=1", SQLITE_OPEN_URI);
    } else if (!status) {
        // Commits still in the WAL (the engine was killed) can only be read through an index,
        // which a read-only folder cannot hold: a private copy of the file and its WAL is read,
        // as ExperimentStore reads it.
        auto snapshot = std::make_unique<QTemporaryDir>();
        const QString copy = snapshot->filePath(QFileInfo(path).fileName());
        if (snapshot->isValid() && QFile::copy(path, copy) &&
            QFile::copy(wal.filePath(), copy + QStringLiteral("-wal"))) {
            impl->snapshot = std::move(snapshot);
            status = tryOpen(QFile::encodeName(copy), 0);
        }
    }
    if (!status) {
        return status;
    }
    if (Status readable = checkReadableSchema(impl->version); !readable) {
        return Status::invalid(QStringLiteral("%1: %2").arg(path, readable.message()));
    }
    sqlite3_exec(impl->db.get(), kMapFile, nullptr, nullptr, nullptr);
    // One read transaction for the life of the reader: a consistent picture.
    if (const int code = sqlite3_exec(impl->db.get(), "BEGIN", nullptr, nullptr, nullptr);
        code != SQLITE_OK) {
        return impl->failure(QStringLiteral("cannot start reading"), code);
    }
    out->reset(new HistoryReader(std::move(impl)));
    return Status::ok();
}

HistoryReader::HistoryReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HistoryReader::~HistoryReader() {
    sqlite3_exec(impl_->db.get(), "COMMIT", nullptr, nullptr, nullptr);
}

int HistoryReader::schemaVersion() const {
    return impl_->version;
}

Status HistoryReader::readExperiment(HistoryExperiment* out) {
    Rows s;
    if (Status status = impl_->prepare(
            "SELECT name, status, spec_text, created_at, spec_file FROM experiment", &s);
        !status) {
        return status;
    }
    *out = {};
    const int code = sqlite3_step(s.get());
    if (code == SQLITE_ROW) {
        out->recorded = true;
        out->name = textAt(s.get(), 0);
        out->status = textAt(s.get(), 1);
        out->specText = textAt(s.get(), 2);
        out->createdAt = sqlite3_column_double(s.get(), 3);
        out->specFile = textAt(s.get(), 4);
        return Status::ok();
    }
    return impl_->finished(code);
}

Status HistoryReader::readTrials(std::vector<HistoryTrial>* out, LastResult lastResult) {
    Rows s;
    if (Status status =
            impl_->prepare("SELECT id, config, status, iteration, node_id, pending_reason, "
                           "error_message, started_at, finished_at, time_total_s, last_result "
                           "FROM trials "
                           "ORDER BY idx, id",
                           &s);
        !status) {
        return status;
    }
    out->clear();
    std::vector<FloatPaths> floatSets;
    int code = SQLITE_ROW;
    while ((code = sqlite3_step(s.get())) == SQLITE_ROW) {
        HistoryTrial trial;
        trial.id = textAt(s.get(), 0);
        trial.config = configAt(s.get(), 1, &trial.configFloats, &impl_->damaged, &floatSets);
        trial.status = textAt(s.get(), 2);
        trial.iteration = sqlite3_column_int64(s.get(), 3);
        trial.node = textAt(s.get(), 4);
        trial.pendingReason = textAt(s.get(), 5);
        trial.errorMessage = textAt(s.get(), 6);
        trial.startedAt = sqlite3_column_double(s.get(), 7);
        trial.finishedAt = sqlite3_column_double(s.get(), 8);
        trial.timeTotalS = sqlite3_column_double(s.get(), 9);
        const std::string_view result = bytesAt(s.get(), 10);
        trial.lastResultJson = QByteArray(result.data(), qsizetype(result.size()));
        if (lastResult == LastResult::Parsed) {
            trial.lastResult = objectAt(s.get(), 10, &impl_->damaged);
        } else if (!isJsonObjectText(result)) {
            impl_->damaged = true;
        }
        out->push_back(std::move(trial));
    }
    return impl_->finished(code);
}

Status HistoryReader::readCurves(const QString& metric, const std::vector<HistoryTrial>& trials,
                                 std::vector<MetricCurve>* curves, std::int64_t* results) {
    Rows s;
    if (Status status = impl_->prepare(
            "SELECT trial_id, iteration, timestamp, data FROM results ORDER BY seq", &s);
        !status) {
        return status;
    }
    curves->assign(trials.size(), {});
    *results = 0;
    QHash<QByteArray, std::size_t> curveOf;  // by the id's UTF-8 bytes, as results hold it
    for (std::size_t i = 0; i < trials.size(); ++i) {
        curveOf.insert(trials[i].id.toUtf8(), i);
        // As many results as iterations, but for restores: the curve grows once.
        const auto expected = std::size_t(std::max<std::int64_t>(trials[i].iteration, 0));
        (*curves)[i].iterations.reserve(expected);
        (*curves)[i].timestamps.reserve(expected);
        (*curves)[i].values.reserve(expected);
    }
    const ResultMetric reading(metric);
    MetricCurve* curve = nullptr;
    std::string_view curveId;  // the id of `curve`, held by curveOf's key
    int code = SQLITE_ROW;
    while ((code = sqlite3_step(s.get())) == SQLITE_ROW) {
        ++*results;
        const std::string_view json = bytesAt(s.get(), 3);
        if (!isJsonObjectText(json)) {
            impl_->damaged = true;  // no curve is drawn from part of the history
            break;
        }
        const std::string_view id = bytesAt(s.get(), 0);
        if (!curve || curveId != id) {
            // fromRawData: a look-up without a copy of the id.
            const auto it =
                curveOf.constFind(QByteArray::fromRawData(id.data(), qsizetype(id.size())));
            curve = it == curveOf.constEnd() ? nullptr : &(*curves)[*it];
            curveId = curve ? std::string_view(it.key().constData(), std::size_t(it.key().size()))
                            : std::string_view();
        }
        if (!curve) {
            continue;  // a result of a trial the history does not list
        }
        const double value = reading.in(json);
        if (std::isnan(value)) {
            continue;
        }
        // A restore goes back to its checkpoint, as the live curve and the scores do.
        const auto iteration = double(sqlite3_column_int64(s.get(), 1));
        const std::size_t kept = pointsKeptBefore(curve->iterations, iteration);
        if (kept < curve->iterations.size()) {
            curve->iterations.resize(kept);
            curve->timestamps.resize(kept);
            curve->values.resize(kept);
        }
        curve->iterations.push_back(iteration);
        curve->timestamps.push_back(sqlite3_column_double(s.get(), 2));
        curve->values.push_back(value);
    }
    return impl_->finished(code);
}

Status HistoryReader::readResults(const std::function<void(const HistoryResult&)>& each) {
    Rows s;
    if (Status status = impl_->prepare(
            "SELECT trial_id, iteration, timestamp, data FROM results ORDER BY seq", &s);
        !status) {
        return status;
    }
    std::vector<JsonMember> members;
    HistoryResult result;
    result.members = &members;
    int code = SQLITE_ROW;
    while ((code = sqlite3_step(s.get())) == SQLITE_ROW) {
        result.json = bytesAt(s.get(), 3);
        if (!readJsonMembers(result.json, &members)) {
            impl_->damaged = true;  // nothing is answered from part of the history
            break;
        }
        result.trialId = bytesAt(s.get(), 0);
        result.iteration = sqlite3_column_int64(s.get(), 1);
        result.timestamp = sqlite3_column_double(s.get(), 2);
        each(result);
    }
    return impl_->finished(code);
}

Status HistoryReader::readResultCount(std::int64_t* out) {
    Rows s;
    if (Status status = impl_->prepare("SELECT count(*) FROM results", &s); !status) {
        return status;
    }
    const int code = sqlite3_step(s.get());
    if (code != SQLITE_ROW) {
        return impl_->finished(code);
    }
    *out = sqlite3_column_int64(s.get(), 0);
    return Status::ok();
}

Status HistoryReader::readExploits(std::vector<HistoryExploit>* out) {
    out->clear();
    if (impl_->version < 2) {
        return Status::ok();  // recorded since schema v2
    }
    Rows s;
    if (Status status = impl_->prepare(
            "SELECT trial_id, source_trial_id, iteration, source_iteration, old_config, "
            "new_config, reason, timestamp FROM exploits ORDER BY id",
            &s);
        !status) {
        return status;
    }
    std::vector<FloatPaths> floatSets;
    int code = SQLITE_ROW;
    while ((code = sqlite3_step(s.get())) == SQLITE_ROW) {
        HistoryExploit exploit;
        exploit.trialId = textAt(s.get(), 0);
        exploit.sourceTrialId = textAt(s.get(), 1);
        exploit.iteration = sqlite3_column_int64(s.get(), 2);
        exploit.sourceIteration = sqlite3_column_int64(s.get(), 3);
        exploit.oldConfig =
            configAt(s.get(), 4, &exploit.oldConfigFloats, &impl_->damaged, &floatSets);
        exploit.newConfig =
            configAt(s.get(), 5, &exploit.newConfigFloats, &impl_->damaged, &floatSets);
        exploit.reason = textAt(s.get(), 6);
        exploit.timestamp = sqlite3_column_double(s.get(), 7);
        out->push_back(std::move(exploit));
    }
    return impl_->finished(code);
}

Status HistoryReader::readNodeUsage(std::vector<HistoryNodeUsage>* out) {
    out->clear();
    if (impl_->version < 3) {
        return Status::ok();  // recorded since schema v3
    }
    Rows s;
    if (Status status =
            impl_->prepare("SELECT timestamp, node, data FROM node_usage ORDER BY seq", &s);
        !status) {
        return status;
    }
    int code = SQLITE_ROW;
    while ((code = sqlite3_step(s.get())) == SQLITE_ROW) {
        HistoryNodeUsage sample;
        sample.timestamp = sqlite3_column_double(s.get(), 0);
        sample.node = textAt(s.get(), 1);
        sample.usage = objectAt(s.get(), 2, &impl_->damaged);
        out->push_back(std::move(sample));
    }
    return impl_->finished(code);
}

Status HistoryReader::readEvents(const QString& type, std::vector<QJsonObject>* payloads) {
    Rows s;
    if (Status status =
            impl_->prepare("SELECT payload FROM events WHERE type = ?1 ORDER BY seq", &s);
        !status) {
        return status;
    }
    const QByteArray typeText = type.toUtf8();
    sqlite3_bind_text(s.get(), 1, typeText.constData(), int(typeText.size()), SQLITE_STATIC);
    payloads->clear();
    int code = SQLITE_ROW;
    while ((code = sqlite3_step(s.get())) == SQLITE_ROW) {
        payloads->push_back(objectAt(s.get(), 0, &impl_->damaged));
    }
    return impl_->finished(code);
}

Status HistoryReader::readEndReasons(QHash<QString, QString>* out) {
    Rows s;
    if (Status status = impl_->prepare(
            "SELECT trial_id, payload FROM events WHERE type = 'trial_status' ORDER BY seq", &s);
        !status) {
        return status;
    }
    out->clear();
    // A string member's text: in place unless an escape needs the parser.
    const auto text = [](const JsonMember* member) {
        if (!member || member->kind != JsonKind::String) {
            return QString();
        }
        return member->escaped
                   ? jsonMemberValue(*member).toString()
                   : QString::fromUtf8(member->value.data(), qsizetype(member->value.size()));
    };
    std::vector<JsonMember> members;
    int code = SQLITE_ROW;
    while ((code = sqlite3_step(s.get())) == SQLITE_ROW) {
        if (!readJsonMembers(bytesAt(s.get(), 1), &members)) {
            impl_->damaged = true;
            break;
        }
        const JsonMember* status = nullptr;
        const JsonMember* reason = nullptr;
        for (const JsonMember& member : members) {
            if (member.key == "status") {
                status = &member;
            } else if (member.key == "reason") {
                reason = &member;
            }
        }
        if (text(status) == QLatin1String("TERMINATED")) {
            out->insert(textAt(s.get(), 0), text(reason));
        }
    }
    return impl_->finished(code);
}

std::vector<TrialScore> rankTrials(const std::vector<HistoryTrial>& trials,
                                   const std::vector<MetricCurve>& curves, MetricMode mode,
                                   ScoreScope scope) {
    std::vector<TrialScore> scores;
    for (std::size_t i = 0; i < trials.size() && i < curves.size(); ++i) {
        if (const std::optional<double> score = trialScore(curves[i].values, mode, scope)) {
            scores.push_back({trials[i].id, *score});
        }
    }
    rankScores(&scores, mode);
    return scores;
}

Status HistoryReader::readLastSeq(std::int64_t* out) {
    // As ExperimentStore::lastSeq: results, events and node usage share one sequence, and the
    // counters keep the seq of deleted results, so a subscription never sees a number twice.
    Rows s;
    const char* sql = impl_->version < 3 ? R"sql(
SELECT max(coalesce((SELECT max(seq) FROM results), 0),
           coalesce((SELECT max(seq) FROM events), 0),
           coalesce((SELECT value FROM counters WHERE name = 'last_seq'), 0))
)sql"
                                         : R"sql(
SELECT max(coalesce((SELECT max(seq) FROM results), 0),
           coalesce((SELECT max(seq) FROM events), 0),
           coalesce((SELECT max(seq) FROM node_usage), 0),
           coalesce((SELECT value FROM counters WHERE name = 'last_seq'), 0))
)sql";
    if (Status status = impl_->prepare(sql, &s); !status) {
        return status;
    }
    const int code = sqlite3_step(s.get());
    if (code != SQLITE_ROW) {
        return impl_->finished(code);
    }
    *out = sqlite3_column_int64(s.get(), 0);
    return Status::ok();
}

}  // namespace tunedeck::store
