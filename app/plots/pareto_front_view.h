// The Pareto front plot (optuna-dashboard's, Optuna's plot_pareto_front) of an experiment with
// several objectives: each trial a point at its scores on two objectives the user picks (by the
// window's "Best trial by" scope), the trials on the Pareto front over every objective
// (ExperimentData::paretoFront, the trials `tunedeck-engine best` prints) drawn strong and, with
// two objectives, joined by the front line; the trials they dominate dimmed. Hovering names a
// trial, a click selects its row. Thread-safety: GUI thread only.
#pragma once

#include <QPixmap>
#include <QStringList>
#include <vector>

#include "plots/plot_axis.h"
#include "plots/study_plot.h"

class QComboBox;

namespace tunedeck::app {

class ParetoFrontView : public StudyPlot {
    Q_OBJECT
  public:
    explicit ParetoFrontView(const ExperimentData* data, QWidget* parent = nullptr);

    // The objectives on the axes, as indices into ExperimentData::objectives().
    void setAxes(int xObjective, int yObjective);
    int xObjective() const;
    int yObjective() const;
    // What is drawn: the trials on the front and the others, and where a trial's point is on
    // the canvas (NaN when it has none).
    QStringList frontTrials() const;
    int pointCount() const { return int(points_.size()); }
    QPointF pointOf(const QString& trialId) const;

  protected:
    void recompute() override;
    void paintPlot(QPainter& painter) override;
    QString trialAt(QPointF pos) const override;
    QString toolTipOf(const QString& trialId) const override;

  private:
    struct Point {
        int row = 0;
        double x = 0;
        double y = 0;
        bool front = false;
    };
    // The objectives' names into the pickers, when they changed (another experiment).
    void fillPickers();
    QRectF plotArea() const;
    // The markers, drawn once per colour and stamped: 10,000 antialiased ellipses cost about
    // 15 ms a frame, stamps about a millisecond.
    void makeMarkers(const QColor& dim, qreal pixelRatio);
    QPointF pixelOf(const Point& point, const QRectF& area) const;

    QComboBox* xPick_ = nullptr;
    QComboBox* yPick_ = nullptr;
    QStringList pickerNames_;
    std::vector<Point> points_;  // the dominated first, so the front is painted over them
    std::vector<QPointF> line_;  // the front's points by x: the front line (two objectives)
    int frontCount_ = 0;
    PlotAxis x_;
    PlotAxis y_;
    QPixmap frontMarker_;
    QPixmap otherMarker_;
    QColor markerDim_;  // the colour otherMarker_ was drawn in (it follows the palette)
};

}  // namespace tunedeck::app
