#include "models/history_reader.h"

#include <sqlite3.h>
#include <yaml-cpp/yaml.h>

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <charconv>
#include <cmath>
#include <memory>

#include "api/events.h"

namespace tunedeck::app {

namespace {

struct CloseDb {
    void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct Finalize {
    void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Db = std::unique_ptr<sqlite3, CloseDb>;
using Statement = std::unique_ptr<sqlite3_stmt, Finalize>;

QString text(sqlite3_stmt* s, int column) {
    const auto* bytes = reinterpret_cast<const char*>(sqlite3_column_text(s, column));
    return bytes ? QString::fromUtf8(bytes, sqlite3_column_bytes(s, column)) : QString();
}

QByteArray bytes(sqlite3_stmt* s, int column) {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(s, column));
    return data ? QByteArray(data, sqlite3_column_bytes(s, column)) : QByteArray();
}

QJsonObject json(const QByteArray& text) {
    return text.isNull() ? QJsonObject() : QJsonDocument::fromJson(text).object();
}

// A config column: the object, and which of its numbers are floats. The engine writes 1.0 as
// 1.0 (core/config_json.h), which QJsonDocument reads back as 1, so the floats come from the
// text itself, as ExperimentStore::loadTrials finds them.
QJsonObject config(sqlite3_stmt* s, int column, FloatPaths* floats) {
    const QByteArray text = bytes(s, column);
    *floats = floatPathsInJson(text);
    return json(text);
}

// A reader of one JSON text that skips what it does not need. Every method returns false on
// text it does not follow (damaged, or an escaped key), and the caller falls back to a parser.
class JsonScan {
  public:
    explicit JsonScan(std::string_view text) : s_(text) {}

    // At an object: moves to the value of its member `key`; false when it has none.
    bool enter(std::string_view key, bool* malformed) {
        space();
        if (!at('{')) {
            return fail(malformed);
        }
        ++i_;
        while (true) {
            space();
            if (at('}')) {
                return false;
            }
            std::string_view name;
            bool escaped = false;
            if (!string(&name, &escaped)) {
                return fail(malformed);
            }
            space();
            if (!at(':')) {
                return fail(malformed);
            }
            ++i_;
            space();
            if (escaped) {
                return fail(malformed);  // "\u006c" may spell the key: the parser decides
            }
            if (name == key) {
                return true;
            }
            if (!skipValue()) {
                return fail(malformed);
            }
            space();
            if (at(',')) {
                ++i_;
            } else if (!at('}')) {
                return fail(malformed);
            }
        }
    }

    bool atObject() {
        space();
        return at('{');
    }

    // The number here, or kNoValue (a string, null, an object...).
    double number() const {
        double value = kNoValue;
        const char* begin = s_.data() + i_;
        const char* end = s_.data() + s_.size();
        if (begin == end || !(*begin == '-' || (*begin >= '0' && *begin <= '9'))) {
            return kNoValue;  // from_chars would also read "inf" and "nan", JSON has neither
        }
        const auto [stop, code] = std::from_chars(begin, end, value);
        return code == std::errc() && stop != begin ? value : kNoValue;
    }

  private:
    bool at(char c) const { return i_ < s_.size() && s_[i_] == c; }
    bool fail(bool* malformed) {
        *malformed = true;
        return false;
    }
    void space() {
        while (i_ < s_.size() &&
               (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) {
            ++i_;
        }
    }
    // At a '"': the raw text up to the closing quote, which it moves past.
    bool string(std::string_view* raw, bool* escaped) {
        if (!at('"')) {
            return false;
        }
        const std::size_t start = ++i_;
        while (i_ < s_.size() && s_[i_] != '"') {
            if (s_[i_] == '\\') {
                *escaped = true;
                ++i_;
            }
            ++i_;
        }
        if (i_ >= s_.size()) {
            return false;
        }
        *raw = s_.substr(start, i_ - start);
        ++i_;
        return true;
    }
    bool skipValue() {
        if (at('"')) {
            std::string_view ignored;
            bool escaped = false;
            return string(&ignored, &escaped);
        }
        if (at('{') || at('[')) {
            int depth = 0;
            while (i_ < s_.size()) {
                const char c = s_[i_];
                if (c == '"') {
                    std::string_view ignored;
                    bool escaped = false;
                    if (!string(&ignored, &escaped)) {
                        return false;
                    }
                    continue;
                }
                ++i_;
                if (c == '{' || c == '[') {
                    ++depth;
                } else if ((c == '}' || c == ']') && --depth == 0) {
                    return true;
                }
            }
            return false;
        }
        const std::size_t start = i_;  // a number, true, false or null
        while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ']' && s_[i_] != ' ' &&
               s_[i_] != '\n' && s_[i_] != '\t' && s_[i_] != '\r') {
            ++i_;
        }
        return i_ > start;
    }

    std::string_view s_;
    std::size_t i_ = 0;
};

// ExperimentData's reading of a result, for the texts the scanner does not follow.
double metricByParser(std::string_view json, const QString& metric) {
    return metricIn(
        QJsonDocument::fromJson(QByteArray(json.data(), qsizetype(json.size()))).object(), metric);
}

// The first objective of a recorded spec: `metric: loss` or `metric: [loss, latency]`.
void readObjective(const QString& specText, History* out) {
    try {
        const YAML::Node spec = YAML::Load(specText.toStdString());
        const YAML::Node metric = spec["metric"];
        const YAML::Node mode = spec["mode"];
        if (metric && metric.IsSequence() && metric.size() > 0) {
            out->metric = QString::fromStdString(metric[0].as<std::string>());
        } else if (metric && metric.IsScalar()) {
            out->metric = QString::fromStdString(metric.as<std::string>());
        }
        std::string first = "max";
        if (mode && mode.IsSequence() && mode.size() > 0) {
            first = mode[0].as<std::string>();
        } else if (mode && mode.IsScalar()) {
            first = mode.as<std::string>();
        }
        out->minimize = first == "min";
    } catch (const YAML::Exception&) {
        // A spec the engine accepted always parses; a damaged one leaves no metric.
    }
}

class Reader {
  public:
    Reader(sqlite3* db, QString path) : db_(db), path_(std::move(path)) {}

    bool prepare(const char* sql, Statement* out, QString* error) {
        sqlite3_stmt* raw = nullptr;
        if (sqlite3_prepare_v2(db_, sql, -1, &raw, nullptr) != SQLITE_OK) {
            *error = QStringLiteral("%1: %2").arg(path_, QString::fromUtf8(sqlite3_errmsg(db_)));
            return false;
        }
        out->reset(raw);
        return true;
    }

  private:
    sqlite3* db_;
    QString path_;
};

// Read-only, and used by one thread: no locking inside SQLite (a tenth of the read's time).
constexpr int kOpenFlags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX;

}  // namespace

ResultMetric::ResultMetric(const QString& metric) : key_(metric.toStdString()), metric_(metric) {
    if (metric.contains('/')) {
        for (const QString& part : metric.split('/')) {
            path_.push_back(part.toStdString());
        }
    }
}

double ResultMetric::in(std::string_view json) const {
    bool malformed = false;
    {
        JsonScan scan(json);
        if (scan.enter(key_, &malformed)) {
            return scan.number();
        }
    }
    if (!malformed && !path_.empty()) {
        JsonScan scan(json);
        for (std::size_t i = 0; i < path_.size(); ++i) {
            if (i > 0 && !scan.atObject()) {
                return kNoValue;
            }
            if (!scan.enter(path_[i], &malformed)) {
                break;
            }
            if (i + 1 == path_.size()) {
                return scan.number();
            }
        }
    }
    return malformed ? metricByParser(json, metric_) : kNoValue;
}

bool readHistory(const QString& folder, History* out, QString* error) {
    const QString path = folder + QStringLiteral("/experiment.sqlite");
    if (!QFileInfo::exists(path)) {
        *error = QStringLiteral("%1 is not a Tunedeck experiment folder (no experiment.sqlite)")
                     .arg(folder);
        return false;
    }
    sqlite3* raw = nullptr;
    // Read-only; on a read-only copy (no -shm can be made) as an immutable file.
    int rc = sqlite3_open_v2(QFile::encodeName(path).constData(), &raw, kOpenFlags, nullptr);
    Db db(raw);
    if (rc == SQLITE_OK &&
        sqlite3_exec(raw, "SELECT 1 FROM experiment", nullptr, nullptr, nullptr) != SQLITE_OK) {
        db.reset();
        const QByteArray uri = "file:" + QFile::encodeName(path) + "?immutable=1";
        rc = sqlite3_open_v2(uri.constData(), &raw, kOpenFlags | SQLITE_OPEN_URI, nullptr);
        db.reset(raw);
    }
    if (rc != SQLITE_OK) {
        *error = QStringLiteral("cannot open %1: %2")
                     .arg(path, QString::fromUtf8(sqlite3_errmsg(db.get())));
        return false;
    }
    Reader reader(db.get(), path);
    Statement s;
    // One read transaction: a consistent picture while an engine may be writing.
    // The file mapped rather than read page by page: a tenth less time for a million results.
    sqlite3_exec(db.get(), "PRAGMA mmap_size = 1073741824", nullptr, nullptr, nullptr);
    sqlite3_exec(db.get(), "BEGIN", nullptr, nullptr, nullptr);
    if (!reader.prepare("SELECT name, status, spec_text, created_at FROM experiment", &s, error)) {
        return false;
    }
    if (sqlite3_step(s.get()) == SQLITE_ROW) {
        out->name = text(s.get(), 0);
        out->status = text(s.get(), 1);
        readObjective(text(s.get(), 2), out);
        out->startTime = sqlite3_column_double(s.get(), 3);
    }
    if (!reader.prepare("SELECT id, config, status, iteration, node_id, pending_reason, "
                        "error_message, started_at, finished_at FROM trials ORDER BY idx",
                        &s, error)) {
        return false;
    }
    QHash<QByteArray, std::size_t> rowOf;  // by the id's UTF-8 bytes, as results hold it
    while (sqlite3_step(s.get()) == SQLITE_ROW) {
        TrialRow row;
        row.id = text(s.get(), 0);
        row.config = config(s.get(), 1, &row.configFloats);
        row.flatConfig = ExperimentData::flatten(row.config);
        row.status = text(s.get(), 2);
        row.iteration = sqlite3_column_int64(s.get(), 3);
        row.node = text(s.get(), 4);
        row.reason = row.status == QLatin1String("ERROR") ? text(s.get(), 6) : text(s.get(), 5);
        row.addedAt = sqlite3_column_double(s.get(), 7);
        row.lastAt = sqlite3_column_double(s.get(), 8);
        // As many results as iterations, but for restores: the curve grows once.
        const auto expected = std::size_t(std::max<qint64>(row.iteration, 0));
        row.iterations.reserve(expected);
        row.times.reserve(expected);
        row.values.reserve(expected);
        rowOf.insert(row.id.toUtf8(), out->trials.size());
        out->trials.push_back(std::move(row));
    }
    // One pass over the results in the order they came, each appended to its trial's curve.
    if (!out->metric.isEmpty()) {
        if (!reader.prepare("SELECT trial_id, iteration, timestamp, data FROM results ORDER BY seq",
                            &s, error)) {
            return false;
        }
        const ResultMetric metric(out->metric);
        TrialRow* row = nullptr;
        QByteArrayView rowId;
        while (sqlite3_step(s.get()) == SQLITE_ROW) {
            ++out->results;
            const auto* idBytes = reinterpret_cast<const char*>(sqlite3_column_text(s.get(), 0));
            const int idSize = sqlite3_column_bytes(s.get(), 0);
            if (!row || rowId != QByteArrayView(idBytes, idSize)) {
                // fromRawData: a look-up without a copy of the id.
                auto it = rowOf.constFind(QByteArray::fromRawData(idBytes, idSize));
                row = it == rowOf.constEnd() ? nullptr : &out->trials[*it];
                rowId = it == rowOf.constEnd() ? QByteArrayView() : QByteArrayView(it.key());
            }
            if (!row) {
                continue;
            }
            const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(s.get(), 3));
            const double value = data ? metric.in(std::string_view(
                                            data, std::size_t(sqlite3_column_bytes(s.get(), 3))))
                                      : kNoValue;
            if (std::isnan(value)) {
                continue;
            }
            const double iteration = double(sqlite3_column_int64(s.get(), 1));
            const double timestamp = sqlite3_column_double(s.get(), 2);
            row->lastAt = std::max(row->lastAt, timestamp);
            row->iterations.push_back(iteration);
            row->times.push_back(timestamp - out->startTime);
            row->values.push_back(value);
            row->latest = value;
            if (std::isnan(row->best) || (out->minimize ? value < row->best : value > row->best)) {
                row->best = value;
            }
        }
    }
    if (reader.prepare("SELECT trial_id, source_trial_id, iteration, source_iteration, "
                       "old_config, new_config, reason, timestamp FROM exploits ORDER BY id",
                       &s, error)) {
        while (sqlite3_step(s.get()) == SQLITE_ROW) {
            FloatPaths oldFloats;
            FloatPaths newFloats;
            const QJsonObject oldConfig = config(s.get(), 4, &oldFloats);
            const QJsonObject newConfig = config(s.get(), 5, &newFloats);
            // As the engine's exploit event is (api/events.h).
            QJsonObject event =
                events::exploit(text(s.get(), 0), text(s.get(), 1),
                                sqlite3_column_int64(s.get(), 2), sqlite3_column_int64(s.get(), 3),
                                oldConfig, newConfig, text(s.get(), 6), oldFloats, newFloats);
            event.insert("type", events::type::kExploit);
            event.insert("time", sqlite3_column_double(s.get(), 7));
            out->exploits.push_back(std::move(event));
        }
    }
    error->clear();  // an older history without the exploits table is fine
    if (!reader.prepare("SELECT max(coalesce((SELECT max(seq) FROM results), 0), "
                        "coalesce((SELECT max(seq) FROM events), 0))",
                        &s, error)) {
        return false;
    }
    if (sqlite3_step(s.get()) == SQLITE_ROW) {
        out->lastSeq = sqlite3_column_int64(s.get(), 0);
    }
    sqlite3_exec(db.get(), "COMMIT", nullptr, nullptr, nullptr);
    return true;
}

}  // namespace tunedeck::app
