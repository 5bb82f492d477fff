// The contour of the trials' values over two chosen parameters (optuna-dashboard's contour): a
// surface interpolated from the trials by inverse-distance weighting in the axes' own
// coordinates (log axes in decades, categories at their slots), left blank far from every
// trial, coloured from worst (dark) to best (yellow) for the metric's mode; the trials drawn
// over it as points. Thread-safety: GUI thread only.
#pragma once

#include <QImage>
#include <vector>

#include "plots/plot_axis.h"
#include "plots/study_plot.h"
#include "plots/study_series.h"

class QComboBox;

namespace tunedeck::app {

class ContourView : public StudyPlot {
    Q_OBJECT
  public:
    explicit ContourView(const ExperimentData* data, QWidget* parent = nullptr);

    QComboBox* xBox() const { return xBox_; }
    QComboBox* yBox() const { return yBox_; }
    void setParameters(const QString& x, const QString& y);
    // The trials drawn (both parameters and a value), as fractions of the two axes.
    const std::vector<QPointF>& samples() const { return samples_; }
    const SurfaceGrid& surface() const { return surface_; }
    const PlotAxis& xAxis() const { return x_; }
    const PlotAxis& yAxis() const { return y_; }

    // The plot inside the canvas; right of it the colour bar and its words, as wide as the
    // window's language needs.
    QRectF area() const;

  protected:
    void recompute() override;
    void paintPlot(QPainter& painter) override;
    QString trialAt(QPointF pos) const override;

  private:
    QComboBox* xBox_ = nullptr;
    QComboBox* yBox_ = nullptr;
    QStringList keys_;
    std::vector<QPointF> samples_;
    std::vector<int> rows_;
    std::vector<double> values_;
    SurfaceGrid surface_;
    QImage image_;
    double worst_ = 0, best_ = 0;
    PlotAxis x_;
    PlotAxis y_;
};

}  // namespace tunedeck::app
