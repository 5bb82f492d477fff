// The part of ExperimentRunner that changes num_samples and max_concurrent_trials while the
// experiment runs (set_limits, core/experiment_limits.h). The searcher is built anew from the
// changed spec and given the old one's state, the way resume builds it from the stored state:
// the run goes on as if it had been started with the new values.
#include "api/events.h"
#include "runtime/experiment_runner.h"

namespace tunedeck {

Status ExperimentRunner::applyRecordedLimits() {
    const std::vector<EventRecord> changes = store_->loadEventsOfType(events::type::kLimits);
    if (changes.empty()) {
        return Status::ok();
    }
    for (const EventRecord& recorded : changes) {
        LimitsChange change;
        if (Status s = parseLimitsChange(recorded.payload, &change); !s) {
            return Status::corruption(tr("limits event %1: %2").arg(recorded.seq).arg(s.message()));
        }
        // Taken when it was made: only the created trials' check is left out (they only grew).
        if (Status s = applyLimitsChange(change, 0, &spec_); !s) {
            return Status::corruption(tr("limits event %1: %2").arg(recorded.seq).arg(s.message()));
        }
    }
    searcher_ = makeSearcher(spec_);
    queue_.setMaxConcurrentTrials(spec_.maxConcurrentTrials);
    return Status::ok();
}

Status ExperimentRunner::setLimits(const LimitsChange& change) {
    if (finished_ || stopping_) {
        return Status::invalid(tr("set_limits: the experiment is ending; its limits stay"));
    }
    ExperimentSpec changed = spec_;
    if (Status s = applyLimitsChange(change, nextTrialIndex_, &changed); !s) {
        return Status::invalid(tr("set_limits: %1").arg(s.message()));
    }
    if (changed.numSamples != spec_.numSamples) {
        Status why;
        std::unique_ptr<Searcher> searcher = searcherForLimits(*searcher_, changed, &why);
        if (!searcher) {
            return Status::invalid(tr("set_limits: %1").arg(why.message()));
        }
        searcher_ = std::move(searcher);
        // It may have more to propose now; a searcher with no more says Finished again.
        searcherFinished_ = false;
    }
    const QString was = tr("num_samples %1, max_concurrent_trials %2")
                            .arg(spec_.numSamples)
                            .arg(spec_.maxConcurrentTrials);
    spec_.numSamples = changed.numSamples;
    spec_.maxConcurrentTrials = changed.maxConcurrentTrials;
    queue_.setMaxConcurrentTrials(spec_.maxConcurrentTrials);
    emitEvent(events::type::kLimits, events::limits(change.numSamples, change.maxConcurrentTrials,
                                                    searcher_->totalTrials()));
    if (Status s = store_->flush(); !s) {
        return Status::ioError(tr("set_limits: cannot record the change: %1").arg(s.message()));
    }
    reporter_->notice(tr("limits changed (control request): num_samples %1, "
                         "max_concurrent_trials %2; were %3")
                          .arg(spec_.numSamples)
                          .arg(spec_.maxConcurrentTrials)
                          .arg(was));
    savePolicyState(true);
    pump();
    return Status::ok();
}

}  // namespace tunedeck
