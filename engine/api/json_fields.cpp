#include "api/json_fields.h"

#include <QJsonDocument>
#include <cmath>

namespace tunedeck::api {

QString shownJson(const QJsonValue& value) {
    switch (value.type()) {
        case QJsonValue::Null:
            return QStringLiteral("null");
        case QJsonValue::Bool:
            return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        case QJsonValue::Double:
            return QString::number(value.toDouble(), 'g', 12);
        case QJsonValue::String:
            return '"' + value.toString().left(40) + '"';
        case QJsonValue::Array:
            return QStringLiteral("a list");
        case QJsonValue::Object:
            return QStringLiteral("an object");
        case QJsonValue::Undefined:
            break;
    }
    return QStringLiteral("nothing");
}

void JsonFields::fail(const QString& problem) {
    if (error_.isEmpty()) {
        error_ = what_ + QStringLiteral(": ") + problem;
    }
}

void JsonFields::wrongType(const char* key, const char* kind, const QJsonValue& got) {
    fail(QStringLiteral("\"%1\" must be %2 (got %3)")
             .arg(QLatin1String(key), QLatin1String(kind), shownJson(got)));
}

bool JsonFields::has(const char* key) const {
    const QJsonValue value = object_.value(QLatin1String(key));
    return !value.isUndefined() && !value.isNull();
}

QJsonValue JsonFields::required(const char* key, bool (QJsonValue::*is)() const, const char* kind) {
    const QJsonValue value = object_.value(QLatin1String(key));
    if (value.isUndefined()) {
        fail(QStringLiteral("\"%1\" is missing").arg(QLatin1String(key)));
        return {};
    }
    if (!(value.*is)()) {
        wrongType(key, kind, value);
        return {};
    }
    return value;
}

QJsonValue JsonFields::optional(const char* key, bool (QJsonValue::*is)() const, const char* kind) {
    const QJsonValue value = object_.value(QLatin1String(key));
    if (value.isUndefined() || value.isNull()) {
        return QJsonValue::Undefined;
    }
    if (!(value.*is)()) {
        wrongType(key, kind, value);
        return QJsonValue::Undefined;
    }
    return value;
}

QString JsonFields::text(const char* key) {
    return required(key, &QJsonValue::isString, "a string").toString();
}

double JsonFields::number(const char* key) {
    return required(key, &QJsonValue::isDouble, "a number").toDouble();
}

qint64 JsonFields::integer(const char* key) {
    const QJsonValue value = required(key, &QJsonValue::isDouble, "a whole number");
    const double n = value.toDouble();
    if (value.isDouble() && (n != std::floor(n) || std::abs(n) > 9007199254740992.0)) {
        wrongType(key, "a whole number", value);
        return 0;
    }
    return qint64(n);
}

bool JsonFields::boolean(const char* key) {
    return required(key, &QJsonValue::isBool, "true or false").toBool();
}

QJsonObject JsonFields::object(const char* key) {
    return required(key, &QJsonValue::isObject, "an object").toObject();
}

QJsonArray JsonFields::array(const char* key) {
    return required(key, &QJsonValue::isArray, "a list").toArray();
}

QString JsonFields::text(const char* key, const QString& fallback) {
    return optionalText(key).value_or(fallback);
}

std::optional<QString> JsonFields::optionalText(const char* key) {
    const QJsonValue value = optional(key, &QJsonValue::isString, "a string");
    return value.isString() ? std::optional(value.toString()) : std::nullopt;
}

qint64 JsonFields::integer(const char* key, qint64 fallback) {
    return has(key) ? integer(key) : fallback;
}

bool JsonFields::boolean(const char* key, bool fallback) {
    const QJsonValue value = optional(key, &QJsonValue::isBool, "true or false");
    return value.isBool() ? value.toBool() : fallback;
}

std::optional<double> JsonFields::optionalNumber(const char* key) {
    const QJsonValue value = optional(key, &QJsonValue::isDouble, "a number or null");
    return value.isDouble() ? std::optional(value.toDouble()) : std::nullopt;
}

QJsonObject JsonFields::object(const char* key, const QJsonObject& fallback) {
    const QJsonValue value = optional(key, &QJsonValue::isObject, "an object");
    return value.isObject() ? value.toObject() : fallback;
}

QJsonArray JsonFields::array(const char* key, const QJsonArray& fallback) {
    const QJsonValue value = optional(key, &QJsonValue::isArray, "a list");
    return value.isArray() ? value.toArray() : fallback;
}

QStringList JsonFields::texts(const char* key) {
    QStringList out;
    const QJsonArray list = array(key, {});
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (!list.at(i).isString()) {
            fail(QStringLiteral("\"%1\"[%2] must be a string (got %3)")
                     .arg(QLatin1String(key))
                     .arg(i)
                     .arg(shownJson(list.at(i))));
            return {};
        }
        out.append(list.at(i).toString());
    }
    return out;
}

FloatPaths JsonFields::floatPaths(const char* key) {
    const QStringList paths = texts(key);
    return FloatPaths(paths.begin(), paths.end());
}

}  // namespace tunedeck::api
