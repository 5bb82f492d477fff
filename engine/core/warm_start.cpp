#include "core/warm_start.h"

#include <QJsonArray>
#include <cmath>

namespace tunedeck {

namespace {

const QString kRewards = QStringLiteral("evaluated_rewards");

std::size_t objectiveCount(const ExperimentSpec& spec) {
    return std::max<std::size_t>(1, spec.objectives.size());
}

// The values of one reward item: a number, or a list of numbers; empty when it is neither.
std::vector<double> valuesOf(const QJsonValue& reward) {
    std::vector<double> values;
    if (reward.isDouble()) {
        values.push_back(reward.toDouble());
    } else if (reward.isArray()) {
        for (const QJsonValue& value : reward.toArray()) {
            if (!value.isDouble()) {
                return {};
            }
            values.push_back(value.toDouble());
        }
    }
    return values;
}

}  // namespace

std::vector<QJsonObject> pointsToEvaluate(const ExperimentSpec& spec) {
    std::vector<QJsonObject> points;
    for (const QJsonValue& item :
         spec.search.options.value(QStringLiteral("points_to_evaluate")).toArray()) {
        if (item.isObject()) {
            points.push_back(item.toObject());
        }
    }
    return points;
}

std::vector<EvaluatedPoint> evaluatedPoints(const ExperimentSpec& spec) {
    std::vector<EvaluatedPoint> evaluated;
    const QJsonArray rewards = spec.search.options.value(kRewards).toArray();
    const std::vector<QJsonObject> points = pointsToEvaluate(spec);
    for (std::size_t i = 0; i < points.size() && i < std::size_t(rewards.size()); ++i) {
        if (!rewards[qsizetype(i)].isNull()) {
            evaluated.push_back({points[i], valuesOf(rewards[qsizetype(i)])});
        }
    }
    return evaluated;
}

std::vector<QJsonObject> pointsToRun(const ExperimentSpec& spec) {
    const QJsonValue rewards = spec.search.options.value(kRewards);
    std::vector<QJsonObject> points = pointsToEvaluate(spec);
    if (!rewards.isArray()) {
        return points;
    }
    const QJsonArray known = rewards.toArray();
    std::vector<QJsonObject> toRun;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (i >= std::size_t(known.size()) || known[qsizetype(i)].isNull()) {
            toRun.push_back(std::move(points[i]));
        }
    }
    return toRun;
}

std::optional<QString> evaluatedRewardsProblem(const ExperimentSpec& spec) {
    const QJsonValue rewards = spec.search.options.value(kRewards);
    if (rewards.isUndefined() || rewards.isNull()) {
        return std::nullopt;
    }
    const std::size_t points = pointsToEvaluate(spec).size();
    if (!rewards.isArray() || std::size_t(rewards.toArray().size()) != points) {
        return QStringLiteral(
                   "evaluated_rewards must be a list with one value for each of the %1 "
                   "points_to_evaluate (their objective values, known from earlier runs; "
                   "null for a point to run)")
            .arg(points);
    }
    const std::size_t objectives = objectiveCount(spec);
    const QJsonArray list = rewards.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (list[i].isNull()) {
            continue;  // not known yet: the point is run
        }
        const std::vector<double> values = valuesOf(list[i]);
        bool finite = values.size() == objectives;
        for (const double value : values) {
            finite = finite && std::isfinite(value);
        }
        if (!finite) {
            return objectives == 1
                       ? QStringLiteral(
                             "evaluated_rewards: item %1 must be a finite number "
                             "(the objective's value at points_to_evaluate item %1), or null for a "
                             "point to run")
                             .arg(i + 1)
                       : QStringLiteral(
                             "evaluated_rewards: item %1 must be a list of %2 finite "
                             "numbers, one per objective, in the order of "
                             "`objectives`")
                             .arg(i + 1)
                             .arg(objectives);
        }
    }
    return std::nullopt;
}

QJsonObject configOfPoint(const SearchSpace& space, Rng& rng, std::int64_t gridIndex,
                          const QJsonObject& point) {
    return space.parameters.empty() ? point : space.sample(rng, gridIndex, point);
}

}  // namespace tunedeck
