#include "core/trial_report.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>
#include <cmath>

#include "core/search_space.h"

namespace tunedeck {

namespace {

// Iterations are counted in doubles on the wire: beyond 2^53 they are no longer whole numbers,
// and a cast of 1e300 to 64 bits gives nonsense.
constexpr double kLargestIteration = 9007199254740992.0;  // 2^53

bool isIntegral(const QJsonValue& v) {
    return v.isDouble() && std::floor(v.toDouble()) == v.toDouble() && v.toDouble() >= 0 &&
           v.toDouble() <= kLargestIteration;
}

QString describeValue(const QJsonValue& v) {
    if (v.isString()) {
        return QStringLiteral("\"%1\"").arg(v.toString().left(40));
    }
    return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact))
        .mid(1)
        .chopped(1);
}

ReportProblem trialFault(QString message) {
    return {ReportProblem::Kind::TrialFault, std::move(message)};
}

ReportProblem notReported(const ExperimentSpec& spec, const QString& specKey, const QString& key,
                          const QString& trialId, const QJsonObject& reported) {
    return {ReportProblem::Kind::ExperimentMistake,
            QStringLiteral("%1: %2: '%3' is not in the results that trial %4 reports (it "
                           "reported: %5)")
                .arg(spec.locationOf(specKey).toString(), specKey, key, trialId,
                     reported.keys().join(QStringLiteral(", ")))};
}

}  // namespace

std::optional<ReportProblem> checkReport(const QJsonValue& metricsValue, const ExperimentSpec& spec,
                                         const QString& trialId, std::int64_t lastIteration,
                                         std::int64_t* iteration) {
    if (!metricsValue.isObject()) {
        return trialFault(QStringLiteral("a report without a \"metrics\" object"));
    }
    const QJsonObject metrics = metricsValue.toObject();
    if (!spec.metric.isEmpty()) {
        const QJsonValue value = metrics.value(spec.metric);
        if (value.isUndefined()) {
            return notReported(spec, QStringLiteral("metric"), spec.metric, trialId, metrics);
        }
        if (!value.isDouble() || !std::isfinite(value.toDouble())) {
            return trialFault(
                QStringLiteral("the trial reported %1 = %2, which is not a finite number")
                    .arg(spec.metric, describeValue(value)));
        }
    }
    const QJsonValue given = metrics.value(QStringLiteral("training_iteration"));
    if (given.isDouble() && !isIntegral(given)) {
        return trialFault(QStringLiteral("the trial reported training_iteration = %1; it must be "
                                         "a whole number from 0 to 2^53")
                              .arg(describeValue(given)));
    }
    *iteration = isIntegral(given) ? std::int64_t(given.toDouble()) : lastIteration + 1;
    return std::nullopt;
}

std::optional<ReportProblem> checkRequiredKeys(const Scheduler& scheduler,
                                               const ExperimentSpec& spec, const QString& trialId,
                                               const QJsonObject& result) {
    for (const auto& [key, specKey] : scheduler.requiredResultKeys()) {
        if (valueAtPath(result, key).isUndefined()) {
            return notReported(spec, specKey, key, trialId, result);
        }
    }
    return std::nullopt;
}

SchedulerDecision decideOnResult(const StopCriteria& stop, Scheduler& scheduler, const Trial& trial,
                                 const QJsonObject& result) {
    if (std::optional<QString> reason = stopReason(stop, result)) {
        return SchedulerDecision::stop(*reason);
    }
    return scheduler.onResult(trial, result);
}

QJsonObject withAutomaticFields(QJsonObject metrics, const AutomaticFields& fields) {
    metrics.insert(QStringLiteral("training_iteration"), qint64(fields.iteration));
    metrics.insert(QStringLiteral("trial_id"), fields.trialId);
    metrics.insert(QStringLiteral("timestamp"), fields.timestamp);
    metrics.insert(QStringLiteral("time_this_iter_s"), fields.timeThisIterS);
    metrics.insert(QStringLiteral("time_total_s"), fields.timeTotalS);
    metrics.insert(QStringLiteral("iterations_since_restore"),
                   qint64(fields.iterationsSinceRestore));
    return metrics;
}

double recordedTimeTotalS(const QJsonObject& result) {
    return result.value(QStringLiteral("time_total_s")).toDouble(0);
}

}  // namespace tunedeck
