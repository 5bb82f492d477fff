// Trial schedulers decide, at each reported result, whether a trial continues, pauses or stops
// (Ray Tune's TrialScheduler), and which waiting trial runs next. Pure strategy objects: the
// runtime feeds results in order and applies the decisions; no clock, no I/O.
// Not thread-safe: the runtime calls them from its event loop only.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

#include "core/experiment_spec.h"
#include "core/status.h"
#include "core/trial.h"

namespace tunedeck {

struct SchedulerDecision {
    enum class Action { Continue, Pause, Stop };
    Action action = Action::Continue;
    QString reason;  // shown to the user when the action is not Continue

    static SchedulerDecision proceed() { return {}; }
    static SchedulerDecision stop(QString why) { return {Action::Stop, std::move(why)}; }
    static SchedulerDecision pause(QString why) { return {Action::Pause, std::move(why)}; }
};

class Scheduler {
  public:
    virtual ~Scheduler() = default;

    virtual void onTrialAdd(const Trial& trial) { (void)trial; }
    virtual SchedulerDecision onResult(const Trial& trial, const QJsonObject& result) = 0;
    virtual void onComplete(const Trial& trial, const QJsonObject& lastResult) {
        (void)trial;
        (void)lastResult;
    }
    virtual void onError(const Trial& trial) { (void)trial; }

    // Among trials that could start now (PENDING or PAUSED, in creation order), the one to run
    // next, or nullopt to start none of them. FIFO: the first.
    virtual std::optional<QString> chooseTrialToRun(const std::vector<const Trial*>& waiting);

    virtual QJsonObject saveState() const { return {}; }
    virtual Status restoreState(const QJsonObject& state) {
        (void)state;
        return Status::ok();
    }
};

QStringList knownSchedulers();
Status validateScheduler(const ExperimentSpec& spec, QString* badKey);
std::unique_ptr<Scheduler> makeScheduler(const ExperimentSpec& spec);

// The experiment's own `stop:` criteria, applied to every result before the scheduler.
// Returns the reason when the trial should stop ("training_iteration >= 10").
std::optional<QString> stopReason(const StopCriteria& stop, const QJsonObject& result);

}  // namespace tunedeck
