#include "models/config_text.h"

#include <QJsonArray>
#include <cmath>

namespace tunedeck::app {

namespace {

// Integers beyond this are not exact in a double; they keep the number form.
constexpr double kLargestExactInteger = 9.0e15;

QString numberShown(double value, bool isFloat) {
    if (!isFloat && std::isfinite(value) && value == std::floor(value) &&
        std::fabs(value) < kLargestExactInteger) {
        return QString::number(qint64(value));
    }
    QString text = QString::number(value, 'g', 6);
    if (isFloat && std::isfinite(value) && !text.contains(QLatin1Char('.')) &&
        !text.contains(QLatin1Char('e'))) {
        // 1.0 stays 1.0; 123456.7, which six digits round to 123457, keeps its point.
        text = value == std::floor(value) ? text + QStringLiteral(".0")
                                          : QString::number(value, 'f', 1);
    }
    return text;
}

}  // namespace

QString configValueText(const QJsonValue& value, const FloatPaths& floats) {
    switch (value.type()) {
        case QJsonValue::Double:
            return numberShown(value.toDouble(), floats.contains(QString()));
        case QJsonValue::String:
            return value.toString();
        case QJsonValue::Bool:
            return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        case QJsonValue::Array:
        case QJsonValue::Object:
            return QString::fromUtf8(configJsonText(value, floats));
        default:
            return {};
    }
}

QString configValueText(const TrialRow& row, const QString& key) {
    const QJsonValue value = row.flatConfig.value(key);
    return value.isUndefined() ? QString()
                               : configValueText(value, floatPathsBelow(row.configFloats, key));
}

QStringList configLines(const QJsonObject& config, const FloatPaths& floats) {
    QStringList lines;
    const QJsonObject flat = ExperimentData::flatten(config);
    for (auto it = flat.begin(); it != flat.end(); ++it) {
        lines.append(QStringLiteral("%1: %2").arg(
            it.key(), configValueText(it.value(), floatPathsBelow(floats, it.key()))));
    }
    return lines;
}

}  // namespace tunedeck::app
