// The parallel-coordinates plot of the monitor: one vertical axis per hyperparameter that varies
// between trials (linear, log or categorical, see ParameterScale) and the metric last (with
// several objectives, one axis each), one polyline per trial coloured as ExperimentData::isBest
// ranks it: by its score under the window's scope, or with several objectives by whether it is
// on the Pareto front (red, as in the Pareto front plot) or dominated (grey); the selected
// trials drawn thick over the others, the trial under the mouse named in a tooltip. Painted with
// QPainter: the lines of all trials are drawn into an image a slice per event-loop turn (~8 ms
// each), anew only when the data (at most four times a second) or the size change; a selection
// fades that image and draws its lines on top, and hovering repaints only the highlighted line.
// Thread-safety: GUI thread only. A drag along an axis brushes a range of it
// (analysis/axis_brush.h); the trials inside every brush are brushedTrials(), which the window's
// table shows. A click on a brushed axis removes its brush, a double click all of them.
#pragma once

#include <QImage>
#include <QTimer>
#include <QWidget>
#include <optional>
#include <set>
#include <vector>

#include "analysis/axis_brush.h"
#include "charts/parameter_scale.h"
#include "charts/refresh_throttle.h"
#include "models/experiment_data.h"

namespace tunedeck::app {

class ParallelCoordinatesView : public QWidget {
    Q_OBJECT
  public:
    explicit ParallelCoordinatesView(const ExperimentData* data, QWidget* parent = nullptr);

    // The data changed: recomputed now, or once the throttle's interval has passed; while the
    // view is hidden, when it is shown again.
    void refresh();
    void setSelectedTrials(const QStringList& ids);

    // The axes, left to right: the hyperparameters that vary, then the metric (each trial's
    // score by the scope), or each objective's with several.
    const std::vector<ParameterScale>& axes() const { return axes_; }
    // Where a trial's line crosses an axis, in this widget's pixels; NaN coordinates when the
    // trial has no value there.
    QPointF vertexOf(const QString& trialId, int axis) const;
    // The trial whose line passes nearest `pos`, within a few pixels; empty when none does.
    QString trialAt(QPointF pos) const;
    QString toolTipFor(const QString& trialId) const;
    // The colour of a trial's best value on the colour scale, as its line shows when selected.
    QColor colourOf(const QString& trialId) const;
    // The brushes, in the order drawn; the trials inside all of them (nullopt: none drawn).
    const std::vector<AxisBrush>& brushes() const { return brushes_; }
    std::optional<QStringList> brushedTrials() const;
    void clearBrushes();
    // Where the axes stand; right of it the colour bar and its words.
    QRectF plotArea() const;
    // Whether the lines are being drawn anew (a few event-loop turns at a thousand trials).
    bool rendering() const { return render_.isActive(); }

  signals:
    void trialClicked(const QString& trialId);
    // The brushes changed, or trials came that are inside them.
    void brushChanged();

  protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

  private:
    struct Line {
        QString id;
        double goodness = kNoValue;     // 0 worst to 1 best on the colour scale; NaN: none
        QColor colour;                  // as drawn among the others
        std::vector<double> fractions;  // per axis, 0 bottom to 1 top, NaN absent
        std::vector<QPointF> points;    // per axis, in pixels
    };

    void recompute();
    void placeLines();
    void startRender();
    void renderSlice();
    void drawAxes(QPainter& painter) const;
    void drawLegend(QPainter& painter) const;
    void drawFrontLegend(QPainter& painter, const QRectF& area) const;
    void drawBrushes(QPainter& painter) const;
    // The axis within grabbing distance of `pos`, or -1.
    int axisNear(QPointF pos) const;
    // The trials inside every brush, for the lines drawn over the faded rest; signals it.
    void updateBrushed();
    void drawLine(QPainter& painter, const Line& line, const QPen& pen) const;
    // Right of the metric axis: the colour bar and its words, as wide as the language needs.
    double marginRight() const;
    double axisX(int axis) const;
    QColor lineColour(double goodness) const;
    // A line's colour at full strength: the colour scale's, or with several objectives the
    // front's red and the dominated lines' text colour.
    QColor inkOf(double goodness) const;
    const Line* lineOf(const QString& trialId) const;
    // The axis of an objective (the last objectiveAxes_ ones), and a row's value on objective k.
    bool isObjectiveAxis(int axis) const { return axis >= int(axes_.size()) - objectiveAxes_; }
    double objectiveValue(int row, int objective) const;

    const ExperimentData* data_;
    RefreshThrottle throttle_;
    bool stale_ = true;
    std::vector<ParameterScale> axes_;
    int objectiveAxes_ = 1;    // the metric's axis, or one per objective with several
    std::vector<Line> lines_;  // worst first, so the best are drawn on top
    std::set<QString> selected_;
    std::vector<AxisBrush> brushes_;
    std::optional<std::set<QString>> brushed_;  // inside every brush; nullopt without one
    int dragAxis_ = -1;                         // the axis being brushed
    double dragFrom_ = 0;                       // the drag's ends, in pixels
    double dragTo_ = 0;
    QString hovered_;
    QImage front_;  // every line, as last rendered
    QImage back_;   // the next, being rendered a slice per event-loop turn
    int backNext_ = 0;
    QTimer render_;
};

}  // namespace tunedeck::app
