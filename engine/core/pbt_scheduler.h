// Population based training (`scheduler: {type: pbt}`), and the exploit/quantile machinery pb2
// shares with it (core/pb2_explore.h is pbt with another explore step).
// Pure strategy objects behind core/scheduler.h; not thread-safe (the runtime's event loop only).
//
// Paper: Jaderberg et al., 2017, "Population Based Training of Neural Networks",
// https://arxiv.org/abs/1711.09846. Anchor: Ray Tune's PopulationBasedTraining
// (python/ray/tune/schedulers/pbt.py), whose behaviour users compare us against:
//  - A trial is considered at its first result with time_attr >= burn_in_period and at least
//    perturbation_interval past its last perturbation (Ray's asynchronous mode). Its score is
//    recorded then, and the population (trials not finished that have a score) is ranked by
//    last recorded score; mode min is negated, ties keep creation order.
//  - Quantile size ceil(n * quantile_fraction), at most floor(n / 2); a lone scored trial is
//    the top (so it saves a checkpoint the others can copy later).
//  - Top quantile: continue and save a checkpoint now. Bottom quantile: exploit a top trial
//    drawn uniformly, and skip the exploit when that trial was not in the top at its own last
//    perturbation (Ray then holds no checkpoint of it). Everyone else continues.
//  - explore (Ray's _explore), per mutation in the order written: with probability
//    resample_probability a new value is drawn from the mutation's domain; otherwise a list
//    (written as a choice) moves to the value left or right of the current one (staying put at
//    an end; a value not in the list is resampled), and a number is multiplied by one of
//    perturbation_factors. Ray leaves the product unbounded; here it is clamped to the
//    mutation's range (as some Ray 2.x releases did), rounded to the domain's q, and truncated for
//    integer domains (Ray's int()). A value that is not a number cannot be scaled: resampled.
//  - custom_explore: Ray takes a Python function, which a YAML file cannot hold; here it is a
//    mapping param -> [low, high] that the explored value is clamped into afterwards.
//  - Ray moves an exploited trial's perturbation clock to the source's, because the trial goes
//    on at the source's iteration. Tunedeck's runtime keeps the trial's own training_iteration,
//    so the clock stays the trial's own; if time_attr goes backwards (a counter restored from the
//    copied checkpoint) the clock restarts there.
//  - Randomness: each trial draws from its own stream of the experiment seed (source choice and
//    explore), saved with the state, so a resumed run makes the same choices.
//  - synch: true (Ray's synchronous PBT, paper appendix A.1): a trial reaching the next sync
//    point pauses until every live trial has; the last to arrive ranks the population for all.
//    A paused trial can only be changed at its own next result, so a paused bottom trial gets
//    its exploit then (one iteration late); the sources' pause checkpoints are what it copies.
//    The last arrival itself continues (saving when top) instead of pausing as in Ray.
//  - Ray also pauses a trial at each perturbation while other trials wait for a slot, to
//    time-share the population; the scheduler is not told who waits, so trials continue here.
//    chooseTrialToRun still starts the least-trained waiting trial first, as Ray does.
//  - log_config is accepted for Ray's sake: the runtime records every exploit in the history.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/experiment_spec.h"
#include "core/rng.h"
#include "core/scheduler.h"
#include "core/search_space.h"
#include "core/status.h"

namespace tunedeck {

// The `scheduler:` option keys pbt takes, for the catalogue's unknown-option check.
QStringList pbtOptionNames();
// Option types and ranges, hyperparam_mutations against search_space; on failure *badKey is
// "scheduler.<option>" (or "scheduler.hyperparam_mutations.<param>", or "metric").
Status validatePbtOptions(const ExperimentSpec& spec, QString* badKey);
// Requires a spec that passed validatePbtOptions.
std::unique_ptr<Scheduler> makePbtScheduler(const ExperimentSpec& spec);

// PBT and PB2 copy checkpoints from trial to trial: an experiment whose checkpoints are turned
// off cannot use them (the catalogue checks `checkpoint` against this).
bool pbtNeedsCheckpoints();

// One exploit, as the history shows it.
struct PbtExploit {
    QString trialId;
    QString source;              // the trial copied from
    double time = 0;             // time_attr of the trial when it was decided
    std::int64_t iteration = 0;  // its training_iteration then
    QJsonObject oldConfig;       // the trial's config before
    QJsonObject sourceConfig;    // the config explored from
    QJsonObject newConfig;       // the trial's config from now on
};

// How a population scheduler picks the config an exploiting trial continues with.
class PopulationExplorer {
  public:
    virtual ~PopulationExplorer() = default;
    // "pbt" / "pb2": names reasons and saved states.
    virtual QString name() const = 0;
    // `trialId` reached a perturbation point at `time` with `config` and `score` (higher is
    // better), before the population is ranked.
    virtual void recordScore(const QString& trialId, double time, const QJsonObject& config,
                             double score) {
        (void)trialId;
        (void)time;
        (void)config;
        (void)score;
    }
    // The config `trialId` goes on with after copying `sourceId`'s checkpoint.
    virtual QJsonObject explore(const QString& trialId, const QString& sourceId,
                                const QJsonObject& sourceConfig, Rng& rng) = 0;
    virtual QJsonObject saveState() const { return {}; }
    virtual Status restoreState(const QJsonObject& state) {
        (void)state;
        return Status::ok();
    }
};

// What pbt's explore does with a config (see the header comment).
struct PbtMutation {
    QString path;  // dotted
    Domain domain;
    bool integer = false;  // truncate perturbed values (integer domain here or in search_space)
};
struct PbtBound {
    QString path;
    double low = 0;
    double high = 0;
    bool integer = false;
};
struct PbtExploreOptions {
    std::vector<PbtMutation> mutations;
    double resampleProbability = 0.25;
    std::vector<double> perturbationFactors{1.2, 0.8};
    std::vector<PbtBound> customExplore;
};
QJsonObject pbtExplore(const QJsonObject& config, const PbtExploreOptions& options, Rng& rng);

class PbtMutationExplorer final : public PopulationExplorer {
  public:
    explicit PbtMutationExplorer(PbtExploreOptions options) : options_(std::move(options)) {}
    QString name() const override { return QStringLiteral("pbt"); }
    QJsonObject explore(const QString& trialId, const QString& sourceId,
                        const QJsonObject& sourceConfig, Rng& rng) override;

  private:
    PbtExploreOptions options_;
};

class PbtScheduler final : public Scheduler {
  public:
    struct Options {
        QString timeAttr = QStringLiteral("time_total_s");
        QString metric;
        MetricMode mode = MetricMode::Max;
        double perturbationInterval = 60;
        double burnInPeriod = 0;
        double quantileFraction = 0.25;
        bool synch = false;
        bool requireAttrs = true;
        // Where the experiment file asked for the time attribute and the metric, for
        // requiredResultKeys ("scheduler.time_attr", "metric").
        QString timeAttrKey = QStringLiteral("scheduler.time_attr");
        QString metricKey = QStringLiteral("metric");
        std::uint64_t seed = 0;
    };

    PbtScheduler(Options options, std::unique_ptr<PopulationExplorer> explorer);

    void onTrialAdd(const Trial& trial) override;
    SchedulerDecision onResult(const Trial& trial, const QJsonObject& result) override;
    void onComplete(const Trial& trial, const QJsonObject& lastResult) override;
    void onError(const Trial& trial) override;
    std::optional<QString> chooseTrialToRun(const std::vector<const Trial*>& waiting) override;
    std::vector<std::pair<QString, QString>> requiredResultKeys() const override;
    QJsonObject saveState() const override;
    Status restoreState(const QJsonObject& state) override;

    // Every exploit decided so far, in order.
    std::vector<PbtExploit> exploits() const { return exploits_; }
    const PopulationExplorer& explorer() const { return *explorer_; }

  private:
    struct Member {
        std::int64_t index = 0;       // creation order: ties in the ranking keep it
        QJsonObject config;           // as of its last result (or the exploit that replaced it)
        std::optional<double> score;  // signed (higher is better), at its last perturbation
        double lastPerturbationTime = 0;
        double lastTrainTime = 0;    // time_attr at its last perturbation point
        std::int64_t iteration = 0;  // training_iteration of its last result
        bool finished = false;
        bool saved = false;  // in the top at its last perturbation, so it holds a checkpoint
        Rng rng;
        std::optional<SchedulerDecision> pending;  // synch: an exploit decided while paused
    };
    struct Quantiles {
        std::vector<QString> lower;
        std::vector<QString> upper;
        std::size_t ranked = 0;  // trials ranked
    };

    Member& memberOf(const Trial& trial);
    Quantiles quantiles() const;
    SchedulerDecision checkpointOrExploit(const QString& trialId, const Quantiles& q, double time,
                                          std::int64_t iteration);
    // Ranks everyone at a sync point; the decision for `current` (null: none reporting now).
    SchedulerDecision synchronise(const QString* current, double time);
    void releaseWaitingTrials();
    double signOf() const { return options_.mode == MetricMode::Min ? -1.0 : 1.0; }

    Options options_;
    std::unique_ptr<PopulationExplorer> explorer_;
    std::map<QString, Member> members_;
    double nextSync_ = 0;
    std::vector<PbtExploit> exploits_;
};

// What pbt and pb2 check and read alike (the `name` is used in messages):
// time_attr/metric/mode, perturbation_interval > 0, quantile_fraction in (0, 0.5], the boolean
// options among `booleans`, `numbers` finite, and one objective.
Status validatePopulationOptions(const ExperimentSpec& spec, const QString& name,
                                 const QStringList& numbers, const QStringList& booleans,
                                 QString* badKey);
PbtScheduler::Options populationOptions(const ExperimentSpec& spec);

// The scheduler option `option` read as a mapping param -> [low, high] (nested mappings for
// groups), each param in search_space and low <= high; *badKey "scheduler.<option>.<param>".
Status parseParamBounds(const ExperimentSpec& spec, const QString& option,
                        std::vector<PbtBound>* out, QString* badKey);

// The parameter of `space` at a dotted path through groups, or null.
const Parameter* parameterAtPath(const SearchSpace& space, const QString& dottedPath);
// A copy of `config` with `value` at a dotted path (intermediate groups created as needed).
QJsonObject withValueAtPath(QJsonObject config, const QString& dottedPath, const QJsonValue& value);

}  // namespace tunedeck
