#include "core/bohb_searcher.h"

#include <QJsonArray>
#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "core/hyperband_scheduler.h"
#include "core/search_options.h"
#include "core/search_space.h"

namespace tunedeck {

using namespace search_options;

namespace {

const QString kMinPointsInModel = QStringLiteral("min_points_in_model");
const QString kTopNPercent = QStringLiteral("top_n_percent");
const QString kNumSamples = QStringLiteral("num_samples");
const QString kRandomFraction = QStringLiteral("random_fraction");
const QString kBandwidthFactor = QStringLiteral("bandwidth_factor");
const QString kMinBandwidth = QStringLiteral("min_bandwidth");

// HpBandSter's floor on both densities, so the ratio stays finite where either vanishes.
constexpr double kDensityFloor = 1e-32;
// Candidates per proposal past this only cost time; a larger number is a typo.
constexpr double kMostSamples = 1e6;
// Rejection draws of a truncated normal before falling back to its centre; the truncation to
// [0, 1] keeps at least a quarter of the mass for any bandwidth BOHB produces.
constexpr int kTruncatedNormalTries = 64;

const double kSqrt2Pi = std::sqrt(2.0 * 3.14159265358979323846);

// A product-kernel density over the modelled coordinates (statsmodels' KDEMultivariate):
// Gaussian kernels for unit-cube coordinates, Aitchison-Aitken kernels for categoricals.
struct Kde {
    std::vector<std::vector<double>> data;
    std::vector<double> bandwidth;
    std::vector<int> levels;  // per coordinate: 0 for numeric, else the number of levels

    double pdf(const std::vector<double>& x) const {
        double scale = 1.0;
        for (std::size_t j = 0; j < levels.size(); ++j) {
            if (levels[j] == 0) {
                scale *= bandwidth[j];
            }
        }
        double total = 0;
        for (const std::vector<double>& row : data) {
            double k = 1.0;
            for (std::size_t j = 0; j < levels.size(); ++j) {
                if (levels[j] == 0) {
                    const double z = (x[j] - row[j]) / bandwidth[j];
                    k *= std::exp(-0.5 * z * z) / kSqrt2Pi;
                } else if (levels[j] > 1) {
                    const double lambda = bandwidth[j];
                    k *= x[j] == row[j] ? 1.0 - lambda : lambda / (levels[j] - 1);
                }
            }
            total += k;
        }
        return total / scale / static_cast<double>(data.size());
    }
};

Kde fitKde(std::vector<std::vector<double>> data, const std::vector<int>& levels,
           double minBandwidth) {
    Kde kde;
    kde.levels = levels;
    const auto n = static_cast<double>(data.size());
    const auto d = static_cast<double>(levels.size());
    // statsmodels' normal_reference rule (np.std, so ddof 0), for categoricals too (on their
    // level indices).
    const double shrink = 1.06 * std::pow(n, -1.0 / (4.0 + d));
    for (std::size_t j = 0; j < levels.size(); ++j) {
        double mean = 0;
        for (const auto& row : data) {
            mean += row[j];
        }
        mean /= n;
        double squares = 0;
        for (const auto& row : data) {
            squares += (row[j] - mean) * (row[j] - mean);
        }
        double bw = std::max(shrink * std::sqrt(squares / n), minBandwidth);
        if (levels[j] > 0) {
            bw = std::min(bw, 1.0);  // statsmodels bounds a categorical's lambda by 1
        }
        kde.bandwidth.push_back(bw);
    }
    kde.data = std::move(data);
    return kde;
}

// Unconditional choice and grid parameters whose options are plain values, in the order
// written (groups entered as UnitCube enters them).
template <typename Categorical>
void collectCategoricals(const SearchSpace& space, const QString& prefix,
                         std::vector<Categorical>* out) {
    for (const Parameter& parameter : space.parameters) {
        const QString path = joinPath(prefix, parameter.name);
        if (parameter.when) {
            continue;
        }
        if (parameter.kind == Parameter::Kind::Group && parameter.group) {
            collectCategoricals(*parameter.group, path, out);
            continue;
        }
        const Domain& domain = parameter.domain;
        if (parameter.kind != Parameter::Kind::Sampled ||
            (domain.kind != DomainKind::Choice && domain.kind != DomainKind::Grid) ||
            domain.options.empty()) {
            continue;
        }
        const bool plain = std::none_of(domain.options.begin(), domain.options.end(),
                                        [](const DomainOption& o) { return bool(o.group); });
        if (plain) {
            Categorical categorical{path, {}};
            for (const DomainOption& option : domain.options) {
                categorical.levels.push_back(option.value);
            }
            out->push_back(std::move(categorical));
        }
    }
}

}  // namespace

struct BohbSearcher::Model {
    Kde good;
    Kde bad;
};

QStringList bohbOptionNames() {
    return {kMinPointsInModel, kTopNPercent,     kNumSamples,
            kRandomFraction,   kBandwidthFactor, kMinBandwidth};
}

Status validateBohbOptions(const ExperimentSpec& spec, QString* badKey) {
    const QJsonObject& options = spec.search.options;
    if (isSet(options, kMinPointsInModel) &&
        !isWholeNumber(options.value(kMinPointsInModel), 1, kMostSamples)) {
        return optionError(badKey, kMinPointsInModel, QStringLiteral("must be a whole number >= 1"),
                           options.value(kMinPointsInModel));
    }
    if (options.contains(kTopNPercent) &&
        !isNumberIn(options.value(kTopNPercent), 0, 100, true, true)) {
        return optionError(badKey, kTopNPercent,
                           QStringLiteral("must be a number between 0 and 100, the per cent of "
                                          "observations modelled as good"),
                           options.value(kTopNPercent));
    }
    if (options.contains(kNumSamples) &&
        !isWholeNumber(options.value(kNumSamples), 1, kMostSamples)) {
        return optionError(badKey, kNumSamples,
                           QStringLiteral("must be a whole number >= 1, the candidates drawn "
                                          "per proposal"),
                           options.value(kNumSamples));
    }
    if (options.contains(kRandomFraction) && !isNumberIn(options.value(kRandomFraction), 0, 1)) {
        return optionError(badKey, kRandomFraction, QStringLiteral("must be a number in [0, 1]"),
                           options.value(kRandomFraction));
    }
    for (const QString& key : {kBandwidthFactor, kMinBandwidth}) {
        if (options.contains(key) && !isNumberIn(options.value(key), 0, kMostSamples, true)) {
            return optionError(badKey, key, QStringLiteral("must be a number > 0"),
                               options.value(key));
        }
    }
    if (spec.isMultiObjective()) {
        return keyError(badKey, QStringLiteral("metric"),
                        QStringLiteral("bohb optimises one metric, and this experiment has %1; use "
                                       "tpe or random for several objectives")
                            .arg(spec.objectives.size()));
    }
    if (spec.metric.isEmpty() && (spec.objectives.empty() || spec.objectives[0].metric.isEmpty())) {
        return keyError(
            badKey, QStringLiteral("metric"),
            QStringLiteral(
                "search algorithm 'bohb' needs a metric: set the experiment's `metric`"));
    }
    if (spec.scheduler.name != QLatin1String("hyperband")) {
        return keyError(badKey, QStringLiteral("search.algorithm"),
                        QStringLiteral("bohb needs the hyperband scheduler (scheduler: {type: "
                                       "hyperband})"));
    }
    return Status::ok();
}

std::unique_ptr<Searcher> makeBohbSearcher(const ExperimentSpec& spec) {
    const QJsonObject& options = spec.search.options;
    BohbSearcher::Options o;
    const QJsonValue minPoints = options.value(kMinPointsInModel);
    if (minPoints.isDouble()) {
        o.minPointsInModel = minPoints.toInt();
    }
    o.topNPercent = options.value(kTopNPercent).toDouble(o.topNPercent);
    o.numSamples = options.value(kNumSamples).toInt(o.numSamples);
    o.randomFraction = options.value(kRandomFraction).toDouble(o.randomFraction);
    o.bandwidthFactor = options.value(kBandwidthFactor).toDouble(o.bandwidthFactor);
    o.minBandwidth = options.value(kMinBandwidth).toDouble(o.minBandwidth);
    return std::make_unique<BohbSearcher>(spec, o);
}

BohbSearcher::BohbSearcher(const ExperimentSpec& spec, Options options)
    : ModelSearcher(spec, QStringLiteral("bohb")),
      options_(options),
      cube_(spec.searchSpace),
      budgets_(hyperbandBudgets(spec)) {
    collectCategoricals(spec.searchSpace, QString(), &categoricals_);
    setCurveAttribute(
        spec.scheduler.options.value(QStringLiteral("time_attr")).toString("training_iteration"));
    // HpBandSter raises a smaller min_points_in_model to d + 1: with fewer points than
    // dimensions the bandwidths are degenerate.
    const int d = modelledParameters();
    minPoints_ = std::max(d + 1, options_.minPointsInModel.value_or(d + 1));
}

std::optional<std::vector<double>> BohbSearcher::encode(const QJsonObject& config) const {
    const auto unit = cube_.encode(config);
    if (!unit) {
        return std::nullopt;
    }
    std::vector<double> point(unit->data(), unit->data() + unit->size());
    for (const Categorical& categorical : categoricals_) {
        const QJsonValue value = valueAtPath(config, categorical.path);
        const auto at = std::find(categorical.levels.begin(), categorical.levels.end(), value);
        if (at == categorical.levels.end()) {
            return std::nullopt;
        }
        point.push_back(static_cast<double>(at - categorical.levels.begin()));
    }
    return point;
}

QJsonObject BohbSearcher::decode(const std::vector<double>& point) const {
    const int dims = cube_.dimensions();
    Eigen::VectorXd unit(dims);
    for (int i = 0; i < dims; ++i) {
        unit[i] = point[static_cast<std::size_t>(i)];
    }
    QJsonObject fixed = cube_.decode(unit);
    for (std::size_t c = 0; c < categoricals_.size(); ++c) {
        const auto level = static_cast<std::size_t>(point[static_cast<std::size_t>(dims) + c]);
        setValueAtPath(fixed, categoricals_[c].path, categoricals_[c].levels[level]);
    }
    return fixed;
}

std::vector<std::vector<BohbSearcher::Sample>> BohbSearcher::samplesByBudget() const {
    std::map<QString, const QJsonObject*> configs;
    for (const auto& [trialId, config] : running()) {
        configs[trialId] = &config;
    }
    for (const auto* list : {&observations(), &failed()}) {
        for (const Observation& observation : *list) {
            configs[observation.trialId] = &observation.config;
        }
    }
    std::vector<std::vector<Sample>> byBudget(budgets_.size());
    for (const auto& [trialId, curve] : curves()) {
        const auto config = configs.find(trialId);
        if (config == configs.end() || curve.empty()) {
            continue;
        }
        const auto point = encode(*config->second);
        if (!point) {
            continue;
        }
        // Curves increase in time (ModelSearcher keeps them so): the result that reached a
        // budget is the first at or past it.
        auto from = curve.begin();
        for (std::size_t b = 0; b < budgets_.size(); ++b) {
            from = std::lower_bound(from, curve.end(), budgets_[b],
                                    [](const auto& p, double budget) { return p.first < budget; });
            if (from == curve.end()) {
                break;
            }
            byBudget[b].push_back({*point, from->second});
        }
    }
    return byBudget;
}

std::optional<BohbSearcher::Model> BohbSearcher::fit(const std::vector<Sample>& samples) const {
    const std::size_t n = samples.size();
    const auto d = static_cast<std::size_t>(modelledParameters());
    if (n < static_cast<std::size_t>(minPoints_)) {
        return std::nullopt;
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return samples[a].loss < samples[b].loss;
    });
    const auto atLeast = static_cast<std::size_t>(minPoints_);
    const auto share = [&](double percent) {
        return static_cast<std::size_t>(std::floor(percent * static_cast<double>(n) / 100.0));
    };
    const std::size_t nGood = std::min(n, std::max(atLeast, share(options_.topNPercent)));
    const std::size_t nBad =
        std::min(n - nGood, std::max(atLeast, share(100.0 - options_.topNPercent)));
    if (nGood <= d || nBad <= d) {
        return std::nullopt;  // HpBandSter: each set needs more configs than dimensions
    }
    std::vector<int> levels(static_cast<std::size_t>(cube_.dimensions()), 0);
    for (const Categorical& categorical : categoricals_) {
        levels.push_back(static_cast<int>(categorical.levels.size()));
    }
    std::vector<std::vector<double>> good;
    std::vector<std::vector<double>> bad;
    for (std::size_t i = 0; i < nGood + nBad; ++i) {
        (i < nGood ? good : bad).push_back(samples[order[i]].point);
    }
    return Model{fitKde(std::move(good), levels, options_.minBandwidth),
                 fitKde(std::move(bad), levels, options_.minBandwidth)};
}

std::optional<BohbSearcher::Model> BohbSearcher::bestModel(double* budget) const {
    if (modelledParameters() == 0) {
        return std::nullopt;
    }
    const auto byBudget = samplesByBudget();
    for (std::size_t b = budgets_.size(); b-- > 0;) {
        if (auto model = fit(byBudget[b])) {
            if (budget) {
                *budget = budgets_[b];
            }
            return model;
        }
    }
    return std::nullopt;
}

std::optional<double> BohbSearcher::modelBudget() const {
    double budget = 0;
    if (!bestModel(&budget)) {
        return std::nullopt;
    }
    return budget;
}

QJsonObject BohbSearcher::randomConfig(Rng& rng) const {
    const std::int64_t gridSize = space().gridSize();
    return space().sample(rng, gridSize > 1 ? rng.integer(0, gridSize) : 0);
}

Suggestion BohbSearcher::propose(const QString& trialId, Rng& rng) {
    (void)trialId;
    if (rng.uniform01() < options_.randomFraction) {
        return Suggestion::of(randomConfig(rng));
    }
    const std::optional<Model> model = bestModel(nullptr);
    if (!model) {
        return Suggestion::of(randomConfig(rng));
    }
    const Kde& good = model->good;
    const std::size_t dims = good.levels.size();
    std::optional<std::vector<double>> best;
    double bestScore = std::numeric_limits<double>::infinity();
    std::vector<double> candidate(dims);
    for (int i = 0; i < options_.numSamples; ++i) {
        const auto& datum =
            good.data[static_cast<std::size_t>(rng.integer(0, std::int64_t(good.data.size())))];
        for (std::size_t j = 0; j < dims; ++j) {
            const double m = datum[j];
            double bw = std::max(good.bandwidth[j], options_.minBandwidth);
            if (good.levels[j] == 0) {
                bw *= options_.bandwidthFactor;
                double value = m;
                for (int t = 0; t < kTruncatedNormalTries; ++t) {
                    const double draw = rng.normal(m, bw);
                    if (draw >= 0.0 && draw <= 1.0) {
                        value = draw;
                        break;
                    }
                }
                candidate[j] = value;
            } else {
                candidate[j] = rng.uniform01() < 1.0 - bw
                                   ? m
                                   : static_cast<double>(rng.integer(0, good.levels[j]));
            }
        }
        const double score = std::max(kDensityFloor, model->bad.pdf(candidate)) /
                             std::max(good.pdf(candidate), kDensityFloor);
        if (std::isfinite(score) && score < bestScore) {
            bestScore = score;
            best = candidate;
        }
    }
    if (!best) {
        return Suggestion::of(randomConfig(rng));
    }
    return Suggestion::of(space().sample(rng, 0, decode(*best)));
}

}  // namespace tunedeck
