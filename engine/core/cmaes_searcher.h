// CMA-ES search (`search: {algorithm: cmaes}`) over the numeric part of the space, as Optuna's
// CmaEsSampler. Pure strategy objects behind core/searcher.h; not thread-safe (the runtime's
// event loop only).
//
// Paper: N. Hansen, "The CMA Evolution Strategy: A Tutorial", 2016, arXiv:1604.00772; restarts:
// Auger & Hansen, "A Restart CMA Evolution Strategy With Increasing Population Size", CEC 2005.
// Anchor: Optuna 3.1's CmaEsSampler (optuna/samplers/_cmaes.py) on the `cmaes` 0.9 package's CMA
// class (cmaes/_cma.py), whose behaviour and defaults users compare us against:
//  - The update is the package's: its weights (negative ones included, eq. 49-53), c_sigma,
//    d_sigma, c_c, c1, c_mu, the h_sigma rule, an eigendecomposition of C every generation with
//    negative eigenvalues replaced by 1e-8, and out-of-bounds samples drawn again up to 10 * d
//    times, then clipped (Optuna passes n_max_resampling = 10 * d).
//  - Defaults: x0 the centre of the space, sigma0 one sixth of the range, popsize
//    4 + floor(3 ln d), n_startup_trials 1 (the first trials are random until that many have
//    finished), restart_strategy none; `ipop` restarts from a random mean with inc_popsize times
//    the population once the package's should_stop() says the run has stagnated.
//  - Asynchronous trials as Optuna runs them: every proposal is tagged with the generation it
//    was drawn from; once popsize trials of the current generation have finished, the next
//    proposal first tells the optimiser the earliest-proposed popsize of them (their configs as
//    run, so integers count as rounded) and starts the next generation. Results of trials from
//    an older generation (or a restart before) are ignored, as are points_to_evaluate and
//    startup trials, which no generation drew.
//  - Parameters that are not coordinates (choice, grid, conditional ones) are drawn uniformly at
//    random for every trial, as Optuna's independent RandomSampler draws categorical ones.
//  - Each proposal draws from its trial's own stream of the seed (Optuna reseeds the package's
//    generator per trial number), so a resumed run draws what the original would have. A trial
//    proposed after the last saved state and recovered on resume has lost its generation tag;
//    its result is ignored like a late one, and the generation waits for one more trial.
// Where we differ, and why:
//  - CMA-ES runs in the unit cube of core/unit_cube.h rather than Optuna's raw (log-scaled)
//    values, so every parameter starts with the same relative spread. sigma0 is therefore a
//    fraction of each parameter's range (default 1/6, the same as Optuna's min_range / 6 when
//    the ranges are equal) and x0 is given in parameter values and mapped into the cube.
//  - A single coordinate runs CMA-ES too: Optuna falls back to random search there only because
//    the package refuses d = 1, while the formulas hold for it.
//  - A trial a scheduler stopped counts as finished with its last result (the runtime tells
//    searchers no more, as Ray Tune hands such trials to Optuna): Optuna's
//    consider_pruned_trials: true, always, so that option is not offered.
//  - use_separable_cma, with_margin and source_trials are not offered either.
// Define-by-run (an empty search_space; trials ask with trial.suggest_*, core/suggested_space.h):
// as Optuna, CMA-ES searches the intersection of the numeric parameters every finished trial
// asked for, drawn when the trial starts and answered when it asks; anything else it asks for
// (categorical, conditional, new, or asked with another distribution) is drawn at random. Where we
// differ: Optuna 3.1 falls back to random search for good once that space changes (a later trial
// skipped a parameter); here CMA-ES starts afresh on the new space, so a search whose first
// trials differ still ends up searched by CMA-ES.
#pragma once

#include <Eigen/Dense>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "core/cma_es.h"
#include "core/experiment_spec.h"
#include "core/model_searcher.h"
#include "core/rng.h"
#include "core/searcher.h"
#include "core/status.h"
#include "core/suggested_space.h"
#include "core/unit_cube.h"

namespace tunedeck {

// The `search:` option keys cmaes takes, for the catalogue's unknown-option check.
QStringList cmaesOptionNames();
// Option types and ranges, one numeric parameter at least, one metric; on failure *badKey is
// "search.<option>" (x0: "search.x0.<parameter>"), "search_space" or "metric".
Status validateCmaesOptions(const ExperimentSpec& spec, QString* badKey);
// Requires a spec that passed validateCmaesOptions.
std::unique_ptr<Searcher> makeCmaesSearcher(const ExperimentSpec& spec);

class CmaesSearcher final : public ModelSearcher {
  public:
    struct Options {
        std::map<QString, double> x0;  // dotted path -> value; unlisted coordinates: the centre
        double sigma0 = 1.0 / 6.0;     // fraction of each parameter's range
        int popsize = 0;               // 0: CmaEs::defaultPopsize(d)
        int nStartupTrials = 1;
        bool ipop = false;
        int incPopsize = 2;
    };

    CmaesSearcher(const ExperimentSpec& spec, Options options);

    // The current run, null until the startup trials have finished; for tests and display.
    const CmaEs* distribution() const { return cma_ ? &*cma_ : nullptr; }
    int restarts() const { return restarts_; }

  protected:
    Suggestion propose(const QString& trialId, Rng& rng) override;
    Status proposeParameter(const QString& trialId, const QString& name,
                            const SuggestedDistribution& distribution, Rng& rng,
                            QJsonValue* value) override;
    void observed(const Observation& observation) override;
    QJsonObject saveModelState() const override;
    Status restoreModelState(const QJsonObject& state) override;

  private:
    struct Arrival {
        std::int64_t order = 0;  // when it was proposed, among this searcher's proposals
        CmaEs::Solution solution;
    };

    QJsonObject randomConfig(Rng& rng, const QJsonObject& fixed) const;
    int dimensions() const { return defineByRun_ ? suggested_.dimensions() : cube_.dimensions(); }
    Eigen::VectorXd startingMean() const;
    // Define-by-run: the space finished trials give now; a new one starts CMA-ES afresh.
    void followAskedSpace();
    void tellIfGenerationComplete(Rng& rng);

    Options options_;
    UnitCube cube_;
    bool defineByRun_ = false;  // the search space is empty: trials ask for their parameters
    AskedDistributions asked_;
    CommonNames common_;
    SuggestedSpace suggested_;
    // Define-by-run: the point each running trial was drawn at, answered when it asks.
    std::map<QString, Eigen::VectorXd> drawn_;
    std::optional<CmaEs> cma_;
    int restarts_ = 0;
    std::int64_t proposed_ = 0;  // proposals drawn from a generation
    // Trials of the current generation still out, by id, with their proposal order; a result
    // from a trial not listed here is from an older generation (or no generation) and ignored.
    std::map<QString, std::int64_t> outstanding_;
    std::vector<Arrival> arrived_;  // finished trials of the current generation
};

}  // namespace tunedeck
