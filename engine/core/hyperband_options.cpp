#include "core/hyperband_options.h"

#include <QJsonObject>
#include <cmath>
#include <memory>
#include <set>
#include <vector>

#include "core/hyperband_scheduler.h"
#include "core/scheduler_options.h"

namespace tunedeck {

using namespace scheduler_options;

namespace {

const QString kMaxT = QStringLiteral("max_t");
const QString kReductionFactor = QStringLiteral("reduction_factor");
const QString kStopLastTrials = QStringLiteral("stop_last_trials");

HyperbandScheduler::Options optionsOf(const ExperimentSpec& spec) {
    const QJsonObject& options = spec.scheduler.options;
    HyperbandScheduler::Options o;
    o.timeAttr = options.value(kTimeAttr).toString(o.timeAttr);
    const Objective objective = objectiveOf(spec);
    o.metric = objective.metric;
    o.mode = objective.mode;
    o.maxT = options.value(kMaxT).toDouble(o.maxT);
    o.reductionFactor = options.value(kReductionFactor).toDouble(o.reductionFactor);
    o.stopLastTrials = options.value(kStopLastTrials).toBool(o.stopLastTrials);
    return o;
}

}  // namespace

QStringList hyperbandOptionNames() {
    return {kTimeAttr, kMetric, kMode, kMaxT, kReductionFactor, kStopLastTrials};
}

Status validateHyperbandOptions(const ExperimentSpec& spec, QString* badKey) {
    const QJsonObject& options = spec.scheduler.options;
    if (Status s = checkCommonOptions(spec, {kMaxT, kReductionFactor}, QStringLiteral("hyperband"),
                                      badKey);
        !s) {
        return s;
    }
    if (options.contains(kStopLastTrials) && !options.value(kStopLastTrials).isBool()) {
        return optionError(
            badKey, kStopLastTrials,
            QStringLiteral("scheduler option 'stop_last_trials' must be true or false"));
    }
    const double maxT = options.value(kMaxT).toDouble(81);
    const double factor = options.value(kReductionFactor).toDouble(3);
    if (maxT < 1) {
        // Ray's bracket arithmetic truncates max_t / eta^s to whole units of time_attr.
        return optionError(badKey, kMaxT,
                           QStringLiteral("scheduler option 'max_t' must be at least 1, not %1")
                               .arg(formatNumber(maxT)));
    }
    if (factor <= 1) {
        return optionError(
            badKey, kReductionFactor,
            QStringLiteral("scheduler option 'reduction_factor' must be greater than 1, not %1")
                .arg(formatNumber(factor)));
    }
    if (std::log(maxT) / std::log(factor) > kHyperbandMaxBracketsPerBand) {
        return optionError(
            badKey, kReductionFactor,
            QStringLiteral("scheduler option 'reduction_factor' %1 with max_t %2 makes more "
                           "than %3 brackets; use a larger reduction_factor")
                .arg(formatNumber(factor), formatNumber(maxT))
                .arg(kHyperbandMaxBracketsPerBand));
    }
    return Status::ok();
}

std::unique_ptr<Scheduler> makeHyperbandScheduler(const ExperimentSpec& spec) {
    return std::make_unique<HyperbandScheduler>(optionsOf(spec));
}

std::vector<double> hyperbandBudgets(const ExperimentSpec& spec) {
    const HyperbandScheduler scheduler(optionsOf(spec));
    std::set<double> budgets;
    for (int s = 0; s < scheduler.bracketsPerBand(); ++s) {
        for (const HyperbandScheduler::Rung& rung : scheduler.plannedRungs(s)) {
            if (rung.milestone > 0) {
                budgets.insert(rung.milestone);
            }
        }
    }
    return {budgets.begin(), budgets.end()};
}

}  // namespace tunedeck
