// Node and GPU utilisation of the experiment: a table of every node and card as last sampled
// (CPU, memory, GPU utilisation, memory, temperature, power, and the trials on each card), over
// two charts against wall time: utilisation and memory in percent, one line per node's CPU and
// per card. With the engine's `node` events the table also gives each node's type and state
// (launching, ready, terminating, lost), a list under it the autoscaler's latest decisions, and
// a row to set max_workers of one node type while the experiment runs.
// Redrawn at most once a second and not while hidden. GUI thread only.
#pragma once

#include <QWidget>

#include "charts/refresh_throttle.h"
#include "models/node_usage.h"

class QChart;
class QComboBox;
class QSpinBox;
class QChartView;
class QLabel;
class QListWidget;
class QStackedWidget;
class QTableWidget;

namespace tunedeck::app {

class NodeUsageView : public QWidget {
    Q_OBJECT
  public:
    explicit NodeUsageView(const NodeUsageModel* usage, QWidget* parent = nullptr);

    // The samples changed: redraws now or once the throttle allows, and when shown if hidden.
    void refresh();

    QTableWidget* table() const { return table_; }
    QListWidget* decisions() const { return decisions_; }
    QChartView* utilizationChart() const { return utilization_; }
    QChartView* memoryChart() const { return memory_; }

  signals:
    // The user set max_workers of a node type (the row under the decisions).
    void maxWorkersRequested(const QString& nodeType, int maxWorkers);

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    void redraw();
    void fillTable();
    void fillDecisions();
    void fillMaxWorkers();
    void fillChart(QChartView* view, bool memory);

    const NodeUsageModel* usage_;
    RefreshThrottle throttle_;
    bool stale_ = false;
    QStackedWidget* stack_ = nullptr;
    QLabel* empty_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* decisionsTitle_ = nullptr;
    QListWidget* decisions_ = nullptr;
    QWidget* maxWorkersRow_ = nullptr;
    QComboBox* maxWorkersType_ = nullptr;
    QSpinBox* maxWorkers_ = nullptr;
    QChartView* utilization_ = nullptr;
    QChartView* memory_ = nullptr;
};

}  // namespace tunedeck::app
