// The live learning curves: the experiment's metric against iteration or wall time, one line per
// trial (all trials, or the selected ones), the best trial drawn thick, each curve decimated to
// the chart's pixel columns so no spike is lost, redrawn at most 30 times a second and only when
// something changed. Log axis, smoothing, zoom (rubber band, wheel) and pan (drag with the
// middle button, arrow keys). Thread-safety: GUI thread only.
#pragma once

#include <QChartView>
#include <QElapsedTimer>
#include <QLineSeries>
#include <QTimer>
#include <map>
#include <set>

#include "models/experiment_data.h"

namespace tunedeck::app {

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
    // Redraws now (also what the frame timer calls). Returns the number of points drawn.
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
    QLineSeries* seriesFor(const QString& trialId);
    void rebuildAxes();
    void onFrame();

    const ExperimentData* data_;
    std::map<QString, QLineSeries*> series_;
    std::set<QString> visible_;
    XAxis xAxis_ = XAxis::Iteration;
    bool logScale_ = false;
    double smoothing_ = 0;
    bool dirty_ = true;
    bool zoomed_ = false;
    QTimer frame_;
    int redraws_ = 0;
    QPoint panFrom_;
    bool panning_ = false;
};

}  // namespace tunedeck::app
