// The scatter of one hyperparameter (picked in a combo box) against the metric: one point per
// trial that has the metric, at its score by the window's scope (ExperimentData::score); the
// best trial by that scope (the table's bold row; with several objectives, the trials on the
// Pareto front) marked with a star, the selected
// trials ringed; a log x axis toggle (on by default where the values span decades), categorical
// parameters spread over their categories with a small fixed jitter so equal points stay
// visible. One bulk replace() per series, at most four times a second. Thread-safety: GUI thread
// only.
#pragma once

#include <QWidget>
#include <set>

#include "charts/parameter_scale.h"
#include "charts/refresh_throttle.h"
#include "models/experiment_data.h"

class QAbstractAxis;
class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QScatterSeries;

namespace tunedeck::app {

class ScatterView : public QWidget {
    Q_OBJECT
  public:
    explicit ScatterView(const ExperimentData* data, QWidget* parent = nullptr);

    // The data changed: redrawn now, or once the throttle's interval has passed; while the view
    // is hidden, when it is shown again.
    void refresh();
    void setSelectedTrials(const QStringList& ids);

    // The parameter on the x axis (a flattened config key), as the combo box shows it.
    QString parameter() const;
    void setParameter(const QString& key);
    bool logX() const;
    void setLogX(bool on);
    QComboBox* parameterBox() const { return parameters_; }
    QCheckBox* logBox() const { return log_; }

    // What is drawn: one point per trial with the metric (x: the parameter's value, or its
    // category's index; y: the trial's best), in the order of pointTrials().
    QList<QPointF> points() const;
    const QStringList& pointTrials() const { return pointTrials_; }
    // The best trial's point (the Pareto front's points with several objectives), or none when
    // no trial has the metric.
    QList<QPointF> bestPoints() const;
    QList<QPointF> selectedPoints() const;
    QChartView* chartView() const { return view_; }

  signals:
    void trialClicked(const QString& trialId);

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    void redraw();
    void updateParameters();
    void setXAxis(QAbstractAxis* axis);
    QString trialNear(QPointF value) const;

    const ExperimentData* data_;
    RefreshThrottle throttle_;
    bool stale_ = true;
    std::set<QString> selected_;
    QComboBox* parameters_ = nullptr;
    QCheckBox* log_ = nullptr;
    QLabel* note_ = nullptr;
    QChartView* view_ = nullptr;
    QChart* chart_ = nullptr;
    QScatterSeries* all_ = nullptr;
    QScatterSeries* chosen_ = nullptr;
    QScatterSeries* best_ = nullptr;
    enum class XKind { Linear, Log, Categories };
    XKind xKind_ = XKind::Linear;
    QStringList xCategories_;
    QAbstractAxis* xAxis_ = nullptr;
    QAbstractAxis* yAxis_ = nullptr;
    QStringList pointTrials_;
    QStringList keys_;
    QString logFor_;  // the parameter whose log default was applied
};

}  // namespace tunedeck::app
