// The screenshot tour's part on what is "best" and what a stop or a pause leaves (issue 34): a
// run of two objectives (every view marks its Pareto front: parallel coordinates, Importance,
// the Compare tab, the Pareto front plot, Compare two experiments), then a run with one slot
// whose trials are stopped, paused and resumed (the stop's question, "stopped by the user" in
// the Trial tab and the timeline, a paused experiment), all in German.
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QMessageBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTreeWidget>

#include "analysis/importance_view.h"
#include "analysis/parallel_coordinates_view.h"
#include "message_box_answer.h"
#include "screenshot_tour.h"
#include "views/appearance.h"
#include "views/experiments_compare.h"
#include "views/main_window.h"
#include "wait_for.h"

using namespace tunedeck::app;

namespace tour {

namespace {

QString writeFile(const QTemporaryDir& work, const QString& name, const QString& text) {
    const QString path = work.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0) {
        return {};
    }
    return path;
}

void selectTrials(MainWindow& window, const QStringList& ids) {
    auto* table = window.findChild<QTableView*>(QStringLiteral("trials"));
    table->clearSelection();
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        const QModelIndex index = table->model()->index(r, 0);
        if (ids.contains(index.data().toString())) {
            table->selectionModel()->select(
                index, QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
    }
}

void shootObjectives(MainWindow& window, const QTemporaryDir& work) {
    const QString file = writeFile(
        work, QStringLiteral("tradeoff.yaml"),
        QStringLiteral("name: tradeoff\n"
                       "trainable: {command: [python3, \"%1\"]}\n"
                       "search_space:\n"
                       "  x: {grid: [0.2, 0.4, 0.6, 0.8]}\n"
                       "  penalty: {grid: [0, 0.25]}\n"
                       "metric: [loss, latency_ms]\n"
                       "mode: [min, min]\n")
            .arg(QStringLiteral(TUNEDECK_SOURCE_DIR "/tests/app/trials/two_objectives.py")));
    window.runExperimentFile(file);
    if (!waitFor([&] { return window.data().experimentStatus() == "finished"; }, 120000)) {
        qWarning("screenshot tour: the run of two objectives did not finish");
        return;
    }
    window.tabs()->setCurrentWidget(window.findChild<ParallelCoordinatesView*>());
    shoot(&window, QStringLiteral("40-objectives-parallel-german"));
    window.tabs()->setCurrentWidget(window.findChild<ImportanceView*>());
    QTest::qWait(1500);  // the forest grows a slice per event-loop turn
    shoot(&window, QStringLiteral("41-objectives-importance-german"));
    selectTrials(window, {QStringLiteral("t00000"), QStringLiteral("t00001")});
    window.tabs()->setCurrentWidget(
        window.findChild<QTableWidget*>(QStringLiteral("compareTrials")));
    shoot(&window, QStringLiteral("42-objectives-compare-german"));
    window.findChild<QTableView*>(QStringLiteral("trials"))->clearSelection();
    if (auto* plots = window.findChild<QTabWidget*>(QStringLiteral("studyPlots"))) {
        window.tabs()->setCurrentWidget(plots);
        plots->setCurrentWidget(plots->findChild<QWidget*>(QStringLiteral("paretoFront")));
        shoot(&window, QStringLiteral("43-objectives-pareto-front-german"));
    }
    const QString folder = window.currentFolder();
    auto* dialog =
        new ExperimentsCompare({folder}, folder, folder, tunedeck::kDefaultScoreScope, &window);
    waitFor([&] { return dialog->table()->rowCount() > 0; }, 20000);
    dialog->resize(900, 700);
    dialog->show();
    shoot(dialog, QStringLiteral("44-objectives-compare-experiments-german"));
    dialog->close();
}

void shootStopAndPause(MainWindow& window, const QTemporaryDir& work) {
    const QString file = writeFile(
        work, QStringLiteral("one-slot.yaml"),
        QStringLiteral("name: one-slot\n"
                       "trainable: {command: [python3, \"%1\"]}\n"
                       "search_space:\n"
                       "  x: {grid: [1, 2, 3]}\n"
                       "  iterations: 600\n"
                       "  sleep: 0.1\n"
                       "metric: score\n"
                       "mode: max\n"
                       "max_concurrent_trials: 1\n")
            .arg(QStringLiteral(TUNEDECK_SOURCE_DIR "/tests/integration/trials/behaviour.py")));
    window.runExperimentFile(file);
    const auto statusOf = [&](int row) {
        return row < int(window.data().trials().size())
                   ? window.data().trials()[std::size_t(row)].status
                   : QString();
    };
    if (!waitFor([&] { return statusOf(0) == "RUNNING"; }, 60000)) {
        qWarning("screenshot tour: the one-slot run did not start");
        return;
    }
    QTest::qWait(1500);
    selectTrials(window, {QStringLiteral("t00000")});
    window.orderSelectedTrials(MainWindow::TrialOrder::Pause);
    waitFor([&] { return statusOf(0) == "PAUSED" && statusOf(1) == "RUNNING"; }, 30000);
    selectTrials(window, {QStringLiteral("t00000")});
    window.orderSelectedTrials(MainWindow::TrialOrder::Resume);
    waitFor([&] { return statusOf(0) == "PENDING"; }, 10000);
    QTest::qWait(1500);
    shoot(&window, QStringLiteral("45-trial-resumed-waits-german"));
    selectTrials(window, {QStringLiteral("t00001")});
    {
        app_test::MessageBoxAnswer yes(QMessageBox::Yes, [](QMessageBox* box) {
            QTest::qWait(300);
            shootScreen(box, QStringLiteral("46-stop-trial-question-german"));
        });
        window.orderSelectedTrials(MainWindow::TrialOrder::Stop);
    }
    waitFor([&] { return statusOf(1) == "TERMINATED" && statusOf(0) == "RUNNING"; }, 30000);
    QTest::qWait(1500);
    selectTrials(window, {QStringLiteral("t00001")});
    window.tabs()->setCurrentWidget(
        window.findChild<QWidget*>(QStringLiteral("trialDetail"))->parentWidget());
    shoot(&window, QStringLiteral("47-trial-stopped-by-the-user-german"));
    if (auto* plots = window.findChild<QTabWidget*>(QStringLiteral("studyPlots"))) {
        window.tabs()->setCurrentWidget(plots);
        plots->setCurrentIndex(4);  // the timeline
        shoot(&window, QStringLiteral("48-timeline-stopped-by-the-user-german"));
    }
    window.findChild<QTableView*>(QStringLiteral("trials"))->clearSelection();
    window.orderExperiment(MainWindow::ExperimentOrder::Pause);
    waitFor([&] { return window.data().experimentStatus() == "paused"; }, 60000);
    auto* list = window.findChild<QTreeWidget*>(QStringLiteral("experimentList"));
    waitFor(
        [&] {
            for (int i = 0; list && i < list->topLevelItemCount(); ++i) {
                if (list->topLevelItem(i)->text(0) == "one-slot") {
                    return list->topLevelItem(i)->text(1) != QLatin1String("running") &&
                           list->topLevelItem(i)->text(1) != QLatin1String("läuft");
                }
            }
            return false;
        },
        20000);
    window.tabs()->setCurrentIndex(0);
    shoot(&window, QStringLiteral("49-experiment-paused-german"));
}

}  // namespace

void shootBestAndStops(const QString& socket, const QTemporaryDir& work) {
    applyAppearance({Theme::Light, QStringLiteral("de")});
    {
        // Made after the language is set: its menus and tabs read German too.
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        window.attachLocal(socket, {});
        if (waitFor([&] { return window.client().isReady(); }, 20000)) {
            shootObjectives(window, work);
            shootStopAndPause(window, work);
        } else {
            qWarning("screenshot tour: not attached for the best-and-stops part");
        }
    }
    applyAppearance({Theme::Light, QStringLiteral("en")});
}

}  // namespace tour
