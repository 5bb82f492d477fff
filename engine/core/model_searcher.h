// The part every model-based searcher (tpe, bayesopt, cmaes, bohb) shares, so each algorithm is
// only its model: points_to_evaluate first (or, with evaluated_rewards, taken as finished
// trials: core/warm_start.h), the num_samples budget, which configs are in flight
// and which have finished with what objective values, per-trial random streams, and saving and
// restoring all of that with the experiment. Pure; not thread-safe (the runtime's event loop).
//
// Objective values are kept as losses: lower is better for every objective (values of a `max`
// objective are negated), so models never look at the mode. A trial that errored, or whose
// last result lacks a finite value for any objective, is not an observation (Optuna ignores
// FAIL trials the same way); it stays in `failed()` so models may avoid its region.
//
// Determinism: the n-th proposal draws from Rng::forStream(seed, n), so a resumed run, restored
// with the same observations, proposes what the original would have.
#pragma once

#include <QJsonObject>
#include <QString>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "core/experiment_spec.h"
#include "core/rng.h"
#include "core/searcher.h"

namespace tunedeck {

struct Observation {
    QString trialId;
    QJsonObject config;
    std::vector<double> losses;  // one per objective, lower is better
    // Results the trial reported on its way, as (time_attr value, loss of the first objective),
    // for models that learn from partial training (bohb). Filled from onResult.
    std::vector<std::pair<double, double>> curve;
};

class ModelSearcher : public Searcher {
  public:
    // `algorithm` names the state ("tpe") so a state saved by another algorithm is refused.
    ModelSearcher(const ExperimentSpec& spec, QString algorithm);

    Suggestion suggest(const QString& trialId) final;
    void onResult(const QString& trialId, const QJsonObject& result) final;
    void onComplete(const QString& trialId, const QJsonObject& lastResult, bool errored) final;
    void onTrialRecovered(std::int64_t index, const QString& trialId,
                          const QJsonObject& config) final;
    std::optional<std::int64_t> totalTrials() const final;
    // Define-by-run: proposeParameter's value, kept in the trial's config (so its observation
    // holds every parameter it asked for).
    Status suggestParameter(std::int64_t index, const QString& trialId, const QJsonObject& config,
                            const QString& name, const SuggestedDistribution& distribution,
                            QJsonValue* value) final;
    QJsonObject saveState() const final;
    Status restoreState(const QJsonObject& state) final;

  protected:
    // A new config for `trialId`, drawn from `rng` (the trial's own stream) and the model of
    // observations() and running(). Wait when the model cannot propose yet (e.g. cmaes with a
    // full generation in flight and `wait` set); never Finished: the budget is handled here.
    virtual Suggestion propose(const QString& trialId, Rng& rng) = 0;

    // Define-by-run: a value of `distribution` for the parameter `name` of running trial
    // `trialId`, drawn from `rng` (its own stream). The default refuses (Searcher's reason).
    virtual Status proposeParameter(const QString& trialId, const QString& name,
                                    const SuggestedDistribution& distribution, Rng& rng,
                                    QJsonValue* value) {
        (void)rng;
        return Searcher::suggestParameter(0, trialId, {}, name, distribution, value);
    }

    // Called once for each new observation (a trial finished with finite losses), in the order
    // they arrive; a model that updates incrementally (cmaes) does it here. Not called again
    // for the observations a restored state already holds: those are in the model state.
    virtual void observed(const Observation& observation) { (void)observation; }

    // Extra state a model keeps beyond the observations (cmaes' distribution and generation
    // bookkeeping). Saved with the experiment and restored before the replay of the history.
    virtual QJsonObject saveModelState() const { return {}; }
    virtual Status restoreModelState(const QJsonObject& state) {
        (void)state;
        return Status::ok();
    }

    const ExperimentSpec& spec() const { return spec_; }
    const SearchSpace& space() const { return spec_.searchSpace; }
    // The objectives, in order; losses() of observations follow the same order.
    const std::vector<Objective>& objectives() const { return objectives_; }
    // Finished trials with finite losses, in the order they finished.
    const std::vector<Observation>& observations() const { return observations_; }
    // Trials that errored or never reported every objective (config only).
    const std::vector<Observation>& failed() const { return failed_; }
    // Configs proposed and not finished yet, by trial id (the constant liar reads these).
    const std::map<QString, QJsonObject>& running() const { return running_; }
    // Partial curves of every trial seen so far, running or finished, by trial id.
    const std::map<QString, std::vector<std::pair<double, double>>>& curves() const {
        return curves_;
    }
    // The time attribute partial curves are recorded against (default training_iteration; a
    // searcher may read another from its options before the first result).
    void setCurveAttribute(const QString& attr) { curveAttr_ = attr; }
    // The losses of a result, or nullopt when an objective is missing or not finite.
    std::optional<std::vector<double>> lossesOf(const QJsonObject& result) const;

  private:
    ExperimentSpec spec_;
    QString algorithm_;
    std::vector<Objective> objectives_;
    std::vector<QJsonObject> points_;  // points_to_evaluate, proposed first
    std::int64_t proposed_ = 0;        // suggestions made (points included)
    std::map<QString, QJsonObject> running_;
    std::map<QString, std::vector<std::pair<double, double>>> curves_;
    std::vector<Observation> observations_;
    std::vector<Observation> failed_;
    QString curveAttr_ = QStringLiteral("training_iteration");
};

}  // namespace tunedeck
