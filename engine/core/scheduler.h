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
#include <utility>
#include <vector>

#include "core/experiment_spec.h"
#include "core/status.h"
#include "core/trial.h"

namespace tunedeck {

struct SchedulerDecision {
    // Continue: keep training. Pause: save a checkpoint and give the slot back (the trial comes
    // back when chooseTrialToRun picks it). Stop: end the trial (TERMINATED).
    // Exploit (PBT): end this attempt, make the latest committed checkpoint of `source` this
    // trial's checkpoint (at this trial's own training_iteration, so its curve does not jump
    // back), replace the trial's config by `config`, and run it again from there. The runtime
    // records every exploit in the history; when `source` has no committed checkpoint it
    // drops the exploit with a warning and the trial continues unchanged.
    enum class Action { Continue, Pause, Stop, Exploit };
    Action action = Action::Continue;
    QString reason;  // shown to the user when the action is not Continue
    // Continue only: save a checkpoint now (PBT's top quantile, so others can copy it).
    bool checkpoint = false;
    QString source;      // Exploit: the trial copied from
    QJsonObject config;  // Exploit: the trial's config from now on
    // Pause only: start the trial again with this many workers (resource_changing); 0 keeps
    // its size.
    int workers = 0;
    // Pause only: the pause just gives the slot to waiting trials and judges nothing (the median
    // rule's give-way). A trial that cannot keep its progress at this iteration (it names no
    // checkpoint and cannot save on request) goes on instead: restarting it from an older
    // checkpoint, or from nothing, would only redo work.
    bool yields = false;

    static SchedulerDecision proceed() { return {}; }
    static SchedulerDecision proceedAndSave() {
        SchedulerDecision d;
        d.checkpoint = true;
        return d;
    }
    static SchedulerDecision stop(QString why) { return ending(Action::Stop, std::move(why)); }
    static SchedulerDecision pause(QString why) { return ending(Action::Pause, std::move(why)); }
    static SchedulerDecision giveWay(QString why) {
        SchedulerDecision d = ending(Action::Pause, std::move(why));
        d.yields = true;
        return d;
    }
    static SchedulerDecision resize(int workers, QString why) {
        SchedulerDecision d = ending(Action::Pause, std::move(why));
        d.workers = workers;
        return d;
    }
    static SchedulerDecision exploit(QString source, QJsonObject config, QString why) {
        SchedulerDecision d = ending(Action::Exploit, std::move(why));
        d.source = std::move(source);
        d.config = std::move(config);
        return d;
    }

  private:
    static SchedulerDecision ending(Action action, QString why) {
        SchedulerDecision d;
        d.action = action;
        d.reason = std::move(why);
        return d;
    }
};

// A trial that is not running (PAUSED or PENDING) which the scheduler has decided to end, e.g.
// the losers of a HyperBand bracket waiting at a rung.
struct StopOrder {
    QString trialId;
    QString reason;
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
    // The searcher has no trial to add for now: it is finished, or it waits while no trial
    // runs (so nothing will change its mind). A scheduler that waits for more trials before
    // judging (HyperBand fills a bracket first) judges with those it has.
    virtual void onSearcherIdle() {}

    // Among trials that could start now (PENDING or PAUSED, in creation order), the one to run
    // next, or nullopt to start none of them. FIFO: the first PENDING one, else the first PAUSED.
    virtual std::optional<QString> chooseTrialToRun(const std::vector<const Trial*>& waiting);

    // How many trials wait for a slot (PENDING or PAUSED, not held by the user); the runtime
    // says so whenever the number changes.
    virtual void onTrialsWaiting(int count) { (void)count; }
    // How many workers (ranks of resources_per_trial) the nodes up hold in all, when that
    // changes: what resource_changing hands out.
    virtual void onWorkerSlots(int count) { (void)count; }
    // Whether running trials give their slots to waiting ones at times (PBT pauses a member at
    // each perturbation while others wait): the runtime then keeps one trial that has never
    // run queued beside paused ones, so every member gets created and its turn, as when Ray
    // creates every trial up front.
    virtual bool sharesSlots() const { return false; }

    // Waiting trials to end now; the runtime asks after every result and completion, and
    // terminates each with its reason. Each order is returned once.
    virtual std::vector<StopOrder> takeStopOrders() { return {}; }

    // Exploits decided for trials that were not reporting (synchronous PBT ranks the members
    // waiting at a sync point when the last arrives): the runtime takes those of trials that
    // wait (PAUSED, PENDING) and applies them at once, as Ray changes a paused trial; a running
    // trial's is its decision at its next result.
    virtual std::vector<QString> exploitsDue() const { return {}; }
    virtual std::optional<SchedulerDecision> takeExploitDue(const QString& trialId) {
        (void)trialId;
        return std::nullopt;
    }

    // Result keys every result must carry for this scheduler to work, each with the key of the
    // experiment file that asked for it ("scheduler.time_attr"), so that a trial that never
    // reports one ends the experiment with exit 2 pointing at that line (as for `metric`).
    virtual std::vector<std::pair<QString, QString>> requiredResultKeys() const { return {}; }

    // Whether a trial whose result was `result` has gone as far as this scheduler lets any trial
    // go (ASHA's max_t), so that a trial restored from a checkpoint taken there is finished
    // instead of run on; the reason, or nullopt. Asks nothing of the scheduler's state.
    virtual std::optional<QString> endReached(const QJsonObject& result) const {
        (void)result;
        return std::nullopt;
    }

    virtual QJsonObject saveState() const { return {}; }
    virtual Status restoreState(const QJsonObject& state) {
        (void)state;
        return Status::ok();
    }
};

QStringList knownSchedulers();
// The option keys of the `scheduler:` mapping `type` takes besides the type; empty for an
// unknown name.
QStringList schedulerOptionNames(const QString& type);
Status validateScheduler(const ExperimentSpec& spec, QString* badKey);
std::unique_ptr<Scheduler> makeScheduler(const ExperimentSpec& spec);

// The experiment's own `stop:` criteria, applied to every result before the scheduler.
// Returns the reason when the trial should stop ("training_iteration >= 10"). A result whose
// `done` is true (Ray's function trainables report {"done": True} to finish) stops it too.
std::optional<QString> stopReason(const StopCriteria& stop, const QJsonObject& result);

}  // namespace tunedeck
