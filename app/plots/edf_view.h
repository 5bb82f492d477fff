// The empirical distribution function of the trials' values (optuna-dashboard's EDF): for each
// value, the fraction of trials whose value, by the window's scope, is at or below it. A search
// that finds good configs often has its curve reach the good end early. Thread-safety: GUI
// thread only.
#pragma once

#include <vector>

#include "plots/plot_axis.h"
#include "plots/study_plot.h"

namespace tunedeck::app {

class EdfView : public StudyPlot {
    Q_OBJECT
  public:
    explicit EdfView(const ExperimentData* data, QWidget* parent = nullptr);

    // The steps drawn: (value, fraction of trials at or below it), one per distinct value.
    const std::vector<QPointF>& steps() const { return steps_; }
    int trialCount() const { return count_; }

  protected:
    void recompute() override;
    void paintPlot(QPainter& painter) override;

  private:
    std::vector<QPointF> steps_;
    int count_ = 0;
    PlotAxis x_;
    PlotAxis y_;
};

}  // namespace tunedeck::app
