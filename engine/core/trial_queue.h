// Which trial runs next: the scheduling pass the runtime makes whenever something changed (a
// node came up, a trial ended, the user resumed one). Each call of next() returns one step for
// the caller to carry out, and the pass ends at the first Wait:
//   Start(trial, placement)  start that waiting trial there (the scheduler chose it)
//   Suggest                  ask the searcher for one more trial, then call searcherAnswered()
//   SearcherIdle             tell the scheduler the searcher has nothing to add for now
//                            (HyperBand judges a bracket that waits for more trials)
//   Wait(cause, reason)      nothing more to do until the next event
// The rules (RUNTIME.md, "Scheduling"): trials are created lazily, one more only when no new one
// waits, so a short queue is always visible with its reason; a scheduler that shares slots
// (PBT) keeps one never-run member queued beside the paused ones; the searcher is told to the
// scheduler as idle once per pass when it waits with nothing running (a searcher waiting on
// trials that wait on it). Pure: the caller owns the trials, the searcher and the clock.
#pragma once

#include <QString>
#include <vector>

#include "core/experiment_spec.h"
#include "core/gang_placement.h"
#include "core/placement.h"
#include "core/scheduler.h"
#include "core/searcher.h"
#include "core/trial.h"

namespace tunedeck {

// The trials as the queue sees them at the start of a step, built with add().
struct QueueView {
    std::vector<const Trial*>
        waiting;  // PENDING or PAUSED, not held by the user, in creation order
    int running = 0;
    bool neverRunWaiting = false;  // a waiting trial that has never started
    bool searcherFinished = false;
    const std::vector<NodeCapacity>* nodes = nullptr;  // where trials can be placed
    // Under `serve`'s fair queue: how many trials may run at once now (-1: no such limit), and
    // the server's word for why no more may.
    int sharedSlots = -1;
    QString sharedSlotsWhy;

    // Counts a trial: `heldByUser` (paused by the user) is neither waiting nor running.
    void add(const Trial& trial, bool heldByUser, bool everStarted);
};

enum class WaitCause {
    Nothing,           // no trial waits, or the searcher has none to give now
    ConcurrencyLimit,  // max_concurrent_trials reached
    SharedQueue,       // the server's fair queue gave no more slots now
    Resources,         // the chosen trial fits no node now
};

struct QueueStep {
    enum class Kind { Start, Suggest, SearcherIdle, Wait };
    Kind kind = Kind::Wait;
    QString trialId;                       // Start
    Placement placement;                   // Start (rank 0's for a gang)
    GangPlacement gang;                    // Start of a gang trial: every rank's place
    WaitCause cause = WaitCause::Nothing;  // Wait
    QString reason;  // Wait (ConcurrencyLimit, Resources): shown on every waiting trial
};

class TrialQueue {
  public:
    TrialQueue(Scheduler& scheduler, const ExperimentSpec& spec);

    // A new pass: forgets what the searcher answered in the previous one.
    void beginPass();
    // The next step, given the trials as they are now. After Suggest, call searcherAnswered()
    // before the next step.
    QueueStep next(const QueueView& view);
    void searcherAnswered(Suggestion::Kind answer);
    // max_concurrent_trials changed while the run goes on (set_limits; 0: no limit). Running
    // trials above a lowered limit are not stopped: the next pass starts none until fewer run.
    void setMaxConcurrentTrials(int limit) { maxConcurrentTrials_ = limit; }

  private:
    enum class Asked { No, ForSharedSlots, ForNewTrial };

    Scheduler& scheduler_;
    int maxConcurrentTrials_ = 0;
    ResourceRequest request_;
    GangSpec gang_;
    // resource_changing: every trial is a gang, of one rank too, so that its size can change and
    // each size sees the same environment (WORLD_SIZE, MASTER_PORT, ...).
    bool resizable_ = false;
    PlacementStrategy strategy_ = PlacementStrategy::Pack;
    Asked asked_ = Asked::No;  // a Suggest whose answer is awaited
    bool sharedSlotSearcherWaits_ = false;
    bool newTrialSearcherWaited_ = false;  // the last Suggest for a new trial got Wait
    bool toldIdle_ = false;
};

}  // namespace tunedeck
