// Optimisation history (optuna-dashboard's first plot): each trial's value, by the window's
// "Best trial by" scope, as a point against its trial number or the time it reported it (a
// toggle), and the best-so-far line for the metric's mode, which ends at the best trial's score.
// The points are stamped from one pre-drawn marker, so 10,000 trials paint in a few
// milliseconds. Thread-safety: GUI thread only.
#pragma once

#include <QPixmap>
#include <vector>

#include "plots/plot_axis.h"
#include "plots/study_plot.h"
#include "plots/study_series.h"

class QComboBox;
class QLabel;

namespace tunedeck::app {

class OptimizationHistoryView : public StudyPlot {
    Q_OBJECT
  public:
    explicit OptimizationHistoryView(const ExperimentData* data, QWidget* parent = nullptr);

    bool byTime() const;
    void setByTime(bool on);
    QComboBox* axisBox() const { return axis_; }
    // What is drawn: one point per trial with a value, and the best-so-far line's points.
    const std::vector<TrialValue>& points() const { return points_; }
    const std::vector<QPointF>& bestLine() const { return best_; }
    // The trials ringed as the best: the best trial by the scope, or with several objectives
    // the Pareto front (ExperimentData::isBest, as every view marks them).
    QStringList markedBest() const;

  protected:
    void recompute() override;
    void paintPlot(QPainter& painter) override;
    QString trialAt(QPointF pos) const override;

  private:
    QPointF pixelOf(const TrialValue& value, const QRectF& area) const;

    QComboBox* axis_ = nullptr;
    QLabel* title_ = nullptr;  // what is drawn: with several objectives, no best line
    std::vector<TrialValue> points_;
    std::vector<QPointF> best_;
    PlotAxis x_;
    PlotAxis y_;
    QPixmap marker_;
};

}  // namespace tunedeck::app
