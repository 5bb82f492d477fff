// What the early-stopping schedulers share about their `scheduler:` options and the results they
// read: typed option checks (errors shaped as validateScheduler's: *badKey "scheduler.<option>"),
// the objective each judges by (its own `metric`/`mode` options, else the experiment's, as in Ray
// Tune), and finite numbers read out of a result. Pure functions; thread-safe.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

#include "core/experiment_spec.h"
#include "core/status.h"

namespace tunedeck::scheduler_options {

inline const QString kTimeAttr = QStringLiteral("time_attr");
inline const QString kMetric = QStringLiteral("metric");
inline const QString kMode = QStringLiteral("mode");

Status optionError(QString* badKey, const QString& option, const QString& message);

// Each of time_attr, metric and mode that is set must be a string and each of `numbers` a
// finite number; `time_attr`, when set, must not be empty; `mode` must be min or max.
Status checkOptionTypes(const QJsonObject& options, const QStringList& numbers, QString* badKey);
// checkOptionTypes, then a metric must come from the `metric` option or the experiment
// (`schedulerName` names the scheduler in that error).
Status checkCommonOptions(const ExperimentSpec& spec, const QStringList& numbers,
                          const QString& schedulerName, QString* badKey);

using tunedeck::Objective;
Objective objectiveOf(const ExperimentSpec& spec);

// The finite number at `key` of a result (dotted paths allowed), or nullopt.
std::optional<double> finiteNumberAt(const QJsonObject& result, const QString& key);

// A number as messages show it.
QString formatNumber(double value);

}  // namespace tunedeck::scheduler_options
