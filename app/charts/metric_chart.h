// The live learning curves: the experiment's metric against iteration or wall time, one line per
// trial (all trials, or the selected ones), the best trial drawn thick, each curve decimated to
// the chart's pixel columns so no spike is lost, redrawn at most 30 times a second and only when
// something changed. Log axis, smoothing, zoom (rubber band, wheel) and pan (drag with the
// middle button, arrow keys), and export as SVG with the curves as vector polylines. QtCharts
// draws the axes, grid and titles; the curves are one graphics item in the chart's scene holding
// an image that grows by the new segments of each frame, because a QLineSeries per trial costs
// QtCharts 150-250 ms a frame at 1,000 trials (bench_app_stream). When the whole image must be
// drawn again (a new view, size, selection or smoothing), a worker thread draws it
// (curve_renderer.h) while the old one is shown scaled into the new view. A trial that reported
// once is a dot. The legend names the shown curves, the pointer over a curve reads its trial,
// step and value, and a click on it names the trial (curve_legend.h); up to 20 shown trials have
// a colour each (trial_colors.h).
// Thread-safety: GUI thread only.
#pragma once

#include <QChartView>
#include <QRubberBand>
#include <QTimer>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "charts/curve_renderer.h"
#include "charts/trial_colors.h"
#include "models/experiment_data.h"

class QGraphicsSimpleTextItem;

namespace tunedeck::app {

class CurveLegend;
class CurveReadout;

class MetricChart : public QChartView {
    Q_OBJECT
  public:
    enum class XAxis { Iteration, WallTime };

    explicit MetricChart(const ExperimentData* data, QWidget* parent = nullptr);
    // Draws the curves of `curves` (the same trials as the constructor's data, with another
    // metric's curves: the metric picker's); the thick best trial stays the constructor's
    // data's, the objective's. Null: the constructor's data again.
    void setCurves(const ExperimentData* curves);

    // Something changed in the data; the next frame (at most 30 a second) redraws.
    void markDirty();
    // Only these trials (empty: all).
    void setVisibleTrials(const std::set<QString>& trialIds);
    void setXAxis(XAxis axis);
    void setLogScale(bool on);
    // 0 (none) to 0.99 (heavy), as TensorBoard's slider.
    void setSmoothing(double amount);
    void resetZoom();
    // Draws every curve anew now, on this thread. Returns the number of points drawn (after
    // decimation).
    int redraw();
    int redrawCount() const { return redraws_; }
    // How many results the curves on screen show (the image and the best trial's line);
    // behind the data while a frame or an image is still to come.
    std::size_t shownResults() const;
    // The chart as it is now, as an SVG file: axes, labels and grid as QtCharts draws them, and
    // every curve as a polyline decimated to the chart's pixel columns. False with a message
    // when the file cannot be written.
    bool saveSvg(const QString& path, QString* error);
    // The note shown over the plot ("Waiting for the first result of loss"); empty when none.
    QString note() const { return note_; }
    // The legend over the plot area (on by default); the exports carry it as shown.
    void setLegendVisible(bool on);
    // The colour trial row `row`'s curve is drawn in now.
    QColor colorOf(int row) const;

  signals:
    // A click on the curve of `trialId`.
    void trialClicked(const QString& trialId);

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

  private:
    // What an image holds: the view and curve settings it was drawn with, and per trial row
    // how many points of its curve are in it (and the smoothed value of the last one, where an
    // increment continues from).
    struct ImageState {
        CurveView view;
        int generation = -1;
        int best = -1;  // the trial left out of the image (drawn as the overlay)
        std::vector<std::size_t> points;
        std::vector<double> levels;
    };
    // The extent of the shown data, kept up to date by each frame's new points.
    struct Extent {
        bool any = false;
        double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
        std::vector<std::size_t> points;  // per trial row, how many were counted
    };

    void rebuildAxes();
    void onFrame();
    // Something other than the view changed what the curves show: the image must be redrawn.
    void invalidate();
    bool shows(const TrialRow& trial) const;
    const std::vector<double>& xsOf(const TrialRow& trial) const;
    void updateExtent();
    // The frame's view: the data's extent brought up to date, the automatic view fitted to it.
    void prepareView(bool refit);
    // Sets the view to the data with room to grow (only when the data left the current view, if
    // asked); true when the view changed.
    bool fitView(bool onlyWhenOutside);
    CurveView currentView() const;
    // A frame: the view, a new image when the current one is stale, the segments that arrived
    // since the last frame, the best trial's line.
    void advance();
    // Starts drawing the whole image for the current view: a snapshot of the curves, taken a
    // slice of trials per turn of the event loop, then drawn on a worker thread unless it is
    // small. `now`: all of it at once, on this thread. Returns the number of points (when done).
    int requestImage(bool now);
    int continueBuild(bool now);
    void onRendered(quint64 ticket, const QImage& image);
    // Draws into the image what the data holds beyond what the image shows.
    void addIncrements();
    QPen penFor(int row, int best) const;
    // Row `row`'s curve in data coordinates, decimated to the columns of `view`.
    CurveData curveOf(int row, int best, const CurveView& view, double* lastLevel = nullptr) const;
    std::vector<CurveData> allCurves(int best, const CurveView& view) const;
    void updateOverlay();
    // The colours of the shown trials, anew when the trials or the choice of them changed; a
    // change of colours redraws the image.
    void updateColors();
    void updateLegend();
    // The shown curve's point nearest to `scenePos` (within a few pixels of it or of a line
    // through it): the trial's row, the point's index, where it is drawn.
    struct CurveHit {
        int row = -1;
        std::size_t index = 0;
        QPointF pixel;
        double drawn = 0;  // its value as drawn (smoothed, when smoothing is on)
    };
    std::optional<CurveHit> hitAt(QPointF scenePos) const;
    // The readout for the pointer at `viewPos` of the viewport, or none.
    void updateHover(QPointF viewPos);
    // The axes' ranges, for zoom and pan (the chart has no series to zoom through).
    void setView(double xMin, double xMax, double yMin, double yMax, int xTicks = 0,
                 int yTicks = 0);
    void zoomAround(QPointF pixel, double factor);
    QPointF toValue(QPointF pixel) const;

    // The best trial's row among data_'s, chosen by ranking_ (the objective's).
    int bestRow() const;
    const ExperimentData* data_;     // the curves drawn
    const ExperimentData* ranking_;  // the one that names the best trial
    CurvesItem* curves_ = nullptr;
    CurveRenderer renderer_;
    QRubberBand* band_ = nullptr;
    QPoint bandFrom_;
    double viewXMin_ = 0, viewXMax_ = 1, viewYMin_ = 0, viewYMax_ = 1;
    QString note_;
    QGraphicsSimpleTextItem* noteItem_ = nullptr;
    bool ended_ = false;  // the experiment no longer runs: the view leaves no room to grow
    void updateNote();
    std::set<QString> visible_;
    XAxis xAxis_ = XAxis::Iteration;
    bool logScale_ = false;
    double smoothing_ = 0;
    bool dirty_ = true;
    bool zoomed_ = false;
    bool refit_ = true;  // fit the automatic view to the data anew, even if it would fit
    QTimer frame_;
    int redraws_ = 0;
    int generation_ = 0;
    CurveView view_;
    ImageState image_;
    // The snapshot being taken, and the state the image drawn from it will have.
    struct Build {
        std::shared_ptr<CurveSnapshot> snapshot;
        ImageState state;
        std::size_t nextRow = 0;
        std::size_t points = 0;
    };
    std::optional<Build> build_;
    bool buildScheduled_ = false;
    ImageState pending_;  // what the image being drawn on the worker will hold
    quint64 pendingTicket_ = 0;
    Extent extent_;
    // Per trial row, its curve when the last frame looked: a curve that went back since
    // (TrialRow::rewinds, or fewer points: another experiment's data) is drawn anew.
    struct Seen {
        int rewinds = 0;
        std::size_t points = 0;
    };
    std::vector<Seen> seen_;
    std::size_t overlayResults_ = 0;
    QPoint panFrom_;
    bool panning_ = false;
    TrialColors colors_;
    bool colorsStale_ = true;
    std::size_t colorTrials_ = 0;  // how many trials colors_ was made for
    CurveLegend* legend_ = nullptr;
    CurveReadout* readout_ = nullptr;
    std::optional<QPointF> hover_;  // where the pointer rests, while over the chart
};

}  // namespace tunedeck::app
