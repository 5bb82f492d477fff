// Experiment management from the window (issue 18): clone the shown experiment into the editor
// for a re-run with edits, and delete the folder of one that no longer runs, after the user's
// word; change a running one's num_samples and max_concurrent_trials. Part of MainWindow; GUI
// thread only.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QStandardPaths>
#include <QStatusBar>

#include "store/history_reader.h"
#include "views/experiment_clone.h"
#include "views/limits_dialog.h"
#include "views/main_window.h"

namespace tunedeck::app {

void MainWindow::cloneShownExperiment() {
    // The file as it ran, and where it was: from the folder's history, whatever is shown.
    std::unique_ptr<store::HistoryReader> reader;
    store::HistoryExperiment recorded;
    Status status =
        store::HistoryReader::open(folder_ + QStringLiteral("/experiment.sqlite"), &reader);
    if (status) {
        status = reader->readExperiment(&recorded);
    }
    if (folder_.isEmpty() || !status || recorded.specText.isEmpty()) {
        QMessageBox::warning(this, tr("Clone experiment"),
                             folder_.isEmpty()
                                 ? tr("Open an experiment first.")
                                 : tr("The experiment file of %1 cannot be read here: %2")
                                       .arg(folder_, status.message()));
        return;
    }
    const QString fallback = QDir(QStandardPaths::writableLocation(QStandardPaths::HomeLocation))
                                 .filePath(QStringLiteral("tunedeck-experiments"));
    QDir().mkpath(fallback);
    QString name;
    const QString path =
        cloneFilePath(recorded.specFile, recorded.name, fallback, resultsRoot_, &name);
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
    if (!ofEngine_ || data_.experimentStatus() != QLatin1String("running")) {
        QMessageBox::information(this, tr("Change limits"),
                                 tr("Only a running experiment of the attached engine takes new "
                                    "limits. Open one, or resume this one first."));
        return;
    }
    delete findChild<LimitsDialog*>(QStringLiteral("limitsDialog"));  // one, with today's values
    const int created = int(data_.trials().size());
    auto* dialog =
        new LimitsDialog(client_, experiment_, budget_.numSamples.value_or(std::max(1, created)),
                         budget_.maxConcurrentTrials.value_or(0), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::deleteShownExperiment() {
    if (folder_.isEmpty()) {
        return;
    }
    const QString status = data_.experimentStatus();
    if (ofEngine_ && (status == QLatin1String("running") ||
                      (status.isEmpty() && runningOnEngine_.contains(experiment_)))) {
        QMessageBox::information(this, tr("Delete experiment"),
                                 tr("%1 is still running. Stop it first (Experiment > Stop for "
                                    "good), then delete its folder.")
                                     .arg(experiment_));
        return;
    }
    if (ofEngine_ && servedByEngine_.contains(experiment_)) {
        refreshExperimentList();  // it says when the process is gone
        QMessageBox::information(this, tr("Delete experiment"),
                                 tr("%1 has ended, and the engine is still closing its files. "
                                    "Try again in a moment.")
                                     .arg(experiment_));
        return;
    }
    QMessageBox ask(QMessageBox::Warning, tr("Delete experiment"),
                    tr("Delete the folder of %1 with its %2 trials' results, checkpoints and "
                       "logs?\n\n%3\n\nThis cannot be undone.")
                        .arg(experiment_)
                        .arg(data_.trials().size())
                        .arg(folder_),
                    QMessageBox::Cancel, this);
    QPushButton* remove = ask.addButton(tr("Delete"), QMessageBox::DestructiveRole);
    ask.button(QMessageBox::Cancel)->setText(tr("Cancel"));  // Qt's translations may be absent
    ask.setDefaultButton(QMessageBox::Cancel);
    ask.exec();
    if (ask.clickedButton() != remove) {
        return;
    }
    const QString folder = folder_;
    if (!QDir(folder).removeRecursively()) {
        QMessageBox::warning(this, tr("Delete experiment"),
                             tr("Some files of %1 could not be deleted.").arg(folder));
    }
    if (ofEngine_) {
        client_.unsubscribe(experiment_);
    }
    ++historyLoads_;  // a read of it still under way shows nothing
    showMonitor({});
    folder_.clear();
    showWhatIsOpen();
    showStartPage();
    refreshExperimentList();
    statusBar()->showMessage(tr("Deleted %1").arg(folder), 10000);
}

}  // namespace tunedeck::app
