// The part of MainWindow that quits. Nothing is lost without the user's word: every editor
// window's unsaved edits are settled first (Save / Discard / Cancel), then, when this machine's
// engine runs experiments, the user chooses to pause them (each trial saves a checkpoint;
// Resume continues them) or to leave them running without the window (app/APP.md, "Quitting").
#include <QCloseEvent>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <memory>

#include "editors/editor_window.h"
#include "views/main_window.h"

namespace tunedeck::app {

namespace {

// How long quitting waits for the engine to acknowledge the pause orders; the engine pauses
// the trials whether or not the window is still there to hear it.
constexpr int kPauseAnswerTimeoutMs = 10000;

}  // namespace

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
    for (EditorWindow* editor : findChildren<EditorWindow*>(Qt::FindDirectChildrenOnly)) {
        if (editor->isVisible() && !editor->settleUnsavedEdits()) {
            return false;
        }
    }
    return settleRunningExperiments();
}

bool MainWindow::settleRunningExperiments() {
    // A server's experiments go on running there: that is what a server is for.
    if (remote_ || !client_.isReady()) {
        return true;
    }
    QStringList running = runningOnEngine_;
    if (ofEngine_ && !data_.experimentStatus().isEmpty()) {
        // The shown one's stream is newer than the list: started, or ended, since it.
        running.removeAll(experiment_);
        if (data_.experimentStatus() == QLatin1String("running")) {
            running << experiment_;
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
        client_.pauseExperiment(experiment, [experiment, pausing, finish](const Status& status) {
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
