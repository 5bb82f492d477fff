#include "views/main_menus.h"

#include <QFileDialog>
#include <QMenuBar>

#include "charts/metric_chart.h"
#include "views/attach_dialog.h"
#include "views/help_menu.h"
#include "views/main_window.h"
#include "views/message_history.h"
#include "views/queue_dialog.h"

namespace tunedeck::app {

void addMainMenus(MainWindow& window) {
    MainWindow* w = &window;
    QMenu* file = window.menuBar()->addMenu(MainWindow::tr("&File"));
    file->addAction(
        MainWindow::tr("&Run experiment file..."), QKeySequence(MainWindow::tr("Ctrl+R")), w, [w] {
            const QString path =
                QFileDialog::getOpenFileName(w, MainWindow::tr("Run experiment"), {},
                                             MainWindow::tr("Experiment files (*.yaml *.yml)"));
            if (!path.isEmpty()) {
                w->runExperimentFile(path);
            }
        });
    file->addAction(MainWindow::tr("&New experiment from template..."), QKeySequence::New, w,
                    &MainWindow::showStartPage);
    file->addAction(MainWindow::tr("&Edit experiment file..."),
                    QKeySequence(MainWindow::tr("Ctrl+Shift+E")), w,
                    &MainWindow::chooseAndEditFile);
    file->addAction(MainWindow::tr("&Open experiment folder..."), QKeySequence::Open, w,
                    &MainWindow::chooseAndOpenFolder);
    file->addAction(MainWindow::tr("&Attach to a server over SSH..."),
                    QKeySequence(MainWindow::tr("Ctrl+Shift+A")), w, [w] { showAttachDialog(*w); });
    file->addAction(MainWindow::tr("Edit c&luster file..."),
                    QKeySequence(MainWindow::tr("Ctrl+Shift+L")), w,
                    &MainWindow::chooseAndEditClusterFile);
    file->addAction(MainWindow::tr("Compare &two experiments..."),
                    QKeySequence(MainWindow::tr("Ctrl+Shift+K")), w,
                    &MainWindow::compareExperiments);
    file->addSeparator();
    file->addAction(MainWindow::tr("Export &best config..."),
                    QKeySequence(MainWindow::tr("Ctrl+E")), w, &MainWindow::exportBest);
    file->addAction(MainWindow::tr("&Copy best config as YAML"),
                    QKeySequence(MainWindow::tr("Ctrl+Shift+C")), w,
                    [w] { w->copyBestConfig(QStringLiteral("yaml")); });
    file->addAction(MainWindow::tr("Copy best config as command-line &flags"), w,
                    [w] { w->copyBestConfig(QStringLiteral("flags")); });
    file->addAction(MainWindow::tr("Export all results as CSV..."), w, &MainWindow::exportResults);
    file->addAction(MainWindow::tr("Export chart as PNG or SVG..."),
                    QKeySequence(MainWindow::tr("Ctrl+Shift+S")), w, &MainWindow::exportChart);
    file->addSeparator();
    file->addAction(MainWindow::tr("&Settings..."), QKeySequence::Preferences, w,
                    &MainWindow::showSettings);
    file->addSeparator();
    file->addAction(MainWindow::tr("&Quit"), QKeySequence::Quit, w, &QWidget::close);

    QMenu* experiment = window.menuBar()->addMenu(MainWindow::tr("&Experiment"));
    experiment->addAction(MainWindow::tr("Refresh list"), QKeySequence::Refresh, w,
                          &MainWindow::refreshExperimentList);
    experiment->addAction(MainWindow::tr("&Pause (resume later)"), w,
                          [w] { w->orderExperiment(MainWindow::ExperimentOrder::Pause); });
    experiment->addAction(MainWindow::tr("&Resume"), w,
                          [w] { w->orderExperiment(MainWindow::ExperimentOrder::Resume); });
    experiment->addAction(MainWindow::tr("&Stop for good"), w,
                          [w] { w->orderExperiment(MainWindow::ExperimentOrder::Stop); });
    experiment->addSeparator();
    experiment
        ->addAction(MainWindow::tr("&Clone into editor..."), w, &MainWindow::cloneShownExperiment)
        ->setObjectName(QStringLiteral("cloneExperiment"));
    experiment
        ->addAction(MainWindow::tr("&Delete experiment folder..."), w,
                    &MainWindow::deleteShownExperiment)
        ->setObjectName(QStringLiteral("deleteExperiment"));
    experiment->addAction(MainWindow::tr("Change &limits..."), w, &MainWindow::changeShownLimits)
        ->setObjectName(QStringLiteral("changeLimits"));
    experiment->addSeparator();
    experiment->addAction(MainWindow::tr("Engine &queue..."), w, [w] {
        auto* queue = w->findChild<QueueDialog*>(QStringLiteral("queueDialog"));
        queue = queue ? queue : new QueueDialog(w->client(), w);  // one, kept
        queue->show();
        queue->raise();
    });

    QMenu* trial = window.menuBar()->addMenu(MainWindow::tr("&Trial"));
    trial->addAction(MainWindow::tr("&Stop selected trials"),
                     QKeySequence(MainWindow::tr("Ctrl+T")), w,
                     [w] { w->orderSelectedTrials(MainWindow::TrialOrder::Stop); });
    trial->addAction(MainWindow::tr("&Pause selected trials"),
                     QKeySequence(MainWindow::tr("Ctrl+P")), w,
                     [w] { w->orderSelectedTrials(MainWindow::TrialOrder::Pause); });
    trial->addAction(MainWindow::tr("&Resume selected trials"),
                     QKeySequence(MainWindow::tr("Ctrl+Shift+P")), w,
                     [w] { w->orderSelectedTrials(MainWindow::TrialOrder::Resume); });
    trial
        ->addAction(MainWindow::tr("Edit &note..."), QKeySequence(MainWindow::tr("Ctrl+Shift+N")),
                    w, &MainWindow::editTrialNote)
        ->setObjectName(QStringLiteral("editTrialNote"));

    QMenu* view = window.menuBar()->addMenu(MainWindow::tr("&View"));
    view->addAction(MainWindow::tr("&Start page"), QKeySequence(MainWindow::tr("Ctrl+Shift+H")), w,
                    &MainWindow::showStartPage);
    view->addAction(MainWindow::tr("&Monitor"), QKeySequence(MainWindow::tr("Ctrl+Shift+M")), w,
                    &MainWindow::showMonitorPage);
    view->addAction(MainWindow::tr("Reset chart zoom"), QKeySequence(MainWindow::tr("Ctrl+0")),
                    w->chart(), &MetricChart::resetZoom);
    view->addAction(MainWindow::tr("Find trials"), QKeySequence::Find, w->trialSearch(),
                    qOverload<>(&QWidget::setFocus));
    addMessageHistory(w, view);
    addHelpMenu(w);
}

}  // namespace tunedeck::app
