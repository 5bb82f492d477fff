#include "core/pbt_scheduler.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <algorithm>
#include <cmath>

#include "core/scheduler_options.h"

namespace tunedeck {

using namespace scheduler_options;

namespace {

const QString kPerturbationInterval = QStringLiteral("perturbation_interval");
const QString kBurnInPeriod = QStringLiteral("burn_in_period");
const QString kQuantileFraction = QStringLiteral("quantile_fraction");
const QString kResampleProbability = QStringLiteral("resample_probability");
const QString kPerturbationFactors = QStringLiteral("perturbation_factors");
const QString kMutations = QStringLiteral("hyperparam_mutations");
const QString kCustomExplore = QStringLiteral("custom_explore");
const QString kSynch = QStringLiteral("synch");
const QString kRequireAttrs = QStringLiteral("require_attrs");
const QString kLogConfig = QStringLiteral("log_config");

// Separates the population's draws from the searcher's and other schedulers' use of the seed.
constexpr std::uint64_t kPopulationStream = 0x706f70756c617465ULL;  // "populate"

// Products such as 0.01 * 1.2 carry binary noise users would see in their configs; 15
// significant digits drop it (as the search space's quantisation does).
double tidy(double value) {
    return QString::number(value, 'g', 15).toDouble() + 0.0;
}

bool sameValue(const QJsonValue& a, const QJsonValue& b) {
    if (a.isDouble() && b.isDouble()) {
        return a.toDouble() == b.toDouble();
    }
    return a == b;
}

QString describeValue(const QJsonValue& value) {
    if (value.isDouble()) {
        return formatNumber(value.toDouble());
    }
    if (value.isString()) {
        return value.toString();
    }
    if (value.isObject()) {
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    }
    if (value.isArray()) {
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    }
    return value.isBool() ? (value.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
                          : QStringLiteral("null");
}

// "lr 0.01 -> 0.012, batch 32 -> 64": the leaves that differ, for the exploit's reason.
void describeChanges(const QJsonObject& from, const QJsonObject& to, const QString& prefix,
                     QStringList* out) {
    for (auto it = to.begin(); it != to.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        const QJsonValue before = from.value(it.key());
        if (it.value().isObject() && before.isObject()) {
            describeChanges(before.toObject(), it.value().toObject(), path, out);
        } else if (!sameValue(before, it.value())) {
            out->append(QStringLiteral("%1 %2 -> %3")
                            .arg(path, describeValue(before), describeValue(it.value())));
        }
    }
}

// The values a numeric domain can take, as a closed range; nullopt when it is unbounded
// (normal) or not numeric.
struct Range {
    double low = 0;
    double high = 0;
};
std::optional<Range> closedRange(const Domain& d) {
    switch (d.kind) {
        case DomainKind::Uniform:
        case DomainKind::QUniform:
        case DomainKind::LogUniform:
        case DomainKind::QLogUniform:
        case DomainKind::QRandInt:
            return Range{d.low, d.high};
        case DomainKind::RandInt:
        case DomainKind::LogRandInt:
            return Range{d.low, d.high - 1};  // upper bound exclusive
        default:
            return std::nullopt;
    }
}

bool isList(const Domain& d) {
    return d.kind == DomainKind::Choice || d.kind == DomainKind::Grid;
}

QString describeDomain(const Domain& d) {
    if (const auto range = closedRange(d)) {
        return QStringLiteral("%1 %2 .. %3")
            .arg(domainKindName(d.kind), formatNumber(d.low), formatNumber(d.high));
    }
    return domainKindName(d.kind);
}

// A perturbed number brought back into the mutation's domain.
double intoDomain(double value, const Domain& d, bool integer) {
    const auto range = closedRange(d);
    if (range) {
        value = std::clamp(value, range->low, range->high);
    }
    if (d.q > 0 && d.kind != DomainKind::Normal) {
        value = std::round(value / d.q) * d.q;
        if (range && value > range->high) {
            value -= d.q;
        }
        if (range && value < range->low) {
            value += d.q;
        }
    }
    return integer ? std::trunc(value) : tidy(value);
}

QJsonValue numberValue(double value, bool integer) {
    return integer ? QJsonValue(static_cast<qint64>(value)) : QJsonValue(value);
}

// The mutations as written, each with its dotted path (groups are walked into).
void collectMutations(const SearchSpace& space, const QString& prefix,
                      std::vector<std::pair<QString, const Parameter*>>* out) {
    for (const Parameter& p : space.parameters) {
        const QString path = prefix.isEmpty() ? p.name : prefix + QLatin1Char('.') + p.name;
        if (p.kind == Parameter::Kind::Group && p.group) {
            collectMutations(*p.group, path, out);
        } else {
            out->emplace_back(path, &p);
        }
    }
}

Status mutationError(QString* badKey, const QString& path, const QString& message) {
    return optionError(badKey, kMutations + QLatin1Char('.') + path, message);
}

// Whether `mutation` stays inside what search_space allows for `target` (one line, or empty).
QString outsideSearchSpace(const QString& path, const Domain& mutation, const Parameter& target) {
    if (target.kind == Parameter::Kind::Constant) {
        return {};  // a constant has no range: PBT is what changes it
    }
    const Domain& allowed = target.domain;
    if (isList(allowed)) {
        if (!isList(mutation)) {
            return QStringLiteral(
                       "hyperparam_mutations.%1 must list values of search_space.%1, "
                       "which is a %2")
                .arg(path, domainKindName(allowed.kind));
        }
        for (const DomainOption& option : mutation.options) {
            const bool offered = std::any_of(
                allowed.options.begin(), allowed.options.end(),
                [&](const DomainOption& o) { return sameValue(o.value, option.value); });
            if (!offered) {
                return QStringLiteral(
                           "hyperparam_mutations.%1 lists %2, which search_space.%1 "
                           "does not offer")
                    .arg(path, describeValue(option.value));
            }
        }
        return {};
    }
    const auto range = closedRange(allowed);
    const auto inside = [&](double low, double high) {
        const double slack = 1e-12 * std::max({1.0, std::abs(range->low), std::abs(range->high)});
        return low >= range->low - slack && high <= range->high + slack;
    };
    if (isList(mutation)) {
        for (const DomainOption& option : mutation.options) {
            if (!option.value.isDouble()) {
                return QStringLiteral(
                           "hyperparam_mutations.%1 lists %2, but search_space.%1 is "
                           "a number (%3)")
                    .arg(path, describeValue(option.value), describeDomain(allowed));
            }
            if (range && !inside(option.value.toDouble(), option.value.toDouble())) {
                return QStringLiteral(
                           "hyperparam_mutations.%1 lists %2, outside search_space.%1 "
                           "(%3)")
                    .arg(path, describeValue(option.value), describeDomain(allowed));
            }
        }
        return {};
    }
    if (!range) {
        return {};  // search_space's normal domain takes any number
    }
    const auto own = closedRange(mutation);
    if (!own || !inside(own->low, own->high)) {
        return QStringLiteral("hyperparam_mutations.%1 (%2) reaches outside search_space.%1 (%3)")
            .arg(path, describeDomain(mutation), describeDomain(allowed));
    }
    return {};
}

Status checkMutations(const ExperimentSpec& spec, QString* badKey) {
    std::vector<std::pair<QString, const Parameter*>> mutations;
    collectMutations(spec.scheduler.mutations, QString(), &mutations);
    for (const auto& [path, p] : mutations) {
        if (p->kind != Parameter::Kind::Sampled) {
            return mutationError(
                badKey, path,
                QStringLiteral("hyperparam_mutations.%1 must be a domain or a list of values")
                    .arg(path));
        }
        if (Status s = p->domain.validate(); !s) {
            return mutationError(
                badKey, path, QStringLiteral("hyperparam_mutations.%1: %2").arg(path, s.message()));
        }
        if (std::any_of(p->domain.options.begin(), p->domain.options.end(),
                        [](const DomainOption& o) { return o.group != nullptr; })) {
            return mutationError(
                badKey, path,
                QStringLiteral("hyperparam_mutations.%1 must list plain values, not groups")
                    .arg(path));
        }
        const Parameter* target = parameterAtPath(spec.searchSpace, path);
        if (!target) {
            return mutationError(
                badKey, path,
                QStringLiteral("hyperparam_mutations.%1 is not in search_space").arg(path));
        }
        if (target->kind == Parameter::Kind::Group) {
            return mutationError(badKey, path,
                                 QStringLiteral("hyperparam_mutations.%1 names a group of "
                                                "search_space; mutate its parameters instead")
                                     .arg(path));
        }
        if (const QString outside = outsideSearchSpace(path, p->domain, *target);
            !outside.isEmpty()) {
            return mutationError(badKey, path, outside);
        }
    }
    return Status::ok();
}

Status parseBounds(const ExperimentSpec& spec, const QString& option, const QJsonObject& mapping,
                   const QString& prefix, std::vector<PbtBound>* out, QString* badKey) {
    for (auto it = mapping.begin(); it != mapping.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        const QString key = option + QLatin1Char('.') + path;
        if (it.value().isObject()) {
            if (Status s = parseBounds(spec, option, it.value().toObject(), path, out, badKey);
                !s) {
                return s;
            }
            continue;
        }
        const QJsonArray pair = it.value().toArray();
        const bool numbers = it.value().isArray() && pair.size() == 2 && pair[0].isDouble() &&
                             pair[1].isDouble() && std::isfinite(pair[0].toDouble()) &&
                             std::isfinite(pair[1].toDouble());
        if (!numbers) {
            return optionError(badKey, key,
                               QStringLiteral("%1 must be [low, high] (two numbers)").arg(key));
        }
        const double low = pair[0].toDouble();
        const double high = pair[1].toDouble();
        if (low > high) {
            return optionError(badKey, key,
                               QStringLiteral("%1: low (%2) must not exceed high (%3)")
                                   .arg(key, formatNumber(low), formatNumber(high)));
        }
        const Parameter* target = parameterAtPath(spec.searchSpace, path);
        if (!target) {
            return optionError(badKey, key, QStringLiteral("%1 is not in search_space").arg(key));
        }
        if (target->kind == Parameter::Kind::Group) {
            return optionError(
                badKey, key,
                QStringLiteral("%1 names a group of search_space; bound its parameters instead")
                    .arg(key));
        }
        const bool integer =
            target->kind == Parameter::Kind::Sampled && isIntegerDomain(target->domain.kind);
        out->push_back({path, low, high, integer});
    }
    return Status::ok();
}

}  // namespace

// ---- shared by pbt and pb2 ----------------------------------------------------------------

Status parseParamBounds(const ExperimentSpec& spec, const QString& option,
                        std::vector<PbtBound>* out, QString* badKey) {
    const QJsonValue value = spec.scheduler.options.value(option);
    if (!value.isObject()) {
        return optionError(badKey, option,
                           QStringLiteral("scheduler option '%1' must map each parameter to "
                                          "[low, high]")
                               .arg(option));
    }
    return parseBounds(spec, option, value.toObject(), QString(), out, badKey);
}

const Parameter* parameterAtPath(const SearchSpace& space, const QString& dottedPath) {
    const QStringList parts = dottedPath.split(QLatin1Char('.'));
    const SearchSpace* level = &space;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const auto it = std::find_if(level->parameters.begin(), level->parameters.end(),
                                     [&](const Parameter& p) { return p.name == parts[i]; });
        if (it == level->parameters.end()) {
            return nullptr;
        }
        if (i == parts.size() - 1) {
            return &*it;
        }
        if (it->kind != Parameter::Kind::Group || !it->group) {
            return nullptr;
        }
        level = it->group.get();
    }
    return nullptr;
}

QJsonObject withValueAtPath(QJsonObject config, const QString& dottedPath,
                            const QJsonValue& value) {
    const qsizetype dot = dottedPath.indexOf(QLatin1Char('.'));
    if (dot < 0) {
        config.insert(dottedPath, value);
        return config;
    }
    const QString head = dottedPath.left(dot);
    config.insert(head,
                  withValueAtPath(config.value(head).toObject(), dottedPath.mid(dot + 1), value));
    return config;
}

Status validatePopulationOptions(const ExperimentSpec& spec, const QString& name,
                                 const QStringList& numbers, const QStringList& booleans,
                                 QString* badKey) {
    const QJsonObject& options = spec.scheduler.options;
    if (Status s = checkCommonOptions(
            spec, numbers + QStringList{kPerturbationInterval, kQuantileFraction}, name, badKey);
        !s) {
        return s;
    }
    if (spec.isMultiObjective()) {
        if (badKey) {
            *badKey = QStringLiteral("metric");
        }
        return Status::invalid(
            QStringLiteral("scheduler '%1' ranks trials by one metric; this experiment has %2")
                .arg(name)
                .arg(spec.objectives.size()));
    }
    for (const QString& key : booleans) {
        if (options.contains(key) && !options.value(key).isBool()) {
            return optionError(
                badKey, key,
                QStringLiteral("scheduler option '%1' must be true or false").arg(key));
        }
    }
    const double interval = options.value(kPerturbationInterval).toDouble(60);
    if (interval <= 0) {
        return optionError(
            badKey, kPerturbationInterval,
            QStringLiteral("scheduler option 'perturbation_interval' must be positive, not %1")
                .arg(formatNumber(interval)));
    }
    const double quantile = options.value(kQuantileFraction).toDouble(0.25);
    if (quantile <= 0 || quantile > 0.5) {
        return optionError(
            badKey, kQuantileFraction,
            QStringLiteral("scheduler option 'quantile_fraction' must be in (0, 0.5], not %1")
                .arg(formatNumber(quantile)));
    }
    return Status::ok();
}

PbtScheduler::Options populationOptions(const ExperimentSpec& spec) {
    const QJsonObject& options = spec.scheduler.options;
    PbtScheduler::Options o;
    o.timeAttr = options.value(kTimeAttr).toString(o.timeAttr);
    const Objective objective = objectiveOf(spec);
    o.metric = objective.metric;
    o.mode = objective.mode;
    o.perturbationInterval = options.value(kPerturbationInterval).toDouble(o.perturbationInterval);
    o.burnInPeriod = options.value(kBurnInPeriod).toDouble(o.burnInPeriod);
    o.quantileFraction = options.value(kQuantileFraction).toDouble(o.quantileFraction);
    o.synch = options.value(kSynch).toBool(o.synch);
    o.requireAttrs = options.value(kRequireAttrs).toBool(o.requireAttrs);
    o.metricKey =
        options.contains(kMetric) ? QStringLiteral("scheduler.metric") : QStringLiteral("metric");
    o.seed = spec.seed;
    return o;
}

bool pbtNeedsCheckpoints() {
    return true;
}

// ---- pbt's options and explore ------------------------------------------------------------

QStringList pbtOptionNames() {
    return {kTimeAttr,
            kMetric,
            kMode,
            kPerturbationInterval,
            kBurnInPeriod,
            kQuantileFraction,
            kResampleProbability,
            kPerturbationFactors,
            kMutations,
            kCustomExplore,
            kSynch,
            kRequireAttrs,
            kLogConfig};
}

Status validatePbtOptions(const ExperimentSpec& spec, QString* badKey) {
    const QJsonObject& options = spec.scheduler.options;
    if (Status s = validatePopulationOptions(spec, QStringLiteral("pbt"),
                                             {kBurnInPeriod, kResampleProbability},
                                             {kSynch, kRequireAttrs, kLogConfig}, badKey);
        !s) {
        return s;
    }
    const double burnIn = options.value(kBurnInPeriod).toDouble(0);
    if (burnIn < 0) {
        return optionError(
            badKey, kBurnInPeriod,
            QStringLiteral("scheduler option 'burn_in_period' must not be negative, not %1")
                .arg(formatNumber(burnIn)));
    }
    const double resample = options.value(kResampleProbability).toDouble(0.25);
    if (resample < 0 || resample > 1) {
        return optionError(badKey, kResampleProbability,
                           QStringLiteral("scheduler option 'resample_probability' must be "
                                          "between 0 and 1, not %1")
                               .arg(formatNumber(resample)));
    }
    if (options.contains(kPerturbationFactors)) {
        const QJsonArray factors = options.value(kPerturbationFactors).toArray();
        const bool positive =
            options.value(kPerturbationFactors).isArray() && !factors.isEmpty() &&
            std::all_of(factors.begin(), factors.end(), [](const QJsonValue& f) {
                return f.isDouble() && std::isfinite(f.toDouble()) && f.toDouble() > 0;
            });
        if (!positive) {
            return optionError(badKey, kPerturbationFactors,
                               QStringLiteral("scheduler option 'perturbation_factors' must be a "
                                              "list of positive numbers, such as [1.2, 0.8]"));
        }
    }
    if (Status s = checkMutations(spec, badKey); !s) {
        return s;
    }
    std::vector<PbtBound> bounds;
    if (options.contains(kCustomExplore)) {
        if (Status s = parseParamBounds(spec, kCustomExplore, &bounds, badKey); !s) {
            return s;
        }
    }
    if (spec.scheduler.mutations.parameters.empty() && bounds.empty()) {
        return optionError(badKey, kMutations,
                           QStringLiteral("scheduler 'pbt' needs hyperparam_mutations or "
                                          "custom_explore: what to change when a trial copies "
                                          "another"));
    }
    return Status::ok();
}

std::unique_ptr<Scheduler> makePbtScheduler(const ExperimentSpec& spec) {
    const QJsonObject& options = spec.scheduler.options;
    PbtExploreOptions explore;
    std::vector<std::pair<QString, const Parameter*>> mutations;
    collectMutations(spec.scheduler.mutations, QString(), &mutations);
    for (const auto& [path, p] : mutations) {
        const Parameter* target = parameterAtPath(spec.searchSpace, path);
        const bool integer = isIntegerDomain(p->domain.kind) ||
                             (target && target->kind == Parameter::Kind::Sampled &&
                              isIntegerDomain(target->domain.kind));
        explore.mutations.push_back({path, p->domain, integer});
    }
    explore.resampleProbability =
        options.value(kResampleProbability).toDouble(explore.resampleProbability);
    if (options.contains(kPerturbationFactors)) {
        explore.perturbationFactors.clear();
        for (const QJsonValue& f : options.value(kPerturbationFactors).toArray()) {
            explore.perturbationFactors.push_back(f.toDouble());
        }
    }
    if (options.contains(kCustomExplore)) {
        parseParamBounds(spec, kCustomExplore, &explore.customExplore, nullptr);
    }
    return std::make_unique<PbtScheduler>(
        populationOptions(spec), std::make_unique<PbtMutationExplorer>(std::move(explore)));
}

QJsonObject pbtExplore(const QJsonObject& config, const PbtExploreOptions& options, Rng& rng) {
    QJsonObject next = config;
    for (const PbtMutation& m : options.mutations) {
        const QJsonValue current = valueAtPath(config, m.path);
        if (current.isUndefined()) {
            continue;  // a conditional parameter this config does not have
        }
        const Domain& d = m.domain;
        QJsonValue value;
        const bool resample = rng.uniform01() < options.resampleProbability;
        if (isList(d)) {
            const auto n = static_cast<std::int64_t>(d.options.size());
            const auto at =
                std::find_if(d.options.begin(), d.options.end(),
                             [&](const DomainOption& o) { return sameValue(o.value, current); });
            if (resample || at == d.options.end()) {
                value = d.options[static_cast<std::size_t>(rng.integer(0, n))].value;
            } else {
                const std::int64_t shift = rng.integer(0, 2) == 0 ? -1 : 1;
                const std::int64_t index =
                    std::clamp<std::int64_t>((at - d.options.begin()) + shift, 0, n - 1);
                value = d.options[static_cast<std::size_t>(index)].value;
            }
        } else if (resample || !current.isDouble()) {
            value = d.sampleValue(rng);
            if (m.integer && value.isDouble()) {
                value = numberValue(std::trunc(value.toDouble()), true);
            }
        } else if (options.perturbationFactors.empty()) {
            continue;  // nothing to scale by (validation refuses an empty list)
        } else {
            const auto& factors = options.perturbationFactors;
            const double factor = factors[static_cast<std::size_t>(
                rng.integer(0, static_cast<std::int64_t>(factors.size())))];
            value = numberValue(intoDomain(current.toDouble() * factor, d, m.integer), m.integer);
        }
        next = withValueAtPath(next, m.path, value);
    }
    for (const PbtBound& b : options.customExplore) {
        const QJsonValue current = valueAtPath(next, b.path);
        if (!current.isDouble()) {
            continue;
        }
        const double low = b.integer ? std::ceil(b.low) : b.low;
        const double high = b.integer ? std::floor(b.high) : b.high;
        const double clamped = std::clamp(current.toDouble(), low, std::max(low, high));
        if (clamped != current.toDouble()) {
            next = withValueAtPath(next, b.path, numberValue(clamped, b.integer));
        }
    }
    return next;
}

QJsonObject PbtMutationExplorer::explore(const QString& trialId, const QString& sourceId,
                                         const QJsonObject& sourceConfig, Rng& rng) {
    (void)trialId;
    (void)sourceId;
    return pbtExplore(sourceConfig, options_, rng);
}

// ---- the population -----------------------------------------------------------------------

PbtScheduler::PbtScheduler(Options options, std::unique_ptr<PopulationExplorer> explorer)
    : options_(std::move(options)),
      explorer_(std::move(explorer)),
      nextSync_(std::max(options_.perturbationInterval, options_.burnInPeriod)) {}

PbtScheduler::Member& PbtScheduler::memberOf(const Trial& trial) {
    auto it = members_.find(trial.id);
    if (it == members_.end()) {
        Member m;
        m.index = trial.index;
        m.config = trial.config;
        m.iteration = trial.iteration;
        m.rng = Rng::forStream(options_.seed ^ kPopulationStream,
                               static_cast<std::uint64_t>(trial.index));
        it = members_.emplace(trial.id, std::move(m)).first;
    }
    return it->second;
}

void PbtScheduler::onTrialAdd(const Trial& trial) {
    memberOf(trial).config = trial.config;
}

PbtScheduler::Quantiles PbtScheduler::quantiles() const {
    std::vector<std::pair<const QString*, const Member*>> scored;
    for (const auto& [id, m] : members_) {
        if (m.score && !m.finished) {
            scored.emplace_back(&id, &m);
        }
    }
    std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
        if (*a.second->score != *b.second->score) {
            return *a.second->score < *b.second->score;
        }
        return a.second->index < b.second->index;
    });
    Quantiles q;
    const std::size_t n = scored.size();
    q.ranked = n;
    if (n == 0) {
        return q;
    }
    if (n == 1) {
        q.upper.push_back(*scored.front().first);
        return q;
    }
    const auto size = std::min(
        static_cast<std::size_t>(std::ceil(static_cast<double>(n) * options_.quantileFraction)),
        n / 2);
    for (std::size_t i = 0; i < size; ++i) {
        q.lower.push_back(*scored[i].first);
        q.upper.push_back(*scored[n - size + i].first);
    }
    return q;
}

SchedulerDecision PbtScheduler::checkpointOrExploit(const QString& trialId, const Quantiles& q,
                                                    double time, std::int64_t iteration) {
    Member& m = members_.at(trialId);
    const bool top = std::find(q.upper.begin(), q.upper.end(), trialId) != q.upper.end();
    m.saved = top;
    if (top) {
        return SchedulerDecision::proceedAndSave();
    }
    if (std::find(q.lower.begin(), q.lower.end(), trialId) == q.lower.end()) {
        return SchedulerDecision::proceed();
    }
    const QString& sourceId = q.upper[static_cast<std::size_t>(
        m.rng.integer(0, static_cast<std::int64_t>(q.upper.size())))];
    const Member& source = members_.at(sourceId);
    if (!source.saved) {
        return SchedulerDecision::proceed();  // Ray: no checkpoint of the source, no exploit
    }
    const QJsonObject config = explorer_->explore(trialId, sourceId, source.config, m.rng);
    exploits_.push_back({trialId, sourceId, time, iteration, m.config, source.config, config});

    QStringList changes;
    describeChanges(source.config, config, QString(), &changes);
    const double sign = signOf();
    const QString reason =
        QStringLiteral(
            "%1: %2 %3 at %4 %5 is in the bottom %6% of %7 trials; copying %8 (%2 %9)%10")
            .arg(explorer_->name(), options_.metric, formatNumber(sign * m.score.value_or(0)),
                 options_.timeAttr, formatNumber(time),
                 formatNumber(options_.quantileFraction * 100))
            .arg(q.ranked)
            .arg(sourceId, formatNumber(sign * source.score.value_or(0)),
                 changes.isEmpty() ? QStringLiteral(" and its config")
                                   : QStringLiteral(" with ") + changes.join(QStringLiteral(", ")));
    m.config = config;
    return SchedulerDecision::exploit(sourceId, config, reason);
}

SchedulerDecision PbtScheduler::onResult(const Trial& trial, const QJsonObject& result) {
    Member& m = memberOf(trial);
    m.config = trial.config;
    m.finished = false;
    m.iteration =
        static_cast<std::int64_t>(finiteNumberAt(result, QStringLiteral("training_iteration"))
                                      .value_or(static_cast<double>(trial.iteration)));
    if (m.pending) {
        SchedulerDecision decision = *m.pending;
        m.pending.reset();
        m.config = decision.config;
        return decision;
    }
    const auto time = finiteNumberAt(result, options_.timeAttr);
    const auto value = finiteNumberAt(result, options_.metric);
    if (!time || !value) {
        return SchedulerDecision::proceed();
    }
    m.lastPerturbationTime = std::min(m.lastPerturbationTime, *time);
    if (*time < options_.burnInPeriod ||
        *time - m.lastPerturbationTime < options_.perturbationInterval) {
        return SchedulerDecision::proceed();
    }
    m.score = signOf() * *value;
    m.lastTrainTime = *time;
    explorer_->recordScore(trial.id, *time, m.config, *m.score);
    if (options_.synch) {
        const bool othersBehind = std::any_of(members_.begin(), members_.end(), [&](const auto& e) {
            return e.first != trial.id && !e.second.finished && e.second.lastTrainTime < nextSync_;
        });
        if (othersBehind) {
            return SchedulerDecision::pause(
                QStringLiteral("%1: waiting for every trial to reach %2 %3")
                    .arg(explorer_->name(), options_.timeAttr, formatNumber(nextSync_)));
        }
        return synchronise(&trial.id, *time);
    }
    m.lastPerturbationTime = *time;
    return checkpointOrExploit(trial.id, quantiles(), *time, m.iteration);
}

SchedulerDecision PbtScheduler::synchronise(const QString* current, double time) {
    const Quantiles q = quantiles();
    for (auto& [id, m] : members_) {
        m.lastPerturbationTime = time;
    }
    // The top saves before anyone copies it (Ray orders upper, middle, lower for this).
    SchedulerDecision decision = SchedulerDecision::proceed();
    for (const QString& id : q.upper) {
        const SchedulerDecision d = checkpointOrExploit(id, q, time, members_.at(id).iteration);
        if (current && id == *current) {
            decision = d;
        }
    }
    for (auto& [id, m] : members_) {
        if (std::find(q.upper.begin(), q.upper.end(), id) == q.upper.end()) {
            m.saved = false;
        }
    }
    for (const QString& id : q.lower) {
        const SchedulerDecision d = checkpointOrExploit(id, q, time, members_.at(id).iteration);
        if (current && id == *current) {
            decision = d;
        } else if (d.action == SchedulerDecision::Action::Exploit) {
            members_.at(id).pending = d;
        }
    }
    double latest = nextSync_ + options_.perturbationInterval;
    for (const auto& [id, m] : members_) {
        latest = std::max(latest, m.lastTrainTime);
    }
    nextSync_ = latest;
    return decision;
}

void PbtScheduler::releaseWaitingTrials() {
    // A trial that ends while the others wait at the sync point must not leave them waiting.
    if (!options_.synch) {
        return;
    }
    bool anyLive = false;
    double time = 0;
    for (const auto& [id, m] : members_) {
        if (m.finished) {
            continue;
        }
        if (m.lastTrainTime < nextSync_) {
            return;
        }
        anyLive = true;
        time = std::max(time, m.lastTrainTime);
    }
    if (anyLive) {
        synchronise(nullptr, time);
    }
}

void PbtScheduler::onComplete(const Trial& trial, const QJsonObject& lastResult) {
    (void)lastResult;
    Member& m = memberOf(trial);
    m.finished = true;
    m.pending.reset();
    releaseWaitingTrials();
}

void PbtScheduler::onError(const Trial& trial) {
    // Out of the ranking until it reports again (a retried trial comes back with its result).
    Member& m = memberOf(trial);
    m.finished = true;
    m.pending.reset();
    releaseWaitingTrials();
}

std::optional<QString> PbtScheduler::chooseTrialToRun(const std::vector<const Trial*>& waiting) {
    // Ray: the waiting trial with the least training first, so the population advances evenly;
    // in synch mode none that already reached the sync point.
    const Trial* best = nullptr;
    double bestTime = 0;
    for (const Trial* trial : waiting) {
        if (!trial) {
            continue;
        }
        const auto it = members_.find(trial->id);
        const double time = it == members_.end() ? 0 : it->second.lastTrainTime;
        if (options_.synch && time >= nextSync_) {
            continue;
        }
        if (!best || time < bestTime) {
            best = trial;
            bestTime = time;
        }
    }
    if (!best) {
        return std::nullopt;
    }
    return best->id;
}

std::vector<std::pair<QString, QString>> PbtScheduler::requiredResultKeys() const {
    if (!options_.requireAttrs) {
        return {};
    }
    return {{options_.timeAttr, options_.timeAttrKey}, {options_.metric, options_.metricKey}};
}

namespace {

QJsonObject exploitToJson(const PbtExploit& e) {
    return {{"trial", e.trialId},
            {"source", e.source},
            {"time", e.time},
            {"iteration", static_cast<qint64>(e.iteration)},
            {"old_config", e.oldConfig},
            {"source_config", e.sourceConfig},
            {"new_config", e.newConfig}};
}

PbtExploit exploitFromJson(const QJsonObject& o) {
    return {o.value("trial").toString(),
            o.value("source").toString(),
            o.value("time").toDouble(),
            static_cast<std::int64_t>(o.value("iteration").toDouble()),
            o.value("old_config").toObject(),
            o.value("source_config").toObject(),
            o.value("new_config").toObject()};
}

}  // namespace

QJsonObject PbtScheduler::saveState() const {
    QJsonObject trials;
    for (const auto& [id, m] : members_) {
        QJsonObject t{{"index", static_cast<qint64>(m.index)},
                      {"config", m.config},
                      {"last_perturbation", m.lastPerturbationTime},
                      {"last_train", m.lastTrainTime},
                      {"iteration", static_cast<qint64>(m.iteration)},
                      {"finished", m.finished},
                      {"saved", m.saved},
                      // 64 bits do not fit a JSON number (a double) exactly.
                      {"rng", QString::number(m.rng.state())}};
        if (m.score) {
            t.insert("score", *m.score);
        }
        if (m.pending) {
            t.insert("pending", QJsonObject{{"source", m.pending->source},
                                            {"config", m.pending->config},
                                            {"reason", m.pending->reason}});
        }
        trials.insert(id, t);
    }
    QJsonArray exploits;
    for (const PbtExploit& e : exploits_) {
        exploits.append(exploitToJson(e));
    }
    return {{"algorithm", explorer_->name()},
            {"next_sync", nextSync_},
            {"trials", trials},
            {"exploits", exploits},
            {"explorer", explorer_->saveState()}};
}

Status PbtScheduler::restoreState(const QJsonObject& state) {
    if (state.isEmpty()) {
        return Status::ok();  // nothing saved yet
    }
    if (state.value("algorithm").toString() != explorer_->name()) {
        return Status::corruption(QStringLiteral("%1 state was saved by '%2'")
                                      .arg(explorer_->name(), state.value("algorithm").toString()));
    }
    std::map<QString, Member> members;
    const QJsonObject trials = state.value("trials").toObject();
    for (auto it = trials.begin(); it != trials.end(); ++it) {
        const QJsonObject t = it.value().toObject();
        bool ok = false;
        const std::uint64_t rng = t.value("rng").toString().toULongLong(&ok);
        if (!ok || !t.value("index").isDouble()) {
            return Status::corruption(QStringLiteral("%1 state of trial %2 is unreadable")
                                          .arg(explorer_->name(), it.key()));
        }
        Member m;
        m.index = static_cast<std::int64_t>(t.value("index").toDouble());
        m.config = t.value("config").toObject();
        if (t.value("score").isDouble()) {
            m.score = t.value("score").toDouble();
        }
        m.lastPerturbationTime = t.value("last_perturbation").toDouble();
        m.lastTrainTime = t.value("last_train").toDouble();
        m.iteration = static_cast<std::int64_t>(t.value("iteration").toDouble());
        m.finished = t.value("finished").toBool();
        m.saved = t.value("saved").toBool();
        m.rng.setState(rng);
        if (t.value("pending").isObject()) {
            const QJsonObject p = t.value("pending").toObject();
            m.pending = SchedulerDecision::exploit(p.value("source").toString(),
                                                   p.value("config").toObject(),
                                                   p.value("reason").toString());
        }
        members.emplace(it.key(), std::move(m));
    }
    if (Status s = explorer_->restoreState(state.value("explorer").toObject()); !s) {
        return s;
    }
    std::vector<PbtExploit> exploits;
    for (const QJsonValue& e : state.value("exploits").toArray()) {
        exploits.push_back(exploitFromJson(e.toObject()));
    }
    members_ = std::move(members);
    exploits_ = std::move(exploits);
    nextSync_ = state.value("next_sync").toDouble(nextSync_);
    return Status::ok();
}

}  // namespace tunedeck
