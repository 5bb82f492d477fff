#include "core/search_options.h"

#include <cmath>

namespace tunedeck::search_options {

QString shown(const QJsonValue& value) {
    switch (value.type()) {
        case QJsonValue::Bool:
            return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        case QJsonValue::Double:
            return QString::number(value.toDouble(), 'g', 12);
        case QJsonValue::String:
            return QLatin1Char('\'') + value.toString() + QLatin1Char('\'');
        case QJsonValue::Array:
            return QStringLiteral("a list");
        case QJsonValue::Object:
            return QStringLiteral("a mapping");
        default:
            return QStringLiteral("nothing");
    }
}

Status keyError(QString* badKey, const QString& key, const QString& message) {
    if (badKey) {
        *badKey = key;
    }
    return Status::invalid(message);
}

Status optionError(QString* badKey, const QString& option, const QString& problem,
                   const QJsonValue& value) {
    return keyError(badKey, QStringLiteral("search.") + option,
                    QStringLiteral("%1 %2 (got %3)").arg(option, problem, shown(value)));
}

bool isSet(const QJsonObject& options, const QString& key) {
    return options.contains(key) && !options.value(key).isNull();
}

bool isWholeNumber(const QJsonValue& value, double minimum, double maximum) {
    const double number = value.toDouble();
    return value.isDouble() && std::isfinite(number) && std::floor(number) == number &&
           number >= minimum && number <= maximum;
}

bool isNumberIn(const QJsonValue& value, double low, double high, bool lowOpen, bool highOpen) {
    const double x = value.toDouble();
    return value.isDouble() && std::isfinite(x) && (lowOpen ? x > low : x >= low) &&
           (highOpen ? x < high : x <= high);
}

}  // namespace tunedeck::search_options
