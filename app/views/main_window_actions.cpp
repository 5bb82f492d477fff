// The part of MainWindow that acts: orders to the engine for trials and experiments, the
// exports (best config, results, chart) and the experiment editor's window.
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

#include "charts/metric_chart.h"
#include "editors/experiment_editor.h"
#include "views/main_window.h"

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

void MainWindow::orderSelectedTrials(const QString& op) {
    for (const QString& trial : selectedTrials()) {
        client_.request(op, {{"experiment", experiment_}, {"trial", trial}},
                        [this](const QJsonObject& answer) { report(tr("Trial"), answer); });
    }
}

void MainWindow::orderExperiment(const QString& op) {
    if (experiment_.isEmpty()) {
        return;
    }
    if (op == QLatin1String("stop") &&
        QMessageBox::question(this, tr("Stop experiment"),
                              tr("Stop %1 for good? Running trials stop at their next report; "
                                 "waiting ones never start.")
                                  .arg(experiment_)) != QMessageBox::Yes) {
        return;
    }
    client_.request(op, {{"experiment", experiment_}}, [this](const QJsonObject& answer) {
        report(tr("Experiment"), answer);
        refreshExperimentList();
    });
}

void MainWindow::report(const QString& what, const QJsonObject& answer) {
    if (!answer.value("ok").toBool()) {
        emit requestFailed(QStringLiteral("%1: %2").arg(what, EngineClient::errorOf(answer)));
    }
}

void MainWindow::copyBestConfig(const QString& format) {
    client_.request(QStringLiteral("best"), {{"experiment", experiment_}, {"format", format}},
                    [this](const QJsonObject& answer) {
                        if (!answer.value("ok").toBool()) {
                            emit requestFailed(EngineClient::errorOf(answer));
                            return;
                        }
                        QApplication::clipboard()->setText(answer.value("text").toString());
                        statusBar()->showMessage(tr("Best config copied"), 5000);
                    });
}

void MainWindow::exportBest() {
    QString filter;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export best config"), experiment_ + QStringLiteral("-best.yaml"),
        tr("YAML (*.yaml);;JSON (*.json);;Command-line flags (*.txt)"), &filter);
    if (path.isEmpty()) {
        return;
    }
    const QString format = filter.startsWith(QLatin1String("JSON"))      ? QStringLiteral("json")
                           : filter.startsWith(QLatin1String("Command")) ? QStringLiteral("flags")
                                                                         : QStringLiteral("yaml");
    client_.request(QStringLiteral("best"), {{"experiment", experiment_}, {"format", format}},
                    [this, path](const QJsonObject& answer) { saveText(path, answer); });
}

void MainWindow::saveText(const QString& path, const QJsonObject& answer) {
    if (!answer.value("ok").toBool()) {
        emit requestFailed(EngineClient::errorOf(answer));
        return;
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(answer.value("text").toString().toUtf8()) < 0) {
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
    client_.request(QStringLiteral("export"), {{"experiment", experiment_}, {"format", "csv"}},
                    [this, path](const QJsonObject& answer) { saveText(path, answer); });
}

void MainWindow::exportChart() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart"), experiment_ + QStringLiteral(".png"), tr("PNG image (*.png)"));
    if (!path.isEmpty() && !chart_->grab().save(path)) {
        emit requestFailed(tr("cannot write %1").arg(path));
    }
}

}  // namespace tunedeck::app
