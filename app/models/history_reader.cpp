#include "models/history_reader.h"

#include <sqlite3.h>
#include <yaml-cpp/yaml.h>

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <cmath>
#include <map>
#include <memory>

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

QJsonObject json(sqlite3_stmt* s, int column) {
    const auto* bytes = reinterpret_cast<const char*>(sqlite3_column_text(s, column));
    return bytes ? QJsonDocument::fromJson(QByteArray(bytes, sqlite3_column_bytes(s, column)))
                       .object()
                 : QJsonObject();
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

}  // namespace

bool readHistory(const QString& folder, History* out, QString* error) {
    const QString path = folder + QStringLiteral("/experiment.sqlite");
    if (!QFileInfo::exists(path)) {
        *error = QStringLiteral("%1 is not a Tunedeck experiment folder (no experiment.sqlite)")
                     .arg(folder);
        return false;
    }
    sqlite3* raw = nullptr;
    // Read-only; on a read-only copy (no -shm can be made) as an immutable file.
    int rc =
        sqlite3_open_v2(QFile::encodeName(path).constData(), &raw, SQLITE_OPEN_READONLY, nullptr);
    Db db(raw);
    if (rc == SQLITE_OK &&
        sqlite3_exec(raw, "SELECT 1 FROM experiment", nullptr, nullptr, nullptr) != SQLITE_OK) {
        db.reset();
        const QByteArray uri = "file:" + QFile::encodeName(path) + "?immutable=1";
        rc =
            sqlite3_open_v2(uri.constData(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
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
    std::map<QString, std::size_t> rowOf;
    while (sqlite3_step(s.get()) == SQLITE_ROW) {
        TrialRow row;
        row.id = text(s.get(), 0);
        row.config = json(s.get(), 1);
        row.flatConfig = ExperimentData::flatten(row.config);
        row.status = text(s.get(), 2);
        row.iteration = sqlite3_column_int64(s.get(), 3);
        row.node = text(s.get(), 4);
        row.reason = row.status == QLatin1String("ERROR") ? text(s.get(), 6) : text(s.get(), 5);
        row.addedAt = sqlite3_column_double(s.get(), 7);
        row.lastAt = sqlite3_column_double(s.get(), 8);
        rowOf.emplace(row.id, out->trials.size());
        out->trials.push_back(std::move(row));
    }
    // The metric of every result, extracted by SQLite: no JSON document per row here.
    if (!out->metric.isEmpty()) {
        if (!reader.prepare("SELECT trial_id, iteration, timestamp, "
                            "json_extract(data, '$.\"' || ?1 || '\"') FROM results ORDER BY seq",
                            &s, error)) {
            return false;
        }
        const QByteArray metric = out->metric.toUtf8();
        sqlite3_bind_text(s.get(), 1, metric.constData(), int(metric.size()), SQLITE_TRANSIENT);
        QByteArray lastId;
        TrialRow* row = nullptr;
        while (sqlite3_step(s.get()) == SQLITE_ROW) {
            ++out->results;
            const auto* idBytes = reinterpret_cast<const char*>(sqlite3_column_text(s.get(), 0));
            const QByteArrayView id(idBytes, sqlite3_column_bytes(s.get(), 0));
            if (!row || lastId != id) {  // results come in runs of one trial: few lookups
                lastId = id.toByteArray();
                auto it = rowOf.find(QString::fromUtf8(lastId));
                row = it == rowOf.end() ? nullptr : &out->trials[it->second];
            }
            const int type = sqlite3_column_type(s.get(), 3);
            if (!row || (type != SQLITE_FLOAT && type != SQLITE_INTEGER)) {
                continue;
            }
            const double iteration = double(sqlite3_column_int64(s.get(), 1));
            const double value = sqlite3_column_double(s.get(), 3);
            row->lastAt = std::max(row->lastAt, sqlite3_column_double(s.get(), 2));
            row->iterations.push_back(iteration);
            row->times.push_back(sqlite3_column_double(s.get(), 2) - out->startTime);
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
            out->exploits.push_back({{"type", "exploit"},
                                     {"trial", text(s.get(), 0)},
                                     {"source", text(s.get(), 1)},
                                     {"iteration", sqlite3_column_int64(s.get(), 2)},
                                     {"source_iteration", sqlite3_column_int64(s.get(), 3)},
                                     {"old_config", json(s.get(), 4)},
                                     {"new_config", json(s.get(), 5)},
                                     {"reason", text(s.get(), 6)},
                                     {"time", sqlite3_column_double(s.get(), 7)}});
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
