#include "core/searcher.h"

#include <QJsonArray>
#include <algorithm>
#include <limits>
#include <vector>

#include "core/algorithm_catalog.h"
#include "core/bayesopt_searcher.h"
#include "core/bohb_searcher.h"
#include "core/cmaes_searcher.h"
#include "core/rng.h"
#include "core/search_options.h"
#include "core/search_space.h"
#include "core/searcher_wrappers.h"
#include "core/tpe_searcher.h"
#include "core/warm_start.h"

namespace tunedeck {

namespace {

// An exhaustive grid past this many trials is a mistake in the space, not a plan; the bound
// also keeps every product of counts far from int64 overflow.
constexpr std::int64_t kMaxGridTrials = 1'000'000'000;
// num_samples: -1 gives the searcher this many: more than any time budget runs.
constexpr int kSamplesWithoutEnd = 1 << 30;
// More values than this in one grid axis is a q written too small.
constexpr std::int64_t kMaxValuesPerAxis = 1'000'000;

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

std::int64_t saturatingMul(std::int64_t a, std::int64_t b) {
    return (b != 0 && a > kInt64Max / b) ? kInt64Max : a * b;
}
std::int64_t saturatingAdd(std::int64_t a, std::int64_t b) {
    return a > kInt64Max - b ? kInt64Max : a + b;
}

struct Failure {
    QString key;
    QString message;
};

const Parameter* findParameter(const SearchSpace& space, const QString& name) {
    for (const auto& parameter : space.parameters) {
        if (parameter.name == name) {
            return &parameter;
        }
    }
    return nullptr;
}

// Every key of a point must name a parameter; inside a group, the point may go deeper.
std::optional<QString> checkPointKeys(const SearchSpace& space, const QJsonObject& point,
                                      const QString& prefix) {
    if (space.parameters.empty()) {
        return std::nullopt;  // define-by-run: the parameters the trials will ask for
    }
    for (auto it = point.begin(); it != point.end(); ++it) {
        const QString path = joinPath(prefix, it.key());
        const Parameter* parameter = findParameter(space, it.key());
        if (!parameter) {
            return QStringLiteral("sets '%1', which is not in the search space").arg(path);
        }
        if (parameter->kind == Parameter::Kind::Group && parameter->group) {
            if (!it.value().isObject()) {
                return QStringLiteral(
                           "sets '%1' to a plain value, but it is a group of "
                           "parameters (give a mapping)")
                    .arg(path);
            }
            if (auto problem = checkPointKeys(*parameter->group, it.value().toObject(), path)) {
                return problem;
            }
        }
    }
    return std::nullopt;
}

std::optional<Failure> checkPoints(const ExperimentSpec& spec) {
    const QString key = QStringLiteral("search.points_to_evaluate");
    const QJsonValue points = spec.search.options.value(QStringLiteral("points_to_evaluate"));
    if (points.isUndefined() || points.isNull()) {
        return std::nullopt;
    }
    if (!points.isArray()) {
        return Failure{key, QStringLiteral("points_to_evaluate must be a list of mappings, "
                                           "each a full or partial config")};
    }
    const QJsonArray list = points.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (!list[i].isObject()) {
            return Failure{key, QStringLiteral("points_to_evaluate: item %1 is not a mapping of "
                                               "parameter names to values")
                                    .arg(i + 1)};
        }
        if (auto problem = checkPointKeys(spec.searchSpace, list[i].toObject(), QString())) {
            return Failure{
                key, QStringLiteral("points_to_evaluate: item %1 %2").arg(i + 1).arg(*problem)};
        }
    }
    return std::nullopt;
}

// State is {"algorithm", "next", ...}; `next` is the index of the next trial to propose.
Status readNext(const QJsonObject& state, const QString& algorithm, std::int64_t total,
                std::int64_t* next) {
    if (state.value(QStringLiteral("algorithm")).toString() != algorithm) {
        return Status::invalid(
            QStringLiteral("searcher state is for '%1', not '%2'")
                .arg(state.value(QStringLiteral("algorithm")).toString(), algorithm));
    }
    const QJsonValue value = state.value(QStringLiteral("next"));
    const double asDouble = value.toDouble(-1);
    if (!value.isDouble() || asDouble < 0 || asDouble > static_cast<double>(total) ||
        static_cast<double>(value.toInteger()) != asDouble) {
        return Status::corruption(
            QStringLiteral("searcher state: 'next' must be a trial count between 0 and %1")
                .arg(total));
    }
    *next = value.toInteger();
    return Status::ok();
}

// A searcher whose trial `index` has a config that depends on nothing but the index (random and
// grid search): it proposes indices 0 .. total - 1 in order, and resuming only moves the count
// past the trials already made.
class IndexedSearcher : public Searcher {
  public:
    Suggestion suggest(const QString& trialId) final {
        (void)trialId;
        if (next_ >= total_) {
            return Suggestion::finished();
        }
        return Suggestion::of(configFor(next_++));
    }

    std::optional<std::int64_t> totalTrials() const final { return total_; }

    void onTrialRecovered(std::int64_t index, const QString& trialId,
                          const QJsonObject& config) final {
        (void)trialId;
        (void)config;
        next_ = std::clamp(index + 1, next_, total_);
    }

    Status restoreState(const QJsonObject& state) final {
        return readNext(state, algorithm_, total_, &next_);
    }

  protected:
    explicit IndexedSearcher(QString algorithm) : algorithm_(std::move(algorithm)) {}

    virtual QJsonObject configFor(std::int64_t index) const = 0;

    void setTotal(std::int64_t total) { total_ = total; }
    std::int64_t next() const { return next_; }
    // The state restoreState reads; a searcher may add its own keys.
    QJsonObject nextState() const {
        return {{QStringLiteral("algorithm"), algorithm_},
                {QStringLiteral("next"), QJsonValue(static_cast<qint64>(next_))}};
    }

  private:
    QString algorithm_;
    std::int64_t total_ = 0;
    std::int64_t next_ = 0;
};

// Ray's BasicVariantGenerator: grid parameters are swept in full for every one of num_samples
// repeats, everything else is drawn at random. Trial i draws from its own stream of the seed,
// so its config depends on nothing but (seed, i). points_to_evaluate come first, each counting
// as one of num_samples and sweeping the grid parameters it leaves open (Ray's _count_variants).
class RandomSearcher final : public IndexedSearcher {
  public:
    // Define-by-run: Optuna's RandomSampler, each value from its own stream.
    Status suggestParameter(std::int64_t index, const QString& trialId, const QJsonObject& config,
                            const QString& name, const SuggestedDistribution& distribution,
                            QJsonValue* value) override {
        (void)trialId;
        (void)config;
        Rng rng = parameterStream(seed_, index, name);
        *value = distribution.sample(rng);
        return Status::ok();
    }

    explicit RandomSearcher(const ExperimentSpec& spec)
        : IndexedSearcher(QStringLiteral("random")),
          space_(spec.searchSpace),
          seed_(spec.seed),
          gridSize_(space_.gridSize()) {
        const auto domains = space_.flatDomains();
        for (const QString& path : space_.gridPaths()) {
            for (const auto& [domainPath, domain] : domains) {
                if (domainPath == path) {
                    axes_.push_back({path, std::max<std::int64_t>(1, static_cast<std::int64_t>(
                                                                         domain->options.size()))});
                }
            }
        }
        const std::vector<QJsonObject> points = pointsToEvaluate(spec);
        for (const auto& point : points) {
            std::int64_t count = 1;
            for (const auto& axis : axes_) {
                if (valueAtPath(point, axis.path).isUndefined()) {
                    count = saturatingMul(count, axis.size);
                }
            }
            points_.push_back({point, count});
            pointTrials_ = saturatingAdd(pointTrials_, count);
        }
        const std::int64_t repeats =
            std::max<std::int64_t>(0, spec.numSamples - static_cast<std::int64_t>(points.size()));
        setTotal(saturatingAdd(pointTrials_, saturatingMul(repeats, gridSize_)));
    }

    QJsonObject saveState() const override {
        std::int64_t consumed = 0;
        std::int64_t start = 0;
        for (const auto& point : points_) {
            if (start < next()) {
                ++consumed;
            }
            start = saturatingAdd(start, point.trials);
        }
        QJsonObject state = nextState();
        state.insert(QStringLiteral("points_consumed"), QJsonValue(static_cast<qint64>(consumed)));
        return state;
    }

  private:
    struct Axis {
        QString path;
        std::int64_t size;
    };
    struct Point {
        QJsonObject values;
        std::int64_t trials;  // one per grid point the point leaves open
    };

    QJsonObject configFor(std::int64_t index) const override {
        Rng rng = Rng::forStream(seed_, static_cast<std::uint64_t>(index));
        std::int64_t local = index;
        for (const auto& point : points_) {
            if (local < point.trials) {
                return configOfPoint(space_, rng, gridIndexFor(point.values, local), point.values);
            }
            local -= point.trials;
        }
        return space_.sample(rng, local % gridSize_);
    }

    // The full grid index whose open axes spell `local` (first open axis slowest); axes the
    // point sets keep digit 0, their value comes from the point.
    std::int64_t gridIndexFor(const QJsonObject& point, std::int64_t local) const {
        std::int64_t index = 0;
        std::int64_t weight = 1;
        for (auto axis = axes_.rbegin(); axis != axes_.rend(); ++axis) {
            if (valueAtPath(point, axis->path).isUndefined()) {
                index += (local % axis->size) * weight;
                local /= axis->size;
            }
            weight = saturatingMul(weight, axis->size);
        }
        return index;
    }

    SearchSpace space_;
    std::uint64_t seed_;
    std::int64_t gridSize_;
    std::vector<Axis> axes_;
    std::vector<Point> points_;
    std::int64_t pointTrials_ = 0;
};

struct GridAxis {
    QString path;
    QJsonArray values;
};

// The axes of an exhaustive grid, in written order, or what stops the space from being one.
std::optional<Failure> planGrid(const SearchSpace& space, const QString& prefix,
                                std::vector<GridAxis>& axes) {
    for (const auto& parameter : space.parameters) {
        const QString path = joinPath(prefix, parameter.name);
        const QString key = QStringLiteral("search_space.") + path;
        auto fail = [&](const QString& message) {
            return Failure{key, QStringLiteral("grid search needs finite domains: ") + message};
        };
        if (parameter.when) {
            return Failure{key, QStringLiteral("grid search cannot expand conditional parameters: "
                                               "'%1' has a `when`; use random")
                                    .arg(path)};
        }
        if (parameter.kind == Parameter::Kind::Group && parameter.group) {
            if (auto failure = planGrid(*parameter.group, path, axes)) {
                return failure;
            }
        }
        if (parameter.kind != Parameter::Kind::Sampled) {
            continue;
        }
        const Domain& domain = parameter.domain;
        const QString kind = domainKindName(domain.kind);
        switch (domain.kind) {
            case DomainKind::Uniform:
            case DomainKind::LogUniform:
                return fail(
                    QStringLiteral("'%1' is %2; give it a q or use random").arg(path, kind));
            case DomainKind::Normal:
            case DomainKind::QNormal:
                return fail(QStringLiteral("'%1' is %2, which has no bounds; use a choice or "
                                           "random")
                                .arg(path, kind));
            case DomainKind::LogRandInt:
                return fail(QStringLiteral("'%1' is lograndint, meant to be spread in log space; "
                                           "use randint, a choice, or random")
                                .arg(path));
            case DomainKind::Choice:
            case DomainKind::Grid:
                for (const auto& option : domain.options) {
                    if (option.group) {
                        return Failure{key, QStringLiteral("grid search cannot expand '%1': its "
                                                           "options contain search domains; list "
                                                           "plain values or use random")
                                                .arg(path)};
                    }
                }
                break;
            default:
                break;
        }
        if (Status status = domain.validate(); !status.isOk()) {
            return Failure{key, QStringLiteral("'%1': %2").arg(path, status.message())};
        }
        auto values = domain.finiteValues(kMaxValuesPerAxis);
        if (!values) {
            return Failure{key, QStringLiteral("grid search: '%1' has more than %2 values; use a "
                                               "larger q or random")
                                    .arg(path)
                                    .arg(kMaxValuesPerAxis)};
        }
        axes.push_back({path, std::move(*values)});
    }
    return std::nullopt;
}

std::int64_t gridPoints(const std::vector<GridAxis>& axes) {
    std::int64_t points = 1;
    for (const auto& axis : axes) {
        points = saturatingMul(points, std::max<std::int64_t>(1, axis.values.size()));
    }
    return points;
}

// NNI's grid search tuner: every finite domain (grid, choice, randint, qrandint, quniform,
// qloguniform) is expanded, the first written varying slowest, and the whole product is
// repeated num_samples times. points_to_evaluate run before the grid, in addition to it.
class GridSearcher final : public IndexedSearcher {
  public:
    explicit GridSearcher(const ExperimentSpec& spec, std::vector<GridAxis> axes)
        : IndexedSearcher(QStringLiteral("grid")),
          space_(spec.searchSpace),
          seed_(spec.seed),
          axes_(std::move(axes)),
          known_(pointsToEvaluate(spec)),
          points_(gridPoints(axes_)) {
        setTotal(saturatingAdd(static_cast<std::int64_t>(known_.size()),
                               saturatingMul(std::max(0, spec.numSamples), points_)));
    }

    QJsonObject saveState() const override { return nextState(); }

  private:
    QJsonObject configFor(std::int64_t index) const override {
        if (index < static_cast<std::int64_t>(known_.size())) {
            Rng rng = Rng::forStream(seed_, static_cast<std::uint64_t>(index));
            return space_.sample(rng, 0, known_[size_t(index)]);
        }
        std::int64_t rest = (index - static_cast<std::int64_t>(known_.size())) % points_;
        QJsonObject point;
        for (auto axis = axes_.rbegin(); axis != axes_.rend(); ++axis) {
            const qsizetype count = std::max<qsizetype>(1, axis->values.size());
            setValueAtPath(point, axis->path,
                           axis->values.at(static_cast<qsizetype>(rest % count)));
            rest /= count;
        }
        // Constants fill in the rest; nothing is left to draw, but the stream keeps sample()
        // well-defined if the space ever holds something else.
        Rng rng = Rng::forStream(seed_, static_cast<std::uint64_t>(index));
        return space_.sample(rng, 0, point);
    }

    SearchSpace space_;
    std::uint64_t seed_;
    std::vector<GridAxis> axes_;
    std::vector<QJsonObject> known_;  // points_to_evaluate
    std::int64_t points_;
};

std::unique_ptr<Searcher> makeRandom(const ExperimentSpec& spec) {
    return std::make_unique<RandomSearcher>(spec);
}

Status validateGrid(const ExperimentSpec& spec, QString* badKey) {
    std::vector<GridAxis> axes;
    std::optional<Failure> failure = planGrid(spec.searchSpace, QString(), axes);
    if (!failure && saturatingMul(gridPoints(axes), spec.numSamples) > kMaxGridTrials) {
        failure = Failure{QStringLiteral("search.algorithm"),
                          QStringLiteral("grid search would run more than %1 trials; use random")
                              .arg(kMaxGridTrials)};
    }
    return failure ? search_options::keyError(badKey, failure->key, failure->message)
                   : Status::ok();
}

std::unique_ptr<Searcher> makeGrid(const ExperimentSpec& spec) {
    std::vector<GridAxis> axes;
    if (planGrid(spec.searchSpace, QString(), axes)) {
        return nullptr;
    }
    return std::make_unique<GridSearcher>(spec, std::move(axes));
}

struct SearcherType {
    QString name;
    QStringList options;  // its own keys of the `search:` mapping (see kCommonOptions)
    // Checks option values once the keys are known good (null: nothing to check).
    Status (*validateOptions)(const ExperimentSpec& spec, QString* badKey);
    std::unique_ptr<Searcher> (*make)(const ExperimentSpec& spec);
};

// Keys every algorithm takes: known-good configs first, and the two wrappers.
const QStringList& commonOptions() {
    static const QStringList options = {QStringLiteral("points_to_evaluate"),
                                        QStringLiteral("max_concurrent"), QStringLiteral("repeat")};
    return options;
}

// Keys the model-based searchers take besides their own: what they learn before the first trial.
QStringList modelOptions() {
    return {QStringLiteral("evaluated_rewards")};
}

// One line per algorithm; validation and the list in error messages follow from it.
const std::vector<SearcherType>& searcherTypes() {
    static const std::vector<SearcherType> types = {
        {QStringLiteral("random"), {}, nullptr, makeRandom},
        {QStringLiteral("grid"), {}, validateGrid, makeGrid},
        {QStringLiteral("tpe"), tpeOptionNames() + modelOptions(), validateTpeOptions,
         makeTpeSearcher},
        {QStringLiteral("bayesopt"), bayesoptOptionNames() + modelOptions(),
         validateBayesoptOptions, makeBayesoptSearcher},
        {QStringLiteral("cmaes"), cmaesOptionNames() + modelOptions(), validateCmaesOptions,
         makeCmaesSearcher},
        {QStringLiteral("bohb"), bohbOptionNames() + modelOptions(), validateBohbOptions,
         makeBohbSearcher},
    };
    return types;
}

// A whole number >= 1 at `search.<option>`, or unset.
Status checkCount(const ExperimentSpec& spec, const QString& option, QString* badKey) {
    using namespace search_options;
    if (isSet(spec.search.options, option) &&
        !isWholeNumber(spec.search.options.value(option), 1, kLargestCount)) {
        return keyError(badKey, QStringLiteral("search.") + option,
                        QStringLiteral("%1 must be a whole number >= 1").arg(option));
    }
    return Status::ok();
}

int countOption(const ExperimentSpec& spec, const QString& option) {
    return static_cast<int>(spec.search.options.value(option).toDouble(0));
}

}  // namespace

Status Searcher::suggestParameter(std::int64_t index, const QString& trialId,
                                  const QJsonObject& config, const QString& name,
                                  const SuggestedDistribution& distribution, QJsonValue* value) {
    (void)index;
    (void)trialId;
    (void)config;
    (void)name;
    (void)distribution;
    (void)value;
    return Status::invalid(QStringLiteral(
        "cannot answer define-by-run trial.suggest_* calls: it models a search space fixed "
        "before the trials start; use the search algorithm tpe, cmaes or random"));
}

QStringList knownSearchers() {
    return algorithmNames(searcherTypes());
}

QStringList searcherOptionNames(const QString& algorithm) {
    const SearcherType* type = findAlgorithm(searcherTypes(), algorithm);
    return type ? type->options + commonOptions() : QStringList();
}

Status validateSearcher(const ExperimentSpec& spec, QString* badKey) {
    static const AlgorithmFamily family{QStringLiteral("search"), QStringLiteral("algorithm"),
                                        QStringLiteral("search algorithm"),
                                        QStringLiteral("algorithms")};
    const SearcherType* type = findAlgorithm(searcherTypes(), spec.search.name);
    const QStringList options = type ? type->options + commonOptions() : QStringList();
    if (type && spec.search.options.contains(QStringLiteral("evaluated_rewards")) &&
        !options.contains(QStringLiteral("evaluated_rewards"))) {
        return search_options::keyError(
            badKey, QStringLiteral("search.evaluated_rewards"),
            QStringLiteral("%1 search learns nothing from evaluated_rewards; the model-based "
                           "searchers do (tpe, bayesopt, cmaes, bohb). To run the points "
                           "again, keep points_to_evaluate and drop evaluated_rewards")
                .arg(spec.search.name));
    }
    if (Status s = checkAlgorithmChoice(spec.search, knownSearchers(), type ? &options : nullptr,
                                        family, badKey);
        !s) {
        return s;
    }
    auto fail = [badKey](const QString& key, const QString& message) {
        return search_options::keyError(badKey, key, message);
    };
    if (spec.samplesUntilBudget() && !spec.timeBudgetS) {
        return fail(QStringLiteral("num_samples"),
                    QStringLiteral("-1 samples trials until time_budget_s is spent, and no "
                                   "time_budget_s is set (no search algorithm ends on its own); "
                                   "add time_budget_s: SECONDS, or give a count"));
    }
    if (spec.numSamples < 1 && !spec.samplesUntilBudget()) {
        return fail(QStringLiteral("num_samples"),
                    QStringLiteral("num_samples must be at least 1, or -1 with time_budget_s "
                                   "(got %1)")
                        .arg(spec.numSamples));
    }
    if (auto failure = checkPoints(spec)) {
        return fail(failure->key, failure->message);
    }
    if (auto problem = evaluatedRewardsProblem(spec)) {
        return fail(QStringLiteral("search.evaluated_rewards"), *problem);
    }
    for (const QString& option : {QStringLiteral("max_concurrent"), QStringLiteral("repeat")}) {
        if (Status s = checkCount(spec, option, badKey); !s) {
            return s;
        }
    }
    if (const int repeat = countOption(spec, QStringLiteral("repeat"));
        repeat > 1 && !spec.samplesUntilBudget() && spec.numSamples % repeat != 0) {
        return fail(QStringLiteral("num_samples"),
                    QStringLiteral("num_samples (%1) must be a multiple of search.repeat (%2): "
                                   "each config runs repeat times")
                        .arg(spec.numSamples)
                        .arg(repeat));
    }
    return type->validateOptions ? type->validateOptions(spec, badKey) : Status::ok();
}

std::unique_ptr<Searcher> makeSearcher(const ExperimentSpec& spec) {
    if (spec.samplesUntilBudget()) {
        // num_samples: -1: more trials than any time budget allows, and no total to show.
        ExperimentSpec open = spec;
        open.numSamples = kSamplesWithoutEnd;
        return withoutEnd(makeSearcher(open));
    }
    const SearcherType* type = findAlgorithm(searcherTypes(), spec.search.name);
    if (!type) {
        return nullptr;
    }
    const int repeat = countOption(spec, QStringLiteral("repeat"));
    const int maxConcurrent = countOption(spec, QStringLiteral("max_concurrent"));
    std::unique_ptr<Searcher> searcher;
    if (repeat > 1) {
        // The inner searcher proposes one config per group of `repeat` trials.
        ExperimentSpec inner = spec;
        inner.numSamples = spec.numSamples / repeat;
        QStringList metrics;
        for (const Objective& objective : spec.objectives) {
            metrics.append(objective.metric);
        }
        if (metrics.isEmpty() && !spec.metric.isEmpty()) {
            metrics.append(spec.metric);
        }
        searcher = repeatEach(type->make(inner), repeat, metrics);
    } else {
        searcher = type->make(spec);
    }
    if (maxConcurrent > 0 && searcher) {
        searcher = limitConcurrency(std::move(searcher), maxConcurrent);
    }
    return searcher;
}

}  // namespace tunedeck
