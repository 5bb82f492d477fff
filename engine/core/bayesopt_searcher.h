// Gaussian-process Bayesian optimisation (`search: {algorithm: bayesopt}`) for continuous
// spaces. A model behind core/model_searcher.h; not thread-safe (the runtime's event loop).
//
// Papers: Jones, Schonlau & Welch, 1998, "Efficient Global Optimization of Expensive Black-Box
// Functions" (expected improvement); Snoek, Larochelle & Adams, 2012, "Practical Bayesian
// Optimization of Machine Learning Algorithms" (Matérn 5/2 ARD kernel); Ginsbourger, Le Riche
// & Carraro, 2010, "Kriging is well-suited to parallelize optimization" (kriging believer).
// Anchors: Ray Tune's BayesOptSearch (the fmfn/BayesianOptimization package) for what users
// expect of the searcher, scikit-optimize's gp_minimize for the expected-improvement margin:
//  - The space is the unit cube of its numeric parameters (core/unit_cube.h; log kinds in log
//    space, integers and q kinds rounded when decoded). choice, grid and conditional (`when`)
//    parameters are refused at validation: use tpe (or cmaes) there.
//  - The first n_initial_points (10, Ray's random_search_steps) configs are random, counted
//    as finished trials like Optuna's n_startup_trials; the model needs at least two.
//  - Then a GP (core/gaussian_process.h, hyperparameters fitted by maximum likelihood on each
//    proposal) models the loss of the first objective, and the next config maximises the
//    acquisition over the unit cube: a few thousand quasi-random candidates and candidates
//    near the best configs, the best few refined by Nelder-Mead.
//  - acquisition "ei" (default) is expected improvement with margin xi (0.01, as
//    scikit-optimize); "ucb" is mean - kappa * sd of the loss (kappa 2.576, as Ray's
//    BayesOptSearch and bayes_opt, which default to ucb: we default to ei, the and the
//    papers' choice). scikit-optimize takes xi in the loss's own units; here it is in units of
//    the spread of the losses fitted (interquartile range / 1.349, the standard deviation for
//    normal data), so the margin means the same for a loss near 1e-3 and one near 1e3, and a
//    few disastrous trials do not widen it.
//  - Trials still running are fed to the GP as if they had finished at its predicted mean (the
//    kriging believer), so parallel proposals spread instead of landing on one point. Ray's
//    BayesOptSearch has no such step.
//  - max_observations (500): the GP is fitted on at most this many finished trials, the best
//    quarter of them and the most recent of the rest, so a proposal costs the same at 10,000
//    trials as at 500 (exact GP fitting grows with the cube of the count).
//  - Trials that errored or never reported the metric are ignored, as Optuna does.
//  - The hyperparameter search starts from the previous proposal's fit; every
//    kProposalsPerFullSearch-th proposal (and the first) also searches from the default and
//    from random starts. A proposal at 200 observations then costs a fraction of a full
//    search, and the model still escapes a poor local optimum within a few proposals.
// Every draw comes from the proposal's own Rng stream, and the previous fit is part of the
// saved state, so a restored searcher proposes what the original would have.
#pragma once

#include <Eigen/Dense>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "core/experiment_spec.h"
#include "core/gaussian_process.h"
#include "core/model_searcher.h"
#include "core/searcher.h"
#include "core/status.h"
#include "core/unit_cube.h"

namespace tunedeck {

// The `search:` option keys bayesopt takes (not points_to_evaluate and the catalogue's keys).
QStringList bayesoptOptionNames();
// Option types and ranges, the metric, and a continuous space; on failure *badKey is
// "search.<option>", "metric" or "search_space.<path>".
Status validateBayesoptOptions(const ExperimentSpec& spec, QString* badKey);
// Requires a spec that passed validateBayesoptOptions.
std::unique_ptr<Searcher> makeBayesoptSearcher(const ExperimentSpec& spec);

struct BayesoptOptions {
    enum class Acquisition { ExpectedImprovement, UpperConfidenceBound };
    int nInitialPoints = 10;
    Acquisition acquisition = Acquisition::ExpectedImprovement;
    double xi = 0.01;
    double kappa = 2.576;
    int maxObservations = 500;

    // The options of a validated spec, defaults where unset.
    static BayesoptOptions fromSpec(const ExperimentSpec& spec);
};

// Which of the finished trials (their losses, in finishing order) the GP is fitted on: all of
// them up to `maxObservations`, else the best quarter (ties: the earlier) and the most recent
// of the rest. Indices ascending.
std::vector<std::size_t> bayesoptTrainingSet(const std::vector<double>& losses,
                                             int maxObservations);

class BayesoptSearcher final : public ModelSearcher {
  public:
    explicit BayesoptSearcher(const ExperimentSpec& spec);

    const BayesoptOptions& options() const { return options_; }

  protected:
    Suggestion propose(const QString& trialId, Rng& rng) override;
    QJsonObject saveModelState() const override;
    Status restoreModelState(const QJsonObject& state) override;

  private:
    // The finished trials the GP learns from (bayesoptTrainingSet), as points and losses.
    void trainingData(Eigen::MatrixXd* x, Eigen::VectorXd* y) const;

    BayesoptOptions options_;
    UnitCube cube_;
    std::optional<GpHyperparameters> previousFit_;
    int warmFits_ = 0;  // fits since the last full search
};

}  // namespace tunedeck
