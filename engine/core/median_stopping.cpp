#include "core/median_stopping.h"

#include <QJsonArray>
#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/search_space.h"

namespace tunedeck {

namespace {

const QString kTimeAttr = QStringLiteral("time_attr");
const QString kGracePeriod = QStringLiteral("grace_period");
const QString kMinSamples = QStringLiteral("min_samples_required");
const QString kMinTimeSlice = QStringLiteral("min_time_slice");
const QString kHardStop = QStringLiteral("hard_stop");
const QString kMetric = QStringLiteral("metric");
const QString kMode = QStringLiteral("mode");

std::optional<double> numberAt(const QJsonObject& result, const QString& key) {
    QJsonValue value = result.value(key);
    if (value.isUndefined()) {
        value = valueAtPath(result, key);
    }
    if (!value.isDouble() || !std::isfinite(value.toDouble())) {
        return std::nullopt;
    }
    return value.toDouble();
}

Status fail(QString* badKey, const QString& option, const QString& message) {
    if (badKey) {
        *badKey = QStringLiteral("scheduler.") + option;
    }
    return Status::invalid(message);
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

QString num(double value) {
    return QString::number(value, 'g', 6);
}

}  // namespace

QStringList medianOptionNames() {
    return {kTimeAttr, kGracePeriod, kMinSamples, kMinTimeSlice, kHardStop, kMetric, kMode};
}

Status validateMedianOptions(const ExperimentSpec& spec, QString* badKey) {
    const QJsonObject& options = spec.scheduler.options;
    for (const QString& key : {kTimeAttr, kMetric, kMode}) {
        if (options.contains(key) && !options.value(key).isString()) {
            return fail(badKey, key,
                        QStringLiteral("scheduler option '%1' must be a string").arg(key));
        }
    }
    for (const QString& key : {kGracePeriod, kMinSamples, kMinTimeSlice}) {
        if (options.contains(key) &&
            (!options.value(key).isDouble() || !std::isfinite(options.value(key).toDouble()))) {
            return fail(badKey, key,
                        QStringLiteral("scheduler option '%1' must be a number").arg(key));
        }
        if (options.value(key).toDouble(0) < 0) {
            return fail(badKey, key,
                        QStringLiteral("scheduler option '%1' must not be negative, not %2")
                            .arg(key, num(options.value(key).toDouble())));
        }
    }
    if (options.contains(kHardStop) && !options.value(kHardStop).isBool()) {
        return fail(badKey, kHardStop,
                    QStringLiteral("scheduler option 'hard_stop' must be true or false"));
    }
    const double minSamples = options.value(kMinSamples).toDouble(3);
    if (minSamples != std::floor(minSamples)) {
        return fail(
            badKey, kMinSamples,
            QStringLiteral("scheduler option 'min_samples_required' must be a whole number, "
                           "not %1")
                .arg(num(minSamples)));
    }
    if (options.value(kTimeAttr).toString(QStringLiteral("x")).isEmpty()) {
        return fail(badKey, kTimeAttr,
                    QStringLiteral("scheduler option 'time_attr' must not be empty"));
    }
    const QString mode = options.value(kMode).toString();
    if (options.contains(kMode) && mode != QLatin1String("min") && mode != QLatin1String("max")) {
        return fail(
            badKey, kMode,
            QStringLiteral("scheduler option 'mode' must be 'min' or 'max', not '%1'").arg(mode));
    }
    if (options.value(kMetric).toString().isEmpty() && spec.metric.isEmpty()) {
        return fail(badKey, kMetric,
                    QStringLiteral("scheduler 'median' needs a metric: set the experiment's "
                                   "`metric` or the scheduler option 'metric'"));
    }
    return Status::ok();
}

std::unique_ptr<Scheduler> makeMedianScheduler(const ExperimentSpec& spec) {
    const QJsonObject& options = spec.scheduler.options;
    MedianStoppingScheduler::Options o;
    o.timeAttr = options.value(kTimeAttr).toString(o.timeAttr);
    o.metric = options.value(kMetric).toString(spec.metric);
    o.mode = spec.mode;
    if (options.contains(kMode)) {
        o.mode = options.value(kMode).toString() == QLatin1String("min") ? MetricMode::Min
                                                                         : MetricMode::Max;
    }
    o.gracePeriod = options.value(kGracePeriod).toDouble(o.gracePeriod);
    o.minSamplesRequired =
        static_cast<int>(options.value(kMinSamples).toDouble(o.minSamplesRequired));
    o.minTimeSlice = options.value(kMinTimeSlice).toDouble(o.minTimeSlice);
    o.hardStop = options.value(kHardStop).toBool(o.hardStop);
    return std::make_unique<MedianStoppingScheduler>(o);
}

bool MedianStoppingScheduler::better(double a, double b) const {
    return options_.mode == MetricMode::Max ? a > b : a < b;
}

void MedianStoppingScheduler::onTrialAdd(const Trial& trial) {
    if (trial.status == TrialStatus::Pending || trial.status == TrialStatus::Paused) {
        waiting_.insert(trial.id);
    }
}

std::optional<double> MedianStoppingScheduler::runningMean(const QString& trialId,
                                                           double time) const {
    double sum = 0;
    int count = 0;
    for (const Point& point : results_.value(trialId)) {
        if (options_.gracePeriod <= point.first && point.first <= time) {
            sum += point.second;
            ++count;
        }
    }
    if (count == 0) {
        return std::nullopt;
    }
    return sum / count;
}

SchedulerDecision MedianStoppingScheduler::onResult(const Trial& trial, const QJsonObject& result) {
    waiting_.remove(trial.id);  // it is reporting, so it runs
    const auto time = numberAt(result, options_.timeAttr);
    const auto value = numberAt(result, options_.metric);
    if (!time || !value) {
        return SchedulerDecision::proceed();
    }
    if (judgedBad_.contains(trial.id)) {
        return SchedulerDecision::proceed();  // resumed after a soft stop: runs to the end
    }
    results_[trial.id].push_back({*time, *value});
    if (*time < options_.gracePeriod) {
        return SchedulerDecision::proceed();
    }

    int others = 0;
    std::vector<double> means;
    for (auto it = results_.cbegin(); it != results_.cend(); ++it) {
        if (it.key() == trial.id || it.value().back().first < *time) {
            continue;
        }
        ++others;
        if (const auto mean = runningMean(it.key(), *time)) {
            means.push_back(*mean);
        }
    }

    if (others < options_.minSamplesRequired) {
        const double last = lastPause_.value(trial.id, -std::numeric_limits<double>::infinity());
        if (*time - last > options_.minTimeSlice && !waiting_.isEmpty()) {
            lastPause_.insert(trial.id, *time);
            waiting_.insert(trial.id);
            return SchedulerDecision::pause(
                QStringLiteral("median: only %1 other trials reached %2 = %3 (need %4); giving "
                               "way to waiting trials")
                    .arg(others)
                    .arg(options_.timeAttr, num(*time))
                    .arg(options_.minSamplesRequired));
        }
        return SchedulerDecision::proceed();
    }
    if (means.empty()) {
        return SchedulerDecision::proceed();
    }

    const double middle = median(means);
    double best = results_[trial.id].front().second;
    for (const Point& point : results_[trial.id]) {
        if (better(point.second, best)) {
            best = point.second;
        }
    }
    if (!better(middle, best)) {
        return SchedulerDecision::proceed();
    }
    judgedBad_.insert(trial.id);
    const QString why =
        QStringLiteral(
            "median: best %1 = %2 is worse than the median %3 of "
            "other trials' running averages at %4 = %5")
            .arg(options_.metric, num(best), num(middle), options_.timeAttr, num(*time));
    if (options_.hardStop) {
        return SchedulerDecision::stop(why);
    }
    waiting_.insert(trial.id);
    return SchedulerDecision::pause(why);
}

void MedianStoppingScheduler::onComplete(const Trial& trial, const QJsonObject& lastResult) {
    waiting_.remove(trial.id);
    const auto time = numberAt(lastResult, options_.timeAttr);
    const auto value = numberAt(lastResult, options_.metric);
    if (time && value) {
        results_[trial.id].push_back({*time, *value});  // Ray records the final result again
    }
}

void MedianStoppingScheduler::onError(const Trial& trial) {
    waiting_.remove(trial.id);
}

std::optional<QString> MedianStoppingScheduler::chooseTrialToRun(
    const std::vector<const Trial*>& waiting) {
    waiting_.clear();
    for (const Trial* trial : waiting) {
        if (trial) {
            waiting_.insert(trial->id);
        }
    }
    std::optional<QString> pick = Scheduler::chooseTrialToRun(waiting);
    if (pick) {
        waiting_.remove(*pick);
    }
    return pick;
}

QJsonObject MedianStoppingScheduler::saveState() const {
    QJsonObject results;
    for (auto it = results_.cbegin(); it != results_.cend(); ++it) {
        QJsonArray points;
        for (const Point& point : it.value()) {
            points.append(QJsonArray{point.first, point.second});
        }
        results.insert(it.key(), points);
    }
    QJsonObject lastPause;
    for (auto it = lastPause_.cbegin(); it != lastPause_.cend(); ++it) {
        lastPause.insert(it.key(), it.value());
    }
    QStringList bad(judgedBad_.cbegin(), judgedBad_.cend());
    QStringList waiting(waiting_.cbegin(), waiting_.cend());
    bad.sort();
    waiting.sort();
    return {{"results", results},
            {"judged_bad", QJsonArray::fromStringList(bad)},
            {"last_pause", lastPause},
            {"waiting", QJsonArray::fromStringList(waiting)}};
}

Status MedianStoppingScheduler::restoreState(const QJsonObject& state) {
    if (state.isEmpty()) {
        return Status::ok();  // nothing saved yet
    }
    QMap<QString, std::vector<Point>> results;
    const QJsonObject savedResults = state.value("results").toObject();
    for (auto it = savedResults.begin(); it != savedResults.end(); ++it) {
        std::vector<Point> points;
        for (const QJsonValue& value : it.value().toArray()) {
            const QJsonArray pair = value.toArray();
            if (pair.size() != 2 || !pair.at(0).isDouble() || !pair.at(1).isDouble()) {
                return Status::corruption(
                    QStringLiteral("median state has a malformed result for trial %1")
                        .arg(it.key()));
            }
            points.push_back({pair.at(0).toDouble(), pair.at(1).toDouble()});
        }
        if (!points.empty()) {
            results.insert(it.key(), std::move(points));
        }
    }
    QMap<QString, double> lastPause;
    const QJsonObject savedPause = state.value("last_pause").toObject();
    for (auto it = savedPause.begin(); it != savedPause.end(); ++it) {
        lastPause.insert(it.key(), it.value().toDouble());
    }
    QSet<QString> bad;
    for (const QJsonValue& id : state.value("judged_bad").toArray()) {
        bad.insert(id.toString());
    }
    QSet<QString> waiting;
    for (const QJsonValue& id : state.value("waiting").toArray()) {
        waiting.insert(id.toString());
    }
    results_ = std::move(results);
    lastPause_ = std::move(lastPause);
    judgedBad_ = std::move(bad);
    waiting_ = std::move(waiting);
    return Status::ok();
}

}  // namespace tunedeck
