// The part of MainWindow that builds its menus: every command of the monitor, with its shortcut.
#include <QFileDialog>
#include <QMenuBar>
#include <QStackedWidget>

#include "charts/metric_chart.h"
#include "editors/cluster_editor.h"
#include "views/attach_dialog.h"
#include "views/help_menu.h"
#include "views/main_window.h"
#include "views/message_history.h"
#include "views/queue_dialog.h"

namespace tunedeck::app {

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Run experiment file..."), QKeySequence(tr("Ctrl+R")), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Run experiment"), {},
                                                          tr("Experiment files (*.yaml *.yml)"));
        if (!path.isEmpty()) {
            runExperimentFile(path);
        }
    });
    file->addAction(tr("&New experiment from template..."), QKeySequence::New, this,
                    &MainWindow::showStartPage);
    file->addAction(tr("&Edit experiment file..."), QKeySequence(tr("Ctrl+Shift+E")), this,
                    &MainWindow::chooseAndEditFile);
    file->addAction(tr("&Open experiment folder..."), QKeySequence::Open, this,
                    &MainWindow::chooseAndOpenFolder);
    file->addAction(tr("&Attach to a server over SSH..."), QKeySequence(tr("Ctrl+Shift+A")), this,
                    [this] { showAttachDialog(*this); });
    file->addAction(tr("Edit c&luster file..."), QKeySequence(tr("Ctrl+Shift+L")), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Cluster file"), QString(), tr("Cluster files (*.yaml *.yml)"), nullptr,
            QFileDialog::DontConfirmOverwrite);
        if (!path.isEmpty()) {
            openClusterEditor(this, path, engineBinary_);
        }
    });
    file->addAction(tr("Compare &two experiments..."), QKeySequence(tr("Ctrl+Shift+K")), this,
                    &MainWindow::compareExperiments);
    file->addSeparator();
    file->addAction(tr("Export &best config..."), QKeySequence(tr("Ctrl+E")), this,
                    &MainWindow::exportBest);
    file->addAction(tr("&Copy best config as YAML"), QKeySequence(tr("Ctrl+Shift+C")), this,
                    [this] { copyBestConfig(QStringLiteral("yaml")); });
    file->addAction(tr("Copy best config as command-line &flags"), this,
                    [this] { copyBestConfig(QStringLiteral("flags")); });
    file->addAction(tr("Export all results as CSV..."), this, &MainWindow::exportResults);
    file->addAction(tr("Export chart as PNG or SVG..."), QKeySequence(tr("Ctrl+Shift+S")), this,
                    &MainWindow::exportChart);
    file->addSeparator();
    file->addAction(tr("&Settings..."), QKeySequence::Preferences, this, &MainWindow::showSettings);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* experiment = menuBar()->addMenu(tr("&Experiment"));
    experiment->addAction(tr("Refresh list"), QKeySequence::Refresh, this,
                          &MainWindow::refreshExperimentList);
    experiment->addAction(tr("&Pause (resume later)"), this,
                          [this] { orderExperiment(ExperimentOrder::Pause); });
    experiment->addAction(tr("&Resume"), this,
                          [this] { orderExperiment(ExperimentOrder::Resume); });
    experiment->addAction(tr("&Stop for good"), this,
                          [this] { orderExperiment(ExperimentOrder::Stop); });
    experiment->addSeparator();
    experiment->addAction(tr("&Clone into editor..."), this, &MainWindow::cloneShownExperiment)
        ->setObjectName(QStringLiteral("cloneExperiment"));
    experiment
        ->addAction(tr("&Delete experiment folder..."), this, &MainWindow::deleteShownExperiment)
        ->setObjectName(QStringLiteral("deleteExperiment"));
    experiment->addAction(tr("Change &limits..."), this, &MainWindow::changeShownLimits)
        ->setObjectName(QStringLiteral("changeLimits"));
    experiment->addSeparator();
    experiment->addAction(tr("Engine &queue..."), this, [this] {
        auto* queue = findChild<QueueDialog*>(QStringLiteral("queueDialog"));
        queue = queue ? queue : new QueueDialog(client_, this);  // one, kept
        queue->show();
        queue->raise();
    });

    QMenu* trial = menuBar()->addMenu(tr("&Trial"));
    trial->addAction(tr("&Stop selected trials"), QKeySequence(tr("Ctrl+T")), this,
                     [this] { orderSelectedTrials(TrialOrder::Stop); });
    trial->addAction(tr("&Pause selected trials"), QKeySequence(tr("Ctrl+P")), this,
                     [this] { orderSelectedTrials(TrialOrder::Pause); });
    trial->addAction(tr("&Resume selected trials"), QKeySequence(tr("Ctrl+Shift+P")), this,
                     [this] { orderSelectedTrials(TrialOrder::Resume); });
    trial
        ->addAction(tr("Edit &note..."), QKeySequence(tr("Ctrl+Shift+N")), this,
                    &MainWindow::editTrialNote)
        ->setObjectName(QStringLiteral("editTrialNote"));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Start page"), QKeySequence(tr("Ctrl+Shift+H")), this,
                    &MainWindow::showStartPage);
    view->addAction(tr("&Monitor"), QKeySequence(tr("Ctrl+Shift+M")), this,
                    [this] { pages_->setCurrentIndex(1); });
    view->addAction(tr("Reset chart zoom"), QKeySequence(tr("Ctrl+0")), chart_,
                    &MetricChart::resetZoom);
    view->addAction(tr("Find trials"), QKeySequence::Find, search_,
                    qOverload<>(&QWidget::setFocus));
    addMessageHistory(this, view);
    addHelpMenu(this);
}

}  // namespace tunedeck::app
