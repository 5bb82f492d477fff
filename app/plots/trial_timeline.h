// The run segments of each trial, for the timeline (Gantt) view: a segment opens when a trial's
// status becomes RUNNING and closes at its next status change, which says how it ended
// (completed, stopped early by a scheduler, paused, failed and restarted, requeued, failed for
// good); a trial stopped or failed while paused has its last segment say so. Built from the
// engine's trial_status events and their times (live, or replayed over the connection), with
// the card each trial used from its RUNNING event (the cards it was placed on), else from the
// node_usage samples, and the ranks it ran with (a gang's `ranks`: a resource change shows as a
// paused bar followed by one of another size). A trial known only from a folder's
// history, whose status changes are recorded without times (store::HistoryReader::readEvents),
// gets one segment from its start to its end. Thread-safety: plain value type; the window
// feeds it on the GUI thread.
#pragma once

#include <QHash>
#include <QString>
#include <vector>

#include "api/event_decoders.h"
#include "models/experiment_data.h"

namespace tunedeck::app {

struct TimelineSegment {
    enum class End {
        Running,
        Completed,
        StoppedEarly,
        StoppedByUser,
        Paused,
        Restarted,
        Requeued,
        Failed
    };

    QString trial;
    QString node;
    int gpu = -1;      // the card's index on its node; -1: none seen
    double start = 0;  // unix seconds
    double end = 0;    // unix seconds; while Running, its start (it reaches lastTime())
    End how = End::Running;
    QString reason;           // of the status change that ended it
    int workers = 1;          // the ranks it ran with (a gang's size; resource_changing changes it)
    bool fromFolder = false;  // one bar from start to end: the status changes had no times
};

class TrialTimeline {
  public:
    // Applies one event: trial_status opens and closes segments, node_usage names their cards,
    // and any event's time moves the end of the running bars. Returns whether what is drawn
    // changed.
    bool apply(const events::Event& event);
    void clear();
    // Gives each trial of `trials` that no status event opened a segment for one segment from
    // its start to its end (a folder read from disk); returns whether any was added.
    bool addFromRows(const std::vector<TrialRow>& trials);

    const std::vector<TimelineSegment>& segments() const { return segments_; }
    // The newest event's time: where the bars of running trials end.
    double lastTime() const { return lastTime_; }

  private:
    struct TrialState {
        int open = -1;  // index of its running segment
        int last = -1;  // index of its latest segment
        int failures = 0;
        QString node;
    };

    std::vector<TimelineSegment> segments_;
    QHash<QString, TrialState> trials_;
    double lastTime_ = 0;
    int running_ = 0;
};

}  // namespace tunedeck::app
