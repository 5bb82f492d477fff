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
//  - explore: see core/pbt_explore.h; the options: core/pbt_options.h.
//  - Ray moves an exploited trial's perturbation clock to the source's, because the trial goes
//    on at the source's iteration. Tunedeck's runtime carries the trial on to the source
//    checkpoint's iteration only when that is further on (a source behind leaves the trial's
//    reported results in place), so the clock stays the trial's own and next perturbs one
//    interval after its own last; if time_attr goes backwards (a counter restored from the
//    copied checkpoint) the clock restarts there.
//  - Randomness: each trial draws from its own stream of the experiment seed (source choice and
//    explore), saved with the state, so a resumed run makes the same choices.
//  - synch: true (Ray's synchronous PBT, paper appendix A.1): a trial reaching the next sync
//    point pauses until every live trial has; the last to arrive ranks the population for all.
//    A paused bottom trial's exploit is due at once (exploitsDue): the runtime copies the
//    source's checkpoint of the sync point into it while it waits (after that checkpoint is
//    committed, when the source is the last arrival still saving it), so the outcome does not
//    depend on which member arrived last. One that could not pause (it cannot save) gets its
//    exploit at its next result. The last arrival itself continues (saving when top) instead
//    of pausing as in Ray.
//  - Ray pauses a trial at each perturbation while other trials wait for a slot ("yield time
//    to other trials"), so a population larger than the slots coexists and is ranked together
//    instead of running two by two to the end. The same here (asynchronous mode): a trial that
//    would continue at its perturbation pauses (saving a checkpoint, which a top trial needed
//    anyway) while the runtime reports waiting trials; an exploited trial ends its attempt in
//    any case. chooseTrialToRun starts the least-trained waiting trial first, as Ray does, and
//    sharesSlots() has the runtime create every member before paused ones resume.
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
#include "core/pbt_explore.h"
#include "core/pbt_options.h"
#include "core/rng.h"
#include "core/scheduler.h"
#include "core/status.h"

namespace tunedeck {

// Requires a spec that passed validatePbtOptions.
std::unique_ptr<Scheduler> makePbtScheduler(const ExperimentSpec& spec);

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
    void onTrialsWaiting(int count) override { waiting_ = count; }
    bool sharesSlots() const override { return true; }
    std::vector<QString> exploitsDue() const override;
    std::optional<SchedulerDecision> takeExploitDue(const QString& trialId) override;
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
    // synch: the exploits decided for members while they were not reporting, until taken.
    std::map<QString, SchedulerDecision> due_;
    double nextSync_ = 0;
    int waiting_ = 0;  // trials waiting for a slot, as the runtime last said
    std::vector<PbtExploit> exploits_;
};

// What pbt and pb2 read alike from their options (checked by validatePopulationOptions).
PbtScheduler::Options populationOptions(const ExperimentSpec& spec);

}  // namespace tunedeck
