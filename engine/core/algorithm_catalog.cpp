#include "core/algorithm_catalog.h"

#include <map>

#include "core/asha_scheduler.h"
#include "core/bayesopt_searcher.h"
#include "core/bohb_searcher.h"
#include "core/cmaes_searcher.h"
#include "core/hyperband_scheduler.h"
#include "core/median_stopping.h"
#include "core/pbt_explore.h"
#include "core/pbt_scheduler.h"
#include "core/resource_changing_scheduler.h"
#include "core/scheduler.h"
#include "core/searcher.h"
#include "core/tpe_searcher.h"

namespace tunedeck {

Status checkAlgorithmChoice(const AlgorithmSpec& spec, const QStringList& knownNames,
                            const QStringList* options, const AlgorithmFamily& family,
                            QString* badKey) {
    auto fail = [&](const QString& key, const QString& message) {
        if (badKey) {
            *badKey = family.section + '.' + key;
        }
        return Status::invalid(message);
    };
    if (!options) {
        return fail(family.nameKey, QStringLiteral("unknown %1 '%2'; known %3: %4")
                                        .arg(family.noun, spec.name, family.plural,
                                             knownNames.join(QStringLiteral(", "))));
    }
    for (auto it = spec.options.begin(); it != spec.options.end(); ++it) {
        if (!options->contains(it.key())) {
            const QString allowed =
                options->isEmpty()
                    ? QStringLiteral("%1 '%2' takes no options").arg(family.noun, spec.name)
                    : QStringLiteral("allowed: %1").arg(options->join(QStringLiteral(", ")));
            return fail(it.key(), QStringLiteral("unknown option '%1' for %2 '%3'; %4")
                                      .arg(it.key(), family.noun, spec.name, allowed));
        }
    }
    return Status::ok();
}

}  // namespace tunedeck

// ---- The catalogue ---------------------------------------------------------------------------
// Option keys come from the validators (searcherOptionNames, schedulerOptionNames); defaults
// from the option structs each algorithm starts from. Only what no struct holds (a default that
// depends on the space, or is "not set") is written here, as SCHEMA.md words it.

namespace tunedeck {

namespace {

using Defaults = std::map<QString, AlgorithmOptionInfo>;

AlgorithmOptionInfo literal(const QString& value) {
    return {{}, value, true};
}
AlgorithmOptionInfo number(double value) {
    return literal(QString::number(value, 'g', 12));
}
AlgorithmOptionInfo flag(bool value) {
    return literal(value ? QStringLiteral("true") : QStringLiteral("false"));
}
// `text` is shown translated where it is marked with QT_TRANSLATE_NOOP (lupdate reads this file
// for the app's translations); a formula is not marked.
AlgorithmOptionInfo described(const char* text) {
    return {{}, QString::fromUtf8(text), false};
}

// The list of `names` with their defaults; a name without one shows "—" (the unit test insists
// there is none).
std::vector<AlgorithmOptionInfo> withDefaults(const QStringList& names, const Defaults& defaults) {
    std::vector<AlgorithmOptionInfo> options;
    for (const QString& name : names) {
        const auto it = defaults.find(name);
        AlgorithmOptionInfo option = it == defaults.end() ? described("—") : it->second;
        option.name = name;
        options.push_back(option);
    }
    return options;
}

// Defaults every searcher shares (Ray Tune's points_to_evaluate, ConcurrencyLimiter, Repeater).
Defaults commonSearchDefaults() {
    return {{QStringLiteral("points_to_evaluate"),
             described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "none"))},
            {QStringLiteral("max_concurrent"),
             described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "unlimited"))},
            {QStringLiteral("repeat"), number(1)},
            {QStringLiteral("evaluated_rewards"),
             described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "none"))}};
}

Defaults searchDefaults(const QString& name) {
    Defaults d = commonSearchDefaults();
    auto add = [&d](const char* key, AlgorithmOptionInfo info) {
        d[QString::fromLatin1(key)] = std::move(info);
    };
    if (name == QLatin1String("tpe")) {
        const TpeOptions tpe;
        add("n_startup_trials", number(tpe.nStartupTrials));
        add("n_ei_candidates", number(tpe.nEiCandidates));
        add("gamma", number(tpe.gamma));
        add("weights",
            literal(tpe.flatWeights ? QStringLiteral("flat") : QStringLiteral("default")));
        add("prior_weight", number(tpe.estimator.priorWeight));
        add("consider_prior", flag(tpe.estimator.considerPrior));
        add("consider_magic_clip", flag(tpe.estimator.considerMagicClip));
        add("consider_endpoints", flag(tpe.estimator.considerEndpoints));
        add("multivariate", flag(tpe.estimator.multivariate));
        add("constant_liar", flag(tpe.constantLiar));
    } else if (name == QLatin1String("bayesopt")) {
        const BayesoptOptions bayes;
        add("n_initial_points", number(bayes.nInitialPoints));
        add("acquisition",
            literal(bayes.acquisition == BayesoptOptions::Acquisition::ExpectedImprovement
                        ? QStringLiteral("ei")
                        : QStringLiteral("ucb")));
        add("xi", number(bayes.xi));
        add("kappa", number(bayes.kappa));
        add("max_observations", number(bayes.maxObservations));
    } else if (name == QLatin1String("cmaes")) {
        const CmaesSearcher::Options cmaes;
        add("x0", described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "the centre of each range")));
        add("sigma0", number(cmaes.sigma0));
        add("popsize", described("4 + floor(3 ln d)"));
        add("n_startup_trials", number(cmaes.nStartupTrials));
        add("restart_strategy",
            literal(cmaes.ipop ? QStringLiteral("ipop") : QStringLiteral("none")));
        add("inc_popsize", number(cmaes.incPopsize));
    } else if (name == QLatin1String("bohb")) {
        const BohbSearcher::Options bohb;
        add("min_points_in_model", described("d + 1"));
        add("top_n_percent", number(bohb.topNPercent));
        add("num_samples", number(bohb.numSamples));
        add("random_fraction", number(bohb.randomFraction));
        add("bandwidth_factor", number(bohb.bandwidthFactor));
        add("min_bandwidth", number(bohb.minBandwidth));
    }
    return d;
}

Defaults schedulerDefaults(const QString& name) {
    Defaults d{{QStringLiteral("metric"),
                described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "the experiment's"))},
               {QStringLiteral("mode"),
                described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "the experiment's"))}};
    auto add = [&d](const char* key, AlgorithmOptionInfo info) {
        d[QString::fromLatin1(key)] = std::move(info);
    };
    if (name == QLatin1String("asha")) {
        const AshaScheduler::Options asha;
        add("time_attr", literal(asha.timeAttr));
        add("max_t", number(asha.maxT));
        add("grace_period", number(asha.gracePeriod));
        add("reduction_factor", number(asha.reductionFactor));
        add("brackets", number(asha.brackets));
        add("stop_last_trials", flag(asha.stopLastTrials));
    } else if (name == QLatin1String("median")) {
        const MedianStoppingScheduler::Options median;
        add("time_attr", literal(median.timeAttr));
        add("grace_period", number(median.gracePeriod));
        add("min_samples_required", number(median.minSamplesRequired));
        add("min_time_slice", number(median.minTimeSlice));
        add("hard_stop", flag(median.hardStop));
    } else if (name == QLatin1String("hyperband")) {
        const HyperbandScheduler::Options hyperband;
        add("time_attr", literal(hyperband.timeAttr));
        add("max_t", number(hyperband.maxT));
        add("reduction_factor", number(hyperband.reductionFactor));
        add("stop_last_trials", flag(hyperband.stopLastTrials));
    } else if (name == QLatin1String("pbt") || name == QLatin1String("pb2")) {
        const PbtScheduler::Options pbt;
        const PbtExploreOptions explore;
        QStringList factors;
        for (const double factor : explore.perturbationFactors) {
            factors << QString::number(factor, 'g', 12);
        }
        add("time_attr", literal(pbt.timeAttr));
        add("perturbation_interval", number(pbt.perturbationInterval));
        add("burn_in_period", number(pbt.burnInPeriod));
        add("quantile_fraction", number(pbt.quantileFraction));
        add("resample_probability", number(explore.resampleProbability));
        add("perturbation_factors", literal('[' + factors.join(QStringLiteral(", ")) + ']'));
        add("hyperparam_mutations", described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "none")));
        add("custom_explore", described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "none")));
        add("explore_command", described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "none")));
        add("hyperparam_bounds", described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "required")));
        add("synch", flag(pbt.synch));
        add("require_attrs", flag(pbt.requireAttrs));
        add("log_config", described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "no effect")));
    } else if (name == QLatin1String("resource_changing")) {
        for (const QString& option : resourceChangingOptionNames()) {
            d[option] = described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "the base scheduler's"));
        }
        add("base", literal(QStringLiteral("fifo")));
        add("policy", literal(QStringLiteral("distribute")));
        add("min_iterations", number(4));
    } else if (name == QLatin1String("pbt_replay")) {
        add("schedule", described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "required")));
        add("time_attr", literal(QStringLiteral("training_iteration")));
        add("metric", described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "not used")));
        add("mode", described(QT_TRANSLATE_NOOP("AlgorithmCatalog", "not used")));
    }
    return d;
}

// What each algorithm does, in a line. The app translates these texts under the context
// "AlgorithmCatalog"; QT_TRANSLATE_NOOP marks them for lupdate, which reads this file.
QString searchDescription(const QString& name) {
    static const std::map<QString, const char*> lines{
        {QStringLiteral("random"),
         QT_TRANSLATE_NOOP("AlgorithmCatalog",
                           "random draws, grid parameters swept (Ray's BasicVariantGenerator)")},
        {QStringLiteral("grid"),
         QT_TRANSLATE_NOOP("AlgorithmCatalog",
                           "every combination of the finite domains (NNI's grid search)")},
        {QStringLiteral("tpe"),
         QT_TRANSLATE_NOOP("AlgorithmCatalog",
                           "tree-structured Parzen estimator; one or several "
                           "objectives (Optuna's TPESampler)")},
        {QStringLiteral("bayesopt"), QT_TRANSLATE_NOOP("AlgorithmCatalog",
                                                       "Gaussian-process Bayesian optimisation of "
                                                       "numeric domains (Ray's BayesOptSearch)")},
        {QStringLiteral("cmaes"),
         QT_TRANSLATE_NOOP("AlgorithmCatalog",
                           "CMA-ES over the numeric parameters (Optuna's CmaEsSampler)")},
        {QStringLiteral("bohb"), QT_TRANSLATE_NOOP("AlgorithmCatalog",
                                                   "model-based configs for hyperband; needs "
                                                   "scheduler hyperband (HpBandSter's BOHB)")},
    };
    const auto it = lines.find(name);
    return it == lines.end() ? QString() : QString::fromUtf8(it->second);
}

QString schedulerDescription(const QString& name) {
    static const std::map<QString, const char*> lines{
        {QStringLiteral("fifo"),
         QT_TRANSLATE_NOOP("AlgorithmCatalog",
                           "runs every trial to the end, in order (Ray's FIFOScheduler)")},
        {QStringLiteral("asha"), QT_TRANSLATE_NOOP("AlgorithmCatalog",
                                                   "asynchronous successive halving: stops trials "
                                                   "that fall behind at each rung")},
        {QStringLiteral("median"),
         QT_TRANSLATE_NOOP("AlgorithmCatalog",
                           "median stopping rule: stops trials worse than the median")},
        {QStringLiteral("hyperband"), QT_TRANSLATE_NOOP("AlgorithmCatalog",
                                                        "synchronous HyperBand: pauses trials at "
                                                        "each milestone, resumes the best")},
        {QStringLiteral("pbt"), QT_TRANSLATE_NOOP("AlgorithmCatalog",
                                                  "population based training: weak trials copy a "
                                                  "strong one and change its config")},
        {QStringLiteral("pb2"),
         QT_TRANSLATE_NOOP("AlgorithmCatalog",
                           "population based bandits: PBT with the new config "
                           "chosen by a GP bandit")},
        {QStringLiteral("pbt_replay"), QT_TRANSLATE_NOOP("AlgorithmCatalog",
                                                         "replays the config changes of one PBT "
                                                         "trial (written by pbt-replay)")},
        {QStringLiteral("resource_changing"),
         QT_TRANSLATE_NOOP("AlgorithmCatalog",
                           "gives the leading trials more workers as slots free up, over a base "
                           "scheduler (Ray's ResourceChangingScheduler)")},
    };
    const auto it = lines.find(name);
    return it == lines.end() ? QString() : QString::fromUtf8(it->second);
}

}  // namespace

std::vector<AlgorithmInfo> searchAlgorithmCatalog() {
    const QString byDefault = ExperimentSpec().search.name;
    std::vector<AlgorithmInfo> catalog;
    for (const QString& name : knownSearchers()) {
        catalog.push_back({name, searchDescription(name),
                           withDefaults(searcherOptionNames(name), searchDefaults(name)),
                           name == byDefault});
    }
    return catalog;
}

std::vector<AlgorithmInfo> schedulerCatalog() {
    const QString byDefault = ExperimentSpec().scheduler.name;
    std::vector<AlgorithmInfo> catalog;
    for (const QString& name : knownSchedulers()) {
        catalog.push_back({name, schedulerDescription(name),
                           withDefaults(schedulerOptionNames(name), schedulerDefaults(name)),
                           name == byDefault});
    }
    return catalog;
}

}  // namespace tunedeck
