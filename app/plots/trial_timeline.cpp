#include "plots/trial_timeline.h"

#include <algorithm>

#include "core/early_stop.h"

namespace tunedeck::app {

namespace {

using End = TimelineSegment::End;

// How a run ended, from the status it changed to. A failure the engine retries shows as PENDING
// with one more failure (core/trial_attempt.h); PENDING without one is a requeue (an exploit, a
// node lost without counting against the trial).
End endOf(const events::TrialStatusEvent& status, int failuresBefore) {
    if (status.status == QLatin1String("PAUSED")) {
        return End::Paused;
    }
    if (status.status == QLatin1String("ERROR")) {
        return End::Failed;
    }
    if (status.status == QLatin1String("TERMINATED")) {
        return tunedeck::earlyStopOf(status.reason, status.iteration) ? End::StoppedEarly
               : tunedeck::stoppedByUser(status.reason)               ? End::StoppedByUser
                                                                      : End::Completed;
    }
    return status.failures > failuresBefore ? End::Restarted : End::Requeued;
}

}  // namespace

bool TrialTimeline::apply(const events::Event& event) {
    lastTime_ = std::max(lastTime_, event.time);
    if (const auto* status = event.as<events::TrialStatusEvent>()) {
        TrialState& state = trials_[status->trial];
        if (status->node) {
            state.node = *status->node;
        }
        bool changed = false;
        if (state.open >= 0 && status->status != QLatin1String("RUNNING")) {
            TimelineSegment& segment = segments_[std::size_t(state.open)];
            segment.end = event.time;
            segment.how = endOf(*status, state.failures);
            segment.reason = status->reason;
            state.open = -1;
            --running_;
            changed = true;
        }
        const bool ends = status->status == QLatin1String("TERMINATED") ||
                          status->status == QLatin1String("ERROR");
        if (state.open < 0 && ends && state.last >= 0 &&
            segments_[std::size_t(state.last)].how == End::Paused) {
            // Stopped (or failed) while paused, as synchronous HyperBand stops the trials it
            // paused at a rung: its last run is where it ended.
            TimelineSegment& segment = segments_[std::size_t(state.last)];
            segment.how = endOf(*status, state.failures);
            segment.reason = status->reason;
            changed = true;
        }
        if (state.open < 0 && status->status == QLatin1String("RUNNING")) {
            TimelineSegment segment;
            segment.trial = status->trial;
            segment.node = state.node;
            segment.gpu = status->gpus.empty() ? -1 : status->gpus.front();
            segment.workers = std::max(1, int(status->ranks.size()));
            segment.start = segment.end = event.time;
            state.open = state.last = int(segments_.size());
            segments_.push_back(segment);
            ++running_;
            changed = true;
        }
        state.failures = std::max(state.failures, status->failures);
        return changed;
    }
    if (const auto* usage = event.as<events::NodeUsageEvent>()) {
        bool changed = false;
        for (const events::GpuUsage& card : usage->gpus) {
            for (const QString& trial : card.trials) {
                auto it = trials_.find(trial);
                if (it == trials_.end() || it->open < 0) {
                    continue;
                }
                TimelineSegment& segment = segments_[std::size_t(it->open)];
                if (segment.gpu < 0 && segment.node == usage->node) {
                    segment.gpu = card.index;
                    changed = true;
                }
            }
        }
        return changed || running_ > 0;
    }
    return running_ > 0;  // running bars reach the newest time
}

void TrialTimeline::clear() {
    segments_.clear();
    trials_.clear();
    running_ = 0;
    lastTime_ = 0;
}

bool TrialTimeline::addFromRows(const std::vector<TrialRow>& trials) {
    bool added = false;
    for (const TrialRow& row : trials) {
        if (trials_.contains(row.id) || row.addedAt <= 0 ||
            row.status == QLatin1String("PENDING")) {
            continue;
        }
        TimelineSegment segment;
        segment.trial = row.id;
        segment.node = row.node;
        segment.start = row.addedAt;
        segment.end = std::max(row.lastAt, row.addedAt);
        segment.reason = row.reason;
        segment.fromFolder = true;
        if (row.status == QLatin1String("TERMINATED")) {
            segment.how = earlyStopOf(row)                      ? End::StoppedEarly
                          : tunedeck::stoppedByUser(row.reason) ? End::StoppedByUser
                                                                : End::Completed;
        } else if (row.status == QLatin1String("ERROR")) {
            segment.how = End::Failed;
        } else if (row.status == QLatin1String("PAUSED")) {
            segment.how = End::Paused;
        }
        // Known from now on: the events that come after the folder's apply on top.
        TrialState& state = trials_[row.id];
        state.node = row.node;
        state.last = int(segments_.size());
        if (segment.how == End::Running) {
            state.open = state.last;
            ++running_;
        }
        segments_.push_back(segment);
        lastTime_ = std::max(lastTime_, segment.end);
        added = true;
    }
    return added;
}

}  // namespace tunedeck::app
