// The tpe searcher: its options, reading finished configs into per-parameter columns (kept
// sorted), the good/bad split, and the walk of the space tree that picks each parameter by the
// largest l(x) / g(x).
#include "core/tpe_searcher.h"

#include <QJsonArray>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/pareto.h"
#include "core/search_options.h"
#include "core/search_space.h"

namespace tunedeck {

using namespace search_options;

namespace {

const QString kNStartupTrials = QStringLiteral("n_startup_trials");
const QString kNEiCandidates = QStringLiteral("n_ei_candidates");
const QString kGamma = QStringLiteral("gamma");
const QString kWeights = QStringLiteral("weights");
const QString kPriorWeight = QStringLiteral("prior_weight");
const QString kConsiderPrior = QStringLiteral("consider_prior");
const QString kConsiderMagicClip = QStringLiteral("consider_magic_clip");
const QString kConsiderEndpoints = QStringLiteral("consider_endpoints");
const QString kMultivariate = QStringLiteral("multivariate");
const QString kConstantLiar = QStringLiteral("constant_liar");

// Optuna's default_gamma never models more than this many trials as good.
constexpr std::size_t kMaxGood = 25;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

bool isCategorical(DomainKind kind) {
    return kind == DomainKind::Choice || kind == DomainKind::Grid;
}

// A group option of a choice matches an observed mapping when every key names one of its
// parameters, every unconditional parameter is there, and every constant has its value, so
// options told apart by a constant (`type: cnn`) or by their keys are read back correctly.
bool groupMatches(const SearchSpace& group, const QJsonObject& object) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        const bool known =
            std::any_of(group.parameters.begin(), group.parameters.end(),
                        [&it](const Parameter& parameter) { return parameter.name == it.key(); });
        if (!known) {
            return false;
        }
    }
    for (const Parameter& parameter : group.parameters) {
        const auto it = object.constFind(parameter.name);
        if (it == object.constEnd()) {
            if (!parameter.when) {
                return false;
            }
        } else if (parameter.kind == Parameter::Kind::Constant &&
                   it.value() != parameter.constant) {
            return false;
        }
    }
    return true;
}

}  // namespace

QStringList tpeOptionNames() {
    return {kNStartupTrials,    kNEiCandidates,     kGamma,
            kWeights,           kPriorWeight,       kConsiderPrior,
            kConsiderMagicClip, kConsiderEndpoints, kMultivariate,
            kConstantLiar};
}

Status validateTpeOptions(const ExperimentSpec& spec, QString* badKey) {
    const QJsonObject& options = spec.search.options;
    for (const QString& key :
         {kConsiderPrior, kConsiderMagicClip, kConsiderEndpoints, kMultivariate, kConstantLiar}) {
        if (options.contains(key) && !options.value(key).isBool()) {
            return optionError(badKey, key, QStringLiteral("must be true or false"),
                               options.value(key));
        }
    }
    if (options.contains(kNStartupTrials) &&
        !isWholeNumber(options.value(kNStartupTrials), 0, kLargestCount)) {
        return optionError(badKey, kNStartupTrials, QStringLiteral("must be a whole number >= 0"),
                           options.value(kNStartupTrials));
    }
    if (options.contains(kNEiCandidates) &&
        !isWholeNumber(options.value(kNEiCandidates), 1, kLargestCount)) {
        return optionError(badKey, kNEiCandidates, QStringLiteral("must be a whole number >= 1"),
                           options.value(kNEiCandidates));
    }
    if (options.contains(kGamma) && !isNumberIn(options.value(kGamma), 0, 1, true)) {
        return optionError(badKey, kGamma,
                           QStringLiteral("must be a number in (0, 1], the fraction of finished "
                                          "trials modelled as good"),
                           options.value(kGamma));
    }
    if (options.contains(kPriorWeight) &&
        !isNumberIn(options.value(kPriorWeight), 0, kUnbounded, true)) {
        return optionError(badKey, kPriorWeight, QStringLiteral("must be a number > 0"),
                           options.value(kPriorWeight));
    }
    if (options.contains(kWeights)) {
        const QString weights = options.value(kWeights).toString();
        if (weights != QLatin1String("default") && weights != QLatin1String("flat")) {
            return optionError(badKey, kWeights,
                               QStringLiteral("must be 'default' (Optuna's: older trials beyond "
                                              "the newest 25 weigh less) or 'flat'"),
                               options.value(kWeights));
        }
    }
    if (spec.objectives.empty() && spec.metric.isEmpty()) {
        return keyError(
            badKey, QStringLiteral("metric"),
            QStringLiteral("search algorithm 'tpe' needs a metric: set the experiment's `metric`"));
    }
    return Status::ok();
}

std::unique_ptr<Searcher> makeTpeSearcher(const ExperimentSpec& spec) {
    return std::make_unique<TpeSearcher>(spec);
}

TpeOptions TpeOptions::fromSpec(const ExperimentSpec& spec) {
    const QJsonObject& o = spec.search.options;
    TpeOptions options;
    options.nStartupTrials = o.value(kNStartupTrials).toInt(options.nStartupTrials);
    options.nEiCandidates = o.value(kNEiCandidates).toInt(options.nEiCandidates);
    options.gamma = o.value(kGamma).toDouble(options.gamma);
    options.flatWeights = o.value(kWeights).toString() == QLatin1String("flat");
    options.constantLiar = o.value(kConstantLiar).toBool(options.constantLiar);
    tpe::EstimatorOptions& e = options.estimator;
    e.priorWeight = o.value(kPriorWeight).toDouble(e.priorWeight);
    e.considerPrior = o.value(kConsiderPrior).toBool(e.considerPrior);
    e.considerMagicClip = o.value(kConsiderMagicClip).toBool(e.considerMagicClip);
    e.considerEndpoints = o.value(kConsiderEndpoints).toBool(e.considerEndpoints);
    e.multivariate = o.value(kMultivariate).toBool(e.multivariate);
    return options;
}

std::size_t tpeGoodCount(const TpeOptions& options, std::size_t n) {
    // Computed as Optuna does (ceil of a double product), so the counts agree exactly.
    const auto count = static_cast<std::size_t>(std::ceil(options.gamma * static_cast<double>(n)));
    return std::min({count, kMaxGood, n});
}

std::vector<std::size_t> tpeBestFirst(const std::vector<std::vector<double>>& losses) {
    if (!losses.empty() && losses.front().size() > 1) {
        return pareto::rankOrder(losses);
    }
    std::vector<std::size_t> order(losses.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&losses](std::size_t a, std::size_t b) {
        return losses[a].front() < losses[b].front();
    });
    return order;
}

TpeSearcher::TpeSearcher(const ExperimentSpec& spec)
    : ModelSearcher(spec, QStringLiteral("tpe")), options_(TpeOptions::fromSpec(spec)) {
    // Nodes point into the base's copy of the space, which lives as long as this object.
    addNodes(space(), QString());
    observed_.resize(nodes_.size());
    sorted_.resize(nodes_.size());
    present_.assign(nodes_.size(), 0);
    joint_.resize(nodes_.size());
    gridSize_ = space().gridSize();
}

void TpeSearcher::addNodes(const SearchSpace& group, const QString& prefix) {
    for (const Parameter& parameter : group.parameters) {
        const QString path = joinPath(prefix, parameter.name);
        if (parameter.kind == Parameter::Kind::Group && parameter.group) {
            addNodes(*parameter.group, path);
        }
        if (parameter.kind != Parameter::Kind::Sampled) {
            continue;
        }
        const Domain& domain = parameter.domain;
        Node node{&parameter, path, tpe::axisOf(domain), std::nullopt};
        if (isCategorical(domain.kind)) {
            if (domain.options.size() == 1) {
                node.single = 0;
            }
        } else if (auto values = domain.finiteValues(1); values && values->size() == 1) {
            node.single = values->at(0).toDouble();
        }
        nodeOf_[&parameter] = nodes_.size();
        nodes_.push_back(std::move(node));
        for (const DomainOption& option : domain.options) {
            if (option.group) {
                addNodes(*option.group, path);
            }
        }
    }
}

Status TpeSearcher::restoreModelState(const QJsonObject& state) {
    (void)state;
    // The observations were replaced: read them again at the next proposal.
    for (auto& column : observed_) {
        column.clear();
    }
    for (auto& sorted : sorted_) {
        sorted.clear();
    }
    std::fill(present_.begin(), present_.end(), 0);
    synced_ = 0;
    return Status::ok();
}

void TpeSearcher::syncObservations() {
    const std::vector<Observation>& all = observations();
    if (synced_ > all.size()) {
        restoreModelState({});
    }
    for (; synced_ < all.size(); ++synced_) {
        rowValues_.assign(nodes_.size(), kNaN);
        extract(space(), QString(), all[synced_].config, rowValues_);
        for (std::size_t node = 0; node < nodes_.size(); ++node) {
            const double value = rowValues_[node];
            observed_[node].push_back(value);
            if (std::isnan(value)) {
                continue;
            }
            ++present_[node];
            // Newest last among equal values, as a stable sort by value would put it.
            auto& sorted = sorted_[node];
            const auto at =
                std::upper_bound(sorted.begin(), sorted.end(), value,
                                 [](double v, const std::pair<double, std::size_t>& entry) {
                                     return v < entry.first;
                                 });
            sorted.insert(at, {value, synced_});
        }
    }
}

void TpeSearcher::extract(const SearchSpace& group, const QString& prefix,
                          const QJsonObject& config, std::vector<double>& values) const {
    for (const Parameter& parameter : group.parameters) {
        const QString path = joinPath(prefix, parameter.name);
        if (parameter.kind == Parameter::Kind::Group && parameter.group) {
            extract(*parameter.group, path, config, values);
            continue;
        }
        if (parameter.kind != Parameter::Kind::Sampled) {
            continue;
        }
        const std::size_t index = nodeOf_.at(&parameter);
        const QJsonValue value = valueAtPath(config, path);
        if (value.isUndefined()) {
            continue;
        }
        const Domain& domain = parameter.domain;
        if (!isCategorical(domain.kind)) {
            if (value.isDouble() && std::isfinite(value.toDouble())) {
                values[index] =
                    tpe::toModel(parameter.domain, nodes_[index].axis, value.toDouble());
            }
            continue;
        }
        const std::optional<int> option = optionOf(domain, value);
        if (!option) {
            continue;
        }
        values[index] = *option;
        if (const auto& inner = domain.options[static_cast<std::size_t>(*option)].group) {
            extract(*inner, path, config, values);
        }
    }
}

std::optional<int> TpeSearcher::optionOf(const Domain& domain, const QJsonValue& value) const {
    for (std::size_t i = 0; i < domain.options.size(); ++i) {
        if (!domain.options[i].group && domain.options[i].value == value) {
            return static_cast<int>(i);
        }
    }
    if (value.isObject()) {
        for (std::size_t i = 0; i < domain.options.size(); ++i) {
            if (domain.options[i].group &&
                groupMatches(*domain.options[i].group, value.toObject())) {
                return static_cast<int>(i);
            }
        }
    }
    return std::nullopt;
}

QJsonValue TpeSearcher::jsonValue(const Node& node, double value) const {
    const Domain& d = node.parameter->domain;
    if (isIntegerDomain(d.kind)) {
        return QJsonValue(static_cast<qint64>(value));
    }
    if (isCategorical(d.kind)) {
        return d.options[static_cast<std::size_t>(value)].value;
    }
    return value;
}

void TpeSearcher::fillWeights(std::size_t n, std::vector<double>& out) const {
    if (options_.flatWeights) {
        out.assign(n, 1.0);
    } else {
        tpe::defaultWeights(n, out);
    }
}

void TpeSearcher::splitObservations(const QString& trialId) {
    const std::vector<Observation>& all = observations();
    const std::size_t n = all.size();
    const std::size_t good = tpeGoodCount(options_, n);
    good_.assign(n, 0);
    if (n > 0 && all.front().losses.size() > 1) {
        std::vector<std::vector<double>> losses;
        losses.reserve(n);
        for (const Observation& observation : all) {
            losses.push_back(observation.losses);
        }
        const std::vector<std::size_t> order = tpeBestFirst(losses);
        for (std::size_t i = 0; i < good; ++i) {
            good_[order[i]] = 1;
        }
    } else {
        // Only which trials are good matters, not their order: a partial selection, with ties
        // going to the earlier trial as Optuna's stable sort does.
        order_.resize(n);
        std::iota(order_.begin(), order_.end(), std::size_t{0});
        std::nth_element(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(good),
                         order_.end(), [&all](std::size_t a, std::size_t b) {
                             const double la = all[a].losses.front();
                             const double lb = all[b].losses.front();
                             return la < lb || (la == lb && a < b);
                         });
        for (std::size_t i = 0; i < good; ++i) {
            good_[order_[i]] = 1;
        }
    }

    // The constant liar: configs still running count as bad, so the next proposal goes
    // elsewhere instead of where a trial is already looking.
    runningCount_ = 0;
    runningValues_.clear();
    if (!options_.constantLiar) {
        return;
    }
    for (const auto& [id, config] : running()) {
        if (id == trialId) {
            continue;
        }
        rowValues_.assign(nodes_.size(), kNaN);
        extract(space(), QString(), config, rowValues_);
        runningValues_.insert(runningValues_.end(), rowValues_.begin(), rowValues_.end());
        ++runningCount_;
    }
}

double TpeSearcher::proposeOne(std::size_t index, Rng& rng) {
    const Node& node = nodes_[index];
    if (node.single) {
        return *node.single;
    }
    const std::vector<double>& column = observed_[index];
    goodPoints_.clear();
    badPoints_.clear();
    positions_.resize(column.size());
    for (std::size_t i = 0; i < column.size(); ++i) {
        if (!std::isnan(column[i])) {
            std::vector<double>& points = good_[i] ? goodPoints_ : badPoints_;
            positions_[i] = points.size();
            points.push_back(column[i]);
        }
    }
    // The column is kept sorted, so the estimators need not sort their values again.
    goodOrder_.clear();
    badOrder_.clear();
    for (const auto& [value, i] : sorted_[index]) {
        (good_[i] ? goodOrder_ : badOrder_).push_back(positions_[i]);
    }
    for (std::size_t r = 0; r < runningCount_; ++r) {
        const double value = runningValues_[r * nodes_.size() + index];
        if (std::isnan(value)) {
            continue;
        }
        const auto at = std::upper_bound(
            badOrder_.begin(), badOrder_.end(), value,
            [this](double v, std::size_t position) { return v < badPoints_[position]; });
        badOrder_.insert(at, badPoints_.size());
        badPoints_.push_back(value);
    }
    fillWeights(goodPoints_.size(), goodWeights_);
    fillWeights(badPoints_.size(), badWeights_);
    const std::span<const tpe::Axis> axis(&node.axis, 1);
    goodModel_.fit(axis, goodPoints_, goodPoints_.size(), goodWeights_, options_.estimator,
                   goodOrder_);
    badModel_.fit(axis, badPoints_, badPoints_.size(), badWeights_, options_.estimator, badOrder_);

    double best = -std::numeric_limits<double>::infinity();
    double bestValue = kNaN;
    // Draws of a discrete parameter repeat values; each is scored once.
    const bool repeats = node.axis.kind != tpe::Axis::Kind::Continuous;
    scored_.clear();
    for (int c = 0; c < options_.nEiCandidates; ++c) {
        double draw = 0;
        goodModel_.sample(rng, std::span<double>(&draw, 1));
        const double value = tpe::fromDraw(node.parameter->domain, draw);
        const double model = tpe::toModel(node.parameter->domain, node.axis, value);
        const auto seen = std::find_if(scored_.begin(), scored_.end(),
                                       [model](const auto& entry) { return entry.first == model; });
        double score;
        if (repeats && seen != scored_.end()) {
            score = seen->second;
        } else {
            const std::span<const double> point(&model, 1);
            score = goodModel_.logPdf(point) - badModel_.logPdf(point);
            if (repeats) {
                scored_.emplace_back(model, score);
            }
        }
        if (std::isnan(bestValue) || score > best) {
            best = score;
            bestValue = value;
        }
    }
    return bestValue;
}

Status TpeSearcher::proposeParameter(const QString& trialId, const QString& name,
                                     const SuggestedDistribution& distribution, Rng& rng,
                                     QJsonValue* value) {
    // The finished trials that asked for `name`, in finishing order (Optuna's observation pairs
    // of the parameter); its startup trials are counted among them, as Optuna counts.
    std::vector<double> points;
    std::vector<std::vector<double>> losses;
    for (const Observation& observation : observations()) {
        if (const auto model = distribution.toModel(observation.config.value(name))) {
            points.push_back(*model);
            losses.push_back(observation.losses);
        }
    }
    if (points.size() < std::size_t(std::max(0, options_.nStartupTrials)) || points.empty()) {
        *value = distribution.sample(rng);
        return Status::ok();
    }
    const std::vector<std::size_t> order = tpeBestFirst(losses);
    std::vector<char> good(points.size(), 0);
    const std::size_t goodCount = tpeGoodCount(options_, points.size());
    for (std::size_t i = 0; i < goodCount && i < order.size(); ++i) {
        good[order[i]] = 1;
    }
    goodPoints_.clear();
    badPoints_.clear();
    for (std::size_t i = 0; i < points.size(); ++i) {
        (good[i] ? goodPoints_ : badPoints_).push_back(points[i]);
    }
    if (options_.constantLiar) {  // the other running trials that have it count as bad, newest
        for (const auto& [runningId, config] : running()) {
            if (runningId == trialId) {
                continue;
            }
            if (const auto model = distribution.toModel(config.value(name))) {
                badPoints_.push_back(*model);
            }
        }
    }
    fillWeights(goodPoints_.size(), goodWeights_);
    fillWeights(badPoints_.size(), badWeights_);
    const tpe::Axis axis = distribution.axis();
    const std::span<const tpe::Axis> axes(&axis, 1);
    goodModel_.fit(axes, goodPoints_, goodPoints_.size(), goodWeights_, options_.estimator);
    badModel_.fit(axes, badPoints_, badPoints_.size(), badWeights_, options_.estimator);
    double best = -std::numeric_limits<double>::infinity();
    QJsonValue bestValue;
    for (int c = 0; c < std::max(1, options_.nEiCandidates); ++c) {
        double draw = 0;
        goodModel_.sample(rng, std::span<double>(&draw, 1));
        const QJsonValue candidate = distribution.fromModel(draw);
        const double model = distribution.toModel(candidate).value_or(draw);
        const std::span<const double> point(&model, 1);
        const double score = goodModel_.logPdf(point) - badModel_.logPdf(point);
        if (bestValue.isUndefined() || score > best) {
            best = score;
            bestValue = candidate;
        }
    }
    *value = bestValue;
    return Status::ok();
}

void TpeSearcher::proposeJointly(Rng& rng) {
    std::fill(joint_.begin(), joint_.end(), std::nullopt);
    const std::size_t n = observations().size();
    if (!options_.estimator.multivariate || n == 0) {
        return;
    }
    // Optuna's intersection search space: the parameters every finished trial has.
    jointNodes_.clear();
    axes_.clear();
    for (std::size_t node = 0; node < nodes_.size(); ++node) {
        if (!nodes_[node].single && present_[node] == n) {
            jointNodes_.push_back(node);
            axes_.push_back(nodes_[node].axis);
        }
    }
    if (jointNodes_.empty()) {
        return;
    }
    const std::size_t d = jointNodes_.size();
    goodPoints_.clear();
    badPoints_.clear();
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<double>& points = good_[i] ? goodPoints_ : badPoints_;
        for (std::size_t node : jointNodes_) {
            points.push_back(observed_[node][i]);
        }
    }
    for (std::size_t r = 0; r < runningCount_; ++r) {
        const double* row = runningValues_.data() + r * nodes_.size();
        if (std::none_of(jointNodes_.begin(), jointNodes_.end(),
                         [row](std::size_t node) { return std::isnan(row[node]); })) {
            for (std::size_t node : jointNodes_) {
                badPoints_.push_back(row[node]);
            }
        }
    }
    const std::size_t goodCount = goodPoints_.size() / d;
    const std::size_t badCount = badPoints_.size() / d;
    fillWeights(goodCount, goodWeights_);
    fillWeights(badCount, badWeights_);
    goodModel_.fit(axes_, goodPoints_, goodCount, goodWeights_, options_.estimator);
    badModel_.fit(axes_, badPoints_, badCount, badWeights_, options_.estimator);

    draw_.resize(d);
    candidate_.resize(d);
    drawValues_.resize(d);
    jointBest_.assign(d, kNaN);
    double best = -std::numeric_limits<double>::infinity();
    for (int c = 0; c < options_.nEiCandidates; ++c) {
        goodModel_.sample(rng, draw_);
        for (std::size_t j = 0; j < d; ++j) {
            const Node& node = nodes_[jointNodes_[j]];
            drawValues_[j] = tpe::fromDraw(node.parameter->domain, draw_[j]);
            candidate_[j] = tpe::toModel(node.parameter->domain, node.axis, drawValues_[j]);
        }
        const double score = goodModel_.logPdf(candidate_) - badModel_.logPdf(candidate_);
        if (c == 0 || score > best) {
            best = score;
            jointBest_ = drawValues_;
        }
    }
    for (std::size_t j = 0; j < d; ++j) {
        joint_[jointNodes_[j]] = jointBest_[j];
    }
}

Suggestion TpeSearcher::propose(const QString& trialId, Rng& rng) {
    if (observations().size() < static_cast<std::size_t>(options_.nStartupTrials)) {
        // Grid parameters are categoricals here, so the random phase spreads them too.
        const std::int64_t gridIndex = gridSize_ > 1 ? rng.integer(0, gridSize_) : 0;
        return Suggestion::of(space().sample(rng, gridIndex));
    }
    syncObservations();
    splitObservations(trialId);
    proposeJointly(rng);
    QJsonObject config;
    std::vector<GroupFrame> frames;
    walk(space(), QString(), frames, rng, config);
    return Suggestion::of(config);
}

// As SearchSpace::sample's walk: the same `when` checks in the same order, so the config has
// the same keys; each sampled value comes from the model instead of the domain.
void TpeSearcher::walk(const SearchSpace& group, const QString& prefix,
                       std::vector<GroupFrame>& frames, Rng& rng, QJsonObject& config) {
    frames.push_back({&group, prefix, 0});
    for (std::size_t i = 0; i < group.parameters.size(); ++i) {
        frames.back().index = i;
        const Parameter& parameter = group.parameters[i];
        const QString path = joinPath(prefix, parameter.name);
        if (parameter.when) {
            const QJsonValue decider =
                valueAtPath(config, resolveConditionPath(frames, parameter.when->path));
            if (decider.isUndefined() || !parameter.when->values.contains(decider)) {
                continue;
            }
        }
        switch (parameter.kind) {
            case Parameter::Kind::Constant:
                setValueAtPath(config, path, parameter.constant);
                break;
            case Parameter::Kind::Group:
                setValueAtPath(config, path, QJsonObject());
                if (parameter.group) {
                    walk(*parameter.group, path, frames, rng, config);
                }
                break;
            case Parameter::Kind::Sampled: {
                const Domain& domain = parameter.domain;
                if (isCategorical(domain.kind) && domain.options.empty()) {
                    break;
                }
                const std::size_t node = nodeOf_.at(&parameter);
                const double value = joint_[node] ? *joint_[node] : proposeOne(node, rng);
                if (!isCategorical(domain.kind)) {
                    setValueAtPath(config, path, jsonValue(nodes_[node], value));
                    break;
                }
                const DomainOption& option = domain.options[static_cast<std::size_t>(value)];
                if (option.group) {
                    setValueAtPath(config, path, QJsonObject());
                    walk(*option.group, path, frames, rng, config);
                } else {
                    setValueAtPath(config, path, option.value);
                }
                break;
            }
        }
    }
    frames.pop_back();
}

}  // namespace tunedeck
