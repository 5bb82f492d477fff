// What the window has open: one experiment of the attached engine (read from its folder when
// it can be, then followed live) or a folder read-only; its models (the data, the table, the
// nodes' and trials' usage, the picked metric's curves), the reads of its folder on worker
// threads, the engine's subscription, and the trials the user selected. Opening another
// experiment, or attaching to another engine, starts all of it again: nothing of what was
// open stays shown, selected, subscribed, or arrives later from a read still under way (a
// read lands only while nothing newer was opened: session/latest_read.h). The window and its
// views follow the signals; nothing here draws. Thread-safety: GUI thread only.
#pragma once

#include <QObject>
#include <QStringList>

#include "api/control_answers.h"
#include "models/experiment_budget.h"
#include "models/experiment_data.h"
#include "models/node_usage.h"
#include "models/trial_health.h"
#include "models/trial_table_model.h"
#include "session/latest_read.h"
#include "session/picked_metric_curves.h"

namespace tunedeck::app {

class EngineConnection;

class ExperimentSession : public QObject {
    Q_OBJECT
  public:
    explicit ExperimentSession(EngineConnection* engine, QObject* parent = nullptr);

    // The engine's experiment `name`: its SQLite file first when it is on this machine (and
    // `justStarted` is false: the engine may not have written it yet), then live from where it
    // ended; a remote engine's over the connection. False when it is open already.
    bool openOfEngine(const QString& name, bool justStarted = false);
    // A folder on this machine that the engine does not run, read-only.
    void openReadOnly(const QString& folder);
    // Nothing open.
    void close();

    bool isOpen() const { return !name_.isEmpty(); }
    QString name() const { return name_; }  // the engine's name (its folder's under the root)
    // What is open is identified by its folder, never by its name.
    QString folder() const { return folder_; }
    bool ofEngine() const { return ofEngine_; }  // else read-only: the engine does not know it
    bool caughtUp() const { return caughtUp_; }

    ExperimentData& data() { return data_; }
    const ExperimentData& data() const { return data_; }
    TrialTableModel* tableModel() const { return table_; }
    TrialFilter* filter() const { return filter_; }
    const NodeUsageModel& usage() const { return usage_; }
    const TrialHealthModel& health() const { return health_; }
    const ExperimentBudget& budget() const { return budget_; }
    PickedMetricCurves& pickedCurves() { return picked_; }

    // The trials the user selected (the table's rows); cleared when another experiment opens.
    const QStringList& selection() const { return selection_; }
    void setSelection(const QStringList& trialIds);

  signals:
    // Another experiment (or none) is open: every view starts again, with no trial selected.
    void opened();
    // Its history was read (or the engine named its metric): the views show it whole.
    void loaded();
    // An event of the open experiment, after the models took it (the study plots' timeline).
    void eventApplied(const tunedeck::events::Event& event);
    void usageChanged();
    void healthChanged();
    void budgetChanged();
    // It started or ended: its status in the engine's list changed.
    void runStateChanged();
    void selectionChanged(const QStringList& trialIds);
    void problem(const QString& message);

  private:
    void begin(const QString& name, const QString& folder, bool ofEngine);
    void loadHistory(const QString& folder, const QString& name);
    void onEvent(const QString& experiment, const events::Event& event);
    void onSubscribed(const QString& experiment, const api::SubscribedAnswer& info);

    EngineConnection* engine_;
    ExperimentData data_;
    NodeUsageModel usage_;
    TrialHealthModel health_;  // each trial's CPU and memory, drawn under the curves
    TrialTableModel* table_;
    TrialFilter* filter_;
    PickedMetricCurves picked_;
    ExperimentBudget budget_;  // what the progress bar counts
    LatestRead history_;
    QString name_;
    QString folder_;
    bool ofEngine_ = false;
    bool caughtUp_ = false;
    QStringList selection_;
};

}  // namespace tunedeck::app
