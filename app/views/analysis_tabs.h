// The lower half of the monitor: the open experiment's views, one tab each: the curves (with
// their metric, axis, scale, legend and smoothing, and the trials' CPU and memory under them),
// Compare (the selected trials side by side), parallel coordinates, parameter against metric,
// the study plots, importance, PBT lineage, nodes and GPUs, the selected trial whole, and the
// log. Each follows the session (session/experiment_session.h): what is open, what changed at
// each frame, and the selection. Thread-safety: GUI thread only.
#pragma once

#include <QStringList>
#include <QTabWidget>
#include <optional>
#include <set>

#include "models/experiment_data.h"

class QPlainTextEdit;
class QTableWidget;

namespace tunedeck::app {

class CurveMetricPicker;
class EngineConnection;
class ExperimentSession;
class ImportanceView;
class LineageView;
class MetricChart;
class NodeUsageView;
class ParallelCoordinatesView;
class ScatterView;
class StudyPlots;
class TrialDetailView;
class TrialHealthView;
class TrialLogFollower;

class AnalysisTabs : public QTabWidget {
    Q_OBJECT
  public:
    AnalysisTabs(ExperimentSession* session, EngineConnection* engine, QWidget* parent = nullptr);

    MetricChart* chart() const { return chart_; }
    // What changed since the last frame; each view limits its own work (none while hidden).
    void refresh(const ExperimentData::Changes& changes);
    void clearBrushes();
    // The current view (the curves without their controls) as PNG or, by the file's suffix,
    // SVG with vector curves.
    bool saveCurrentView(const QString& path, const QString& title, QString* error) const;

  signals:
    // A trial clicked in a view: the table selects it.
    void trialClicked(const QString& trialId);
    // The parallel coordinates' brushes changed: the trials inside them, nullopt for none.
    void brushChanged(const std::optional<QStringList>& inside);
    // An order from a view (max workers) that the engine refused, with its message.
    void requestFailed(const QString& message);

  private:
    QWidget* buildCurves();
    void onOpened();
    void onLoaded();
    void followSelection(const QStringList& ids);
    // The curves show the selected trials; with none selected, the rows the search and the
    // status filter leave. Set on the chart only when that changes (a new image each time).
    void updateCurveTrials();
    void updateCompare();
    void updateLog();

    ExperimentSession* session_;
    EngineConnection* engine_;
    MetricChart* chart_ = nullptr;
    CurveMetricPicker* metricPicker_ = nullptr;
    TrialHealthView* health_ = nullptr;
    QTableWidget* compare_ = nullptr;
    ParallelCoordinatesView* parallel_ = nullptr;
    ScatterView* scatter_ = nullptr;
    StudyPlots* plots_ = nullptr;
    ImportanceView* importance_ = nullptr;
    LineageView* lineage_ = nullptr;
    NodeUsageView* nodes_ = nullptr;
    TrialDetailView* detail_ = nullptr;  // the Trial tab: the selected trial whole
    QPlainTextEdit* log_ = nullptr;
    TrialLogFollower* logFollower_ = nullptr;
    std::set<QString> curveTrials_;  // what the chart was told to show (empty: all)
};

}  // namespace tunedeck::app
