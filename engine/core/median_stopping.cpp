#include "core/median_stopping.h"

#include <QJsonArray>
#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/scheduler_options.h"
#include "core/search_space.h"

namespace tunedeck {

using namespace scheduler_options;

namespace {

const QString kGracePeriod = QStringLiteral("grace_period");
const QString kMinSamples = QStringLiteral("min_samples_required");
const QString kMinTimeSlice = QStringLiteral("min_time_slice");
const QString kHardStop = QStringLiteral("hard_stop");

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

}  // namespace

QStringList medianOptionNames() {
    return {kTimeAttr, kGracePeriod, kMinSamples, kMinTimeSlice, kHardStop, kMetric, kMode};
}

Status validateMedianOptions(const ExperimentSpec& spec, QString* badKey) {
    const QJsonObject& options = spec.scheduler.options;
    if (Status s = checkCommonOptions(spec, {kGracePeriod, kMinSamples, kMinTimeSlice},
                                      QStringLiteral("median"), badKey);
        !s) {
        return s;
    }
    for (const QString& key : {kGracePeriod, kMinSamples, kMinTimeSlice}) {
        if (options.value(key).toDouble(0) < 0) {
            return optionError(badKey, key,
                               QStringLiteral("scheduler option '%1' must not be negative, not %2")
                                   .arg(key, formatNumber(options.value(key).toDouble())));
        }
    }
    if (options.contains(kHardStop) && !options.value(kHardStop).isBool()) {
        return optionError(badKey, kHardStop,
                           QStringLiteral("scheduler option 'hard_stop' must be true or false"));
    }
    const double minSamples = options.value(kMinSamples).toDouble(3);
    if (minSamples != std::floor(minSamples)) {
        return optionError(
            badKey, kMinSamples,
            QStringLiteral("scheduler option 'min_samples_required' must be a whole number, "
                           "not %1")
                .arg(formatNumber(minSamples)));
    }
    return Status::ok();
}

std::unique_ptr<Scheduler> makeMedianScheduler(const ExperimentSpec& spec) {
    const QJsonObject& options = spec.scheduler.options;
    MedianStoppingScheduler::Options o;
    o.timeAttr = options.value(kTimeAttr).toString(o.timeAttr);
    const Objective objective = objectiveOf(spec);
    o.metric = objective.metric;
    o.mode = objective.mode;
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
    const auto time = finiteNumberAt(result, options_.timeAttr);
    const auto value = finiteNumberAt(result, options_.metric);
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
        if (*time - last > options_.minTimeSlice && waiting_ > 0) {
            lastPause_.insert(trial.id, *time);
            gaveWayAt_.insert(trial.id, ++giveWays_);
            return SchedulerDecision::giveWay(
                QStringLiteral("median: only %1 other trials reached %2 = %3 (need %4); giving "
                               "way to waiting trials")
                    .arg(others)
                    .arg(options_.timeAttr, formatNumber(*time))
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
    const QString why = QStringLiteral(
                            "median: best %1 = %2 is worse than the median %3 of "
                            "other trials' running averages at %4 = %5")
                            .arg(options_.metric, formatNumber(best), formatNumber(middle),
                                 options_.timeAttr, formatNumber(*time));
    if (options_.hardStop) {
        return SchedulerDecision::stop(why);
    }
    return SchedulerDecision::pause(why);
}

void MedianStoppingScheduler::onComplete(const Trial& trial, const QJsonObject& lastResult) {
    const auto time = finiteNumberAt(lastResult, options_.timeAttr);
    const auto value = finiteNumberAt(lastResult, options_.metric);
    if (time && value) {
        results_[trial.id].push_back({*time, *value});  // Ray records the final result again
    }
}

std::optional<QString> MedianStoppingScheduler::chooseTrialToRun(
    const std::vector<const Trial*>& waiting) {
    const Trial* pick = nullptr;
    for (const Trial* trial : waiting) {
        if (trial == nullptr) {
            continue;
        }
        if (trial->status == TrialStatus::Pending) {
            return trial->id;
        }
        if (pick == nullptr || gaveWayAt_.value(trial->id) < gaveWayAt_.value(pick->id)) {
            pick = trial;
        }
    }
    return pick ? std::optional<QString>(pick->id) : std::nullopt;
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
    bad.sort();
    QJsonObject gaveWay;
    for (auto it = gaveWayAt_.cbegin(); it != gaveWayAt_.cend(); ++it) {
        gaveWay.insert(it.key(), it.value());
    }
    return {{"results", results},
            {"judged_bad", QJsonArray::fromStringList(bad)},
            {"last_pause", lastPause},
            {"gave_way", gaveWay},
            {"give_ways", giveWays_}};
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
    QMap<QString, qint64> gaveWay;
    const QJsonObject savedGaveWay = state.value("gave_way").toObject();
    for (auto it = savedGaveWay.begin(); it != savedGaveWay.end(); ++it) {
        gaveWay.insert(it.key(), it.value().toInteger());
    }
    results_ = std::move(results);
    gaveWayAt_ = std::move(gaveWay);
    giveWays_ = state.value("give_ways").toInteger();
    lastPause_ = std::move(lastPause);
    judgedBad_ = std::move(bad);
    return Status::ok();
}

}  // namespace tunedeck
