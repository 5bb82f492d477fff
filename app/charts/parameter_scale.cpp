#include "charts/parameter_scale.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <set>

namespace tunedeck::app {

double ParameterScale::fraction(const QJsonValue& value) const {
    if (kind == Kind::Categorical) {
        const int index = categoryOf(value);
        if (index < 0) {
            return kNoValue;
        }
        return categories.size() == 1 ? 0.5 : double(index) / double(categories.size() - 1);
    }
    return value.isDouble() ? fraction(value.toDouble()) : kNoValue;
}

double ParameterScale::fraction(double value) const {
    if (kind == Kind::Categorical || !std::isfinite(value)) {
        return kNoValue;
    }
    if (kind == Kind::Log) {
        if (value <= 0) {
            return kNoValue;
        }
        return std::log(value / min) / std::log(max / min);
    }
    return max > min ? (value - min) / (max - min) : 0.5;
}

double ParameterScale::valueAt(double fraction) const {
    if (kind == Kind::Log) {
        return min * std::pow(max / min, fraction);
    }
    return min + (max - min) * fraction;
}

int ParameterScale::categoryOf(const QJsonValue& value) const {
    if (value.isUndefined() || value.isNull()) {
        return -1;
    }
    return categoryIndex.value(displayValue(value), -1);
}

std::vector<double> ParameterScale::ticks(int wanted) const {
    std::vector<double> ticks;
    if (kind == Kind::Categorical) {
        return ticks;
    }
    if (kind == Kind::Log) {
        const int from = int(std::ceil(std::log10(min) - 1e-9));
        const int to = int(std::floor(std::log10(max) + 1e-9));
        const int every = std::max(1, (to - from + 1) / std::max(1, wanted));
        for (int k = from; k <= to; k += every) {
            ticks.push_back(std::pow(10.0, k));
        }
        return ticks;
    }
    if (!(max > min)) {
        ticks.push_back(min);
        return ticks;
    }
    const double raw = (max - min) / std::max(1, wanted);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    double step = power;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * power;
        if (step >= raw) {
            break;
        }
    }
    for (double v = std::ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
        ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    }
    return ticks;
}

bool ParameterScale::varies() const {
    return kind == Kind::Categorical ? categories.size() > 1 : max > min;
}

ParameterScale ParameterScale::of(const QString& key, const std::vector<QJsonValue>& values,
                                  const QJsonArray& choices) {
    std::vector<double> numbers;
    numbers.reserve(values.size());
    bool numeric = choices.isEmpty();
    for (const QJsonValue& value : values) {
        if (value.isDouble()) {
            numbers.push_back(value.toDouble());
        } else if (!value.isUndefined() && !value.isNull()) {
            numeric = false;
            break;
        }
    }
    if (numeric) {
        return ofNumbers(key, numbers);
    }
    std::set<QString> distinct;
    for (const QJsonValue& option : choices) {
        distinct.insert(displayValue(option));
    }
    for (const QJsonValue& value : values) {
        if (!value.isUndefined() && !value.isNull()) {
            distinct.insert(displayValue(value));
        }
    }
    ParameterScale scale;
    scale.key = key;
    scale.kind = Kind::Categorical;
    scale.categories = QStringList(distinct.begin(), distinct.end());
    // Numbers among text sort by value, the rest alphabetically after them.
    std::stable_sort(scale.categories.begin(), scale.categories.end(),
                     [](const QString& a, const QString& b) {
                         bool aNumber = false;
                         bool bNumber = false;
                         const double va = a.toDouble(&aNumber);
                         const double vb = b.toDouble(&bNumber);
                         if (aNumber && bNumber) {
                             return va < vb;
                         }
                         return aNumber && !bNumber;
                     });
    for (int i = 0; i < int(scale.categories.size()); ++i) {
        scale.categoryIndex.insert(scale.categories[i], i);
    }
    return scale;
}

ParameterScale ParameterScale::ofNumbers(const QString& key, const std::vector<double>& values) {
    ParameterScale scale;
    scale.key = key;
    bool any = false;
    for (double value : values) {
        if (!std::isfinite(value)) {
            continue;
        }
        scale.min = any ? std::min(scale.min, value) : value;
        scale.max = any ? std::max(scale.max, value) : value;
        any = true;
    }
    if (any && scale.min > 0 && scale.max / scale.min > kLogSpan) {
        scale.kind = Kind::Log;
    }
    return scale;
}

QString displayValue(const QJsonValue& value) {
    switch (value.type()) {
        case QJsonValue::Double:
            return QString::number(value.toDouble(), 'g', 6);
        case QJsonValue::String:
            return value.toString();
        case QJsonValue::Bool:
            return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        case QJsonValue::Array:
            return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
        case QJsonValue::Object:
            return QString::fromUtf8(
                QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
        default:
            return {};
    }
}

std::vector<ParameterScale> parameterScales(const ExperimentData& data) {
    std::vector<ParameterScale> scales;
    const QStringList& keys = data.configKeys();
    scales.reserve(std::size_t(keys.size()));
    std::vector<QJsonValue> values(data.trials().size());
    for (const QString& key : keys) {
        for (std::size_t i = 0; i < data.trials().size(); ++i) {
            values[i] = data.trials()[i].flatConfig.value(key);
        }
        scales.push_back(ParameterScale::of(key, values, data.choices().value(key)));
    }
    return scales;
}

}  // namespace tunedeck::app
