// Population based bandits (`scheduler: {type: pb2}`): pbt (core/pbt_scheduler.h) whose explore
// step picks the copied trial's new hyperparameters with a GP bandit instead of at random.
// Pure; not thread-safe (the runtime's event loop only).
//
// Paper: Parker-Holder et al., 2020, "Provably Efficient Online Hyperparameter Optimization with
// Population-Based Bandits", https://arxiv.org/abs/2002.02518. Anchor: Ray Tune's PB2
// (python/ray/tune/schedulers/pb2.py and pb2_utils.py):
//  - Exploit exactly as pbt, with its options but the mutation ones; hyperparam_bounds
//    (param -> [low, high], numbers only) says what explore changes and within which range.
//  - Data: each perturbation point records (trial, time, hyperparameters, score). Consecutive
//    records of one trial with the same hyperparameters make an observation: input (time, score
//    before, hyperparameters), target the change of score per unit of time_attr.
//  - Model: a GP over the latest 200 observations (Ray's smallest window; Ray widens it when
//    the likelihood prefers, which needs its own GP code). Inputs are scaled to [0, 1]: time and
//    score by the range observed, hyperparameters by their bounds; targets standardised and
//    clipped to +-2, as Ray. Ray's kernel is a time-varying squared exponential (an RBF over
//    the hyperparameters times (1 - eps)^(|t - t'| / 2)); core/gaussian_process.h's Matern 5/2
//    with a length scale per input stands in for it, the time length scale doing eps's work of
//    discounting old observations. The likelihood search runs from the default and three random
//    starts the first time, then once from the last fit's hyperparameters (saved with the
//    state), as the data moves by a few observations between exploits: a bottom trial that
//    exploits every few fast iterations costs ~10x less (Ray optimises once from defaults).
//  - Selection: UCB at the source's (time, score): the GP mean plus sqrt(beta) times the
//    standard deviation of a second GP that also holds the configs already chosen this round
//    with target 0 (Ray's `current`), so one round's exploits spread out.
//    beta = 0.2 * log(0.4 * n) for n observations (Ray's constants; 0 below n = 3, where the
//    logarithm turns negative). Ray's code adds the variance; the paper's UCB, followed here,
//    adds the standard deviation. The acquisition is maximised from ten random starts, each
//    refined by a compass search (Ray: ten L-BFGS-B starts), plus the source's own values.
//  - While the source has no observation yet the exploit copies its config unchanged (Ray).
//  - After an exploit the trial's records restart at the source's (time, score) with the new
//    hyperparameters, so its next observation measures what the new values did.
//  - Integer parameters are truncated (Ray casts to the old value's type).
#pragma once

#include <Eigen/Dense>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

#include "core/experiment_spec.h"
#include "core/gaussian_process.h"
#include "core/pbt_scheduler.h"
#include "core/rng.h"
#include "core/scheduler.h"
#include "core/status.h"

namespace tunedeck {

// The `scheduler:` option keys pb2 takes, for the catalogue's unknown-option check.
QStringList pb2OptionNames();
// As validatePbtOptions, with hyperparam_bounds instead of the mutation options; on failure
// *badKey is "scheduler.<option>", "scheduler.hyperparam_bounds.<param>" or "metric".
Status validatePb2Options(const ExperimentSpec& spec, QString* badKey);
// Requires a spec that passed validatePb2Options.
std::unique_ptr<Scheduler> makePb2Scheduler(const ExperimentSpec& spec);

// One perturbation point of one trial.
struct Pb2Record {
    QString trialId;
    double time = 0;
    std::vector<double> values;  // one per bound, in the bounds' order
    double score = 0;            // higher is better
};

// The GP's training data made from the records.
struct Pb2Data {
    Eigen::MatrixXd x;  // rows (time, score before, hyperparameters), each scaled to [0, 1]
    Eigen::VectorXd y;  // change of score per unit of time, standardised and clipped
    // The source's latest observation: where the bandit is asked (scaled like x's first two
    // columns), and the unscaled time and score the exploited trial restarts from.
    bool hasSource = false;
    Eigen::Vector2d at = Eigen::Vector2d::Zero();
    double sourceTime = 0;
    double sourceScore = 0;
};
Pb2Data pb2Data(const std::vector<Pb2Record>& records, const std::vector<PbtBound>& bounds,
                const QString& sourceId);

class Pb2Explorer final : public PopulationExplorer {
  public:
    explicit Pb2Explorer(std::vector<PbtBound> bounds) : bounds_(std::move(bounds)) {}

    QString name() const override { return QStringLiteral("pb2"); }
    void recordScore(const QString& trialId, double time, const QJsonObject& config,
                     double score) override;
    QJsonObject explore(const QString& trialId, const QString& sourceId,
                        const QJsonObject& sourceConfig, Rng& rng) override;
    QJsonObject saveState() const override;
    Status restoreState(const QJsonObject& state) override;

    const std::vector<Pb2Record>& records() const { return records_; }

  private:
    // The bounded values, scaled to [0, 1], that maximise the UCB for `data`.
    Eigen::VectorXd select(const Pb2Data& data, const Eigen::VectorXd& start, Rng& rng);
    std::optional<std::vector<double>> valuesOf(const QJsonObject& config) const;

    std::vector<PbtBound> bounds_;
    std::vector<Pb2Record> records_;
    std::vector<std::vector<double>> current_;  // values chosen in this round
    double lastExplorationTime_ = 0;
    // The last fit's hyperparameters: the next fit searches once from there (the data moved
    // by a few observations), instead of from four starts.
    std::optional<GpHyperparameters> lastFit_;
};

}  // namespace tunedeck
