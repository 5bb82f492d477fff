#include "plots/study_plots.h"

#include "plots/contour_view.h"
#include "plots/edf_view.h"
#include "plots/optimization_history_view.h"
#include "plots/pareto_front_view.h"
#include "plots/slice_view.h"
#include "plots/timeline_view.h"

namespace tunedeck::app {

StudyPlots::StudyPlots(const ExperimentData* data, QWidget* parent)
    : QTabWidget(parent), data_(data) {
    setObjectName(QStringLiteral("studyPlots"));
    setDocumentMode(true);
    history_ = new OptimizationHistoryView(data);
    slice_ = new SliceView(data);
    contour_ = new ContourView(data);
    edf_ = new EdfView(data);
    timelineView_ = new TimelineView(data, &timeline_);
    pareto_ = new ParetoFrontView(data);
    pareto_->setObjectName(QStringLiteral("paretoFront"));
    addTab(history_, tr("History"));
    addTab(slice_, tr("Slice"));
    addTab(contour_, tr("Contour"));
    addTab(edf_, tr("Distribution"));
    addTab(timelineView_, tr("Timeline"));
    addTab(pareto_, tr("Pareto front"));
    setTabToolTip(0, tr("Optimisation history: each trial's value and the best so far"));
    setTabToolTip(3, tr("Empirical distribution function of the trials' values"));
    setTabToolTip(5, tr("The trials no other trial beats on every objective, on two objectives"));
    views_ = {history_, slice_, contour_, edf_, timelineView_, pareto_};
    for (StudyPlot* view : views_) {
        connect(view, &StudyPlot::trialClicked, this, &StudyPlots::trialClicked);
    }
}

void StudyPlots::apply(const events::Event& event) {
    if (timeline_.apply(event)) {
        timelineView_->refresh();
    }
}

void StudyPlots::clear() {
    timeline_.clear();
    refresh();
}

void StudyPlots::refresh() {
    timeline_.addFromRows(data_->trials());
    for (StudyPlot* view : views_) {
        view->refresh();
    }
}

void StudyPlots::setSelectedTrials(const QStringList& ids) {
    for (StudyPlot* view : views_) {
        view->setSelectedTrials(ids);
    }
}

}  // namespace tunedeck::app
