#include "core/model_searcher.h"

#include <QJsonArray>
#include <cmath>

#include "core/pareto.h"
#include "core/scheduler_options.h"
#include "core/warm_start.h"

namespace tunedeck {

namespace {

// Random streams of the completions of evaluated points: far past any trial's stream number.
constexpr std::uint64_t kWarmStartStreams = std::uint64_t{1} << 48;

QJsonArray numbersToJson(const std::vector<double>& values) {
    QJsonArray array;
    for (double value : values) {
        array.append(value);
    }
    return array;
}

QJsonArray curveToJson(const std::vector<std::pair<double, double>>& curve) {
    QJsonArray array;
    for (const auto& [time, loss] : curve) {
        array.append(QJsonArray{time, loss});
    }
    return array;
}

std::vector<std::pair<double, double>> curveFromJson(const QJsonArray& array) {
    std::vector<std::pair<double, double>> curve;
    curve.reserve(size_t(array.size()));
    for (const auto& point : array) {
        const QJsonArray pair = point.toArray();
        curve.emplace_back(pair.at(0).toDouble(), pair.at(1).toDouble());
    }
    return curve;
}

QJsonObject observationToJson(const Observation& observation) {
    return {{QStringLiteral("trial"), observation.trialId},
            {QStringLiteral("config"), observation.config},
            {QStringLiteral("losses"), numbersToJson(observation.losses)},
            {QStringLiteral("curve"), curveToJson(observation.curve)}};
}

Observation observationFromJson(const QJsonObject& object) {
    Observation observation;
    observation.trialId = object.value(QStringLiteral("trial")).toString();
    observation.config = object.value(QStringLiteral("config")).toObject();
    for (const auto& loss : object.value(QStringLiteral("losses")).toArray()) {
        observation.losses.push_back(loss.toDouble());
    }
    observation.curve = curveFromJson(object.value(QStringLiteral("curve")).toArray());
    return observation;
}

}  // namespace

ModelSearcher::ModelSearcher(const ExperimentSpec& spec, QString algorithm)
    : spec_(spec),
      algorithm_(std::move(algorithm)),
      objectives_(spec.objectives),
      points_(pointsToRun(spec)) {
    if (objectives_.empty() && !spec.metric.isEmpty()) {
        objectives_.push_back({spec.metric, spec.mode});
    }
    // Points with known rewards are finished trials already: observed, never proposed. A
    // partial point is completed by a draw of its own stream (past any trial's), so the same
    // spec always gives the model the same configs.
    const std::vector<EvaluatedPoint> evaluated = evaluatedPoints(spec);
    for (std::size_t i = 0; i < evaluated.size(); ++i) {
        Rng rng = Rng::forStream(spec_.seed, kWarmStartStreams + i);
        Observation observation;
        observation.trialId = QStringLiteral("evaluated_rewards[%1]").arg(i);
        observation.config = configOfPoint(space(), rng, 0, evaluated[i].point);
        for (std::size_t o = 0; o < evaluated[i].values.size() && o < objectives_.size(); ++o) {
            const double value = evaluated[i].values[o];
            observation.losses.push_back(objectives_[o].mode == MetricMode::Max ? -value : value);
        }
        observations_.push_back(std::move(observation));
    }
}

Suggestion ModelSearcher::suggest(const QString& trialId) {
    if (proposed_ >= std::max(0, spec_.numSamples)) {
        return Suggestion::finished();
    }
    Rng rng = Rng::forStream(spec_.seed, static_cast<std::uint64_t>(proposed_));
    Suggestion suggestion;
    if (proposed_ < static_cast<std::int64_t>(points_.size())) {
        suggestion = Suggestion::of(configOfPoint(space(), rng, 0, points_[size_t(proposed_)]));
    } else {
        suggestion = propose(trialId, rng);
    }
    if (suggestion.kind == Suggestion::Kind::Config) {
        ++proposed_;
        running_[trialId] = suggestion.config;
    }
    return suggestion;
}

void ModelSearcher::onResult(const QString& trialId, const QJsonObject& result) {
    if (!running_.count(trialId) || objectives_.empty()) {
        return;
    }
    const auto time = scheduler_options::finiteNumberAt(result, curveAttr_);
    const auto value = scheduler_options::finiteNumberAt(result, objectives_.front().metric);
    if (!time || !value) {
        return;
    }
    const double loss = objectives_.front().mode == MetricMode::Max ? -*value : *value;
    auto& curve = curves_[trialId];
    // A restarted attempt reports from its checkpoint again: keep the curve increasing.
    while (!curve.empty() && curve.back().first >= *time) {
        curve.pop_back();
    }
    curve.emplace_back(*time, loss);
}

std::optional<std::vector<double>> ModelSearcher::lossesOf(const QJsonObject& result) const {
    return pareto::lossesOf(objectives_, result);
}

void ModelSearcher::onComplete(const QString& trialId, const QJsonObject& lastResult,
                               bool errored) {
    const auto it = running_.find(trialId);
    if (it == running_.end()) {
        return;  // not ours, or already finished (a replay on resume)
    }
    Observation observation;
    observation.trialId = trialId;
    observation.config = it->second;
    running_.erase(it);
    if (auto curve = curves_.find(trialId); curve != curves_.end()) {
        observation.curve = curve->second;
    }
    const auto losses = errored ? std::nullopt : lossesOf(lastResult);
    if (!losses) {
        failed_.push_back(std::move(observation));
        return;
    }
    observation.losses = *losses;
    observations_.push_back(std::move(observation));
    observed(observations_.back());
}

void ModelSearcher::onTrialRecovered(std::int64_t index, const QString& trialId,
                                     const QJsonObject& config) {
    if (running_.count(trialId)) {
        return;
    }
    for (const auto* list : {&observations_, &failed_}) {
        for (const Observation& known : *list) {
            if (known.trialId == trialId) {
                return;
            }
        }
    }
    running_[trialId] = config;
    proposed_ = std::max(proposed_, index + 1);
}

Status ModelSearcher::suggestParameter(std::int64_t index, const QString& trialId,
                                       const QJsonObject& config, const QString& name,
                                       const SuggestedDistribution& distribution,
                                       QJsonValue* value) {
    Rng rng = parameterStream(spec_.seed, index, name);
    if (Status s = proposeParameter(trialId, name, distribution, rng, value); !s) {
        return s;
    }
    const auto found = running_.find(trialId);
    if (found == running_.end()) {
        return Status::ok();
    }
    QJsonObject& running = found->second;
    for (auto it = config.begin(); it != config.end(); ++it) {
        running.insert(it.key(), it.value());  // what a recovered trial had before the restart
    }
    running.insert(name, *value);
    return Status::ok();
}

std::optional<std::int64_t> ModelSearcher::totalTrials() const {
    return std::max(0, spec_.numSamples);
}

QJsonObject ModelSearcher::saveState() const {
    QJsonArray running;
    for (const auto& [trialId, config] : running_) {
        QJsonObject entry{{QStringLiteral("trial"), trialId}, {QStringLiteral("config"), config}};
        if (auto curve = curves_.find(trialId); curve != curves_.end()) {
            entry.insert(QStringLiteral("curve"), curveToJson(curve->second));
        }
        running.append(entry);
    }
    QJsonArray observations;
    for (const Observation& observation : observations_) {
        observations.append(observationToJson(observation));
    }
    QJsonArray failed;
    for (const Observation& observation : failed_) {
        failed.append(observationToJson(observation));
    }
    return {{QStringLiteral("algorithm"), algorithm_},
            {QStringLiteral("proposed"), QJsonValue(static_cast<qint64>(proposed_))},
            {QStringLiteral("running"), running},
            {QStringLiteral("observations"), observations},
            {QStringLiteral("failed"), failed},
            {QStringLiteral("model"), saveModelState()}};
}

Status ModelSearcher::restoreState(const QJsonObject& state) {
    if (state.value(QStringLiteral("algorithm")).toString() != algorithm_) {
        return Status::invalid(
            QStringLiteral("searcher state is for '%1', not '%2'")
                .arg(state.value(QStringLiteral("algorithm")).toString(), algorithm_));
    }
    const QJsonValue proposed = state.value(QStringLiteral("proposed"));
    if (!proposed.isDouble() || proposed.toDouble() < 0 ||
        std::floor(proposed.toDouble()) != proposed.toDouble()) {
        return Status::corruption(
            QStringLiteral("searcher state: 'proposed' must be a trial count"));
    }
    proposed_ = proposed.toInteger();
    running_.clear();
    curves_.clear();
    observations_.clear();
    failed_.clear();
    for (const auto& item : state.value(QStringLiteral("running")).toArray()) {
        const QJsonObject entry = item.toObject();
        const QString trialId = entry.value(QStringLiteral("trial")).toString();
        running_[trialId] = entry.value(QStringLiteral("config")).toObject();
        if (entry.contains(QStringLiteral("curve"))) {
            curves_[trialId] = curveFromJson(entry.value(QStringLiteral("curve")).toArray());
        }
    }
    for (const auto& item : state.value(QStringLiteral("observations")).toArray()) {
        observations_.push_back(observationFromJson(item.toObject()));
        const Observation& observation = observations_.back();
        if (observation.losses.size() != std::max<size_t>(1, objectives_.size())) {
            return Status::corruption(
                QStringLiteral("searcher state: trial %1 has %2 objective values, expected %3")
                    .arg(observation.trialId)
                    .arg(observation.losses.size())
                    .arg(objectives_.size()));
        }
        if (!observation.curve.empty()) {
            curves_[observation.trialId] = observation.curve;
        }
    }
    for (const auto& item : state.value(QStringLiteral("failed")).toArray()) {
        failed_.push_back(observationFromJson(item.toObject()));
    }
    return restoreModelState(state.value(QStringLiteral("model")).toObject());
}

}  // namespace tunedeck
