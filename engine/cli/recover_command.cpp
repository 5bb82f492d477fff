// `recover EXPERIMENT_DIR`: salvages what is readable of a damaged history into a new one, then
// says what was lost: rows that could not be read, stored values that no longer parse, and each
// trial's iterations that have no result. The damaged file is kept beside it. Main thread only.
//
// SQLite's own recovery (the sqlite3 tool's .recover) needs the sqlite_dbpage table, which
// Debian 12's library is built without: there .recover fails ("SQL logic error") on every file,
// a whole one included. So rows are copied table by table in ranges of rowids, as the sqlite3
// tool's .dump goes on past damage: a range that cannot be read is halved until the rows that
// can are copied and the ones that cannot are counted.
#include <sqlite3.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/counted.h"
#include "runtime/experiment_lock.h"
#include "runtime/experiment_runner.h"
#include "store/experiment_store.h"

namespace tunedeck::cli {

namespace {

// The JSON columns a user can lose rows by, in the words `recover` reports them in (the engine
// writes JSON objects only).
struct JsonColumn {
    const char* table;
    const char* column;
    const char* rows;  // what a row is
};
constexpr JsonColumn kJsonColumns[] = {
    {"trials", "config", "trial"},         {"trials", "last_result", "trial"},
    {"results", "data", "result"},         {"checkpoints", "result", "checkpoint"},
    {"exploits", "old_config", "exploit"}, {"exploits", "new_config", "exploit"},
    {"events", "payload", "event"},        {"node_usage", "data", "usage sample"},
};
// Rows that name a trial, which go with a trial that was lost.
constexpr JsonColumn kTrialRows[] = {
    {"results", "trial_id", "result"},
    {"checkpoints", "trial_id", "checkpoint"},
    {"exploits", "trial_id", "exploit"},
};

class Database {
  public:
    explicit Database(const QString& path) {
        if (sqlite3_open_v2(path.toUtf8().constData(), &db_, SQLITE_OPEN_READWRITE, nullptr) !=
            SQLITE_OK) {
            sqlite3_close(db_);
            db_ = nullptr;
        }
    }
    ~Database() { sqlite3_close(db_); }
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    bool isOpen() const { return db_ != nullptr; }
    sqlite3* handle() const { return db_; }

    // The first column of the first row; -1 when the statement fails.
    long long number(const QString& sql) const {
        sqlite3_stmt* statement = nullptr;
        long long value = -1;
        if (sqlite3_prepare_v2(db_, sql.toUtf8().constData(), -1, &statement, nullptr) ==
                SQLITE_OK &&
            sqlite3_step(statement) == SQLITE_ROW) {
            value = sqlite3_column_int64(statement, 0);
        }
        sqlite3_finalize(statement);
        return value;
    }
    bool run(const QString& sql) const {
        return sqlite3_exec(db_, sql.toUtf8().constData(), nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    // Rows of two columns, as text.
    std::vector<std::pair<QString, QString>> pairs(const QString& sql) const {
        std::vector<std::pair<QString, QString>> rows;
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(db_, sql.toUtf8().constData(), -1, &statement, nullptr) ==
            SQLITE_OK) {
            while (sqlite3_step(statement) == SQLITE_ROW) {
                rows.emplace_back(text(statement, 0), text(statement, 1));
            }
        }
        sqlite3_finalize(statement);
        return rows;
    }

  private:
    static QString text(sqlite3_stmt* statement, int column) {
        return QString::fromUtf8(
            reinterpret_cast<const char*>(sqlite3_column_text(statement, column)));
    }

    sqlite3* db_ = nullptr;
};

// The first or last rowid of `table` in the attached `old`; false when it cannot be read.
bool tableEnd(sqlite3* db, const QString& table, const char* order, long long* out) {
    sqlite3_stmt* statement = nullptr;
    const QByteArray sql = QStringLiteral("SELECT rowid FROM old.%1 ORDER BY rowid %2 LIMIT 1")
                               .arg(table, QLatin1String(order))
                               .toUtf8();
    int code = sqlite3_prepare_v2(db, sql.constData(), -1, &statement, nullptr);
    if (code == SQLITE_OK) {
        code = sqlite3_step(statement);
    }
    *out = code == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : 0;
    sqlite3_finalize(statement);
    return code == SQLITE_ROW || code == SQLITE_DONE;
}

// Copies what can be read of `table` from the attached `old` into the same table of `db`, in
// ranges of rowids; counts the rowids that could not be read into `unreadable`. False when not
// even the table's ends can be read.
bool salvageTable(sqlite3* db, const QString& table, long long* unreadable) {
    long long first = 0;
    long long last = 0;
    if (!tableEnd(db, table, "ASC", &first) || !tableEnd(db, table, "DESC", &last)) {
        return false;
    }
    const QByteArray insert = QStringLiteral(
                                  "INSERT OR REPLACE INTO main.%1 SELECT * FROM old.%1 "
                                  "WHERE rowid BETWEEN ?1 AND ?2")
                                  .arg(table)
                                  .toUtf8();
    sqlite3_stmt* copy = nullptr;
    if (sqlite3_prepare_v2(db, insert.constData(), -1, &copy, nullptr) != SQLITE_OK) {
        sqlite3_finalize(copy);
        return false;
    }
    // A range that fails is halved; a single rowid that fails is lost.
    constexpr long long kRange = 4096;
    std::vector<std::pair<long long, long long>> ranges;
    for (long long from = last; from >= first && from > 0; from -= kRange) {
        ranges.emplace_back(std::max(first, from - kRange + 1), from);
    }
    while (!ranges.empty()) {
        const auto [from, to] = ranges.back();
        ranges.pop_back();
        sqlite3_exec(db, "SAVEPOINT range", nullptr, nullptr, nullptr);
        sqlite3_bind_int64(copy, 1, from);
        sqlite3_bind_int64(copy, 2, to);
        const int code = sqlite3_step(copy);
        sqlite3_reset(copy);
        if (code == SQLITE_DONE) {
            sqlite3_exec(db, "RELEASE range", nullptr, nullptr, nullptr);
            continue;
        }
        sqlite3_exec(db, "ROLLBACK TO range; RELEASE range", nullptr, nullptr, nullptr);
        if (from == to) {
            ++*unreadable;
            continue;
        }
        const long long middle = from + (to - from) / 2;
        ranges.emplace_back(middle + 1, to);
        ranges.emplace_back(from, middle);
    }
    sqlite3_finalize(copy);
    return true;
}

// Makes `to` a new history and copies into it what can be read of `from`; the error in words,
// empty when it could. `lost` gets what could not be copied.
QString salvage(const QString& from, const QString& to, QStringList* lost) {
    {
        std::unique_ptr<ExperimentStore> fresh;  // the schema, as a run makes it
        if (Status s = ExperimentStore::open(to, ExperimentStore::Mode::ReadWrite, &fresh); !s) {
            return s.message();
        }
    }
    Database target(to);
    QString uri = QStringLiteral("file:") + from + QStringLiteral("?mode=ro");
    if (!target.isOpen() ||
        !target.run(QStringLiteral("ATTACH '%1' AS old")
                        .arg(uri.replace(QLatin1Char('\''), QStringLiteral("''"))))) {
        return QStringLiteral("cannot open %1").arg(from);
    }
    for (const char* table : {"experiment", "counters", "trials", "results", "checkpoints",
                              "exploits", "events", "node_usage"}) {
        long long unreadable = 0;
        if (!salvageTable(target.handle(), QLatin1String(table), &unreadable)) {
            lost->append(QStringLiteral("every row of %1: the table could not be read")
                             .arg(QLatin1String(table)));
        } else if (unreadable > 0) {
            lost->append(QStringLiteral("%1 of %2 that could not be read")
                             .arg(counted(unreadable, "row"), QLatin1String(table)));
        }
    }
    target.run(QStringLiteral("DETACH old"));
    return {};
}

// Drops the rows of `db` whose stored values no longer parse and those of trials that were lost,
// counted in `lost`, and lists in `kept` what stays and in `lost` each trial's iterations
// without a result.
void checkValues(const Database& db, QStringList* kept, QStringList* lost) {
    const QString damagedJson = QStringLiteral(
        "%1 != '' AND (NOT json_valid(%1) OR "
        "json_type(%1) != 'object')");
    for (const char* state : {"searcher_state", "scheduler_state"}) {
        const QString where = damagedJson.arg(QLatin1String(state));
        if (db.number(QStringLiteral("SELECT count(*) FROM experiment WHERE ") + where) > 0) {
            db.run(QStringLiteral("UPDATE experiment SET %1 = '{}' WHERE ").arg(state) + where);
            lost->append(QStringLiteral("the saved %1 (resume rebuilds it from the trials)")
                             .arg(QString::fromLatin1(state).replace('_', ' ')));
        }
    }
    for (const JsonColumn& json : kJsonColumns) {
        const QString rows = QStringLiteral("FROM %1 WHERE ").arg(QLatin1String(json.table)) +
                             damagedJson.arg(QLatin1String(json.column));
        if (const long long count = db.number(QStringLiteral("SELECT count(*) ") + rows);
            count > 0) {
            db.run(QStringLiteral("DELETE ") + rows);
            lost->append(QStringLiteral("%1 whose stored values were damaged")
                             .arg(counted(count, json.rows)));
        }
    }
    for (const JsonColumn& named : kTrialRows) {
        const QString rows = QStringLiteral("FROM %1 WHERE %2 NOT IN (SELECT id FROM trials)")
                                 .arg(QLatin1String(named.table), QLatin1String(named.column));
        if (const long long count = db.number(QStringLiteral("SELECT count(*) ") + rows);
            count > 0) {
            db.run(QStringLiteral("DELETE ") + rows);
            lost->append(
                QStringLiteral("%1 of trials that were lost").arg(counted(count, named.rows)));
        }
    }
    for (const auto& [table, noun] : {std::pair{"trials", "trial"},
                                      {"results", "result"},
                                      {"checkpoints", "checkpoint"},
                                      {"events", "event"}}) {
        kept->append(counted(
            db.number(QStringLiteral("SELECT count(*) FROM %1").arg(QLatin1String(table))), noun));
    }
    // Each trial's row says how far it got; its results should count 1 to there.
    const QString have = QStringLiteral(
        "(SELECT count(DISTINCT r.iteration) FROM results r WHERE r.trial_id = t.id AND "
        "r.iteration <= t.iteration)");
    for (const auto& [trial, missing] :
         db.pairs(QStringLiteral("SELECT t.id, t.iteration - %1 FROM trials t WHERE "
                                 "t.iteration > %1 ORDER BY t.idx")
                      .arg(have))) {
        lost->append(
            QStringLiteral("trial %1 has no result for %2 of its iterations").arg(trial, missing));
    }
}

// A free name `experiment.damaged.sqlite`, `experiment.damaged-2.sqlite`, ... in `folder`.
QString keptName(const QString& folder) {
    for (int n = 1;; ++n) {
        const QString name = n == 1 ? QStringLiteral("experiment.damaged.sqlite")
                                    : QStringLiteral("experiment.damaged-%1.sqlite").arg(n);
        if (!QFileInfo::exists(folder + '/' + name)) {
            return name;
        }
    }
}

}  // namespace

int recover(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Salvage what is readable of a damaged experiment.sqlite into a new one, keep the\n"
        "damaged file beside it, and say what was lost."));
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT_DIR"),
                                 QStringLiteral("experiment folder"));
    if (!parseArguments(parser, QStringLiteral("recover"), args, 1)) {
        return kExitBadInput;
    }
    const QString folder =
        QDir::cleanPath(QDir::current().absoluteFilePath(parser.positionalArguments().first()));
    const QString damaged = folder + QStringLiteral("/experiment.sqlite");
    if (!QFileInfo::exists(damaged)) {
        std::fprintf(stderr,
                     "recover: %s is not a Tunedeck experiment folder (no experiment.sqlite)\n",
                     qPrintable(folder));
        return kExitBadInput;
    }
    ExperimentLock lock;  // no engine may write while the file is moved aside
    if (Status s = lock.acquire(folder); !s) {
        std::fprintf(stderr, "recover: %s\n", qPrintable(s.message()));
        return kExitBadInput;
    }
    const QString recovered = folder + QStringLiteral("/experiment.recovering.sqlite");
    for (const char* suffix : {"", "-wal", "-shm"}) {
        QFile::remove(recovered + QLatin1String(suffix));  // what a recover cut short left
    }
    QStringList lost;
    QStringList kept;
    if (const QString error = salvage(damaged, recovered, &lost); !error.isEmpty()) {
        std::fprintf(stderr, "recover: %s\n", qPrintable(error));
        return kExitTrialErrors;
    }
    {
        Database db(recovered);
        if (!db.isOpen() || db.number(QStringLiteral("SELECT count(*) FROM experiment")) != 1) {
            std::fprintf(stderr, "recover: the experiment's own row could not be read from %s\n",
                         qPrintable(damaged));
            return kExitTrialErrors;
        }
        checkValues(db, &kept, &lost);
    }
    // The new file opens as a history, or it is not put in place.
    std::unique_ptr<ExperimentStore> check;
    if (Status s = ExperimentStore::open(recovered, ExperimentStore::Mode::ReadWrite, &check); !s) {
        std::fprintf(stderr, "recover: the recovered history is not usable: %s\n",
                     qPrintable(s.message()));
        return kExitTrialErrors;
    }
    check.reset();  // closing the last connection folds its WAL into the file
    const QString keptAs = keptName(folder);
    for (const char* suffix : {"", "-wal", "-shm"}) {
        const QString from = damaged + QLatin1String(suffix);
        if (QFileInfo::exists(from) &&
            !QFile::rename(from, folder + '/' + keptAs + QLatin1String(suffix))) {
            std::fprintf(stderr, "recover: cannot move %s aside\n", qPrintable(from));
            return kExitTrialErrors;
        }
    }
    if (!QFile::rename(recovered, damaged)) {
        std::fprintf(stderr, "recover: cannot put %s in place\n", qPrintable(recovered));
        return kExitTrialErrors;
    }
    std::printf("Recovered %s: %s.\n", qPrintable(damaged), qPrintable(kept.join(", ")));
    if (lost.isEmpty()) {
        std::printf("Nothing was lost.\n");
    } else {
        std::printf("Lost:\n");
        for (const QString& line : lost) {
            std::printf("  %s\n", qPrintable(line));
        }
    }
    std::printf(
        "The damaged file is kept as %s/%s. Continue the run with: tunedeck-engine resume "
        "%s\n",
        qPrintable(folder), qPrintable(keptAs), qPrintable(folder));
    return 0;
}

}  // namespace tunedeck::cli
