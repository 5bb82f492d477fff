// The desktop app's window: the experiments of the engine it is attached to (left), the open
// experiment's trial table (sortable, searchable, filtered by status) over its views (curves,
// compare, study plots, ...), menus and shortcuts for running an experiment file, stopping,
// pausing and resuming trials and experiments, and exporting the best config, the results and
// the chart. It hosts what it shows: the engine it is attached to (session/engine_connection.h)
// and the experiment open (session/experiment_session.h), whose models, reads, subscription
// and selection start again whenever another is opened. Nothing here blocks the GUI thread.
// Thread-safety: GUI thread only.
#pragma once

#include <QMainWindow>
#include <QTimer>
#include <functional>

#include "client/engine_client.h"
#include "models/experiment_data.h"
#include "models/node_usage.h"

class QLineEdit;
class QStackedWidget;
class QTabWidget;

namespace tunedeck::app {

using client::EngineClient;
class AnalysisTabs;
class EngineConnection;
class ExperimentList;
class ExperimentSession;
class MetricChart;
class RunStatusLine;
class StartPage;
class TrialTablePane;

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

    // The actions of the menus (views/main_menus.h), also for tests.
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
    void exportBest();
    // The best trial's config by the window's scope (the "Best trial by" picker) into `path`.
    void exportBestTo(const QString& path, const QString& format);
    void exportResults();
    void exportChart();
    // The current analysis tab (curves, parallel coordinates, ...) as PNG or, by the file's
    // suffix, SVG with vector curves.
    bool saveChart(const QString& path, QString* error) const;
    void showStartPage();
    void showMonitorPage();
    void chooseAndEditFile();
    void chooseAndOpenFolder();
    void chooseAndEditClusterFile();
    void showSettings();
    void refreshExperimentList();
    // Two experiments' best trials side by side, the open one first.
    void compareExperiments();
    // The shown experiment's file as recorded, renamed, beside the original, in the editor; and
    // its folder deleted once it no longer runs, on the user's word.
    void cloneShownExperiment();
    void deleteShownExperiment();
    // num_samples and max_concurrent_trials of the shown running experiment, in a dialog
    // prefilled with the values in force (views/limits_dialog.h).
    void changeShownLimits();

    QString currentExperiment() const;
    // The folder of what is shown: on this machine, or on the server for a remote engine's.
    QString currentFolder() const;
    const ExperimentData& data() const;
    MetricChart* chart() const;
    QTabWidget* tabs() const;
    StartPage* startPage() const { return startPage_; }
    const NodeUsageModel& usage() const;
    EngineClient& client();
    EngineConnection& connection() { return *engine_; }
    ExperimentSession& session() { return *session_; }
    QLineEdit* trialSearch() const;

  signals:
    // For tests and the status bar: a request failed, with the engine's message.
    void requestFailed(const QString& message);
    // The user restarts the app for a new language: the window has closed for good (the
    // experiments run on in the engine, as with "Leave running"), and main() starts the app
    // again once this one has ended, showing `folder` (empty: none was open).
    void restartRequested(const QString& folder);

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    // Opens the latest experiment the engine runs, when nothing was chosen yet (the app opened
    // again after "Leave running").
    void showLatestRunning(const std::vector<api::ExperimentListEntry>& experiments);
    void buildLayout();
    void onTick();
    void report(const QString& what, const Status& status);
    // Writes the `text` of an answer (best, export) to `path`, or says why not.
    void saveText(const QString& path, const Status& status, const QString& text);
    // The list highlight, the folder bar and the title, brought up to what is open.
    void showWhatIsOpen();
    // Quitting: every editor window's unsaved edits settled, then, with experiments running on
    // this machine's engine, the user's word on them. False when the window stays open
    // (cancelled, or pausing them first).
    bool readyToQuit();
    bool settleUnsavedEdits();
    bool settleRunningExperiments();
    void pauseThenQuit(const QStringList& experiments);

    EngineConnection* engine_;
    ExperimentSession* session_;
    ExperimentList* list_ = nullptr;
    TrialTablePane* trials_ = nullptr;
    AnalysisTabs* views_ = nullptr;
    RunStatusLine* statusLine_ = nullptr;
    QStackedWidget* pages_ = nullptr;  // the start page, or the monitor
    StartPage* startPage_ = nullptr;
    QTimer tick_;
    QTimer listTimer_;
    bool quitDecided_ = false;            // the user answered every question; close for good
    bool showRunningWhenListed_ = false;  // attached: the first list may open what runs
};

}  // namespace tunedeck::app
