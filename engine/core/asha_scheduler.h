// Asynchronous successive halving (`scheduler: {type: asha}`), as Ray Tune's ASHAScheduler.
// Pure strategy object behind core/scheduler.h; not thread-safe (the runtime's event loop only).
//
// Paper: Li et al., 2018, "A System for Massively Parallel Hyperparameter Tuning" (ASHA),
// https://arxiv.org/abs/1810.05934. Anchor: Ray Tune's AsyncHyperBandScheduler
// (python/ray/tune/schedulers/async_hyperband.py), whose behaviour users compare us against, so
// we follow it rather than the paper where they differ:
//  - Rungs sit at grace_period * reduction_factor^(k + s) for bracket s, with
//    int(log(max_t / grace_period) / log(reduction_factor) - s + 1) rungs, computed in doubles
//    exactly as Ray does (so a rung may land on max_t itself when the ratio is a power).
//  - A trial is judged once per rung, at its first result at or past the rung: it stops when its
//    value is below the (1 - 1/reduction_factor) percentile (linear interpolation, numpy's
//    default) of the values recorded at that rung so far, its own value excluded. The paper
//    instead promotes the top 1/rf of a rung to the next one; Ray's "stop unless in the top
//    fraction seen so far" is the asynchronous reading of the same rule.
//  - mode min is handled by negating the metric, so "below the cutoff" always means worse.
//  - A result at or past max_t stops the trial (Ray's stop_last_trials, true by default); with
//    `stop_last_trials: false` it is judged at the rungs like any other result, so a trial that
//    survives the top rung keeps running until the experiment's own `stop` ends it. The final
//    result of a finished trial is still recorded at its rung (Ray's on_trial_complete), so later
//    trials compare against it.
//  - Several brackets: each new trial picks one at random with probability softmax(number of
//    rungs), as Ray does. Ray uses numpy's global generator; we draw from the experiment seed's
//    stream for the trial's index, so the same seed gives the same brackets on every run.
//  - Results without the time attribute or the metric are ignored (the trial continues).
#pragma once

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

#include "core/experiment_spec.h"
#include "core/scheduler.h"
#include "core/status.h"

namespace tunedeck {

// The `scheduler:` option keys asha takes, for the catalogue's unknown-option check.
QStringList ashaOptionNames();
// Option types and ranges; on failure *badKey is "scheduler.<option>".
Status validateAshaOptions(const ExperimentSpec& spec, QString* badKey);
// Requires a spec that passed validateAshaOptions.
std::unique_ptr<Scheduler> makeAshaScheduler(const ExperimentSpec& spec);

class AshaScheduler final : public Scheduler {
  public:
    struct Options {
        QString timeAttr = QStringLiteral("training_iteration");
        QString metric;
        MetricMode mode = MetricMode::Max;
        double maxT = 100;
        double gracePeriod = 1;
        double reductionFactor = 4;
        int brackets = 1;
        bool stopLastTrials = true;  // Ray's default: max_t stops a trial
        std::uint64_t seed = 0;      // picks brackets when there are several
    };

    explicit AshaScheduler(Options options);

    void onTrialAdd(const Trial& trial) override;
    SchedulerDecision onResult(const Trial& trial, const QJsonObject& result) override;
    void onComplete(const Trial& trial, const QJsonObject& lastResult) override;
    std::optional<QString> endReached(const QJsonObject& result) const override;
    QJsonObject saveState() const override;
    Status restoreState(const QJsonObject& state) override;

    // Rung milestones of `bracket`, highest first (for tests and messages).
    std::vector<double> milestones(int bracket) const;

  private:
    struct Rung {
        double milestone = 0;
        QMap<QString, double> recorded;  // trial id -> signed value (negated for mode min)
    };
    struct Bracket {
        std::vector<Rung> rungs;  // highest milestone first, as Ray keeps them
    };

    SchedulerDecision judge(Bracket& bracket, const QString& trialId, double time, double value);
    int bracketOf(const Trial& trial);

    Options options_;
    std::vector<Bracket> brackets_;
    QMap<QString, int> trialBracket_;
};

}  // namespace tunedeck
