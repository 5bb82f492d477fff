// The median stopping rule (`scheduler: {type: median}`), as Ray Tune's MedianStoppingRule.
// Pure strategy object behind core/scheduler.h; not thread-safe (the runtime's event loop only).
//
// Paper: Golovin et al., 2017, "Google Vizier: A Service for Black-Box Optimization" (KDD),
// section 3.2.2: stop a trial whose best value by step t is strictly worse than the median of
// the other trials' running averages up to t. Anchor: Ray Tune's MedianStoppingRule
// (python/ray/tune/schedulers/median_stopping_rule.py), followed where it refines the paper:
//  - Nothing is judged before grace_period (in time_attr units); running averages only count
//    results from grace_period to t, and "other trials" are those whose latest result is at or
//    past t (finished trials included).
//  - With fewer than min_samples_required such trials, the trial is paused to give way to
//    waiting trials when some are waiting and it ran min_time_slice since its last such pause;
//    otherwise it continues. These pauses happen whatever hard_stop says, as in Ray.
//  - hard_stop false pauses instead of stopping; a paused-for-being-bad trial then runs to the
//    end when it is resumed (Ray's "fall back to FIFO").
// Which trials wait, Ray asks its trial runner; the loop tells us how many (onTrialsWaiting). A
// trial with no result inside the [grace_period, t] window has no running average: Ray's numpy then
// yields NaN, which stops the trial being judged; we leave such trials out of the median (and
// continue when none is left). Results without the time attribute or the metric are ignored.
#pragma once

#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>
#include <memory>
#include <utility>
#include <vector>

#include "core/experiment_spec.h"
#include "core/scheduler.h"
#include "core/status.h"

namespace tunedeck {

// The `scheduler:` option keys median takes, for the catalogue's unknown-option check.
QStringList medianOptionNames();
// Option types and ranges; on failure *badKey is "scheduler.<option>".
Status validateMedianOptions(const ExperimentSpec& spec, QString* badKey);
// Requires a spec that passed validateMedianOptions.
std::unique_ptr<Scheduler> makeMedianScheduler(const ExperimentSpec& spec);

class MedianStoppingScheduler final : public Scheduler {
  public:
    struct Options {
        QString timeAttr = QStringLiteral("time_total_s");
        QString metric;
        MetricMode mode = MetricMode::Max;
        double gracePeriod = 60;
        int minSamplesRequired = 3;
        double minTimeSlice = 0;
        bool hardStop = true;
    };

    explicit MedianStoppingScheduler(Options options) : options_(std::move(options)) {}

    SchedulerDecision onResult(const Trial& trial, const QJsonObject& result) override;
    void onComplete(const Trial& trial, const QJsonObject& lastResult) override;
    void onTrialsWaiting(int count) override { waiting_ = count; }
    // PENDING trials first, in creation order; then PAUSED ones, those that gave way longest ago
    // first: a trial that gives way does not take its slot back before the others had a turn.
    std::optional<QString> chooseTrialToRun(const std::vector<const Trial*>& waiting) override;
    QJsonObject saveState() const override;
    Status restoreState(const QJsonObject& state) override;

  private:
    using Point = std::pair<double, double>;  // (time, metric value) of one result

    std::optional<double> runningMean(const QString& trialId, double time) const;
    bool better(double a, double b) const;

    Options options_;
    QMap<QString, std::vector<Point>> results_;
    QSet<QString> judgedBad_;          // paused for being worse than the median (hard_stop off)
    QMap<QString, double> lastPause_;  // time of the last give-way pause per trial
    QMap<QString, qint64> gaveWayAt_;  // per trial, the number of its last give-way (in order)
    qint64 giveWays_ = 0;
    int waiting_ = 0;  // trials PENDING or PAUSED, not held by the user
};

}  // namespace tunedeck
