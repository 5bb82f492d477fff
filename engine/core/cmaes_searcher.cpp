#include "core/cmaes_searcher.h"

#include <QJsonArray>
#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/scheduler_options.h"
#include "core/search_options.h"
#include "core/search_space.h"

namespace tunedeck {

// ---------------------------------------------------------------------------------------------
// Options.

using namespace search_options;
using scheduler_options::formatNumber;

namespace {

// Optuna's floor on sigma0 (avoids a division by zero in the package).
constexpr double kSigma0Floor = 1e-10;
// ipop stops doubling here; a larger population would not finish a generation in any budget.
constexpr int kMaxPopsize = 1 << 20;

const QString kX0 = QStringLiteral("x0");
const QString kSigma0 = QStringLiteral("sigma0");
const QString kPopsize = QStringLiteral("popsize");
const QString kNStartupTrials = QStringLiteral("n_startup_trials");
const QString kRestartStrategy = QStringLiteral("restart_strategy");
const QString kIncPopsize = QStringLiteral("inc_popsize");

// x0 as (dotted path, value): nested mappings and dotted keys both name nested parameters.
void flatten(const QJsonObject& object, const QString& prefix,
             std::vector<std::pair<QString, QJsonValue>>& out) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString path = joinPath(prefix, it.key());
        if (it.value().isObject()) {
            flatten(it.value().toObject(), path, out);
        } else {
            out.emplace_back(path, it.value());
        }
    }
}

Status checkX0(const ExperimentSpec& spec, const UnitCube& cube, QString* badKey) {
    const QJsonValue x0 = spec.search.options.value(kX0);
    if (!x0.isObject()) {
        return optionError(
            badKey, kX0, QStringLiteral("must be a mapping of parameter names to starting values"),
            x0);
    }
    std::vector<std::pair<QString, QJsonValue>> entries;
    flatten(x0.toObject(), QString(), entries);
    const QStringList coordinates = cube.paths();
    const auto domains = spec.searchSpace.flatDomains();
    // Define-by-run: the parameters are not known before the trials ask for them.
    const bool defineByRun = coordinates.isEmpty();
    for (const auto& [path, value] : entries) {
        const QString entryKey = QStringLiteral("search.x0.") + path;
        if (!defineByRun && !coordinates.contains(path)) {
            return keyError(badKey, entryKey,
                            QStringLiteral("x0 sets '%1', which is not a numeric parameter "
                                           "cmaes searches (it searches %2)")
                                .arg(path, coordinates.join(QStringLiteral(", "))));
        }
        if (!value.isDouble() || !std::isfinite(value.toDouble())) {
            return keyError(
                badKey, entryKey,
                QStringLiteral("x0: '%1' must be a number (got %2)").arg(path, shown(value)));
        }
        for (const auto& [domainPath, domain] : domains) {
            if (domainPath != path) {
                continue;
            }
            // Its bounds (randint's upper one excluded, as Ray), or for a normal what the unit
            // cube spans, mu -/+ 3 sigma.
            const bool normal =
                domain->kind == DomainKind::Normal || domain->kind == DomainKind::QNormal;
            const bool highOpen =
                domain->kind == DomainKind::RandInt || domain->kind == DomainKind::LogRandInt;
            const double low = normal ? domain->mu - 3 * domain->sigma : domain->low;
            const double high = normal ? domain->mu + 3 * domain->sigma : domain->high;
            const double v = value.toDouble();
            if (v < low || v > high || (highOpen && v == high)) {
                return keyError(badKey, entryKey,
                                QStringLiteral("x0: '%1' = %2 is outside its range [%3, %4%5")
                                    .arg(path, formatNumber(v), formatNumber(low),
                                         formatNumber(high), highOpen ? ")" : "]"));
            }
        }
    }
    return Status::ok();
}

CmaesSearcher::Options optionsOf(const ExperimentSpec& spec) {
    const QJsonObject& options = spec.search.options;
    CmaesSearcher::Options o;
    std::vector<std::pair<QString, QJsonValue>> entries;
    flatten(options.value(kX0).toObject(), QString(), entries);
    for (const auto& [path, value] : entries) {
        o.x0[path] = value.toDouble();
    }
    if (isSet(options, kSigma0)) {
        o.sigma0 = options.value(kSigma0).toDouble();
    }
    if (isSet(options, kPopsize)) {
        o.popsize = options.value(kPopsize).toInt();
    }
    o.nStartupTrials = options.value(kNStartupTrials).toInt(o.nStartupTrials);
    o.ipop = options.value(kRestartStrategy).toString() == QLatin1String("ipop");
    o.incPopsize = options.value(kIncPopsize).toInt(o.incPopsize);
    return o;
}

}  // namespace

QStringList cmaesOptionNames() {
    return {kX0, kSigma0, kPopsize, kNStartupTrials, kRestartStrategy, kIncPopsize};
}

Status validateCmaesOptions(const ExperimentSpec& spec, QString* badKey) {
    const QString metricKey = QStringLiteral("metric");
    if (spec.isMultiObjective()) {
        return keyError(badKey, metricKey, QStringLiteral("cmaes optimises one metric"));
    }
    if (spec.metric.isEmpty()) {
        return keyError(badKey, metricKey,
                        QStringLiteral("cmaes needs a metric: set the experiment's `metric`"));
    }
    const UnitCube cube(spec.searchSpace);
    if (cube.dimensions() == 0 && !spec.searchSpace.flatDomains().empty()) {
        return keyError(badKey, QStringLiteral("search_space"),
                        QStringLiteral("cmaes needs at least one numeric parameter (or an empty "
                                       "search_space, whose trials ask for their parameters with "
                                       "trial.suggest_*)"));
    }
    const QJsonObject& options = spec.search.options;
    if (isSet(options, kSigma0) && !isNumberIn(options.value(kSigma0), 0, kUnbounded, true)) {
        return optionError(
            badKey, kSigma0,
            QStringLiteral("must be a number > 0, a fraction of each parameter's range"),
            options.value(kSigma0));
    }
    const struct {
        const QString& option;
        int minimum;
        int maximum;
    } wholeNumbers[] = {{kPopsize, CmaEs::kMinPopsize, kMaxPopsize},
                        {kNStartupTrials, 0, std::numeric_limits<int>::max()},
                        {kIncPopsize, 1, kMaxPopsize}};
    for (const auto& [option, minimum, maximum] : wholeNumbers) {
        const QJsonValue v = options.value(option);
        if (isSet(options, option) && !isWholeNumber(v, minimum)) {
            return optionError(badKey, option,
                               QStringLiteral("must be a whole number >= %1").arg(minimum), v);
        }
        if (v.toDouble() > maximum) {
            return optionError(badKey, option, QStringLiteral("must be at most %1").arg(maximum),
                               v);
        }
    }
    if (isSet(options, kRestartStrategy)) {
        const QJsonValue v = options.value(kRestartStrategy);
        if (v.toString() != QLatin1String("none") && v.toString() != QLatin1String("ipop")) {
            return optionError(badKey, kRestartStrategy, QStringLiteral("must be none or ipop"), v);
        }
    }
    if (isSet(options, kX0)) {
        return checkX0(spec, cube, badKey);
    }
    return Status::ok();
}

std::unique_ptr<Searcher> makeCmaesSearcher(const ExperimentSpec& spec) {
    return std::make_unique<CmaesSearcher>(spec, optionsOf(spec));
}

// ---------------------------------------------------------------------------------------------
// The searcher: Optuna's sample_relative, one trial at a time.

CmaesSearcher::CmaesSearcher(const ExperimentSpec& spec, Options options)
    : ModelSearcher(spec, QStringLiteral("cmaes")),
      options_(std::move(options)),
      cube_(spec.searchSpace),
      defineByRun_(cube_.dimensions() == 0) {}

QJsonObject CmaesSearcher::randomConfig(Rng& rng, const QJsonObject& fixed) const {
    const std::int64_t gridSize = space().gridSize();
    const std::int64_t gridIndex = gridSize > 1 ? rng.integer(0, gridSize) : 0;
    return space().sample(rng, gridIndex, fixed);
}

Eigen::VectorXd CmaesSearcher::startingMean() const {
    Eigen::VectorXd mean = Eigen::VectorXd::Constant(dimensions(), 0.5);
    if (options_.x0.empty()) {
        return mean;
    }
    if (defineByRun_) {
        for (int i = 0; i < suggested_.dimensions(); ++i) {
            const auto x0 = options_.x0.find(suggested_.coordinates()[size_t(i)].name);
            if (x0 != options_.x0.end()) {
                mean[i] = suggested_.unitOf(i, x0->second).value_or(0.5);
            }
        }
        return mean;
    }
    QJsonObject config = cube_.decode(mean);
    for (const auto& [path, value] : options_.x0) {
        setValueAtPath(config, path, value);
    }
    const auto point = cube_.encode(config);
    const QStringList paths = cube_.paths();
    for (int i = 0; point && i < cube_.dimensions(); ++i) {
        if (options_.x0.count(paths[i])) {
            mean[i] = std::clamp((*point)[i], 0.0, 1.0);
        }
    }
    return mean;
}

void CmaesSearcher::tellIfGenerationComplete(Rng& rng) {
    const auto popsize = static_cast<std::size_t>(cma_->popsize());
    if (arrived_.size() < popsize) {
        return;
    }
    // Optuna tells the first popsize trials of the generation in trial order.
    std::stable_sort(arrived_.begin(), arrived_.end(),
                     [](const Arrival& a, const Arrival& b) { return a.order < b.order; });
    std::vector<CmaEs::Solution> solutions;
    for (std::size_t i = 0; i < popsize; ++i) {
        solutions.push_back(arrived_[i].solution);
    }
    cma_->tell(std::move(solutions));
    arrived_.clear();
    outstanding_.clear();  // what is still out belongs to the generation just told
    std::erase_if(drawn_, [this](const auto& entry) { return !running().count(entry.first); });
    if (options_.ipop && cma_->shouldStop()) {
        ++restarts_;
        Eigen::VectorXd mean(cube_.dimensions());
        for (Eigen::Index i = 0; i < mean.size(); ++i) {
            mean[i] = rng.uniform01();
        }
        const int popsize = std::min(cma_->popsize() * options_.incPopsize, kMaxPopsize);
        cma_.emplace(mean, std::max(options_.sigma0, kSigma0Floor), popsize);
    }
}

void CmaesSearcher::followAskedSpace() {
    common_.catchUp(observations());
    SuggestedSpace now = SuggestedSpace::over(common_, asked_);
    if (now == suggested_) {
        return;
    }
    suggested_ = std::move(now);
    cma_.reset();
    outstanding_.clear();
    arrived_.clear();
    drawn_.clear();
}

Suggestion CmaesSearcher::propose(const QString& trialId, Rng& rng) {
    if (defineByRun_) {
        followAskedSpace();
    }
    if (!cma_) {
        if (dimensions() == 0 ||
            static_cast<std::int64_t>(observations().size()) < options_.nStartupTrials) {
            return Suggestion::of(randomConfig(rng, {}));
        }
        const int popsize =
            options_.popsize > 0 ? options_.popsize : CmaEs::defaultPopsize(dimensions());
        cma_.emplace(startingMean(), std::max(options_.sigma0, kSigma0Floor), popsize);
    }
    tellIfGenerationComplete(rng);
    const Eigen::VectorXd x = cma_->ask(rng);
    outstanding_[trialId] = proposed_++;
    if (defineByRun_) {
        drawn_[trialId] = x;  // its values are given as it asks for them
        return Suggestion::of(randomConfig(rng, {}));
    }
    return Suggestion::of(randomConfig(rng, cube_.decode(x)));
}

Status CmaesSearcher::proposeParameter(const QString& trialId, const QString& name,
                                       const SuggestedDistribution& distribution, Rng& rng,
                                       QJsonValue* value) {
    asked_.note(name, distribution);
    const auto drawn = drawn_.find(trialId);
    if (drawn != drawn_.end()) {
        if (const auto index = suggested_.indexOf(name, distribution)) {
            *value = suggested_.valueAt(*index, drawn->second[*index]);
            return Status::ok();
        }
    }
    *value = distribution.sample(rng);  // Optuna's independent sampler
    return Status::ok();
}

void CmaesSearcher::observed(const Observation& observation) {
    const auto drawn = drawn_.find(observation.trialId);
    const auto it = outstanding_.find(observation.trialId);
    if (it != outstanding_.end()) {
        std::optional<Eigen::VectorXd> x;
        if (!defineByRun_) {
            x = cube_.encode(observation.config);
        } else if (drawn != drawn_.end()) {
            x = suggested_.encode(observation.config, drawn->second);
        }
        if (x && !observation.losses.empty()) {
            arrived_.push_back({it->second, {*x, observation.losses.front()}});
        }
        outstanding_.erase(it);
    }
    // Otherwise an older generation's, a startup trial, or a point to evaluate.
    if (drawn != drawn_.end()) {
        drawn_.erase(drawn);
    }
}

QJsonObject CmaesSearcher::saveModelState() const {
    QJsonObject outstanding;
    for (const auto& [trialId, order] : outstanding_) {
        outstanding.insert(trialId, static_cast<qint64>(order));
    }
    QJsonArray arrived;
    for (const Arrival& a : arrived_) {
        arrived.append(QJsonObject{{QStringLiteral("order"), static_cast<qint64>(a.order)},
                                   {QStringLiteral("x"), matrixToJson(a.solution.x)},
                                   {QStringLiteral("value"), a.solution.value}});
    }
    QJsonObject state{{QStringLiteral("restarts"), restarts_},
                      {QStringLiteral("proposed"), static_cast<qint64>(proposed_)},
                      {QStringLiteral("outstanding"), outstanding},
                      {QStringLiteral("arrived"), arrived}};
    if (cma_) {
        state.insert(QStringLiteral("cma"), cma_->toJson());
    }
    if (defineByRun_) {
        QJsonObject drawn;
        for (const auto& [trialId, x] : drawn_) {
            drawn.insert(trialId, matrixToJson(x));
        }
        state.insert(QStringLiteral("asked"), asked_.toJson());
        state.insert(QStringLiteral("space"), suggested_.toJson());
        state.insert(QStringLiteral("drawn"), drawn);
    }
    return state;
}

Status CmaesSearcher::restoreModelState(const QJsonObject& state) {
    const auto corrupt = [](const QString& what) {
        return Status::corruption(QStringLiteral("cmaes state: %1").arg(what));
    };
    AskedDistributions asked;
    SuggestedSpace suggested;
    std::map<QString, Eigen::VectorXd> drawn;
    if (defineByRun_) {
        if (Status s = AskedDistributions::fromJson(state.value(QStringLiteral("asked")).toObject(),
                                                    &asked);
            !s) {
            return corrupt(s.message());
        }
        if (Status s = SuggestedSpace::fromJson(state.value(QStringLiteral("space")).toArray(),
                                                &suggested);
            !s) {
            return corrupt(s.message());
        }
        const QJsonObject points = state.value(QStringLiteral("drawn")).toObject();
        for (auto it = points.begin(); it != points.end(); ++it) {
            const auto x = matrixFromJson(it.value(), suggested.dimensions());
            if (!x) {
                return corrupt(
                    QStringLiteral("the point trial %1 was drawn at is unreadable").arg(it.key()));
            }
            drawn[it.key()] = *x;
        }
    }
    const int dimensions = defineByRun_ ? suggested.dimensions() : cube_.dimensions();
    std::optional<CmaEs> cma;
    if (state.contains(QStringLiteral("cma"))) {
        cma = CmaEs::fromJson(state.value(QStringLiteral("cma")).toObject());
        if (!cma || cma->dimensions() != dimensions) {
            return corrupt(QStringLiteral("the distribution does not fit the search space"));
        }
    }
    const QJsonValue restarts = state.value(QStringLiteral("restarts"));
    const QJsonValue proposed = state.value(QStringLiteral("proposed"));
    if (!isWholeNumber(restarts) || !isWholeNumber(proposed) || restarts.toInt() < 0 ||
        proposed.toInteger() < 0) {
        return corrupt(QStringLiteral("'restarts' and 'proposed' must be counts"));
    }
    std::map<QString, std::int64_t> outstanding;
    const QJsonObject out = state.value(QStringLiteral("outstanding")).toObject();
    for (auto it = out.begin(); it != out.end(); ++it) {
        if (!isWholeNumber(it.value())) {
            return corrupt(QStringLiteral("bad proposal order for '%1'").arg(it.key()));
        }
        outstanding[it.key()] = it.value().toInteger();
    }
    std::vector<Arrival> arrived;
    for (const QJsonValue& item : state.value(QStringLiteral("arrived")).toArray()) {
        const QJsonObject a = item.toObject();
        const auto x = matrixFromJson(a.value(QStringLiteral("x")), dimensions);
        const QJsonValue value = a.value(QStringLiteral("value"));
        if (!x || !value.isDouble() || !isWholeNumber(a.value(QStringLiteral("order")))) {
            return corrupt(QStringLiteral("a finished trial of the generation is unreadable"));
        }
        arrived.push_back({a.value(QStringLiteral("order")).toInteger(), {*x, value.toDouble()}});
    }
    if (!cma && (!outstanding.empty() || !arrived.empty())) {
        return corrupt(QStringLiteral("trials of a generation but no distribution"));
    }
    cma_ = std::move(cma);
    restarts_ = restarts.toInt();
    proposed_ = proposed.toInteger();
    outstanding_ = std::move(outstanding);
    arrived_ = std::move(arrived);
    asked_ = std::move(asked);
    common_ = CommonNames();  // taken in again from the restored observations
    suggested_ = std::move(suggested);
    drawn_ = std::move(drawn);
    return Status::ok();
}

}  // namespace tunedeck
