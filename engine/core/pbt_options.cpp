#include "core/pbt_options.h"

#include <QJsonArray>
#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "core/pbt_scheduler.h"
#include "core/pbt_values.h"
#include "core/scheduler_options.h"

namespace tunedeck {

using namespace scheduler_options;
using namespace pbt_values;

namespace {

const QString kPerturbationInterval = QStringLiteral("perturbation_interval");
const QString kBurnInPeriod = QStringLiteral("burn_in_period");
const QString kQuantileFraction = QStringLiteral("quantile_fraction");
const QString kResampleProbability = QStringLiteral("resample_probability");
const QString kPerturbationFactors = QStringLiteral("perturbation_factors");
const QString kMutations = QStringLiteral("hyperparam_mutations");
const QString kCustomExplore = QStringLiteral("custom_explore");
const QString kExploreCommand = QStringLiteral("explore_command");
const QString kSynch = QStringLiteral("synch");
const QString kRequireAttrs = QStringLiteral("require_attrs");
const QString kLogConfig = QStringLiteral("log_config");

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
    const auto inside = [&](double low, double high) { return rangeHolds(*range, low, high); };
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
    if (spec.isMultiObjective() && !options.contains(QStringLiteral("metric"))) {
        if (badKey) {
            *badKey = QStringLiteral("metric");
        }
        return Status::invalid(
            QStringLiteral("scheduler '%1' ranks trials by one metric; this experiment has %2: "
                           "name the one in scheduler.metric (and scheduler.mode)")
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

// ---- pbt's options ------------------------------------------------------------------------

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
            kExploreCommand,
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
    if (options.contains(kExploreCommand) && pbtExploreCommand(spec).isEmpty()) {
        return optionError(badKey, kExploreCommand,
                           QStringLiteral("scheduler option 'explore_command' must be a list of "
                                          "a program and its arguments, such as [python3, "
                                          "explore.py]: it "
                                          "reads the explored config (JSON) on its standard "
                                          "input and prints the config the trial goes on with"));
    }
    if (spec.scheduler.mutations.parameters.empty() && bounds.empty() &&
        !options.contains(kExploreCommand)) {
        return optionError(badKey, kMutations,
                           QStringLiteral("scheduler 'pbt' needs hyperparam_mutations, "
                                          "custom_explore or explore_command: what to change "
                                          "when a trial copies another"));
    }
    return Status::ok();
}

QStringList pbtExploreCommand(const ExperimentSpec& spec) {
    if (spec.scheduler.name != QLatin1String("pbt") &&
        spec.scheduler.options.value(QStringLiteral("base")).toString() != QLatin1String("pbt")) {
        return {};
    }
    const QJsonValue value = spec.scheduler.options.value(kExploreCommand);
    QStringList command;
    if (value.isArray()) {
        for (const QJsonValue& word : value.toArray()) {
            if (!word.isString() || word.toString().isEmpty() ||
                word.toString().contains(QChar(0))) {
                return {};
            }
            command.append(word.toString());
        }
    }
    return command;
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

}  // namespace tunedeck
