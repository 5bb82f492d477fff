#include "editors/algorithm_catalog.h"

#include <QCoreApplication>

namespace tunedeck::app {

namespace {

AlgorithmOption option(const char* name, const QString& defaultValue) {
    return {QString::fromLatin1(name), defaultValue};
}

}  // namespace

QList<AlgorithmInfo> searchAlgorithms() {
    // Every searcher takes these (Ray Tune's points_to_evaluate, ConcurrencyLimiter, Repeater).
    const QList<AlgorithmOption> common{
        option("points_to_evaluate", QCoreApplication::translate("AlgorithmCatalog", "none")),
        option("max_concurrent", QCoreApplication::translate("AlgorithmCatalog", "unlimited")),
        option("repeat", QStringLiteral("1"))};
    QList<AlgorithmInfo> list{
        {QStringLiteral("random"),
         QCoreApplication::translate(
             "AlgorithmCatalog",
             "random draws, grid parameters swept (Ray's BasicVariantGenerator)"),
         {},
         true},
        {QStringLiteral("grid"),
         QCoreApplication::translate("AlgorithmCatalog",
                                     "every combination of the finite domains (NNI's grid search)"),
         {},
         false},
        {QStringLiteral("tpe"),
         QCoreApplication::translate(
             "AlgorithmCatalog",
             "tree-structured Parzen estimator; one or several objectives (Optuna's TPESampler)"),
         {option("n_startup_trials", QStringLiteral("10")),
          option("n_ei_candidates", QStringLiteral("24")), option("gamma", QStringLiteral("0.1")),
          option("weights", QStringLiteral("default")),
          option("prior_weight", QStringLiteral("1.0")),
          option("consider_prior", QStringLiteral("true")),
          option("consider_magic_clip", QStringLiteral("true")),
          option("consider_endpoints", QStringLiteral("false")),
          option("multivariate", QStringLiteral("false")),
          option("constant_liar", QStringLiteral("true"))},
         false},
        {QStringLiteral("bayesopt"),
         QCoreApplication::translate(
             "AlgorithmCatalog",
             "Gaussian-process Bayesian optimisation of numeric domains (Ray's BayesOptSearch)"),
         {option("n_initial_points", QStringLiteral("10")),
          option("acquisition", QStringLiteral("ei")), option("xi", QStringLiteral("0.01")),
          option("kappa", QStringLiteral("2.576")),
          option("max_observations", QStringLiteral("500"))},
         false},
        {QStringLiteral("cmaes"),
         QCoreApplication::translate("AlgorithmCatalog",
                                     "CMA-ES over the numeric parameters (Optuna's CmaEsSampler)"),
         {option("x0", QCoreApplication::translate("AlgorithmCatalog", "the centre of each range")),
          option("sigma0", QStringLiteral("1/6")),
          option("popsize", QStringLiteral("4 + floor(3 ln d)")),
          option("n_startup_trials", QStringLiteral("1")),
          option("restart_strategy", QStringLiteral("none")),
          option("inc_popsize", QStringLiteral("2"))},
         false},
        {QStringLiteral("bohb"),
         QCoreApplication::translate(
             "AlgorithmCatalog",
             "model-based configs for hyperband; needs scheduler hyperband (HpBandSter's BOHB)"),
         {option("min_points_in_model", QStringLiteral("d + 1")),
          option("top_n_percent", QStringLiteral("15")),
          option("num_samples", QStringLiteral("64")),
          option("random_fraction", QStringLiteral("1/3")),
          option("bandwidth_factor", QStringLiteral("3")),
          option("min_bandwidth", QStringLiteral("0.001"))},
         false},
    };
    for (AlgorithmInfo& info : list) {
        info.options += common;
    }
    return list;
}

QList<AlgorithmInfo> schedulerTypes() {
    const QList<AlgorithmOption> judged{
        option("metric", QCoreApplication::translate("AlgorithmCatalog", "the experiment's")),
        option("mode", QCoreApplication::translate("AlgorithmCatalog", "the experiment's"))};
    QList<AlgorithmInfo> list{
        {QStringLiteral("fifo"),
         QCoreApplication::translate("AlgorithmCatalog",
                                     "runs every trial to the end, in order (Ray's FIFOScheduler)"),
         {},
         true},
        {QStringLiteral("asha"),
         QCoreApplication::translate(
             "AlgorithmCatalog",
             "asynchronous successive halving: stops trials that fall behind at each rung"),
         {option("time_attr", QStringLiteral("training_iteration")),
          option("max_t", QStringLiteral("100")), option("grace_period", QStringLiteral("1")),
          option("reduction_factor", QStringLiteral("4")), option("brackets", QStringLiteral("1"))},
         false},
        {QStringLiteral("median"),
         QCoreApplication::translate("AlgorithmCatalog",
                                     "median stopping rule: stops trials worse than the median"),
         {option("time_attr", QStringLiteral("time_total_s")),
          option("grace_period", QStringLiteral("60")),
          option("min_samples_required", QStringLiteral("3")),
          option("min_time_slice", QStringLiteral("0")),
          option("hard_stop", QStringLiteral("true"))},
         false},
        {QStringLiteral("hyperband"),
         QCoreApplication::translate(
             "AlgorithmCatalog",
             "synchronous HyperBand: pauses trials at each milestone, resumes the best"),
         {option("time_attr", QStringLiteral("training_iteration")),
          option("max_t", QStringLiteral("81")), option("reduction_factor", QStringLiteral("3")),
          option("stop_last_trials", QStringLiteral("true"))},
         false},
        {QStringLiteral("pbt"),
         QCoreApplication::translate(
             "AlgorithmCatalog",
             "population based training: weak trials copy a strong one and change its config"),
         {option("time_attr", QStringLiteral("time_total_s")),
          option("perturbation_interval", QStringLiteral("60")),
          option("burn_in_period", QStringLiteral("0")),
          option("quantile_fraction", QStringLiteral("0.25")),
          option("resample_probability", QStringLiteral("0.25")),
          option("perturbation_factors", QStringLiteral("[1.2, 0.8]")),
          option("hyperparam_mutations", QCoreApplication::translate("AlgorithmCatalog", "none")),
          option("custom_explore", QCoreApplication::translate("AlgorithmCatalog", "none")),
          option("synch", QStringLiteral("false")),
          option("require_attrs", QStringLiteral("true"))},
         false},
        {QStringLiteral("pb2"),
         QCoreApplication::translate(
             "AlgorithmCatalog",
             "population based bandits: PBT with the new config chosen by a GP bandit"),
         {option("time_attr", QStringLiteral("time_total_s")),
          option("perturbation_interval", QStringLiteral("60")),
          option("quantile_fraction", QStringLiteral("0.25")),
          option("hyperparam_bounds", QCoreApplication::translate("AlgorithmCatalog", "required")),
          option("synch", QStringLiteral("false")),
          option("require_attrs", QStringLiteral("true"))},
         false},
        {QStringLiteral("pbt_replay"),
         QCoreApplication::translate(
             "AlgorithmCatalog",
             "replays the config changes of one PBT trial (written by pbt-replay)"),
         {option("schedule", QCoreApplication::translate("AlgorithmCatalog", "required")),
          option("time_attr", QStringLiteral("training_iteration"))},
         false},
    };
    for (AlgorithmInfo& info : list) {
        if (info.name != QLatin1String("fifo") && info.name != QLatin1String("pbt_replay")) {
            info.options += judged;
        }
    }
    return list;
}

QString optionsSummary(const AlgorithmInfo& info) {
    if (info.options.isEmpty()) {
        return QCoreApplication::translate("AlgorithmCatalog", "no options");
    }
    QStringList parts;
    for (const AlgorithmOption& option : info.options) {
        parts << QCoreApplication::translate("AlgorithmCatalog", "%1 = %2")
                     .arg(option.name, option.defaultValue);
    }
    return parts.join(QStringLiteral(", "));
}

}  // namespace tunedeck::app
