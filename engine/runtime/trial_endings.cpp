// The part of ExperimentRunner that ends trials the experiment no longer runs: those a scheduler
// has given up on, those whose checkpoint already meets their stop rule, and every trial once
// time_budget_s is spent.
#include <algorithm>

#include "api/events.h"
#include "core/experiment_end.h"
#include "runtime/experiment_runner.h"

namespace tunedeck {

void ExperimentRunner::applyStopOrders() {
    std::vector<StopOrder> orders = std::exchange(heldStopOrders_, {});
    for (StopOrder& order : scheduler_->takeStopOrders()) {
        orders.push_back(std::move(order));
    }
    for (const StopOrder& order : orders) {
        auto it = trials_.find(order.trialId);
        if (it == trials_.end()) {
            continue;
        }
        LiveTrial& live = it->second;
        const TrialStatus status = live.trial.status;
        if (status == TrialStatus::Running &&
            live.attempt.ending() == TrialAttempt::Ending::Pause) {
            heldStopOrders_.push_back(order);  // still saving its pause checkpoint
            continue;
        }
        if (status != TrialStatus::Paused && status != TrialStatus::Pending) {
            continue;  // running ones are stopped at their next result; finished ones are done
        }
        terminateWaiting(live, order.reason);
    }
    if (!orders.empty()) {
        savePolicyState(true);
    }
}

void ExperimentRunner::finishTrialsAtTheirEnd() {
    bool any = false;
    // Only waiting trials can be at their end: a copy, since ending one changes the roster.
    std::vector<std::int64_t> offRun(roster_.waiting().begin(), roster_.waiting().end());
    offRun.insert(offRun.end(), roster_.held().begin(), roster_.held().end());
    for (const std::int64_t index : offRun) {
        LiveTrial& live = byIndex(index);
        const Trial& trial = live.trial;
        if (trial.checkpointPath.isEmpty()) {
            continue;
        }
        // The result the trial would start from: the one reported with its latest checkpoint.
        const auto restored = std::find_if(
            live.checkpoints.rbegin(), live.checkpoints.rend(),
            [&](const CheckpointRecord& c) { return c.iteration == trial.checkpointIteration; });
        if (restored == live.checkpoints.rend()) {
            continue;
        }
        if (const std::optional<QString> why =
                endReachedAtCheckpoint(spec_.stop, *scheduler_, restored->result)) {
            terminateWaiting(live, *why);
            any = true;
        }
    }
    if (any) {
        savePolicyState(true);
    }
}

void ExperimentRunner::spendTimeBudget() {
    if (finished_ || stopping_) {
        return;
    }
    const QString reason = tr("time_budget_s (%1 s) spent").arg(*spec_.timeBudgetS);
    if (!budgetSpent_) {
        budgetSpent_ = true;
        const QString message = tr("%1: no new trials; running ones are stopped").arg(reason);
        emitEvent(events::type::kWarning, events::warning(message));
        reporter_->warning(message);
    }
    searcherFinished_ = true;
    for (auto& [id, live] : trials_) {
        if (live.trial.status == TrialStatus::Running) {
            // Ray stops them at once rather than at their next result, which may be long.
            if (live.attempt.stopNow(reason)) {
                sendToNode(live, QJsonObject{{"op", "kill"}, {"trial", id}, {"reason", reason}});
            }
        } else if (!isFinished(live.trial.status)) {
            terminateWaiting(live, reason);
        }
    }
    savePolicyState(true);
    maybeFinish();
}

}  // namespace tunedeck
