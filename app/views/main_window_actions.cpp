// The part of MainWindow that acts: orders to the engine for trials and experiments, the
// exports (best config, results, chart), the experiment editor's window, the settings and the
// comparison of two experiments.
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QProcess>
#include <QStackedWidget>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QTreeWidget>

#include "charts/metric_chart.h"
#include "editors/experiment_editor.h"
#include "views/experiments_compare.h"
#include "views/main_window.h"
#include "views/settings_dialog.h"
#include "views/start_page.h"

namespace tunedeck::app {

void MainWindow::editExperimentFile(const QString& path) {
    // A window of its own beside the monitor: form and YAML, live validation, Save and Run.
    auto* window = new QMainWindow(this);
    window->setAttribute(Qt::WA_DeleteOnClose);
    auto* editor = new ExperimentEditor(&client_, window);
    if (!editor->load(path)) {
        emit requestFailed(editor->errorString());
        window->deleteLater();
        return;
    }
    window->setCentralWidget(editor);
    window->setWindowTitle(tr("%1 - Tunedeck editor").arg(QFileInfo(path).fileName()));
    QMenu* menu = window->menuBar()->addMenu(tr("&Experiment"));
    menu->addAction(tr("&Save"), QKeySequence::Save, editor, [this, editor] {
        if (!editor->save()) {
            emit requestFailed(editor->errorString());
        }
    });
    menu->addAction(tr("&Run"), QKeySequence(tr("Ctrl+Return")), editor, [this, editor, window] {
        if (!editor->save()) {
            emit requestFailed(editor->errorString());
            return;
        }
        runExperimentFile(editor->path());
        raise();
        activateWindow();
        window->lower();
    });
    menu->addAction(tr("&Undo"), QKeySequence::Undo, editor, &ExperimentEditor::undo);
    menu->addAction(tr("Re&do"), QKeySequence::Redo, editor, &ExperimentEditor::redo);
    window->resize(1000, 760);
    window->show();
}

void MainWindow::orderSelectedTrials(TrialOrder order) {
    const auto done = [this](const Status& status) { report(tr("Trial"), status); };
    for (const QString& trial : selectedTrials()) {
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

void MainWindow::copyBestConfig(const QString& format) {
    client_.best(experiment_, format, [this](const Status& status, const api::TextAnswer& best) {
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
    const QString path = QFileDialog::getSaveFileName(this, tr("Export best config"),
                                                      experiment_ + QStringLiteral("-best.yaml"),
                                                      filters.join(QStringLiteral(";;")), &filter);
    if (path.isEmpty()) {
        return;
    }
    const QString format = formats.value(std::max<qsizetype>(0, filters.indexOf(filter)));
    client_.best(experiment_, format,
                 [this, path](const Status& status, const api::TextAnswer& answer) {
                     saveText(path, status, answer.text);
                 });
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

void MainWindow::compareExperiments() {
    const QStringList folders = experimentFolders();
    const QString current = resultsRoot_.isEmpty() || experiment_.isEmpty()
                                ? QString()
                                : QDir(resultsRoot_).filePath(experiment_);
    QString other;
    for (const QString& folder : folders) {
        if (folder != current) {
            other = folder;
            break;
        }
    }
    auto* dialog = new ExperimentsCompare(folders, current.isEmpty() ? other : current,
                                          current.isEmpty() ? QString() : other, this);
    dialog->show();
}

}  // namespace tunedeck::app
