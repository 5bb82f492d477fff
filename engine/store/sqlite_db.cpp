#include "store/sqlite_db.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QStringList>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

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

namespace {

// The compact JSON of a value, written straight into `out`: the same text a reader gets from
// QJsonDocument::toJson(Compact) up to number spelling (both shortest round-trip), at a fraction
// of its cost, as every result passes here on the writer thread (QJsonDocument converts the
// whole object to CBOR first and grows its output one piece at a time).
void appendJson(QByteArray& out, const QJsonValue& value);

void appendString(QByteArray& out, QStringView text) {
    out.append('"');
    bool plain = true;
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (u < 0x20 || u >= 0x80 || u == '"' || u == '\\') {
            plain = false;
            break;
        }
    }
    if (plain) {
        const qsizetype at = out.size();
        out.resize(at + text.size());
        char* target = out.data() + at;
        for (const QChar c : text) {
            *target++ = char(c.unicode());
        }
    } else {
        for (const char byte : text.toUtf8()) {
            const auto u = static_cast<unsigned char>(byte);
            switch (byte) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\b':
                    out.append("\\b");
                    break;
                case '\f':
                    out.append("\\f");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                default:
                    if (u < 0x20) {
                        char escaped[8];
                        std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(u));
                        out.append(escaped);
                    } else {
                        out.append(byte);
                    }
            }
        }
    }
    out.append('"');
}

void appendNumber(QByteArray& out, double number) {
    if (!std::isfinite(number)) {
        out.append("null");  // as QJsonDocument writes them
        return;
    }
    char digits[32];
    std::to_chars_result end{};
    // Whole numbers a double holds exactly are written as integers, as Qt does.
    if (number == std::trunc(number) && std::fabs(number) < 9007199254740992.0) {
        end = std::to_chars(digits, digits + sizeof digits, static_cast<long long>(number));
    } else {
        end = std::to_chars(digits, digits + sizeof digits, number);
    }
    out.append(digits, end.ptr - digits);
}

void appendObject(QByteArray& out, const QJsonObject& object) {
    out.append('{');
    bool first = true;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (!first) {
            out.append(',');
        }
        first = false;
        appendString(out, it.key());
        out.append(':');
        appendJson(out, it.value());
    }
    out.append('}');
}

void appendJson(QByteArray& out, const QJsonValue& value) {
    switch (value.type()) {
        case QJsonValue::Null:
        case QJsonValue::Undefined:
            out.append("null");
            break;
        case QJsonValue::Bool:
            out.append(value.toBool() ? "true" : "false");
            break;
        case QJsonValue::Double:
            if (const qint64 whole = value.toInteger(std::numeric_limits<qint64>::min());
                whole != std::numeric_limits<qint64>::min() && value.toDouble() == double(whole)) {
                char digits[24];
                const auto end = std::to_chars(digits, digits + sizeof digits, whole);
                out.append(digits, end.ptr - digits);
            } else {
                appendNumber(out, value.toDouble());
            }
            break;
        case QJsonValue::String:
            appendString(out, value.toString());
            break;
        case QJsonValue::Array: {
            out.append('[');
            bool first = true;
            for (const QJsonValue& item : value.toArray()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                appendJson(out, item);
            }
            out.append(']');
            break;
        }
        case QJsonValue::Object:
            appendObject(out, value.toObject());
            break;
    }
}

}  // namespace

QByteArray jsonText(const QJsonObject& object) {
    QByteArray out;
    out.reserve(256);
    appendObject(out, object);
    return out;
}

Status asDamage(const Status& status) {
    static const QString prefix = QStringLiteral("the history is damaged: ");
    if (status.code() != Status::Code::Corruption || status.message().startsWith(prefix)) {
        return status;
    }
    return Status::corruption(prefix + status.message() +
                              QStringLiteral(" (tunedeck-engine recover FOLDER salvages what is "
                                             "readable into a new history)"));
}

Status checkIntegrity(sqlite3* db) {
    QStringList found;
    sqlite3_stmt* raw = nullptr;
    int code = sqlite3_prepare_v2(db, "PRAGMA quick_check(8)", -1, &raw, nullptr);
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> statement(raw, sqlite3_finalize);
    while (code == SQLITE_OK || code == SQLITE_ROW) {
        code = sqlite3_step(statement.get());
        if (code == SQLITE_ROW) {
            found << QString::fromUtf8(
                reinterpret_cast<const char*>(sqlite3_column_text(statement.get(), 0)));
        }
    }
    if (code != SQLITE_DONE) {
        return asDamage(sqliteStatus(db, code, QStringLiteral("checking the history")));
    }
    if (found == QStringList{QStringLiteral("ok")}) {
        return Status::ok();
    }
    // One problem a line, under a "*** in database main ***" heading; the first few say enough.
    QStringList problems;
    for (const QString& row : found) {
        for (const QString& line : row.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            if (!line.startsWith(QLatin1String("***"))) {
                problems << line.trimmed();
            }
        }
    }
    const qsizetype shown = std::min<qsizetype>(problems.size(), 3);
    QString text = problems.mid(0, shown).join(QStringLiteral("; "));
    if (problems.size() > shown) {
        text += QStringLiteral("; and more");
    }
    return asDamage(Status::corruption(text));
}

Status Connection::open(const QString& uri, int flags) {
    close();
    const QByteArray name = uri.toUtf8();
    // Never through a symbolic link (see history_reader.cpp's kOpenFlags).
    const int code = sqlite3_open_v2(name.constData(), &db_,
                                     flags | SQLITE_OPEN_URI | SQLITE_OPEN_NOFOLLOW, nullptr);
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
    const int size = sqlite3_column_bytes(stmt_, column);
    if (text == nullptr || size <= 0) {
        return {};
    }
    QJsonParseError error{};
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray::fromRawData(text, size), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        damagedJson_ = true;
        return {};
    }
    return document.object();
}

}  // namespace tunedeck::store
