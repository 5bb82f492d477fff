#include "core/asha_scheduler.h"

#include <QJsonArray>
#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <optional>

#include "core/rng.h"
#include "core/scheduler_options.h"
#include "core/search_space.h"

namespace tunedeck {

using namespace scheduler_options;

namespace {

const QString kMaxT = QStringLiteral("max_t");
const QString kGracePeriod = QStringLiteral("grace_period");
const QString kReductionFactor = QStringLiteral("reduction_factor");
const QString kBrackets = QStringLiteral("brackets");
const QString kStopLastTrials = QStringLiteral("stop_last_trials");

// Distinguishes bracket draws from the searcher's use of the same seed.
constexpr std::uint64_t kBracketStream = 0x61736861ULL;  // "asha"

// numpy.percentile with its default linear interpolation.
double percentile(std::vector<double> values, double q) {
    std::sort(values.begin(), values.end());
    const double position = q / 100.0 * static_cast<double>(values.size() - 1);
    const auto lower = static_cast<std::size_t>(std::floor(position));
    const std::size_t upper = std::min(lower + 1, values.size() - 1);
    const double fraction = position - static_cast<double>(lower);
    return values[lower] + (values[upper] - values[lower]) * fraction;
}

}  // namespace

QStringList ashaOptionNames() {
    return {kTimeAttr, kMaxT,   kGracePeriod, kReductionFactor,
            kBrackets, kMetric, kMode,        kStopLastTrials};
}

Status validateAshaOptions(const ExperimentSpec& spec, QString* badKey) {
    const QJsonObject& options = spec.scheduler.options;
    if (Status s = checkCommonOptions(spec, {kMaxT, kGracePeriod, kReductionFactor, kBrackets},
                                      QStringLiteral("asha"), badKey);
        !s) {
        return s;
    }
    if (options.contains(kStopLastTrials) && !options.value(kStopLastTrials).isBool()) {
        return optionError(badKey, kStopLastTrials,
                           QStringLiteral("scheduler option 'stop_last_trials' must be true or "
                                          "false"));
    }
    const double maxT = options.value(kMaxT).toDouble(100);
    const double grace = options.value(kGracePeriod).toDouble(1);
    const double factor = options.value(kReductionFactor).toDouble(4);
    const double brackets = options.value(kBrackets).toDouble(1);
    if (maxT <= 0) {
        return optionError(badKey, kMaxT,
                           QStringLiteral("scheduler option 'max_t' must be positive, not %1")
                               .arg(formatNumber(maxT)));
    }
    if (grace <= 0) {
        return optionError(
            badKey, kGracePeriod,
            QStringLiteral("scheduler option 'grace_period' must be positive, not %1")
                .arg(formatNumber(grace)));
    }
    if (grace > maxT) {
        return optionError(
            badKey, kGracePeriod,
            QStringLiteral("scheduler option 'grace_period' (%1) must not exceed max_t (%2)")
                .arg(formatNumber(grace), formatNumber(maxT)));
    }
    if (factor <= 1) {
        return optionError(
            badKey, kReductionFactor,
            QStringLiteral("scheduler option 'reduction_factor' must be greater than 1, not %1")
                .arg(formatNumber(factor)));
    }
    if (brackets < 1 || brackets != std::floor(brackets)) {
        return optionError(
            badKey, kBrackets,
            QStringLiteral(
                "scheduler option 'brackets' must be a whole number of at least 1, not %1")
                .arg(formatNumber(brackets)));
    }
    return Status::ok();
}

std::unique_ptr<Scheduler> makeAshaScheduler(const ExperimentSpec& spec) {
    const QJsonObject& options = spec.scheduler.options;
    AshaScheduler::Options o;
    o.timeAttr = options.value(kTimeAttr).toString(o.timeAttr);
    const Objective objective = objectiveOf(spec);
    o.metric = objective.metric;
    o.mode = objective.mode;
    o.maxT = options.value(kMaxT).toDouble(o.maxT);
    o.gracePeriod = options.value(kGracePeriod).toDouble(o.gracePeriod);
    o.reductionFactor = options.value(kReductionFactor).toDouble(o.reductionFactor);
    o.brackets = static_cast<int>(options.value(kBrackets).toDouble(o.brackets));
    o.stopLastTrials = options.value(kStopLastTrials).toBool(o.stopLastTrials);
    o.seed = spec.seed;
    return std::make_unique<AshaScheduler>(o);
}

AshaScheduler::AshaScheduler(Options options) : options_(std::move(options)) {
    const double rf = options_.reductionFactor;
    for (int s = 0; s < options_.brackets; ++s) {
        Bracket bracket;
        const int maxRungs =
            static_cast<int>(std::log(options_.maxT / options_.gracePeriod) / std::log(rf) - s + 1);
        for (int k = maxRungs - 1; k >= 0; --k) {
            bracket.rungs.push_back({options_.gracePeriod * std::pow(rf, k + s), {}});
        }
        brackets_.push_back(std::move(bracket));
    }
}

std::vector<double> AshaScheduler::milestones(int bracket) const {
    std::vector<double> out;
    for (const Rung& rung : brackets_.at(static_cast<std::size_t>(bracket)).rungs) {
        out.push_back(rung.milestone);
    }
    return out;
}

int AshaScheduler::bracketOf(const Trial& trial) {
    auto it = trialBracket_.constFind(trial.id);
    if (it != trialBracket_.constEnd()) {
        return it.value();
    }
    int chosen = 0;
    if (brackets_.size() > 1) {
        // Ray: probabilities softmax(number of rungs), so brackets with more rungs get more trials.
        std::size_t most = 0;
        for (const Bracket& b : brackets_) {
            most = std::max(most, b.rungs.size());
        }
        std::vector<double> weights;
        double total = 0;
        for (const Bracket& b : brackets_) {
            weights.push_back(
                std::exp(static_cast<double>(b.rungs.size()) - static_cast<double>(most)));
            total += weights.back();
        }
        Rng rng =
            Rng::forStream(options_.seed ^ kBracketStream, static_cast<std::uint64_t>(trial.index));
        double draw = rng.uniform01() * total;
        chosen = static_cast<int>(weights.size()) - 1;
        for (std::size_t i = 0; i < weights.size(); ++i) {
            if (draw < weights[i]) {
                chosen = static_cast<int>(i);
                break;
            }
            draw -= weights[i];
        }
    }
    trialBracket_.insert(trial.id, chosen);
    return chosen;
}

void AshaScheduler::onTrialAdd(const Trial& trial) {
    bracketOf(trial);
}

SchedulerDecision AshaScheduler::judge(Bracket& bracket, const QString& trialId, double time,
                                       double value) {
    const double sign = options_.mode == MetricMode::Min ? -1.0 : 1.0;
    const double signedValue = sign * value;
    for (Rung& rung : bracket.rungs) {
        if (time < rung.milestone || rung.recorded.contains(trialId)) {
            continue;
        }
        SchedulerDecision decision = SchedulerDecision::proceed();
        if (!rung.recorded.isEmpty()) {
            const double q = (1.0 - 1.0 / options_.reductionFactor) * 100.0;
            const std::vector<double> values(rung.recorded.cbegin(), rung.recorded.cend());
            const double cutoff = percentile(values, q);
            if (signedValue < cutoff) {
                decision = SchedulerDecision::stop(
                    QStringLiteral("asha: %1 = %2 at %3 = %4 is not in the top 1/%5 of the rung "
                                   "(cutoff %6)")
                        .arg(options_.metric, formatNumber(value), options_.timeAttr,
                             formatNumber(rung.milestone), formatNumber(options_.reductionFactor),
                             formatNumber(sign * cutoff)));
            }
        }
        rung.recorded.insert(trialId, signedValue);
        return decision;
    }
    return SchedulerDecision::proceed();
}

SchedulerDecision AshaScheduler::onResult(const Trial& trial, const QJsonObject& result) {
    const auto time = finiteNumberAt(result, options_.timeAttr);
    const auto value = finiteNumberAt(result, options_.metric);
    if (!time || !value) {
        return SchedulerDecision::proceed();
    }
    if (std::optional<QString> end = endReached(result)) {
        return SchedulerDecision::stop(*end);
    }
    return judge(brackets_[static_cast<std::size_t>(bracketOf(trial))], trial.id, *time, *value);
}

std::optional<QString> AshaScheduler::endReached(const QJsonObject& result) const {
    const auto time = finiteNumberAt(result, options_.timeAttr);
    if (!time || *time < options_.maxT || !options_.stopLastTrials) {
        return std::nullopt;
    }
    return QStringLiteral("asha: %1 reached max_t (%2)")
        .arg(options_.timeAttr, formatNumber(options_.maxT));
}

void AshaScheduler::onComplete(const Trial& trial, const QJsonObject& lastResult) {
    const auto time = finiteNumberAt(lastResult, options_.timeAttr);
    const auto value = finiteNumberAt(lastResult, options_.metric);
    if (time && value) {
        judge(brackets_[static_cast<std::size_t>(bracketOf(trial))], trial.id, *time, *value);
    }
}

QJsonObject AshaScheduler::saveState() const {
    QJsonObject trials;
    for (auto it = trialBracket_.cbegin(); it != trialBracket_.cend(); ++it) {
        trials.insert(it.key(), it.value());
    }
    QJsonArray brackets;
    for (const Bracket& bracket : brackets_) {
        QJsonArray rungs;
        for (const Rung& rung : bracket.rungs) {
            QJsonObject recorded;
            for (auto it = rung.recorded.cbegin(); it != rung.recorded.cend(); ++it) {
                recorded.insert(it.key(), it.value());
            }
            rungs.append(QJsonObject{{"milestone", rung.milestone}, {"recorded", recorded}});
        }
        brackets.append(rungs);
    }
    return {{"trials", trials}, {"brackets", brackets}};
}

Status AshaScheduler::restoreState(const QJsonObject& state) {
    if (state.isEmpty()) {
        return Status::ok();  // nothing saved yet
    }
    const QJsonArray brackets = state.value("brackets").toArray();
    if (brackets.size() != static_cast<qsizetype>(brackets_.size())) {
        return Status::corruption(QStringLiteral("asha state has %1 brackets, the experiment %2")
                                      .arg(brackets.size())
                                      .arg(brackets_.size()));
    }
    std::vector<Bracket> restored = brackets_;
    for (qsizetype b = 0; b < brackets.size(); ++b) {
        const QJsonArray rungs = brackets.at(b).toArray();
        Bracket& bracket = restored[static_cast<std::size_t>(b)];
        if (rungs.size() != static_cast<qsizetype>(bracket.rungs.size())) {
            return Status::corruption(
                QStringLiteral("asha state does not match the experiment's rungs"));
        }
        for (qsizetype r = 0; r < rungs.size(); ++r) {
            Rung& rung = bracket.rungs[static_cast<std::size_t>(r)];
            rung.recorded.clear();
            const QJsonObject recorded = rungs.at(r).toObject().value("recorded").toObject();
            for (auto it = recorded.begin(); it != recorded.end(); ++it) {
                rung.recorded.insert(it.key(), it.value().toDouble());
            }
        }
    }
    QMap<QString, int> trialBracket;
    const QJsonObject trials = state.value("trials").toObject();
    for (auto it = trials.begin(); it != trials.end(); ++it) {
        const int b = it.value().toInt(-1);
        if (b < 0 || b >= static_cast<int>(brackets_.size())) {
            return Status::corruption(
                QStringLiteral("asha state puts trial %1 in no bracket").arg(it.key()));
        }
        trialBracket.insert(it.key(), b);
    }
    brackets_ = std::move(restored);
    trialBracket_ = std::move(trialBracket);
    return Status::ok();
}

}  // namespace tunedeck
