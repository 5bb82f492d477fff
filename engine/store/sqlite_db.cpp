#include "store/sqlite_db.h"

#include <QJsonDocument>

namespace tunedeck::store {

Status sqliteStatus(sqlite3* db, int code, const QString& context) {
    if (code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW) {
        return Status::ok();
    }
    // The connection's message is more precise than sqlite3_errstr() when it belongs to `code`.
    QString detail = QString::fromUtf8(sqlite3_errstr(code));
    if (db != nullptr && (sqlite3_extended_errcode(db) & 0xff) == (code & 0xff)) {
        detail = QString::fromUtf8(sqlite3_errmsg(db));
    }
    const QString message = context.isEmpty() ? detail : context + QStringLiteral(": ") + detail;
    switch (code & 0xff) {
        case SQLITE_FULL:
        case SQLITE_IOERR:
        case SQLITE_READONLY:
        case SQLITE_CANTOPEN:
        case SQLITE_PERM:
        case SQLITE_NOMEM:
        case SQLITE_PROTOCOL:
            return Status::ioError(message);
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return Status::busy(message);
        case SQLITE_CORRUPT:
        case SQLITE_NOTADB:
            return Status::corruption(message);
        default:
            return Status::invalid(message);
    }
}

QByteArray jsonText(const QJsonObject& object) {
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QJsonObject jsonObject(const char* text, int size) {
    if (text == nullptr || size <= 0) {
        return {};
    }
    return QJsonDocument::fromJson(QByteArray::fromRawData(text, size)).object();
}

Status Connection::open(const QString& uri, int flags) {
    close();
    const QByteArray name = uri.toUtf8();
    const int code = sqlite3_open_v2(name.constData(), &db_, flags | SQLITE_OPEN_URI, nullptr);
    if (code != SQLITE_OK) {
        Status status = sqliteStatus(db_, code, QStringLiteral("cannot open the database"));
        close();
        return status;
    }
    sqlite3_extended_result_codes(db_, 1);
    return Status::ok();
}

void Connection::close() {
    if (db_ != nullptr) {
        sqlite3_close_v2(db_);
        db_ = nullptr;
    }
}

Status Connection::exec(const char* sql, const QString& context) {
    const int code = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
    return sqliteStatus(db_, code, context);
}

Status Statement::prepare(sqlite3* db, const char* sql, bool persistent) {
    finalize();
    const unsigned flags = persistent ? SQLITE_PREPARE_PERSISTENT : 0;
    const int code = sqlite3_prepare_v3(db, sql, -1, flags, &stmt_, nullptr);
    return sqliteStatus(db, code, QStringLiteral("cannot prepare \"%1\"").arg(QLatin1String(sql)));
}

void Statement::finalize() {
    if (stmt_ != nullptr) {
        sqlite3_finalize(stmt_);
        stmt_ = nullptr;
    }
}

QString Statement::columnText(int column) const {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return QString::fromUtf8(text, sqlite3_column_bytes(stmt_, column));
}

QJsonObject Statement::columnJson(int column) const {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return jsonObject(text, sqlite3_column_bytes(stmt_, column));
}

}  // namespace tunedeck::store
