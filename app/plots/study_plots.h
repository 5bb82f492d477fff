// The Study plots tab: optuna-dashboard's views of a study, over the window's live data
// (ExperimentData) and the trials' run segments (TrialTimeline, fed the same events): the
// optimisation history, the slice plot, the contour of two parameters, the empirical
// distribution, the timeline and, for several objectives, the Pareto front. Each view recomputes at
// most four times a second and only while shown. Thread-safety: GUI thread only.
#pragma once

#include <QTabWidget>

#include "api/event_decoders.h"
#include "models/experiment_data.h"
#include "plots/trial_timeline.h"

namespace tunedeck::app {

class ContourView;
class EdfView;
class OptimizationHistoryView;
class ParetoFrontView;
class SliceView;
class StudyPlot;
class TimelineView;

class StudyPlots : public QTabWidget {
    Q_OBJECT
  public:
    explicit StudyPlots(const ExperimentData* data, QWidget* parent = nullptr);

    // Every event of the experiment shown, as the window receives it.
    void apply(const events::Event& event);
    // Another experiment: forget the run segments.
    void clear();
    // The data changed (the window's frame tick).
    void refresh();
    void setSelectedTrials(const QStringList& ids);

    OptimizationHistoryView* history() const { return history_; }
    SliceView* slice() const { return slice_; }
    ContourView* contour() const { return contour_; }
    EdfView* edf() const { return edf_; }
    TimelineView* timelineView() const { return timelineView_; }
    ParetoFrontView* paretoFront() const { return pareto_; }
    const TrialTimeline& timeline() const { return timeline_; }

  signals:
    void trialClicked(const QString& trialId);

  private:
    const ExperimentData* data_;
    TrialTimeline timeline_;
    OptimizationHistoryView* history_ = nullptr;
    SliceView* slice_ = nullptr;
    ContourView* contour_ = nullptr;
    EdfView* edf_ = nullptr;
    TimelineView* timelineView_ = nullptr;
    ParetoFrontView* pareto_ = nullptr;
    std::vector<StudyPlot*> views_;
};

}  // namespace tunedeck::app
