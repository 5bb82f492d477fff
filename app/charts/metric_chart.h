// The live learning curves: the experiment's metric against iteration or wall time, one line per
// trial (all trials, or the selected ones), the best trial drawn thick, each curve decimated to
// the chart's pixel columns so no spike is lost, redrawn at most 30 times a second and only when
// something changed. Log axis, smoothing, zoom (rubber band, wheel) and pan (drag with the
// middle button, arrow keys). QtCharts draws the axes, grid and titles; the curves are one
// graphics item in the chart's scene holding an image that grows by the new segments of each
// frame, because a QLineSeries per trial costs QtCharts 150-250 ms a frame at 1,000 trials and
// even one polyline pass over every point grows with the run (bench_app_stream).
// Thread-safety: GUI thread only.
#pragma once

#include <QChartView>
#include <QGraphicsItem>
#include <QImage>
#include <QPen>
#include <QRubberBand>
#include <QTimer>
#include <set>
#include <vector>

#include "models/experiment_data.h"

namespace tunedeck::app {

// Every curve of the chart, rasterised into one image of the plot area. Curves only grow while
// an experiment runs, so a frame usually adds just the new segments to the image; the whole
// image is drawn again only when the view, the size, the selection or the best trial changes.
class CurvesItem : public QGraphicsItem {
  public:
    struct Curve {
        QPolygonF points;
        QPen pen;
    };
    // Starts a new image of `area` with `curves`.
    void redrawAll(QRectF area, const std::vector<Curve>& curves);
    // Adds `curves` to the current image.
    void add(const std::vector<Curve>& curves);
    // The best trial's curve, painted over the image (it changes often; the image does not).
    void setOverlay(Curve curve);
    QRectF boundingRect() const override { return area_; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  private:
    QRectF area_;
    QImage image_;
    Curve overlay_;
};

class MetricChart : public QChartView {
    Q_OBJECT
  public:
    enum class XAxis { Iteration, WallTime };

    explicit MetricChart(const ExperimentData* data, QWidget* parent = nullptr);

    // Something changed in the data; the next frame (at most 30 a second) redraws.
    void markDirty();
    // Only these trials (empty: all).
    void setVisibleTrials(const std::set<QString>& trialIds);
    void setXAxis(XAxis axis);
    void setLogScale(bool on);
    // 0 (none) to 0.99 (heavy), as TensorBoard's slider.
    void setSmoothing(double amount);
    void resetZoom();
    // Draws every curve anew now. Returns the number of points drawn (after decimation).
    int redraw();
    int redrawCount() const { return redraws_; }

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

  private:
    void rebuildAxes();
    void onFrame();
    // The extent of the shown data; false when none is shown.
    bool autoView(double* xMin, double* xMax, double* yMin, double* yMax) const;
    // Sets the view to the data with room to grow (only when the data left the current view, if
    // asked); true when the view changed.
    bool fitView(bool onlyWhenOutside);
    // Adds the segments that arrived since the last frame, or draws all when it must.
    int advance();
    QPointF toPixel(double x, double y) const;
    QPen penFor(int row, int best) const;
    // Row `row`'s whole curve in pixels, decimated to the plot's columns.
    CurvesItem::Curve curveOf(int row, int best) const;
    // The axes' ranges, for zoom and pan (the chart has no series to zoom through).
    void setView(double xMin, double xMax, double yMin, double yMax);
    void zoomAround(QPointF pixel, double factor);
    QPointF toValue(QPointF pixel) const;

    const ExperimentData* data_;
    CurvesItem* curves_ = nullptr;
    QRubberBand* band_ = nullptr;
    QPoint bandFrom_;
    double viewXMin_ = 0, viewXMax_ = 1, viewYMin_ = 0, viewYMax_ = 1;
    std::set<QString> visible_;
    XAxis xAxis_ = XAxis::Iteration;
    bool logScale_ = false;
    double smoothing_ = 0;
    bool dirty_ = true;
    bool zoomed_ = false;
    QTimer frame_;
    int redraws_ = 0;
    // What the image holds: per trial row, the points drawn; and what it was drawn for.
    std::vector<std::size_t> drawnPoints_;
    int drawnBest_ = -1;
    QRectF drawnArea_;
    QPoint panFrom_;
    bool panning_ = false;
};

}  // namespace tunedeck::app
