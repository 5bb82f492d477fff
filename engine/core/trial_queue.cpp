#include "core/trial_queue.h"

#include <algorithm>

namespace tunedeck {

void QueueView::add(const Trial& trial, bool heldByUser, bool everStarted) {
    if (trial.status == TrialStatus::Running) {
        ++running;
    } else if ((trial.status == TrialStatus::Pending || trial.status == TrialStatus::Paused) &&
               !heldByUser) {
        waiting.push_back(&trial);
        neverRunWaiting = neverRunWaiting || !everStarted;
    }
}

TrialQueue::TrialQueue(Scheduler& scheduler, const ExperimentSpec& spec)
    : scheduler_(scheduler),
      maxConcurrentTrials_(spec.maxConcurrentTrials),
      request_(spec.resourcesPerTrial),
      gang_(spec.gang),
      resizable_(spec.scheduler.name == QLatin1String("resource_changing")),
      strategy_(spec.placement) {}

void TrialQueue::beginPass() {
    asked_ = Asked::No;
    sharedSlotSearcherWaits_ = false;
    newTrialSearcherWaited_ = false;
    toldIdle_ = false;
}

void TrialQueue::searcherAnswered(Suggestion::Kind answer) {
    const bool waits = answer == Suggestion::Kind::Wait;
    if (asked_ == Asked::ForSharedSlots) {
        sharedSlotSearcherWaits_ = sharedSlotSearcherWaits_ || waits;
    } else if (asked_ == Asked::ForNewTrial) {
        newTrialSearcherWaited_ = waits;
    }
    asked_ = Asked::No;
}

QueueStep TrialQueue::next(const QueueView& view) {
    QueueStep step;
    if (newTrialSearcherWaited_) {
        // The searcher has nothing now. With nothing running it may be waiting on trials that
        // wait on it (a bracket judged only when full): the scheduler hears so once a pass.
        newTrialSearcherWaited_ = false;
        if (view.running == 0 && !toldIdle_) {
            toldIdle_ = true;
            step.kind = QueueStep::Kind::SearcherIdle;
        }
        return step;
    }
    // A scheduler that shares slots (PBT) picks among every member, new ones included: keep one
    // that never ran queued beside the paused ones.
    if (scheduler_.sharesSlots() && !view.neverRunWaiting && !view.searcherFinished &&
        !sharedSlotSearcherWaits_) {
        asked_ = Asked::ForSharedSlots;
        step.kind = QueueStep::Kind::Suggest;
        return step;
    }
    if (!view.waiting.empty()) {
        if (maxConcurrentTrials_ > 0 && view.running >= maxConcurrentTrials_) {
            step.cause = WaitCause::ConcurrencyLimit;
            step.reason =
                QStringLiteral("max_concurrent_trials (%1) reached").arg(maxConcurrentTrials_);
            return step;
        }
        if (view.sharedSlots >= 0 && view.running >= view.sharedSlots) {
            step.cause = WaitCause::SharedQueue;
            step.reason = QStringLiteral("queued by the server: %1").arg(view.sharedSlotsWhy);
            return step;
        }
        if (std::optional<QString> pick = scheduler_.chooseTrialToRun(view.waiting)) {
            static const std::vector<NodeCapacity> kNoNodes;
            const std::vector<NodeCapacity>& nodes = view.nodes ? *view.nodes : kNoNodes;
            // Its own size (resource_changing resizes trials), else the experiment's.
            int workers = gang_.workers;
            for (const Trial* waiting : view.waiting) {
                if (waiting->id == *pick && waiting->workers > 0) {
                    workers = waiting->workers;
                }
            }
            if (workers > 1 || resizable_) {
                // All ranks or none: a gang never holds part of its resources while it waits.
                GangPlacement gang = placeGang(request_, workers, gang_.placement, nodes);
                if (!gang.placed) {
                    step.cause = WaitCause::Resources;
                    step.reason = QStringLiteral("waiting for resources: %1").arg(gang.reason);
                    return step;
                }
                step.placement = gang.ranks.front().placement;
                step.gang = std::move(gang);
            } else {
                Placement placement = place(request_, nodes, strategy_);
                if (!placement.placed) {
                    step.cause = WaitCause::Resources;
                    step.reason = QStringLiteral("waiting for resources: %1").arg(placement.reason);
                    return step;
                }
                step.placement = std::move(placement);
            }
            step.kind = QueueStep::Kind::Start;
            step.trialId = *pick;
            return step;
        }
    }
    // Nothing to start among existing trials: one more from the searcher, kept queued (with its
    // reason shown) when there is no room for it yet. Trials the scheduler keeps PAUSED
    // (HyperBand's, waiting at a rung for their bracket) do not hold new ones back.
    const bool newOneWaiting =
        std::any_of(view.waiting.begin(), view.waiting.end(),
                    [](const Trial* t) { return t->status == TrialStatus::Pending; });
    if (view.searcherFinished || newOneWaiting) {
        return step;
    }
    asked_ = Asked::ForNewTrial;
    step.kind = QueueStep::Kind::Suggest;
    return step;
}

}  // namespace tunedeck
