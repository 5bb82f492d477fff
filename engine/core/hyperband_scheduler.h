// Synchronous HyperBand (`scheduler: {type: hyperband}`), as Ray Tune's HyperBandScheduler: trials
// are paused at their bracket's rung until the whole rung is in, then the top 1/eta go on.
// Pure strategy object behind core/scheduler.h; not thread-safe (the runtime's event loop only).
//
// Paper: Li et al., 2017, "Hyperband: A Novel Bandit-Based Approach to Hyperparameter
// Optimization", https://arxiv.org/abs/1603.06560. Anchor: Ray Tune's HyperBandScheduler
// (python/ray/tune/schedulers/hyperband.py), whose bracket shapes users compare us against:
//  - s_max + 1 = round(log(max_t) / log(eta)) + 1 brackets make a band. Bracket s starts with
//    n_0 = ceil((s_max + 1) / (s + 1) * eta^s) trials and milestone r_0 = trunc(max_t / eta^s);
//    each halving keeps n = ceil(n / eta) and moves the milestone to trunc(min(r * eta, max_t)).
//    For max_t 81, eta 3: (5, 81); (8, 27) (3, 81); (15, 9) (5, 27) (2, 81); ... (1, 81).
//  - Trials fill brackets as they are added, s = 0 first (5 trials run straight to max_t), then
//    s = 1, ..., s_max, then a new band. A bracket whose r_0 is 0 is skipped, as Ray does.
//  - A trial continues until its result reaches the milestone, then pauses (checkpoint saved,
//    slot freed). When every live trial of the bracket is at or past it, the bracket keeps the
//    best n (ties: the trial added later wins, as Ray's stable sort), stops the others and lets
//    the kept ones resume. The last rung ends the bracket: with stop_last_trials every trial
//    stops there; without, they run on until they finish by themselves.
//  - A trial that finishes or errors leaves its bracket, and the rung is judged without it.
//  - chooseTrialToRun goes band by band, brackets least complete first, as Ray; within a
//    bracket, trials that won their rung go before new ones, so a rung ends before the next
//    starts. Paused trials still waiting for their rung are never picked.
// Where we differ from Ray, so the experiment cannot stall:
//  - When the kept trials are all past the new milestone already (a result jumped ahead), the
//    next rung is judged at once instead of waiting for a result that never comes.
//  - A bracket left with no live trials is not halved (Ray collapses it to its last rung), and a
//    finished bracket takes no new trials (Ray lets one in, to run unjudged to max_t).
//  - On resume, each trial re-added after restoreState() updates its bracket from its last
//    result, as the saved state may be older than the history.
//  - A trial that never reported the metric ranks last; results without time_attr are ignored
//    (the runtime ends the run when a trial never reports it, see requiredResultKeys()).
//
// The options are checked and read in core/hyperband_options.h.
#pragma once

#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/experiment_spec.h"
#include "core/hyperband_options.h"
#include "core/scheduler.h"
#include "core/status.h"

namespace tunedeck {

// Requires a spec that passed validateHyperbandOptions.
std::unique_ptr<Scheduler> makeHyperbandScheduler(const ExperimentSpec& spec);
// Every milestone at which the hyperband scheduler of `spec` judges trials, ascending, once
// each (1, 3, 9, 27, 81 for the defaults): the budgets bohb models the loss at.
std::vector<double> hyperbandBudgets(const ExperimentSpec& spec);

class HyperbandScheduler final : public Scheduler {
  public:
    struct Options {
        QString timeAttr = QStringLiteral("training_iteration");
        QString metric;
        MetricMode mode = MetricMode::Max;
        double maxT = 81;
        double reductionFactor = 3;
        bool stopLastTrials = true;
    };
    // One rung of a bracket as it is planned: how many trials it keeps and where it judges.
    struct Rung {
        double trials = 0;
        double milestone = 0;
    };

    explicit HyperbandScheduler(Options options);

    void onTrialAdd(const Trial& trial) override;
    SchedulerDecision onResult(const Trial& trial, const QJsonObject& result) override;
    void onComplete(const Trial& trial, const QJsonObject& lastResult) override;
    void onSearcherIdle() override;
    void onError(const Trial& trial) override;
    std::optional<QString> chooseTrialToRun(const std::vector<const Trial*>& waiting) override;
    std::vector<StopOrder> takeStopOrders() override;
    // A trial at max_t has nothing left to run: restored there (a resume, a retry), it ends.
    std::optional<QString> endReached(const QJsonObject& result) const override;
    std::vector<std::pair<QString, QString>> requiredResultKeys() const override;
    QJsonObject saveState() const override;
    Status restoreState(const QJsonObject& state) override;

    // Brackets in a band (s_max + 1).
    int bracketsPerBand() const { return sMax1_; }
    // The rungs bracket s goes through when it is full: (n_i, r_i) for i = 0..s.
    std::vector<Rung> plannedRungs(int s) const;
    // The bracket number s of a trial's bracket, or nullopt when it has none (not added, or
    // it left its bracket).
    std::optional<int> bracketOf(const QString& trialId) const;

  private:
    struct Member {
        QString trialId;
        std::optional<double> time;   // last time_attr value reported
        std::optional<double> value;  // last metric value, signed so that larger is better
    };
    struct Bracket {
        int s = 0;
        int band = 0;
        int rung = 0;  // halvings done so far
        double n = 0;  // trials it keeps now
        double milestone = 0;
        double progress = 0;       // time_attr units trained, for Ray's fair choice of trials
        std::vector<Member> live;  // in the order added (Ray's dict order)
        // Trials ever given to it: a bracket is full at its first n, even when some already
        // finished (trials are created as slots free up, so members leave while it fills).
        int assigned = 0;
        QSet<QString> toResume;  // kept at the last rung, paused, not yet picked to run
        bool finished = false;
    };

    Bracket freshBracket(int s, int band) const;
    void halveOnce(Bracket& bracket) const;
    double totalWork(int s) const;
    double completion(const Bracket& bracket) const;
    bool reachedMilestone(const Bracket& bracket, const Member& member) const;
    bool keepsRunning(const Bracket& bracket, const Member& member) const;
    bool rungDone(const Bracket& bracket) const;
    // Judges the bracket's rung when it is complete; returns what `current` (the trial whose
    // result is being answered, or empty) does next. Other trials get stop orders or resume.
    SchedulerDecision process(int bracketIndex, const QString& current);
    void leave(const QString& trialId);
    void recover(const Trial& trial);
    // Takes in a result's time and metric; false when it has no time_attr.
    bool record(Bracket& bracket, Member& member, const QJsonObject& result);
    // Ends a trial: `current` through *decision, any other through a stop order.
    void retire(const QString& trialId, const QString& reason, const QString& current,
                std::optional<SchedulerDecision>* decision);
    QString bracketName(const Bracket& bracket) const;
    Member* memberOf(Bracket& bracket, const QString& trialId);

    Options options_;
    int sMax1_ = 1;
    std::vector<Bracket> brackets_;  // in creation order
    int currentBracket_ = -1;        // where new trials go while it has room
    // No trial will come until one finishes, so brackets that are not full are judged as
    // they are; reset when a trial is added.
    bool searcherIdle_ = false;
    int band_ = 0;
    int bandLength_ = 0;                 // brackets started in the current band (skipped too)
    QMap<QString, int> trialBracket_;    // every trial ever added -> bracket index
    QMap<QString, QString> retired_;     // trials this scheduler ended -> why
    std::vector<StopOrder> stopOrders_;  // not yet taken by the runtime
};

}  // namespace tunedeck
