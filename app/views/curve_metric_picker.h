// The Curves tab's metric picker: the experiment's objective, or any other metric its trials
// reported (session/picked_metric_curves.h reads and follows it). Only the curves follow the
// pick. The choice is remembered per experiment folder. Thread-safety: GUI thread only.
#pragma once

#include <QWidget>

#include "models/experiment_data.h"

class QComboBox;

namespace tunedeck::app {

class ExperimentSession;
class MetricChart;

class CurveMetricPicker : public QWidget {
    Q_OBJECT
  public:
    CurveMetricPicker(ExperimentSession* session, MetricChart* chart, QWidget* parent = nullptr);

    // The metrics the trials reported, and the picked curves' news, at each frame.
    void refresh(const ExperimentData::Changes& changes);

  private:
    void pick(const QString& metric);

    ExperimentSession* session_;
    MetricChart* chart_;
    QComboBox* picker_;
};

}  // namespace tunedeck::app
