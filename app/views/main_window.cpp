#include "views/main_window.h"

#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <memory>
#include <utility>

#include "charts/chart_theme.h"
#include "editors/cluster_editor.h"
#include "editors/editor_window.h"
#include "editors/experiment_editor.h"
#include "editors/experiment_editor_window.h"
#include "models/history_reader.h"
#include "session/engine_connection.h"
#include "session/experiment_session.h"
#include "views/analysis_tabs.h"
#include "views/attach_dialog.h"
#include "views/experiment_clone.h"
#include "views/experiment_list.h"
#include "views/experiments_compare.h"
#include "views/limits_dialog.h"
#include "views/main_menus.h"
#include "views/run_status_line.h"
#include "views/settings_dialog.h"
#include "views/start_page.h"
#include "views/trial_table_pane.h"

namespace tunedeck::app {

namespace {

constexpr int kTickMs = 100;          // models and status bar follow the stream at 10 Hz
constexpr int kListRefreshMs = 5000;  // the experiments list
// How long quitting waits for the engine to acknowledge the pause orders; the engine pauses
// the trials whether or not the window is still there to hear it.
constexpr int kPauseAnswerTimeoutMs = 10000;

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      engine_(new EngineConnection(this)),
      session_(new ExperimentSession(engine_, this)) {
    setWindowTitle(tr("Tunedeck"));
    buildLayout();
    addMainMenus(*this);
    connect(engine_, &EngineConnection::descriptionChanged, statusLine_,
            &RunStatusLine::setConnection);
    connect(engine_, &EngineConnection::detached, this, [this] {
        list_->clear();  // the old engine's experiments
        showStartPage();
    });
    // Opened again after "Leave running": the window shows what runs, not the start page.
    connect(engine_, &EngineConnection::ready, this, [this] { showRunningWhenListed_ = true; });
    connect(engine_, &EngineConnection::listed, this,
            [this](const std::vector<api::ExperimentListEntry>& experiments) {
                list_->showList(experiments, session_->ofEngine() ? session_->name() : QString());
                if (std::exchange(showRunningWhenListed_, false)) {
                    showLatestRunning(experiments);
                }
            });
    connect(&engine_->client(), &EngineClient::problem, this, &MainWindow::requestFailed);
    connect(session_, &ExperimentSession::problem, this, &MainWindow::requestFailed);
    connect(session_, &ExperimentSession::opened, this, &MainWindow::showWhatIsOpen);
    connect(session_, &ExperimentSession::loaded, this, &MainWindow::showWhatIsOpen);
    connect(session_, &ExperimentSession::budgetChanged, statusLine_, &RunStatusLine::update);
    connect(session_, &ExperimentSession::runStateChanged, this,
            &MainWindow::refreshExperimentList);  // its status in the list changed
    connect(this, &MainWindow::requestFailed, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    tick_.setInterval(kTickMs);
    connect(&tick_, &QTimer::timeout, this, &MainWindow::onTick);
    tick_.start();
    listTimer_.setInterval(kListRefreshMs);
    connect(&listTimer_, &QTimer::timeout, this, &MainWindow::refreshExperimentList);
    listTimer_.start();

    applyChartTheme(this);
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

MainWindow::~MainWindow() = default;

QString MainWindow::currentExperiment() const {
    return session_->name();
}
QString MainWindow::currentFolder() const {
    return session_->folder();
}
const ExperimentData& MainWindow::data() const {
    return session_->data();
}
MetricChart* MainWindow::chart() const {
    return views_->chart();
}
QTabWidget* MainWindow::tabs() const {
    return views_;
}
const NodeUsageModel& MainWindow::usage() const {
    return session_->usage();
}
EngineClient& MainWindow::client() {
    return engine_->client();
}
QLineEdit* MainWindow::trialSearch() const {
    return trials_->search();
}

void MainWindow::buildLayout() {
    // Left: the experiments of the attached engine.
    list_ = new ExperimentList;
    connect(list_, &ExperimentList::openRequested, this, [this](const QString& name, bool click) {
        openExperiment(name);
        if (click) {
            showMonitorPage();  // from the start page too
        }
    });
    auto* dock = new QDockWidget(tr("Experiments"), this);
    dock->setObjectName(QStringLiteral("experiments"));
    dock->setWidget(list_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    // Top: the trial table; bottom: the views.
    trials_ = new TrialTablePane(session_);
    views_ = new AnalysisTabs(session_, engine_);
    connect(views_, &AnalysisTabs::trialClicked, trials_, &TrialTablePane::selectTrial);
    connect(views_, &AnalysisTabs::brushChanged, trials_, &TrialTablePane::setBrushed);
    connect(views_, &AnalysisTabs::requestFailed, this, &MainWindow::requestFailed);
    connect(trials_, &TrialTablePane::clearBrushRequested, views_, &AnalysisTabs::clearBrushes);
    connect(trials_, &TrialTablePane::scopeChanged, this, &MainWindow::onTick);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(trials_);
    splitter->addWidget(views_);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);

    // The start page until an experiment is shown.
    startPage_ = new StartPage;
    connect(startPage_, &StartPage::editFile, this, &MainWindow::editExperimentFile);
    connect(startPage_, &StartPage::editClusterFile, this, [this](const QString& path) {
        openClusterEditor(this, path, engine_->engineBinary());
    });
    connect(startPage_, &StartPage::openFolder, this, &MainWindow::openFolder);
    connect(startPage_, &StartPage::openFileRequested, this, &MainWindow::chooseAndEditFile);
    connect(startPage_, &StartPage::openFolderRequested, this, &MainWindow::chooseAndOpenFolder);
    connect(startPage_, &StartPage::attachRequested, this, [this] { showAttachDialog(*this); });
    pages_ = new QStackedWidget;
    pages_->addWidget(startPage_);
    pages_->addWidget(splitter);
    setCentralWidget(pages_);
    statusLine_ = new RunStatusLine(session_, statusBar());
}

void MainWindow::onTick() {
    const ExperimentData::Changes changes = session_->data().takeChanges();
    if (changes.rowsAdded || !changes.rows.empty() || changes.configKeysChanged ||
        changes.scopeChanged) {
        trials_->refresh(changes);
        statusLine_->update();
    }
    list_->showTrialCount(session_->ofEngine() ? session_->name() : QString(),
                          int(session_->data().trials().size()));
    const ExperimentBudget& budget = session_->budget();
    if (budget.seconds && !budget.trials && session_->data().experimentStatus() == "running") {
        statusLine_->update();  // the time budget's bar moves with the clock
    }
    views_->refresh(changes);
}

// Attaching and opening.

void MainWindow::attachLocal(const QString& socketPath, const QString& engineBinary) {
    engine_->attachLocal(socketPath, engineBinary, startsLocalEngine());
}

void MainWindow::attachThroughTunnel(const QString& socketPath, const QString& server) {
    engine_->attachThroughTunnel(socketPath, server);
}

void MainWindow::attachTcp(const QString& host, quint16 port, const QString& token) {
    engine_->attachTcp(host, port, token);
}

void MainWindow::refreshExperimentList() {
    engine_->refreshList();
}

void MainWindow::runExperimentFile(const QString& path,
                                   std::function<void(const QString& refusal)> outcome) {
    rememberRecent(RecentKind::File, path);
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const auto startAs = [this, outcome](const QString& fileName, const QString& yaml) {
        client().start(fileName, yaml,
                       [this, outcome](const Status& status, const api::StartedAnswer& started) {
                           if (!status) {
                               emit requestFailed(status.message());
                               if (outcome) {
                                   outcome(status.message());
                               }
                               return;
                           }
                           // Shown from the engine's events, not from its SQLite file, which
                           // the engine may not have written yet.
                           session_->openOfEngine(started.experiment, true);
                           showMonitorPage();
                           refreshExperimentList();
                           if (outcome) {
                               outcome({});
                           }
                       });
    };
    if (!engine_->remote()) {
        startAs(absolute, {});  // null text: the engine reads the file itself
        return;
    }
    // The server cannot read this machine's file: its text goes, read now. Its relative paths
    // (the trials' working_dir first) start from the same folder where the server has it (a
    // shared or synced home), else from the server's results folder.
    QFile file(absolute);
    if (!file.open(QIODevice::ReadOnly)) {
        const QString message = tr("cannot read %1: %2").arg(absolute, file.errorString());
        emit requestFailed(message);
        if (outcome) {
            outcome(message);
        }
        return;
    }
    const QString yaml = QString::fromUtf8(file.readAll());
    const QString folder = QFileInfo(absolute).absolutePath();
    client().hasFolder(folder, [this, startAs, absolute, folder, yaml](bool there) {
        if (there) {
            startAs(absolute, yaml);
            return;
        }
        const QString name = QFileInfo(absolute).fileName();
        statusBar()->showMessage(
            tr("The server has no folder %1: the relative paths of %2 start from its results "
               "folder %3")
                .arg(folder, name, engine_->serverResults()),
            15000);
        startAs(engine_->serverResults() + '/' + name, yaml);
    });
}

void MainWindow::openExperiment(const QString& name) {
    if (session_->openOfEngine(name)) {
        showMonitorPage();
    }
}

void MainWindow::openFolder(const QString& folder) {
    const QFileInfo info(folder);
    const QString root = engine_->resultsRoot();
    const bool ours = !root.isEmpty() && QFileInfo(info.absolutePath()).canonicalFilePath() ==
                                             QFileInfo(root).canonicalFilePath();
    if (ours) {
        openExperiment(info.fileName());
        showMonitorPage();  // when it was shown already, from the start page too
        return;
    }
    rememberRecent(RecentKind::Folder, info.absoluteFilePath());
    session_->openReadOnly(info.absoluteFilePath());
    showMonitorPage();
}

void MainWindow::showWhatIsOpen() {
    list_->highlight(session_->ofEngine() ? session_->name() : QString());
    trials_->showWhatIsOpen(engine_->remote());
    statusLine_->update();
    const QString name = session_->name();
    if (!session_->isOpen()) {
        setWindowTitle(tr("Tunedeck"));
    } else if (session_->ofEngine()) {
        setWindowTitle(tr("%1 - Tunedeck").arg(name));
    } else {
        setWindowTitle(tr("%1 (read-only) - Tunedeck").arg(name));
    }
}

void MainWindow::showLatestRunning(const std::vector<api::ExperimentListEntry>& experiments) {
    if (session_->isOpen() || pages_->currentWidget() != startPage_) {
        return;  // the user (or the command line) chose something already
    }
    const api::ExperimentListEntry* latest = nullptr;
    for (const api::ExperimentListEntry& e : experiments) {
        if (e.served && e.status == QLatin1String("running") &&
            (latest == nullptr || e.createdAt > latest->createdAt)) {
            latest = &e;
        }
    }
    if (latest != nullptr) {
        openExperiment(latest->experiment);
        showMonitorPage();
    }
}

void MainWindow::showStartPage() {
    startPage_->refresh();
    pages_->setCurrentIndex(0);
}

void MainWindow::showMonitorPage() {
    pages_->setCurrentIndex(1);
}

// Orders to the engine.

void MainWindow::orderSelectedTrials(TrialOrder order) {
    const auto done = [this](const Status& status) { report(tr("Trial"), status); };
    const QStringList trials = session_->selection();
    if (trials.isEmpty()) {
        statusBar()->showMessage(tr("Select the trials in the table first."), 10000);
        return;
    }
    const QString experiment = session_->name();
    // A stop cannot be taken back: the trial ends at its next report, reads "stopped by the
    // user" and is not resumed, not even by `resume` (Ray's stop_trial). Pause is the one to undo.
    if (order == TrialOrder::Stop &&
        QMessageBox::question(
            this, tr("Stop trial"),
            (trials.size() == 1 ? tr("Stop trial %1 for good?").arg(trials.constFirst())
                                : tr("Stop these %1 trials for good: %2?")
                                      .arg(trials.size())
                                      .arg(trials.join(QStringLiteral(", ")))) +
                QStringLiteral("\n\n") +
                tr("A running trial ends at its next report and a waiting one never starts; "
                   "they read \"stopped by the user\" and are not resumed. Their results and "
                   "checkpoints are kept. Trial > Pause stops one so that it can be resumed.")) !=
            QMessageBox::Yes) {
        return;
    }
    for (const QString& trial : trials) {
        switch (order) {
            case TrialOrder::Stop:
                client().stopTrial(experiment, trial, done);
                break;
            case TrialOrder::Pause:
                client().pauseTrial(experiment, trial, done);
                break;
            case TrialOrder::Resume:
                client().resumeTrial(experiment, trial, done);
                break;
        }
    }
}

void MainWindow::editTrialNote() {
    const QStringList trials = session_->selection();
    const bool ofEngine = session_->ofEngine();
    if (trials.size() != 1 || !ofEngine) {
        QMessageBox::information(
            this, tr("Edit note"),
            !ofEngine ? tr("This experiment is open read-only: notes are kept by the engine that "
                           "has its folder. Open it from the engine's list to add one.")
                      : tr("Select one trial in the table to write its note."));
        return;
    }
    const QString trial = trials.constFirst();
    const int row = data().rowOf(trial);
    const QString was = row >= 0 ? data().trials()[std::size_t(row)].note : QString();
    bool ok = false;
    const QString note = QInputDialog::getMultiLineText(
        this, tr("Note on %1").arg(trial),
        tr("What you want to remember about %1 (empty removes the note):").arg(trial), was, &ok);
    if (!ok || note == was) {
        return;
    }
    // The table and the Trial tab show it when the engine's trial_note event comes back.
    client().setTrialNote(session_->name(), trial, note,
                          [this](const Status& status) { report(tr("Note not kept"), status); });
}

void MainWindow::orderExperiment(ExperimentOrder order) {
    const QString experiment = session_->name();
    if (experiment.isEmpty()) {
        return;
    }
    if (order == ExperimentOrder::Stop &&
        QMessageBox::question(this, tr("Stop experiment"),
                              tr("Stop %1 for good? Running trials stop at their next report; "
                                 "waiting ones never start. Every trial not yet ended reads "
                                 "\"stopped by the user\", and the experiment cannot be "
                                 "resumed. Experiment > Pause stops it so that it can be.")
                                  .arg(experiment)) != QMessageBox::Yes) {
        return;
    }
    const auto done = [this](const Status& status) {
        report(tr("Experiment"), status);
        refreshExperimentList();
    };
    switch (order) {
        case ExperimentOrder::Stop:
            client().stopExperiment(experiment, done);
            break;
        case ExperimentOrder::Pause:
            client().pauseExperiment(experiment, done);
            break;
        case ExperimentOrder::Resume:
            client().resumeExperiment(experiment, done);
            break;
    }
}

void MainWindow::report(const QString& what, const Status& status) {
    if (!status) {
        emit requestFailed(QStringLiteral("%1: %2").arg(what, status.message()));
    }
}

// Files in and out.

void MainWindow::editExperimentFile(const QString& path) {
    // A file already open is shown, not opened twice: two windows would save over each other.
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (auto* open : findChildren<ExperimentEditorWindow*>(Qt::FindDirectChildrenOnly)) {
        if (open->editor()->path() == absolute) {
            open->raise();
            open->activateWindow();
            return;
        }
    }
    // A window of its own beside the monitor: form and YAML, live validation, Save and Run.
    QString error;
    ExperimentEditorWindow* window = ExperimentEditorWindow::open(path, &client(), this, &error);
    if (!window) {
        emit requestFailed(error);
        return;
    }
    connect(window, &ExperimentEditorWindow::runRequested, this,
            [this, window = QPointer<ExperimentEditorWindow>(window)](const QString& file) {
                runExperimentFile(file, [this, window](const QString& refusal) {
                    if (refusal.isEmpty()) {
                        raise();
                        activateWindow();
                    }
                    if (window) {
                        window->showRunOutcome(refusal);
                    }
                });
            });
    window->show();
}

void MainWindow::saveText(const QString& path, const Status& status, const QString& text) {
    if (!status) {
        emit requestFailed(status.message());
        return;
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0) {
        emit requestFailed(tr("cannot write %1: %2").arg(path, file.errorString()));
        return;
    }
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

void MainWindow::copyBestConfig(const QString& format) {
    client().best(session_->name(), format, scoreScopeName(data().scope()),
                  [this](const Status& status, const api::TextAnswer& best) {
                      if (!status) {
                          emit requestFailed(status.message());
                          return;
                      }
                      QApplication::clipboard()->setText(best.text);
                      statusBar()->showMessage(tr("Best config copied"), 5000);
                  });
}

void MainWindow::exportBest() {
    // The format follows the chosen filter by its position, whatever language it is shown in.
    const QStringList filters{tr("YAML (*.yaml)"), tr("JSON (*.json)"),
                              tr("Command-line flags (*.txt)")};
    const QStringList formats{QStringLiteral("yaml"), QStringLiteral("json"),
                              QStringLiteral("flags")};
    QString filter;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export best config"), session_->name() + QStringLiteral("-best.yaml"),
        filters.join(QStringLiteral(";;")), &filter);
    if (!path.isEmpty()) {
        exportBestTo(path, formats.value(std::max<qsizetype>(0, filters.indexOf(filter))));
    }
}

void MainWindow::exportBestTo(const QString& path, const QString& format) {
    client().best(session_->name(), format, scoreScopeName(data().scope()),
                  [this, path](const Status& status, const api::TextAnswer& answer) {
                      saveText(path, status, answer.text);
                  });
}

void MainWindow::exportResults() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export results"), session_->name() + QStringLiteral(".csv"), tr("CSV (*.csv)"));
    if (path.isEmpty()) {
        return;
    }
    client().exportResults(session_->name(), QStringLiteral("csv"),
                           [this, path](const Status& status, const api::TextAnswer& answer) {
                               saveText(path, status, answer.text);
                           });
}

void MainWindow::exportChart() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"),
                                                      session_->name() + QStringLiteral(".png"),
                                                      tr("PNG image (*.png);;SVG drawing (*.svg)"));
    QString error;
    if (!path.isEmpty() && !saveChart(path, &error)) {
        emit requestFailed(error);
    }
}

bool MainWindow::saveChart(const QString& path, QString* error) const {
    return views_->saveCurrentView(path, session_->name(), error);
}

void MainWindow::chooseAndEditFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Edit experiment"), {},
                                                      tr("Experiment files (*.yaml *.yml)"));
    if (!path.isEmpty()) {
        editExperimentFile(path);
    }
}

void MainWindow::chooseAndOpenFolder() {
    const QString folder =
        QFileDialog::getExistingDirectory(this, tr("Open experiment"), engine_->resultsRoot());
    if (!folder.isEmpty()) {
        openFolder(folder);
    }
}

void MainWindow::chooseAndEditClusterFile() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Cluster file"), QString(),
                                                      tr("Cluster files (*.yaml *.yml)"), nullptr,
                                                      QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty()) {
        openClusterEditor(this, path, engine_->engineBinary());
    }
}

void MainWindow::showSettings() {
    SettingsDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted || !dialog.apply()) {
        return;
    }
    if (QMessageBox::question(this, tr("Language changed"),
                              tr("Restart Tunedeck now to show every window in the new "
                                 "language?")) != QMessageBox::Yes ||
        !settleUnsavedEdits()) {
        return;
    }
    // A restart is no quit: the experiments go on in the engine and the new window shows them.
    // Asking whether to pause them kept this instance open behind the new one.
    quitDecided_ = true;
    emit restartRequested(session_->isOpen() && !engine_->remote() ? session_->folder()
                                                                   : QString());
    close();
}

// Managing experiments (issue 18): compare, clone, limits, delete.

void MainWindow::compareExperiments() {
    const QStringList folders = engine_->experimentFolders();
    // The shown experiment by its folder: a read-only copy of `asha` is not the engine's `asha`.
    const QString current = !session_->isOpen() || (engine_->remote() && session_->ofEngine())
                                ? QString()
                                : session_->folder();
    QString other;
    for (const QString& folder : folders) {
        if (folder != current) {
            other = folder;
            break;
        }
    }
    auto* dialog =
        new ExperimentsCompare(folders, current.isEmpty() ? other : current,
                               current.isEmpty() ? QString() : other, data().scope(), this);
    dialog->show();
}

void MainWindow::cloneShownExperiment() {
    // The file as it ran, and where it was: from the folder's history, whatever is shown.
    const QString folder = session_->folder();
    RecordedSpec recorded;
    QString error;
    const bool read = !folder.isEmpty() && readRecordedSpec(folder, &recorded, &error);
    if (!read || recorded.specText.isEmpty()) {
        QMessageBox::warning(
            this, tr("Clone experiment"),
            folder.isEmpty()
                ? tr("Open an experiment first.")
                : tr("The experiment file of %1 cannot be read here: %2").arg(folder, error));
        return;
    }
    const QString fallback = QDir(QStandardPaths::writableLocation(QStandardPaths::HomeLocation))
                                 .filePath(QStringLiteral("tunedeck-experiments"));
    QDir().mkpath(fallback);
    QString name;
    const QString path =
        cloneFilePath(recorded.specFile, recorded.name, fallback, engine_->resultsRoot(), &name);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(renamedSpecText(recorded.specText, name).toUtf8()) < 0 || !file.commit()) {
        QMessageBox::warning(this, tr("Clone experiment"),
                             tr("Cannot write %1: %2").arg(path, file.errorString()));
        return;
    }
    editExperimentFile(path);
    statusBar()->showMessage(tr("Cloned %1 into %2: edit it, then Run.").arg(recorded.name, path),
                             10000);
}

void MainWindow::changeShownLimits() {
    if (!session_->ofEngine() || data().experimentStatus() != QLatin1String("running")) {
        QMessageBox::information(this, tr("Change limits"),
                                 tr("Only a running experiment of the attached engine takes new "
                                    "limits. Open one, or resume this one first."));
        return;
    }
    delete findChild<LimitsDialog*>(QStringLiteral("limitsDialog"));  // one, with today's values
    const int created = int(data().trials().size());
    const ExperimentBudget& budget = session_->budget();
    auto* dialog = new LimitsDialog(client(), session_->name(),
                                    budget.numSamples.value_or(std::max(1, created)),
                                    budget.maxConcurrentTrials.value_or(0), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::deleteShownExperiment() {
    const QString folder = session_->folder();
    const QString experiment = session_->name();
    const bool ofEngine = session_->ofEngine();
    if (folder.isEmpty()) {
        return;
    }
    const QString status = data().experimentStatus();
    if (ofEngine && (status == QLatin1String("running") ||
                     (status.isEmpty() && engine_->running().contains(experiment)))) {
        QMessageBox::information(this, tr("Delete experiment"),
                                 tr("%1 is still running. Stop it first (Experiment > Stop for "
                                    "good), then delete its folder.")
                                     .arg(experiment));
        return;
    }
    if (ofEngine && engine_->served().contains(experiment)) {
        refreshExperimentList();  // it says when the process is gone
        QMessageBox::information(this, tr("Delete experiment"),
                                 tr("%1 has ended, and the engine is still closing its files. "
                                    "Try again in a moment.")
                                     .arg(experiment));
        return;
    }
    QMessageBox ask(QMessageBox::Warning, tr("Delete experiment"),
                    tr("Delete the folder of %1 with its %2 trials' results, checkpoints and "
                       "logs?\n\n%3\n\nThis cannot be undone.")
                        .arg(experiment)
                        .arg(data().trials().size())
                        .arg(folder),
                    QMessageBox::Cancel, this);
    QPushButton* remove = ask.addButton(tr("Delete"), QMessageBox::DestructiveRole);
    ask.button(QMessageBox::Cancel)->setText(tr("Cancel"));  // Qt's translations may be absent
    ask.setDefaultButton(QMessageBox::Cancel);
    ask.exec();
    if (ask.clickedButton() != remove) {
        return;
    }
    if (!QDir(folder).removeRecursively()) {
        QMessageBox::warning(this, tr("Delete experiment"),
                             tr("Some files of %1 could not be deleted.").arg(folder));
    }
    session_->close();  // unsubscribed; a read of it still under way shows nothing
    showStartPage();
    refreshExperimentList();
    statusBar()->showMessage(tr("Deleted %1").arg(folder), 10000);
}

// Quitting. Nothing is lost without the user's word: every editor window's unsaved edits are
// settled first (Save / Discard / Cancel), then, when this machine's engine runs experiments,
// the user chooses to pause them (each trial saves a checkpoint; Resume continues them) or to
// leave them running without the window (app/APP.md, "Quitting").

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!quitDecided_ && !readyToQuit()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    for (EditorWindow* editor : findChildren<EditorWindow*>(Qt::FindDirectChildrenOnly)) {
        editor->close();  // settled already: closes without asking again
    }
    event->accept();
}

bool MainWindow::readyToQuit() {
    return settleUnsavedEdits() && settleRunningExperiments();
}

bool MainWindow::settleUnsavedEdits() {
    for (EditorWindow* editor : findChildren<EditorWindow*>(Qt::FindDirectChildrenOnly)) {
        if (editor->isVisible() && !editor->settleUnsavedEdits()) {
            return false;
        }
    }
    return true;
}

bool MainWindow::settleRunningExperiments() {
    // A server's experiments go on running there: that is what a server is for.
    if (engine_->remote() || !engine_->isReady()) {
        return true;
    }
    QStringList running = engine_->running();
    if (session_->ofEngine() && !data().experimentStatus().isEmpty()) {
        // The shown one's stream is newer than the list: started, or ended, since it.
        running.removeAll(session_->name());
        if (data().experimentStatus() == QLatin1String("running")) {
            running << session_->name();
        }
    }
    if (running.isEmpty()) {
        return true;
    }
    QMessageBox box(
        QMessageBox::Question, tr("Experiments are running"),
        tr("Running on the engine of this machine: %1.").arg(running.join(QStringLiteral(", "))),
        QMessageBox::NoButton, this);
    box.setInformativeText(
        tr("<p><b>Pause and quit</b>: each trial saves a checkpoint and stops; Experiment &gt; "
           "Resume (or <tt>tunedeck-engine resume</tt>) continues them later.</p>"
           "<p><b>Leave running</b>: the engine goes on without the window; open Tunedeck "
           "again to watch them.</p>"));
    QPushButton* pause = box.addButton(tr("Pause and quit"), QMessageBox::AcceptRole);
    QPushButton* leave = box.addButton(tr("Leave running and quit"), QMessageBox::AcceptRole);
    QPushButton* cancel = box.addButton(QMessageBox::Cancel);
    cancel->setText(tr("Cancel"));  // Qt's translations are not installed everywhere
    box.setDefaultButton(cancel);
    box.setEscapeButton(cancel);
    box.exec();
    if (box.clickedButton() == leave) {
        return true;
    }
    if (box.clickedButton() == pause) {
        pauseThenQuit(running);
    }
    return false;
}

void MainWindow::pauseThenQuit(const QStringList& experiments) {
    statusBar()->showMessage(tr("Pausing %1...").arg(experiments.join(QStringLiteral(", "))));
    setEnabled(false);  // the answer is given; the window waits for the engine's
    struct Pausing {
        int left = 0;
        QStringList failed;
        bool over = false;
    };
    auto pausing = std::make_shared<Pausing>();
    pausing->left = int(experiments.size());
    // Quits once every order was taken; otherwise stays, and says which were not.
    auto finish = [this, pausing] {
        if (pausing->over) {
            return;
        }
        pausing->over = true;
        if (pausing->left == 0 && pausing->failed.isEmpty()) {
            quitDecided_ = true;
            close();
            return;
        }
        setEnabled(true);
        statusBar()->clearMessage();
        QMessageBox::warning(
            this, tr("Experiments are running"),
            pausing->failed.isEmpty()
                ? tr("The engine did not answer the pause orders; the experiments may still run.")
                : tr("Not paused, still running:\n%1").arg(pausing->failed.join('\n')));
    };
    for (const QString& experiment : experiments) {
        client().pauseExperiment(experiment, [experiment, pausing, finish](const Status& status) {
            if (!status) {
                pausing->failed << QStringLiteral("%1: %2").arg(experiment, status.message());
            }
            if (--pausing->left == 0) {
                finish();
            }
        });
    }
    QTimer::singleShot(kPauseAnswerTimeoutMs, this, finish);
}

}  // namespace tunedeck::app
