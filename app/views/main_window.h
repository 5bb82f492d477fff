// The desktop app's window: the experiments of the engine it is attached to (left), the chosen
// experiment's trial table (sortable, searchable, filtered by status) over its live curves, the
// selected trials compared, and their log lines; menus and shortcuts for running an experiment
// file, stopping, pausing and resuming trials and experiments, and exporting the best config,
// the results and the chart. Everything reaches the engine through EngineClient; nothing here
// blocks the GUI thread. Thread-safety: GUI thread only.
#pragma once

#include <QMainWindow>
#include <QTimer>
#include <functional>
#include <memory>
#include <set>

#include "client/engine_client.h"
#include "models/experiment_budget.h"
#include "models/experiment_data.h"
#include "models/node_usage.h"
#include "models/trial_health.h"
#include "models/trial_table_model.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTreeWidget;

namespace tunedeck::app {

using client::EngineClient;
class MetricChart;
class ParallelCoordinatesView;
class ScatterView;
class ImportanceView;
class LineageView;
class NodeUsageView;
class StartPage;
class StudyPlots;
class TrialColumnWidths;
class TrialDetailView;
class TrialHealthView;
class TrialLogFollower;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Attaches to the engine at `socketPath`; with `engineBinary` set, starts a local
    // `tunedeck-engine serve` there first when none answers.
    void attachLocal(const QString& socketPath, const QString& engineBinary);
    void attachTcp(const QString& host, quint16 port, const QString& token);
    // Attaches through an SSH tunnel's local socket (views/attach_dialog.h): like attachLocal,
    // but the engine and its folders are on `server` (as the status bar names it).
    void attachThroughTunnel(const QString& socketPath, const QString& server);

    // The actions of the menus, also for tests.
    // Starts the file and shows the new experiment; `outcome` hears an empty string once it
    // started, or why the engine refused.
    void runExperimentFile(const QString& path,
                           std::function<void(const QString& refusal)> outcome = {});
    // Opens `path` in the experiment editor (form and YAML, live validation), with Save and Run.
    void editExperimentFile(const QString& path);
    void openExperiment(const QString& name);
    // A folder on this machine, straight from its SQLite file; live too when it is one of the
    // attached engine's experiments.
    void openFolder(const QString& folder);
    enum class TrialOrder { Stop, Pause, Resume };
    enum class ExperimentOrder { Stop, Pause, Resume };
    void orderSelectedTrials(TrialOrder order);
    void orderExperiment(ExperimentOrder order);
    // Trial > Edit note...: the selected trial's note, kept by the engine with its history.
    void editTrialNote();
    void copyBestConfig(const QString& format);  // to the clipboard
    // The best trial's config by the window's scope (the "Best trial by" picker) into `path`.
    void exportBestTo(const QString& path, const QString& format);
    // The current analysis tab (curves, parallel coordinates, ...) as PNG or, by the file's
    // suffix, SVG with vector curves.
    bool saveChart(const QString& path, QString* error) const;
    void showStartPage();
    void chooseAndEditFile();
    void chooseAndOpenFolder();
    void showSettings();
    // Two experiments' best trials side by side, the open one first.
    void compareExperiments();
    // The shown experiment's file as recorded, renamed, beside the original, in the editor; and
    // its folder deleted once it no longer runs, on the user's word (main_window_manage.cpp).
    void cloneShownExperiment();
    void deleteShownExperiment();
    // num_samples and max_concurrent_trials of the shown running experiment, in a dialog
    // prefilled with the values in force (views/limits_dialog.h; main_window_manage.cpp).
    void changeShownLimits();

    QString currentExperiment() const { return experiment_; }
    // The folder of what is shown: on this machine, or on the server for a remote engine's.
    QString currentFolder() const { return folder_; }
    const ExperimentData& data() const { return data_; }
    MetricChart* chart() const { return chart_; }
    QTabWidget* tabs() const { return tabs_; }
    StartPage* startPage() const { return startPage_; }
    const NodeUsageModel& usage() const { return usage_; }
    EngineClient& client() { return client_; }

  signals:
    // For tests and the status bar: a request failed, with the engine's message.
    void requestFailed(const QString& message);

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void buildMenus();
    void buildLayout();
    QWidget* buildScopePicker();  // "Best trial by": main_window_best.cpp
    // The curves' metric picker (main_window_metric.cpp): the objective, or any metric the
    // trials reported, remembered per experiment folder.
    QWidget* buildMetricPicker();
    void updateCurveMetric(const ExperimentData::Changes& changes);
    void pickCurveMetric(const QString& metric);
    void applyToCurveMetric(const tunedeck::events::Event& event);
    void refreshExperimentList();
    void onEvent(const QString& experiment, const tunedeck::events::Event& event);
    void onTick();
    void onSelectionChanged();
    // Selects `trialId`'s row in the table (a click in an analysis view).
    void selectTrial(const QString& trialId);
    // Selects the rows of `trialIds` (those the table shows), and only them; none: no change.
    void selectTrials(const QStringList& trialIds);
    // The table's row of `trialId` (its first column); invalid while the table does not show it.
    QModelIndex tableIndexOf(const QString& trialId) const;
    void updateStatusBar();
    // The shown experiment's trial count in the list follows its stream, as the table does; the
    // engine's list (every few seconds, and as a run starts or ends) brings the rest: the
    // status stays the engine's, whose "finished" also says Delete may remove the folder.
    void updateShownListRow();
    void updateCompare();
    void updateLog();
    QStringList selectedTrials() const;
    // The curves show the selected trials; with none selected, the rows the search and the
    // status filter leave. Set on the chart only when that changes (a new image each time).
    void updateCurveTrials();
    void exportBest();
    void exportResults();
    void exportChart();
    // Writes the `text` of an answer (best, export) to `path`, or says why not.
    void saveText(const QString& path, const Status& status, const QString& text);
    void report(const QString& what, const Status& status);
    // Reads `folder`'s history on a worker thread, then shows it and subscribes to `name`
    // (when not empty) from where the history ended.
    void loadHistory(const QString& folder, const QString& name);
    // A new experiment is shown: the monitor replaces the start page, the old data goes.
    void showMonitor(const QString& experiment);
    // Another engine is attached: nothing of the old one's stays shown or subscribed.
    void forgetExperiment();
    // The folders of the engine's experiments, for the comparison's pickers.
    QStringList experimentFolders() const;
    // Shows `name`, just started: from the engine's events, not from its SQLite file, which the
    // engine may not have written yet.
    void openStartedExperiment(const QString& name);
    // The list highlights the shown experiment of the engine, and nothing else.
    void highlightShownExperiment();
    // The bar over the trial table naming the shown experiment's folder, with the read-only
    // badge (main_window_open.cpp), and the window's title, brought up to what is shown.
    QWidget* buildFolderBar();
    void showWhatIsOpen();
    // Shows `name` of the engine in its folder under the results root (`folder_` and the rest).
    void beginEngineExperiment(const QString& name);
    // Quitting (main_window_quit.cpp): every editor window's unsaved edits settled, then, with
    // experiments running on this machine's engine, the user's word on them. False when the
    // window stays open (cancelled, or pausing them first).
    bool readyToQuit();
    bool settleRunningExperiments();
    void pauseThenQuit(const QStringList& experiments);

    EngineClient client_;
    ExperimentData data_;
    NodeUsageModel usage_;
    // The picked metric's curves (the same trials as data_), while one other than the objective
    // is picked: read from the folder, then kept up by the events that come after.
    ExperimentData curveData_;
    QComboBox* metricPicker_ = nullptr;
    QString curveMetric_;  // empty: the objective's curves
    QString curveFolder_;  // the folder the picker's list and choice belong to
    int curveLoads_ = 0;
    bool curveLoading_ = false;
    std::vector<tunedeck::events::Event> curveEvents_;  // came while the folder was read
    TrialHealthModel trialHealth_;  // each trial's CPU and memory, drawn under the curves
    TrialTableModel* model_ = nullptr;
    TrialFilter* filter_ = nullptr;
    QString experiment_;  // the engine's name (its folder's under the results root)
    QString folder_;      // what is shown is identified by its folder, never by its name
    bool caughtUp_ = false;
    bool ofEngine_ = false;    // the shown experiment is one of the attached engine's
    ExperimentBudget budget_;  // what the progress bar counts

    QTreeWidget* experiments_ = nullptr;
    QTableView* table_ = nullptr;
    TrialColumnWidths* columnWidths_ = nullptr;  // fitted, bounded, the user's kept
    QLineEdit* search_ = nullptr;
    QComboBox* statusFilter_ = nullptr;
    QPushButton* clearBrush_ = nullptr;  // shown while the parallel coordinates filter the table
    QComboBox* scope_ = nullptr;         // what the best trial is chosen by
    MetricChart* chart_ = nullptr;
    ParallelCoordinatesView* parallel_ = nullptr;
    ScatterView* scatter_ = nullptr;
    ImportanceView* importance_ = nullptr;
    LineageView* lineage_ = nullptr;
    StudyPlots* plots_ = nullptr;
    NodeUsageView* nodes_ = nullptr;
    TrialHealthView* health_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QStackedWidget* pages_ = nullptr;  // the start page, or the monitor
    StartPage* startPage_ = nullptr;
    QTableWidget* compare_ = nullptr;
    TrialDetailView* detail_ = nullptr;  // the Trial tab: the selected trial whole
    QPlainTextEdit* log_ = nullptr;
    TrialLogFollower* logFollower_ = nullptr;
    QLabel* counts_ = nullptr;
    QLabel* folderLabel_ = nullptr;
    QLabel* codeLabel_ = nullptr;  // the code the run used (code/version.json)
    QLabel* readOnlyBadge_ = nullptr;
    QLabel* connection_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QTimer tick_;
    QTimer listTimer_;
    QString engineBinary_;
    QString resultsRoot_;    // the attached engine's, from its hello; empty when remote
    QString serverResults_;  // the attached engine's results root as the server names it
    bool remote_ = false;    // the engine runs on another machine: its folders are not here
    QString server_;         // that machine, as the user named it; empty: this one
    int historyLoads_ = 0;   // a newer open makes an older read's result stale
    QString socketPath_;
    bool triedToStartEngine_ = false;
    // By the engine's last list: the experiments it runs, and those whose process it still
    // holds (a run that has ended closes its files a moment after "finished").
    QStringList runningOnEngine_;
    QStringList servedByEngine_;
    bool quitDecided_ = false;       // the user answered every question; close for good
    std::set<QString> curveTrials_;  // what the chart was told to show (empty: all)
};

}  // namespace tunedeck::app
