// The part of ExperimentRunner that applies the user's orders (stop, pause, resume a trial; stop
// the experiment), given through the control API. Orders act where the scheduler's decisions
// act (at a trial's report, or at once on a waiting trial), so they go through the same paths.
#include <algorithm>

#include "api/events.h"
#include "core/trial_note.h"
#include "runtime/experiment_runner.h"

namespace tunedeck {

ExperimentRunner::LiveTrial* ExperimentRunner::findTrialForOrder(const QString& id, Status* why) {
    auto it = trials_.find(id);
    if (it == trials_.end()) {
        *why = Status::invalid(tr("there is no trial '%1' in experiment '%2'").arg(id, spec_.name));
        return nullptr;
    }
    if (isFinished(it->second.trial.status)) {
        *why = Status::invalid(tr("trial %1 has already finished (%2)")
                                   .arg(id, trialStatusName(it->second.trial.status)));
        return nullptr;
    }
    if (finished_ || stopping_) {
        *why = Status::invalid(tr("experiment '%1' is ending").arg(spec_.name));
        return nullptr;
    }
    *why = Status::ok();
    return &it->second;
}

void ExperimentRunner::terminateWaiting(LiveTrial& live, const QString& reason) {
    holdForUser(live, false);
    setStatus(live, TrialStatus::Terminated, reason);
    scheduler_->onComplete(live.trial, live.trial.lastResult);
    searcher_->onComplete(live.trial.id, live.trial.lastResult, false);
}

Status ExperimentRunner::stopTrial(const QString& id) {
    Status why;
    LiveTrial* live = findTrialForOrder(id, &why);
    if (!live) {
        return why;
    }
    if (live->trial.status == TrialStatus::Running) {
        live->attempt.orderAtNextReport(TrialAttempt::UserOrder::Stop);
    } else {
        terminateWaiting(*live, tr("stopped by the user"));
        savePolicyState(true);
        pump();
    }
    return Status::ok();
}

Status ExperimentRunner::pauseTrial(const QString& id) {
    Status why;
    LiveTrial* live = findTrialForOrder(id, &why);
    if (!live) {
        return why;
    }
    holdForUser(*live, true);
    tellSchedulerWhoWaits();
    if (live->trial.status == TrialStatus::Running) {
        live->attempt.orderAtNextReport(TrialAttempt::UserOrder::Pause);
    } else {
        setPendingReason(*live, tr("paused by the user"));
        pump();  // its place goes to another trial
    }
    return Status::ok();
}

Status ExperimentRunner::resumeTrial(const QString& id) {
    Status why;
    LiveTrial* live = findTrialForOrder(id, &why);
    if (!live) {
        return why;
    }
    if (!live->heldByUser) {
        return Status::invalid(tr("trial %1 is not paused by the user (it is %2)")
                                   .arg(id, trialStatusName(live->trial.status)));
    }
    holdForUser(*live, false);
    tellSchedulerWhoWaits();
    if (live->attempt.userOrder() == TrialAttempt::UserOrder::Pause) {
        // not carried out yet: it just goes on
        live->attempt.orderAtNextReport(TrialAttempt::UserOrder::None);
    }
    if (live->trial.status != TrialStatus::Running) {
        setPendingReason(*live, tr("resumed by the user"));
    }
    pump();
    return Status::ok();
}

void ExperimentRunner::stopExperiment() {
    if (finished_ || stopping_) {
        return;
    }
    searcherFinished_ = true;
    emitEvent(events::type::kWarning,
              events::warning(tr("experiment '%1' stopped by the user: no new trials; running "
                                 "ones stop at their next report")
                                  .arg(spec_.name)));
    for (auto& [id, live] : trials_) {
        if (live.trial.status == TrialStatus::Running) {
            live.attempt.orderAtNextReport(TrialAttempt::UserOrder::Stop);
        } else if (!isFinished(live.trial.status)) {
            terminateWaiting(live, tr("stopped by the user"));
        }
    }
    savePolicyState(true);
    maybeFinish();
}

}  // namespace tunedeck

namespace tunedeck {

void ExperimentRunner::setSharedSlots(int count, const QString& why) {
    if (!options_.sharedSlots) {
        return;
    }
    sharedSlots_ = std::max(0, count);
    sharedSlotsWhy_ = why;
    pump();
}

ExperimentRunner::TrialDemand ExperimentRunner::trialDemand(std::int64_t mostFuture) const {
    TrialDemand demand;
    if (stopping_ || finished_) {
        return demand;
    }
    demand.running = std::int64_t(roster_.running().size());
    for (const std::int64_t index : roster_.waiting()) {
        demand.waiting.push_back(trialIdForIndex(index));
    }
    // Trials are created one at a time, when none waits (RUNTIME.md, "Scheduling"): counted
    // alone, they would grow a cluster one node at a time, as Ray's capped pending trials do
    // (ray-project/ray #43451), and understate a queue's want. The searcher's remaining trials
    // are demand too, until it or the time budget is done.
    if (!searcherFinished_ && !budgetSpent_) {
        const std::optional<std::int64_t> total = searcher_->totalTrials();
        demand.future = std::min(
            mostFuture, total ? std::max<std::int64_t>(0, *total - nextTrialIndex_) : mostFuture);
    }
    if (spec_.maxConcurrentTrials > 0) {
        const auto room =
            std::size_t(std::max<std::int64_t>(0, spec_.maxConcurrentTrials - demand.running));
        if (demand.waiting.size() > room) {
            demand.waiting.resize(room);
        }
        demand.future =
            std::min(demand.future, std::int64_t(room) - std::int64_t(demand.waiting.size()));
    }
    return demand;
}

Status ExperimentRunner::setTrialNote(const QString& id, const QString& note) {
    if (trials_.find(id) == trials_.end()) {
        return Status::invalid(tr("there is no trial '%1' in experiment '%2'").arg(id, spec_.name));
    }
    if (Status s = checkTrialNote(note); !s) {
        return s;
    }
    // Any trial, finished or not: a note is about the trial, not an order to it.
    emitEvent(events::type::kTrialNote, events::trialNote(id, note));
    if (Status s = store_->flush(); !s) {
        return Status::ioError(tr("set_trial_note: cannot record the note: %1").arg(s.message()));
    }
    return Status::ok();
}

void ExperimentRunner::reportSlotDemand() {
    if (!options_.sharedSlots) {
        return;
    }
    // The queue hands out room one trial at a time; room granted and not taken is given back
    // at the next report.
    constexpr std::int64_t kUnbounded = 1 << 20;
    const TrialDemand now = trialDemand(kUnbounded);
    SlotDemand demand;
    demand.running = int(now.running);
    demand.wanted = int(std::min(kUnbounded, std::int64_t(now.waiting.size()) + now.future));
    demand.cpu = spec_.resourcesPerTrial.cpu;
    demand.gpu = spec_.resourcesPerTrial.gpu;
    if (!(demand == lastDemand_)) {
        lastDemand_ = demand;
        emit slotDemandChanged(demand);
    }
}

}  // namespace tunedeck
