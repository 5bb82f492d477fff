#include "core/scheduler_options.h"

#include <cmath>

#include "core/search_space.h"

namespace tunedeck::scheduler_options {

Status optionError(QString* badKey, const QString& option, const QString& message) {
    if (badKey) {
        *badKey = QStringLiteral("scheduler.") + option;
    }
    return Status::invalid(message);
}

Status checkOptionTypes(const QJsonObject& options, const QStringList& numbers, QString* badKey) {
    for (const QString& key : {kTimeAttr, kMetric, kMode}) {
        if (options.contains(key) && !options.value(key).isString()) {
            return optionError(badKey, key,
                               QStringLiteral("scheduler option '%1' must be a string").arg(key));
        }
    }
    for (const QString& key : numbers) {
        if (options.contains(key) &&
            (!options.value(key).isDouble() || !std::isfinite(options.value(key).toDouble()))) {
            return optionError(badKey, key,
                               QStringLiteral("scheduler option '%1' must be a number").arg(key));
        }
    }
    if (options.value(kTimeAttr).toString(QStringLiteral("x")).isEmpty()) {
        return optionError(badKey, kTimeAttr,
                           QStringLiteral("scheduler option 'time_attr' must not be empty"));
    }
    const QString mode = options.value(kMode).toString();
    if (options.contains(kMode) && mode != QLatin1String("min") && mode != QLatin1String("max")) {
        return optionError(
            badKey, kMode,
            QStringLiteral("scheduler option 'mode' must be 'min' or 'max', not '%1'").arg(mode));
    }
    return Status::ok();
}

Status checkCommonOptions(const ExperimentSpec& spec, const QStringList& numbers,
                          const QString& schedulerName, QString* badKey) {
    if (Status status = checkOptionTypes(spec.scheduler.options, numbers, badKey); !status) {
        return status;
    }
    if (spec.scheduler.options.value(kMetric).toString().isEmpty() && spec.metric.isEmpty()) {
        return optionError(badKey, kMetric,
                           QStringLiteral("scheduler '%1' needs a metric: set the experiment's "
                                          "`metric` or the scheduler option 'metric'")
                               .arg(schedulerName));
    }
    return Status::ok();
}

Objective objectiveOf(const ExperimentSpec& spec) {
    const QJsonObject& options = spec.scheduler.options;
    Objective objective{options.value(kMetric).toString(spec.metric), spec.mode};
    if (options.contains(kMode)) {
        objective.mode = options.value(kMode).toString() == QLatin1String("min") ? MetricMode::Min
                                                                                 : MetricMode::Max;
    }
    return objective;
}

std::optional<double> finiteNumberAt(const QJsonObject& result, const QString& key) {
    QJsonValue value = result.value(key);
    if (value.isUndefined()) {
        value = valueAtPath(result, key);
    }
    if (!value.isDouble() || !std::isfinite(value.toDouble())) {
        return std::nullopt;
    }
    return value.toDouble();
}

QString formatNumber(double value) {
    return QString::number(value, 'g', 6);
}

}  // namespace tunedeck::scheduler_options
