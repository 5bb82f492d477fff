// The part of MainWindow that acts: orders to the engine for trials and experiments, the
// exports (results, chart), the experiment editor's window and the settings. The best config's
// exports and the comparison of two experiments follow the window's scope: main_window_best.cpp.
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QPainter>
#include <QPointer>
#include <QProcess>
#include <QStackedWidget>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QTreeWidget>

#include "charts/metric_chart.h"
#include "editors/experiment_editor.h"
#include "editors/experiment_editor_window.h"
#include "views/experiments_compare.h"
#include "views/main_window.h"
#include "views/settings_dialog.h"
#include "views/start_page.h"

namespace tunedeck::app {

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
    ExperimentEditorWindow* window = ExperimentEditorWindow::open(path, &client_, this, &error);
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

void MainWindow::orderSelectedTrials(TrialOrder order) {
    const auto done = [this](const Status& status) { report(tr("Trial"), status); };
    const QStringList trials = selectedTrials();
    if (trials.isEmpty()) {
        statusBar()->showMessage(tr("Select the trials in the table first."), 10000);
        return;
    }
    for (const QString& trial : trials) {
        switch (order) {
            case TrialOrder::Stop:
                client_.stopTrial(experiment_, trial, done);
                break;
            case TrialOrder::Pause:
                client_.pauseTrial(experiment_, trial, done);
                break;
            case TrialOrder::Resume:
                client_.resumeTrial(experiment_, trial, done);
                break;
        }
    }
}

void MainWindow::editTrialNote() {
    const QStringList trials = selectedTrials();
    if (trials.size() != 1 || !ofEngine_) {
        QMessageBox::information(
            this, tr("Edit note"),
            !ofEngine_ ? tr("This experiment is open read-only: notes are kept by the engine that "
                            "has its folder. Open it from the engine's list to add one.")
                       : tr("Select one trial in the table to write its note."));
        return;
    }
    const QString trial = trials.constFirst();
    const int row = data_.rowOf(trial);
    const QString was = row >= 0 ? data_.trials()[std::size_t(row)].note : QString();
    bool ok = false;
    const QString note = QInputDialog::getMultiLineText(
        this, tr("Note on %1").arg(trial),
        tr("What you want to remember about %1 (empty removes the note):").arg(trial), was, &ok);
    if (!ok || note == was) {
        return;
    }
    // The table and the Trial tab show it when the engine's trial_note event comes back.
    client_.setTrialNote(experiment_, trial, note,
                         [this](const Status& status) { report(tr("Note not kept"), status); });
}

void MainWindow::orderExperiment(ExperimentOrder order) {
    if (experiment_.isEmpty()) {
        return;
    }
    if (order == ExperimentOrder::Stop &&
        QMessageBox::question(this, tr("Stop experiment"),
                              tr("Stop %1 for good? Running trials stop at their next report; "
                                 "waiting ones never start.")
                                  .arg(experiment_)) != QMessageBox::Yes) {
        return;
    }
    const auto done = [this](const Status& status) {
        report(tr("Experiment"), status);
        refreshExperimentList();
    };
    switch (order) {
        case ExperimentOrder::Stop:
            client_.stopExperiment(experiment_, done);
            break;
        case ExperimentOrder::Pause:
            client_.pauseExperiment(experiment_, done);
            break;
        case ExperimentOrder::Resume:
            client_.resumeExperiment(experiment_, done);
            break;
    }
}

void MainWindow::report(const QString& what, const Status& status) {
    if (!status) {
        emit requestFailed(QStringLiteral("%1: %2").arg(what, status.message()));
    }
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

void MainWindow::exportResults() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export results"), experiment_ + QStringLiteral(".csv"), tr("CSV (*.csv)"));
    if (path.isEmpty()) {
        return;
    }
    client_.exportResults(experiment_, QStringLiteral("csv"),
                          [this, path](const Status& status, const api::TextAnswer& answer) {
                              saveText(path, status, answer.text);
                          });
}

void MainWindow::exportChart() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export chart"), experiment_ + QStringLiteral(".png"),
                                     tr("PNG image (*.png);;SVG drawing (*.svg)"));
    QString error;
    if (!path.isEmpty() && !saveChart(path, &error)) {
        emit requestFailed(error);
    }
}

bool MainWindow::saveChart(const QString& path, QString* error) const {
    QWidget* view = tabs_->currentWidget();
    if (view == chart_->parentWidget()) {
        view = chart_;  // the curves without their controls
    }
    if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
        // Painted again into the SVG device, so lines stay lines (the curves item draws its
        // curves as paths there instead of its raster cache).
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(view->size());
        svg.setViewBox(view->rect());
        svg.setTitle(experiment_);
        svg.setDescription(tabs_->tabText(tabs_->currentIndex()));
        QPainter painter;
        if (!painter.begin(&svg)) {
            *error = tr("cannot write %1").arg(path);
            return false;
        }
        view->render(&painter);
        painter.end();
        return QFileInfo(path).size() > 0;
    }
    if (!view->grab().save(path)) {
        *error = tr("cannot write %1").arg(path);
        return false;
    }
    return true;
}

void MainWindow::showStartPage() {
    startPage_->refresh();
    pages_->setCurrentIndex(0);
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
        QFileDialog::getExistingDirectory(this, tr("Open experiment"), resultsRoot_);
    if (!folder.isEmpty()) {
        openFolder(folder);
    }
}

void MainWindow::showSettings() {
    SettingsDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted || !dialog.apply()) {
        return;
    }
    if (QMessageBox::question(this, tr("Language changed"),
                              tr("Restart Tunedeck now to show every window in the new "
                                 "language?")) == QMessageBox::Yes) {
        QProcess::startDetached(QApplication::applicationFilePath(),
                                QApplication::arguments().mid(1));
        close();
    }
}

QStringList MainWindow::experimentFolders() const {
    QStringList folders;
    if (resultsRoot_.isEmpty()) {
        return folders;
    }
    for (int i = 0; i < experiments_->topLevelItemCount(); ++i) {
        folders << QDir(resultsRoot_).filePath(experiments_->topLevelItem(i)->text(0));
    }
    return folders;
}

}  // namespace tunedeck::app
