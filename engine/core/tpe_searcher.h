// Tree-structured Parzen estimator search (`search: {algorithm: tpe}`), as Optuna 3.1's
// TPESampler. A model behind core/model_searcher.h; not thread-safe (the runtime's event loop).
//
// Papers: Bergstra et al., 2011, "Algorithms for Hyper-Parameter Optimization" (NeurIPS);
// Bergstra et al., 2013, "Making a Science of Model Search" (ICML); Falkner et al., 2018, BOHB
// (multivariate); Ozaki et al., 2020, MOTPE. Anchor: Optuna 3.1 (optuna/samplers/_tpe/), whose
// behaviour and defaults users compare us against:
//  - The first n_startup_trials (10) proposals are random (SearchSpace::sample). After that, the
//    finished trials are split into good and bad: the ceil(gamma * n) best (gamma 0.1, at most
//    25: Optuna's default_gamma) and the rest. For each parameter, in the order
//    SearchSpace::sample walks the tree, a Parzen estimator (core/parzen_estimator.h) is fitted
//    to the good values l(x) and one to the bad values g(x), n_ei_candidates (24) are drawn from
//    l, and the one with the largest l(x) / g(x) is taken. Observations are weighted by
//    Optuna's default_weights (the newest 25 at 1, older ones ramping down) in the order trials
//    finished (Optuna uses trial numbers; here finishing order is what the searcher knows).
//  - Conditional spaces: a parameter is modelled from the finished trials whose config has it
//    (as Optuna's independent sampler does), with the split made over all trials first. A
//    parameter inside an option of a choice is its own parameter: `model.layers` of option
//    {type: cnn, ...} and of option {type: mlp, ...} are modelled apart. The config proposed
//    has exactly the keys SearchSpace::sample would give it (`when` is evaluated the same way).
//  - Domains, in Optuna's model space: log kinds in log space; randint, qrandint, quniform and
//    qnormal as discrete values whose mass is the cell [x - q/2, x + q/2] inside the bounds
//    widened by q/2 (Optuna's IntDistribution and stepped FloatDistribution); lograndint as
//    Optuna's log IntDistribution (bounds low - 0.5 and high - 0.5, continuous in log space);
//    qloguniform likewise with q/2 (kept positive). A normal(mu, sigma) is truncated at
//    mu -/+ 5 sigma (a 6e-7 share of its mass) and its prior component is N(mu, sigma), the
//    distribution the user wrote, instead of Optuna's flat-ish N(centre, range). choice and
//    grid are categoricals with Optuna's smoothed one-hot rows; choice options that are groups
//    are matched to an observed config by their keys and constants.
//  - multivariate: true is Optuna's multivariate TPE over the parameters present in every
//    finished trial (its intersection search space, group=False); the others are drawn one by
//    one as above.
//  - Multi-objective (two or more objectives): the split orders trials by NSGA-II rank and
//    crowding distance (core/pareto.h rankOrder) and takes the first gamma(n) as good. Optuna
//    3.1 splits by non-domination rank too but breaks the last front by hypervolume subset
//    selection and weights good trials by hypervolume contribution; we use crowding distance
//    and default_weights for both groups, which keeps the same intent (spread-out Pareto
//    points are "good") without a hypervolume computation.
//  - constant_liar defaults to true, unlike Optuna's false: Tunedeck runs trials in parallel by
//    default, and without it concurrent proposals pile up on the same promising point. Running
//    trials (ModelSearcher::running()) then count as bad observations, the newest ones, as
//    Optuna's constant liar does (we apply it with several objectives too, where Optuna 3.1
//    ignores it).
//  - The estimators' numbers are Optuna 3.1's, including a continuous component's density
//    without its 1/sigma (later Optuna versions add it; on tests/bench/search leaving it out
//    finds better configs, see parzen_estimator.h). Equal values get their bandwidths in trial
//    order (a stable sort; numpy's default sort leaves the order of ties unspecified).
//  - A trial a scheduler stopped early is an observation with its last result, as Ray Tune's
//    OptunaSearch reports such trials to Optuna (Optuna ranks its own pruned trials below
//    complete ones, but Tunedeck's searcher is not told which trials were stopped).
//  - Speed: a proposal after 1,000 trials with 5 parameters costs about 3 million instructions
//    (a few tenths of a millisecond): observations are kept sorted per parameter, and the
//    estimators sum only the components within reach of a point (see parzen_estimator.h).
//  - Options (`search:` keys): n_startup_trials, n_ei_candidates, gamma (the good fraction,
//    capped at 25 trials), weights ("default" as Optuna, or "flat"), prior_weight,
//    consider_prior, consider_magic_clip, consider_endpoints, multivariate, constant_liar.
//    Optuna's gamma and weights are functions; here they are these named choices.
// Every draw comes from the proposal's own Rng stream, so a restored searcher proposes the same.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <cstddef>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/experiment_spec.h"
#include "core/model_searcher.h"
#include "core/parzen_estimator.h"
#include "core/search_space.h"
#include "core/searcher.h"
#include "core/status.h"

namespace tunedeck {

// The `search:` option keys tpe takes (not points_to_evaluate and the catalogue's common keys).
QStringList tpeOptionNames();
// Option types and ranges; on failure *badKey is "search.<option>".
Status validateTpeOptions(const ExperimentSpec& spec, QString* badKey);
// Requires a spec that passed validateTpeOptions.
std::unique_ptr<Searcher> makeTpeSearcher(const ExperimentSpec& spec);

struct TpeOptions {
    int nStartupTrials = 10;
    int nEiCandidates = 24;
    double gamma = 0.1;        // good fraction: min(ceil(gamma * n), 25) trials
    bool flatWeights = false;  // true: every observation weighs 1
    bool constantLiar = true;
    tpe::EstimatorOptions estimator;  // prior, magic clip, endpoints, multivariate

    // The options of a validated spec, defaults where unset.
    static TpeOptions fromSpec(const ExperimentSpec& spec);
};

// How many of `n` finished trials form the good group: Optuna's default_gamma with `gamma`.
std::size_t tpeGoodCount(const TpeOptions& options, std::size_t n);
// Observations ordered best first: by loss with one objective (ties: the earlier first), by
// NSGA-II rank and crowding distance with several. The first tpeGoodCount() are the good ones.
std::vector<std::size_t> tpeBestFirst(const std::vector<std::vector<double>>& losses);

class TpeSearcher final : public ModelSearcher {
  public:
    explicit TpeSearcher(const ExperimentSpec& spec);
    // Nodes point into the spec this object holds: not copyable.
    TpeSearcher(const TpeSearcher&) = delete;
    TpeSearcher& operator=(const TpeSearcher&) = delete;

    const TpeOptions& options() const { return options_; }

  protected:
    Suggestion propose(const QString& trialId, Rng& rng) override;
    // Define-by-run (Optuna's independent TPE over a space that grows): the parameter is
    // modelled from the finished trials that have it, split into good and bad among them.
    Status proposeParameter(const QString& trialId, const QString& name,
                            const SuggestedDistribution& distribution, Rng& rng,
                            QJsonValue* value) override;
    Status restoreModelState(const QJsonObject& state) override;

  private:
    // A sampled parameter anywhere in the tree (inside groups and choice options).
    struct Node {
        const Parameter* parameter = nullptr;
        QString path;  // dotted path in a config
        tpe::Axis axis;
        std::optional<double> single;  // the only value the domain has: given, not modelled
    };

    void addNodes(const SearchSpace& space, const QString& prefix);
    void syncObservations();
    void extract(const SearchSpace& space, const QString& prefix, const QJsonObject& config,
                 std::vector<double>& values) const;
    std::optional<int> optionOf(const Domain& domain, const QJsonValue& value) const;
    QJsonValue jsonValue(const Node& node, double value) const;

    void splitObservations(const QString& trialId);
    void proposeJointly(Rng& rng);
    double proposeOne(std::size_t node, Rng& rng);
    void fillWeights(std::size_t n, std::vector<double>& out) const;
    void walk(const SearchSpace& space, const QString& prefix, std::vector<GroupFrame>& frames,
              Rng& rng, QJsonObject& config);

    TpeOptions options_;
    std::vector<Node> nodes_;
    std::unordered_map<const Parameter*, std::size_t> nodeOf_;
    // Model-space value of each node in each observation (NaN: absent), in finishing order.
    std::vector<std::vector<double>> observed_;
    // Each node's present values as (value, observation), by value, ties oldest first.
    std::vector<std::vector<std::pair<double, std::size_t>>> sorted_;
    std::vector<std::size_t> present_;  // observations that have each node
    std::size_t synced_ = 0;            // observations copied into observed_
    std::int64_t gridSize_ = 1;

    // Per proposal: the split, the running configs' values (constant liar), the joint draw.
    std::vector<char> good_;
    std::vector<std::size_t> order_;
    std::vector<double> runningValues_;  // running configs x nodes, NaN where absent
    std::size_t runningCount_ = 0;
    std::vector<std::optional<double>> joint_;  // per node, value from the multivariate draw
    std::vector<std::size_t> jointNodes_;
    std::vector<double> jointBest_;
    // Scratch reused across proposals so the inner loops do not allocate.
    std::vector<double> goodPoints_, badPoints_, goodWeights_, badWeights_, draw_, candidate_,
        drawValues_;
    std::vector<double> rowValues_;
    std::vector<std::size_t> positions_, goodOrder_, badOrder_;
    std::vector<std::pair<double, double>> scored_;  // (model value, score) of discrete draws
    std::vector<tpe::Axis> axes_;
    tpe::ParzenEstimator goodModel_, badModel_;
};

}  // namespace tunedeck
