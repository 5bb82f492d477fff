// Thin RAII wrappers over the SQLite3 C API used by the store: a connection, a prepared
// statement, and the mapping of SQLite result codes to Status. Not thread-safe: each object
// belongs to the thread that uses its connection.
#pragma once

#include <sqlite3.h>

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <cstdint>

#include "core/status.h"

namespace tunedeck::store {

// Maps an SQLite result code to a Status: disk full, read-only and I/O errors are IoError
// (they may go away), locks are Busy, unreadable files are Corruption, the rest InvalidArgument.
Status sqliteStatus(sqlite3* db, int code, const QString& context);

// JSON columns hold the compact text form (Statement::columnJson reads it back).
QByteArray jsonText(const QJsonObject& object);

// SQLite's quick_check of the file's structure: Corruption, "the history is damaged: ..." with
// what it found, unless the file is whole. It reads every page: about 1.5 s per million results
// (tests/bench), so it runs before a history is written into, not for every read.
Status checkIntegrity(sqlite3* db);

// Whether `status` says the history is damaged (Corruption), and its message in those words.
Status asDamage(const Status& status);

class Connection {
  public:
    Connection() = default;
    ~Connection() { close(); }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // `flags` are sqlite3_open_v2 flags; `uri` may be a plain path or a file: URI.
    Status open(const QString& uri, int flags);
    void close();
    sqlite3* handle() const { return db_; }
    bool isOpen() const { return db_ != nullptr; }

    // Runs one or more statements that return no rows.
    Status exec(const char* sql, const QString& context);

  private:
    sqlite3* db_ = nullptr;
};

class Statement {
  public:
    Statement() = default;
    ~Statement() { finalize(); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Status prepare(sqlite3* db, const char* sql, bool persistent);
    void finalize();
    bool isPrepared() const { return stmt_ != nullptr; }

    // Binds keep pointers to the caller's buffers (SQLITE_STATIC): the buffers must outlive step().
    void bindInt(int index, std::int64_t value) { sqlite3_bind_int64(stmt_, index, value); }
    void bindDouble(int index, double value) { sqlite3_bind_double(stmt_, index, value); }
    void bindText(int index, const QByteArray& utf8) {
        sqlite3_bind_text(stmt_, index, utf8.constData(), int(utf8.size()), SQLITE_STATIC);
    }
    void bindNull(int index) { sqlite3_bind_null(stmt_, index); }

    // SQLITE_ROW, SQLITE_DONE or an error code.
    int step() { return sqlite3_step(stmt_); }
    // Makes the statement ready for its next use (keeps it prepared).
    void reset() {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }

    std::int64_t columnInt(int column) const { return sqlite3_column_int64(stmt_, column); }
    double columnDouble(int column) const { return sqlite3_column_double(stmt_, column); }
    QString columnText(int column) const;
    // A stored JSON object; {} for NULL or empty text. Text that is no JSON object is damage
    // (the engine writes only objects): {} too, and holdsDamagedJson() says so from then on.
    QJsonObject columnJson(int column) const;
    bool holdsDamagedJson() const { return damagedJson_; }

  private:
    sqlite3_stmt* stmt_ = nullptr;
    mutable bool damagedJson_ = false;
};

}  // namespace tunedeck::store
