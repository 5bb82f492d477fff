// The real window under the offscreen platform, attached to a real `tunedeck-engine serve`
// running real experiments: running a file fills the table and the curves, a stop from the
// window stops the trial, and the best config lands on the clipboard. With
// TUNEDECK_SCREENSHOT_DIR set it saves what the window showed.
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>
#include <cmath>
#include <csignal>

#include "analysis/parallel_coordinates_view.h"
#include "charts/curve_overlay.h"
#include "charts/metric_chart.h"
#include "charts/node_usage_view.h"
#include "editors/experiment_editor.h"
#include "engine_harness.h"
#include "fake_gpus.h"
#include "local_engine.h"
#include "message_box_answer.h"
#include "scoped_environment.h"
#include "table_cells.h"
#include "views/experiments_compare.h"
#include "views/main_window.h"
#include "views/start_page.h"
#include "wait_for.h"

using tunedeck::app::MainWindow;

namespace {

bool appendTo(const QString& path, const QString& text) {
    QFile file(path);
    return file.open(QIODevice::Append) && file.write(text.toUtf8()) > 0;
}

// The text the trials table shows in the column headed `header` for the trial `trialId`.
QString tableText(QTableView* table, const QString& trialId, const QString& header) {
    QAbstractItemModel* model = table->model();
    int column = -1;
    for (int c = 0; c < model->columnCount(); ++c) {
        column = model->headerData(c, Qt::Horizontal).toString() == header ? c : column;
    }
    for (int r = 0; r < model->rowCount() && column >= 0; ++r) {
        if (model->index(r, 0).data().toString() == trialId) {
            return model->index(r, column).data().toString();
        }
    }
    return QStringLiteral("(no %1 of %2)").arg(header, trialId);
}

// The trials table follows the engine's stream on the window's tick, a moment after the data:
// waits until it shows `rows` trials, as a user would before reading it.
bool tableShows(MainWindow& window, int rows) {
    auto* table = window.findChild<QTableView*>("trials");
    return waitFor([&] { return table->model()->rowCount() == rows; }, 10000);
}

void screenshot(QWidget& window, const QString& name) {
    const QByteArray folder = qgetenv("TUNEDECK_SCREENSHOT_DIR");
    if (!folder.isEmpty()) {
        window.grab().save(QString::fromLocal8Bit(folder) + '/' + name + ".png");
    }
}

}  // namespace

class TestAppWindow : public QObject {
    Q_OBJECT

  private:
    // Issue 16.4's space: a grid of floats whose first value is whole, and an integer domain.
    static QString floatsFile(const EngineHarness& harness) {
        return harness.writeFile("floats.yaml", QStringLiteral("name: floats\n"
                                                               "trainable: {command: [python3, "
                                                               "\"@TRIAL@\"]}\n"
                                                               "search_space:\n"
                                                               "  x: {grid: [1.0, 2.5]}\n"
                                                               "  n: {randint: [1, 5]}\n"
                                                               "  iterations: 3\n"
                                                               "metric: score\n"
                                                               "mode: min\n"
                                                               "seed: 3\n"));
    }

    // What the window shows of the floats experiment: x of t00000 (1.0, the best trial: score =
    // x * iteration, mode min) is a float, n an integer; in the trials table, the Compare tab
    // and the parallel coordinates' tooltip.
    static void checkFloatsShown(MainWindow& window);

    static QString experimentFile(const EngineHarness& harness, int iterations, double sleep) {
        return harness.writeFile("race.yaml",
                                 QStringLiteral("name: race\n"
                                                "trainable: {command: [python3, \"@TRIAL@\"]}\n"
                                                "search_space:\n"
                                                "  x: {grid: [1, 2, 3, 4]}\n"
                                                "  iterations: %1\n"
                                                "  sleep: %2\n"
                                                "metric: score\n"
                                                "mode: max\n"
                                                "max_concurrent_trials: 2\n")
                                     .arg(iterations)
                                     .arg(sleep));
    }

  private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }  // not the user's settings
    void runningAFileShowsItsTrialsAndCurves();
    void stopFromTheWindowStopsTheTrial();
    void aFolderOpensStraightFromItsHistory();
    void theEditorValidatesAndRunsItsFile();
    void twoExperimentsBestTrialsSideBySide();
    void chartsExportAsPngAndVectorSvg();
    void theStartPageLeadsToTheMonitor();
    void wholeFloatsShowAsFloatsFromTheFolder();
    void wholeFloatsShowAsFloatsOverTheConnection();
    void eachCardListsTheTrialsPlacedOnIt();
    void theCurvesShowAnyReportedMetric();
};

void TestAppWindow::runningAFileShowsItsTrialsAndCurves() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    window.runExperimentFile(experimentFile(harness, 15, 0.02));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 120000));
    QCOMPARE(window.currentExperiment(), QStringLiteral("race"));
    QVERIFY(tableShows(window, 4));
    QCOMPARE(window.data().counts().terminated, 4);
    for (const auto& trial : window.data().trials()) {
        QCOMPARE(trial.values.size(), std::size_t(15));
    }
    // The best trial (x = 4 scores highest) is the bold row; the chart draws every curve.
    QCOMPARE(window.data().trials()[std::size_t(window.data().bestRow())].flatConfig.value("x"),
             QJsonValue(4));
    QCOMPARE(window.chart()->redraw(), 4 * 15);
    screenshot(window, "monitor-finished");

    window.copyBestConfig("flags");
    QVERIFY(waitFor([] { return QApplication::clipboard()->text().contains("--x=4"); }, 20000));
}

void TestAppWindow::stopFromTheWindowStopsTheTrial() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    // Long enough (20 s) that the stop always lands first: with 60 iterations (3 s) a loaded CI
    // machine showed the log so late that the trial had already finished.
    constexpr int kIterations = 400;
    window.runExperimentFile(experimentFile(harness, kIterations, 0.05));
    QVERIFY(waitFor(
        [&] {
            const auto& trials = window.data().trials();
            return !trials.empty() && trials[0].status == "RUNNING" && trials[0].iteration >= 3;
        },
        60000));
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(waitFor([&] { return table->model()->rowCount() > 0; }, 10000));  // a tick later
    table->selectRow(0);  // t00000: the table is sorted by trial
    screenshot(window, "monitor-running");
    // Its log, followed from the engine while the Log tab is shown: what the trial printed.
    window.tabs()->setCurrentIndex(window.tabs()->count() - 1);
    auto* log = window.findChild<QPlainTextEdit*>("log");
    QVERIFY(waitFor([&] { return log->toPlainText().contains("start iteration=0"); }, 10000));
    window.tabs()->setCurrentIndex(0);
    // What the window was told, and what it ordered, for a failure's message (a loaded CI
    // machine once saw the trial finish all its iterations after the stop).
    QStringList told;
    connect(&window, &MainWindow::requestFailed, this, [&](const QString& m) { told << m; });
    const QString ordered = QStringLiteral(
                                "stop ordered at iteration %1 of %2 with %3 row(s) "
                                "selected; the window was told: ")
                                .arg(window.data().trials()[0].iteration)
                                .arg(window.data().trials()[0].id)
                                .arg(table->selectionModel()->selectedRows().size());
    {
        app_test::MessageBoxAnswer yes(QMessageBox::Yes);  // a stop asks first
        window.orderSelectedTrials(MainWindow::TrialOrder::Stop);
        QVERIFY2(yes.answered(), qPrintable(yes.seen()));
    }
    QVERIFY2(waitFor([&] { return window.data().trials()[0].status == "TERMINATED"; }, 30000),
             qPrintable(ordered + told.join(" | ")));
    QVERIFY2(window.data().trials()[0].reason.contains("stopped by the user"),
             qPrintable(window.data().trials()[0].reason + "; " + ordered + told.join(" | ")));
    QVERIFY(window.data().trials()[0].iteration < kIterations);
    window.orderExperiment(
        MainWindow::ExperimentOrder::Pause);  // nothing left running when the test ends
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "paused"; }, 60000));
}

void TestAppWindow::aFolderOpensStraightFromItsHistory() {
    EngineHarness harness;
    // The node has a GPU (the fake NVML driver of tests/worker), and the experiment asks for MPS,
    // which its agent starts through a stand-in for NVIDIA's control program.
    const QString bin = worker_test::writeFakeMpsControl(harness.root());
    QVERIFY(!bin.isEmpty());
    const QString state = harness.root() + "/nvml.state";
    worker_test::writeState(state, {{"GPU-app-0", "Fake_H200"}});
    const ScopedEnvironment environment(
        {{"LD_LIBRARY_PATH", TUNEDECK_BUILD_DIR "/tunedeck-fake-nvml"},
         {"TUNEDECK_FAKE_NVML_STATE", state},
         {"PATH", bin + ":" + qEnvironmentVariable("PATH")}});
    const QString file = experimentFile(harness, 12, 0.25);
    QVERIFY(appendTo(file, "gpu_sharing: mps\n"));
    // Long enough (about 6 s) for the engine to sample the node a few times.
    const EngineResult ran = harness.run({"run", file});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.all()));
    MainWindow window;  // attached to no engine at all
    window.resize(1280, 800);
    window.show();
    window.openFolder(harness.experimentFolder("race"));
    QVERIFY(waitFor([&] { return window.data().trials().size() == 4; }, 20000));
    QCOMPARE(window.data().experimentStatus(), QStringLiteral("finished"));
    QCOMPARE(window.data().metric(), QStringLiteral("score"));
    for (const auto& trial : window.data().trials()) {
        QCOMPARE(trial.status, QStringLiteral("TERMINATED"));
        QCOMPARE(trial.values.size(), std::size_t(12));
        QCOMPARE(trial.best, 12.0 * trial.flatConfig.value("x").toDouble());  // score = x * it
    }
    QVERIFY(tableShows(window, 4));
    screenshot(window, "history-folder");
    // The node's samples come from the same file: every one kept, for the Nodes and GPUs tab.
    const int samples = sqliteQuery(harness.experimentFolder("race") + "/experiment.sqlite",
                                    "SELECT COUNT(DISTINCT timestamp) FROM node_usage")
                            .toInt();
    QVERIFY2(samples >= 2, qPrintable(QString::number(samples)));
    QCOMPARE(window.usage().nodes().size(), std::size_t(1));
    QCOMPARE(window.usage().nodes().begin()->second.cpuSeries.size(), std::size_t(samples));
    QCOMPARE(window.usage().cards().size(), std::size_t(1));
    // And how the node shared its card, from the engine's node event.
    const tunedeck::app::GpuSharing* sharing = window.usage().gpuSharing(QStringLiteral("local"));
    QVERIFY(sharing != nullptr);
    QCOMPARE(sharing->mode, QStringLiteral("mps"));
    // Not a Tunedeck folder: a clear message, nothing shown.
    QSignalSpy failed(&window, &MainWindow::requestFailed);
    window.openFolder(harness.root());
    QVERIFY(failed.wait(10000));
    QVERIFY2(failed.first().first().toString().contains("no experiment.sqlite"),
             qPrintable(failed.first().first().toString()));
}

void TestAppWindow::theEditorValidatesAndRunsItsFile() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    QVERIFY(waitFor([&] { return window.client().isReady(); }, 20000));
    window.editExperimentFile(experimentFile(harness, 5, 0));
    auto* editor = window.findChild<tunedeck::app::ExperimentEditor*>();
    QVERIFY(editor);
    QSignalSpy validated(editor, &tunedeck::app::ExperimentEditor::validated);
    QVERIFY(validated.wait(20000));
    QCOMPARE(validated.last().at(0).toBool(), true);
    editor->grab();
    screenshot(*editor->window(), "editor");
    // Its Run action saves and starts the experiment, which the monitor then shows.
    QAction* run = nullptr;
    for (QAction* action : editor->window()->findChildren<QAction*>()) {
        run = action->shortcut() == QKeySequence(QStringLiteral("Ctrl+Return")) ? action : run;
    }
    QVERIFY(run);
    run->trigger();
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 120000));
    QCOMPARE(window.data().counts().terminated, 4);
}

void TestAppWindow::twoExperimentsBestTrialsSideBySide() {
    EngineHarness harness;
    QVERIFY(harness.run({"run", experimentFile(harness, 6, 0)}).exitCode == 0);
    QString other = experimentFile(harness, 6, 0);
    QFile file(other);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll())
                             .replace("name: race", "name: wider")
                             .replace("grid: [1, 2, 3, 4]", "grid: [2, 7]");
    other = harness.writeFile("wider.yaml", text);
    QVERIFY(harness.run({"run", other}).exitCode == 0);

    tunedeck::app::ExperimentsCompare dialog(
        {harness.experimentFolder("race"), harness.experimentFolder("wider")},
        harness.experimentFolder("race"), harness.experimentFolder("wider"));
    dialog.resize(900, 700);
    dialog.show();
    QSignalSpy compared(&dialog, &tunedeck::app::ExperimentsCompare::compared);
    QVERIFY(compared.wait(20000));
    QTableWidget* table = dialog.table();
    QMap<QString, QStringList> rows;
    for (int r = 0; r < table->rowCount(); ++r) {
        rows[table->verticalHeaderItem(r)->text()] = {table->item(r, 0)->text(),
                                                      table->item(r, 1)->text()};
    }
    // score = x * iteration: the best of each is its largest x at iteration 6.
    QCOMPARE(rows.value("x"), QStringList({"4", "7"}));
    QCOMPARE(rows.value("value, last result"), QStringList({"24", "42"}));
    QCOMPARE(rows.value("trial"), QStringList({"t00003", "t00001"}));
    QVERIFY(table->item(0, 0)->font().bold());  // differing rows stand out
    QCOMPARE(dialog.chartView()->chart()->series().size(), 2);
    screenshot(dialog, "compare-experiments");
}

void TestAppWindow::chartsExportAsPngAndVectorSvg() {
    EngineHarness harness;
    QVERIFY(harness.run({"run", experimentFile(harness, 12, 0)}).exitCode == 0);
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    window.openFolder(harness.experimentFolder("race"));
    QVERIFY(waitFor([&] { return window.data().trials().size() == 4; }, 20000));
    // The read fills the table at once; the chart lays out its axes and draws in its next frame
    // (a loaded machine exported it before that, without its axis title).
    QVERIFY(tableShows(window, 4));
    const int frames = window.chart()->redrawCount();
    QVERIFY(waitFor([&] { return window.chart()->redrawCount() > frames; }, 10000));
    QString error;
    const QString png = harness.root() + "/curves.png";
    QVERIFY2(window.saveChart(png, &error), qPrintable(error));
    QVERIFY(QImage(png).width() > 300);
    const QString svgPath = harness.root() + "/curves.svg";
    QVERIFY2(window.saveChart(svgPath, &error), qPrintable(error));
    QFile svg(svgPath);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(svg.readAll());
    QVERIFY(text.contains("<svg"));
    // The curves are lines in the drawing, one path per trial at least, and the axis is labelled.
    QVERIFY2(text.count("<path") >= 4 || text.count("<polyline") >= 4, qPrintable(text.left(2000)));
    QVERIFY2(!text.contains("<image"), "the curves were embedded as a picture, not drawn as lines");
    QVERIFY(text.contains("score"));
    // Any other view the same way: the parallel coordinates.
    window.tabs()->setCurrentIndex(2);
    QTest::qWait(300);
    QVERIFY2(window.saveChart(harness.root() + "/parallel.svg", &error), qPrintable(error));
    QVERIFY(QFileInfo(harness.root() + "/parallel.svg").size() > 1000);
}

void TestAppWindow::theStartPageLeadsToTheMonitor() {
    QSettings().remove("recent");
    EngineHarness harness;
    QVERIFY(harness.run({"run", experimentFile(harness, 3, 0)}).exitCode == 0);
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    auto* start = window.findChild<tunedeck::app::StartPage*>();
    QVERIFY(start && start->isVisible());
    auto* templates = start->findChild<QListWidget*>("templates");
    QVERIFY(templates->count() >= 8);  // the examples, each described
    screenshot(window, "start-page");
    window.openFolder(harness.experimentFolder("race"));
    QVERIFY(waitFor([&] { return window.data().trials().size() == 4; }, 20000));
    QVERIFY(!start->isVisible());
    QVERIFY(window.findChild<QTableView*>("trials")->isVisible());
    // The folder is now a recent experiment on the start page, one activation away.
    window.showStartPage();
    auto* recent = start->findChild<QListWidget*>("recent");
    QVERIFY(start->isVisible());
    QCOMPARE(recent->item(0)->data(Qt::UserRole).toString(), harness.experimentFolder("race"));
    QSignalSpy opened(start, &tunedeck::app::StartPage::openFolder);
    emit recent->itemActivated(recent->item(0));
    QCOMPARE(opened.size(), 1);
    QVERIFY(waitFor([&] { return !start->isVisible(); }, 5000));
}

void TestAppWindow::checkFloatsShown(MainWindow& window) {
    QVERIFY(waitFor([&] { return window.data().trials().size() == 2; }, 20000));
    QVERIFY(tableShows(window, 2));
    auto* table = window.findChild<QTableView*>("trials");
    QCOMPARE(tableText(table, "t00000", "x"), QStringLiteral("1.0"));
    QCOMPARE(tableText(table, "t00001", "x"), QStringLiteral("2.5"));
    const QString n = tableText(table, "t00000", "n");
    QVERIFY2(QRegularExpression("^[1-4]$").match(n).hasMatch(), qPrintable(n));
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        if (table->model()->index(r, 0).data().toString() == "t00000") {
            table->selectRow(r);
        }
    }
    QTest::qWait(100);
    auto* compare = qobject_cast<QTableWidget*>(window.tabs()->widget(1));
    QVERIFY(compare);
    QMap<QString, QString> compared;
    for (int r = 0; r < compare->rowCount(); ++r) {
        compared[compare->verticalHeaderItem(r)->text()] =
            compare->item(r, 0) ? compare->item(r, 0)->text() : QString();
    }
    QCOMPARE(compared.value("x"), QStringLiteral("1.0"));
    QCOMPARE(compared.value("n"), n);
    auto* parallel = window.findChild<tunedeck::app::ParallelCoordinatesView*>();
    QVERIFY(parallel);
    const QString tip = parallel->toolTipFor("t00000");
    QVERIFY2(tip.contains("x: 1.0") && tip.contains("n: " + n + "<"), qPrintable(tip));
}

// Issue 16.4: a folder written by a real run shows x = 1.0 as 1.0 (it showed 1), read from
// its SQLite file; so does the comparison of two experiments.
void TestAppWindow::wholeFloatsShowAsFloatsFromTheFolder() {
    EngineHarness harness;
    const EngineResult ran = harness.run({"run", floatsFile(harness)});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.all()));
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    window.openFolder(harness.experimentFolder("floats"));
    checkFloatsShown(window);
    if (QTest::currentTestFailed()) {
        return;
    }
    screenshot(window, "floats-folder");

    tunedeck::app::ExperimentsCompare dialog({harness.experimentFolder("floats")},
                                             harness.experimentFolder("floats"),
                                             harness.experimentFolder("floats"));
    dialog.show();
    QSignalSpy compared(&dialog, &tunedeck::app::ExperimentsCompare::compared);
    QVERIFY(compared.wait(20000));
    QMap<QString, QStringList> rows;
    for (int r = 0; r < dialog.table()->rowCount(); ++r) {
        rows[dialog.table()->verticalHeaderItem(r)->text()] = {dialog.table()->item(r, 0)->text(),
                                                               dialog.table()->item(r, 1)->text()};
    }
    QCOMPARE(rows.value("x"), QStringList({"1.0", "1.0"}));
}

// Issue 16.4: the same run watched over the connection alone (as from a server through an SSH
// tunnel: every event replayed and streamed, no SQLite file read) shows 1.0, and the best config
// copied from the window says x: 1.0.
void TestAppWindow::wholeFloatsShowAsFloatsOverTheConnection() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    QVERIFY(engine.start(harness));
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    window.attachThroughTunnel(engine.socket, QStringLiteral("ssh://localhost"));
    QVERIFY(waitFor([&] { return window.client().isReady(); }, 20000));
    window.runExperimentFile(floatsFile(harness));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 120000));
    checkFloatsShown(window);
    if (QTest::currentTestFailed()) {
        return;
    }
    screenshot(window, "floats-connection");
    QApplication::clipboard()->clear();
    window.copyBestConfig("yaml");
    QVERIFY(waitFor([] { return !QApplication::clipboard()->text().isEmpty(); }, 20000));
    const QString best = QApplication::clipboard()->text();
    QVERIFY2(best.contains("x: 1.0\n") && QRegularExpression("\nn: [1-4]\n").match(best).hasMatch(),
             qPrintable(best));
}

// Issue 18.8: "Trials on it" stayed empty while trials ran on two cards under the fake driver,
// whose process list names none of them (NVML's count is all the engine sent). The placement
// the engine chose is what the Nodes and GPUs tab lists now.
void TestAppWindow::eachCardListsTheTrialsPlacedOnIt() {
    EngineHarness harness;
    const QString state = harness.root() + "/nvml.state";
    worker_test::writeState(state, {{"GPU-app-0", "Fake_H200"}, {"GPU-app-1", "Fake_H200"}});
    const ScopedEnvironment environment(
        {{"LD_LIBRARY_PATH", TUNEDECK_BUILD_DIR "/tunedeck-fake-nvml"},
         {"TUNEDECK_FAKE_NVML_STATE", state}});
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    const QString file = experimentFile(harness, 40, 0.1);
    QVERIFY(appendTo(file, "resources_per_trial: {cpu: 0.5, gpu: 1}\ngpu_sample_s: 0.2\n"));
    window.runExperimentFile(file);
    auto* nodes = window.findChild<tunedeck::app::NodeUsageView*>();
    QVERIFY(nodes);
    window.tabs()->setCurrentWidget(nodes);
    // Both cards busy, each with its own trial: what the table says, row by row.
    QTableWidget* table = nodes->table();
    const auto trialsOnCards = [&] {
        QStringList onCards;
        for (int r = 0; r < table->rowCount(); ++r) {
            if (table->item(r, 1) && table->item(r, 1)->text().startsWith("GPU") &&
                table->item(r, 6)) {
                onCards << table->item(r, 6)->text();
            }
        }
        return onCards;
    };
    QVERIFY2(waitFor(
                 [&] {
                     const QStringList onCards = trialsOnCards();
                     return onCards.size() == 2 && !onCards[0].isEmpty() && !onCards[1].isEmpty() &&
                            onCards[0] != onCards[1];
                 },
                 30000),
             qPrintable(trialsOnCards().join(" | ")));
    QCOMPARE(table->horizontalHeaderItem(6)->text(), QStringLiteral("Trials on it"));
    const QRegularExpression oneTrial(QStringLiteral("^t0000[0-3]$"));
    QVERIFY2(oneTrial.match(trialsOnCards()[0]).hasMatch(), qPrintable(trialsOnCards()[0]));
    // The charts start right under the table: no blank band between them.
    // The view lays out anew when it redraws, once a second (a loaded machine: later).
    const auto band = [&] {
        return nodes->utilizationChart()->mapTo(nodes, QPoint(0, 0)).y() -
               table->mapTo(nodes, QPoint(0, table->height())).y();
    };
    QVERIFY2(waitFor([&] { return nodes->utilizationChart()->isVisible() && band() < 16; }, 5000),
             qPrintable(QString::number(band())));
    // The bold row (made bold by results after the columns were fitted) shows its whole id.
    auto* trials = window.findChild<QTableView*>("trials");
    QVERIFY(waitFor([&] { return app_test::boldIdMissingPixels(trials) >= 0; }, 10000));
    QCOMPARE(app_test::boldIdMissingPixels(trials), 0);
    screenshot(window, "nodes-and-gpus-running");
    window.orderExperiment(MainWindow::ExperimentOrder::Pause);
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "paused"; }, 60000));
}

// Issue 18: every reported metric. The trials report score (the objective) and loss: the table
// has a loss column, the picker over the curves draws loss, the bold row stays the objective's
// best, and the choice holds when the folder is opened again.
void TestAppWindow::theCurvesShowAnyReportedMetric() {
    EngineHarness harness;
    QVERIFY(harness.run({"run", experimentFile(harness, 6, 0)}).exitCode == 0);
    const auto yTitle = [](MainWindow& w) {
        const QList<QAbstractAxis*> ys = w.chart()->chart()->axes(Qt::Vertical);
        return ys.isEmpty() ? QString() : ys.first()->titleText();
    };
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        window.openFolder(harness.experimentFolder("race"));
        QVERIFY(waitFor([&] { return window.data().trials().size() == 4; }, 20000));
        auto* table = window.findChild<QTableView*>("trials");
        QVERIFY(waitFor([&] { return tableText(table, "t00003", "loss") == "0.0416667"; }, 5000));
        QCOMPARE(tableText(table, "t00003", "score"), QStringLiteral("24"));  // 4 x 6
        auto* picker = window.findChild<QComboBox*>("curveMetric");
        QVERIFY(picker);
        QVERIFY(waitFor([&] { return picker->count() == 2; }, 5000));
        QCOMPARE(picker->itemText(0), QStringLiteral("score (objective)"));
        QCOMPARE(picker->itemText(1), QStringLiteral("loss"));
        QCOMPARE(yTitle(window), QStringLiteral("score"));
        picker->setCurrentIndex(1);
        emit picker->activated(1);
        QVERIFY(waitFor([&] { return yTitle(window) == "loss"; }, 5000));
        QVERIFY(waitFor([&] { return window.chart()->redraw() == 4 * 6; }, 10000));
        // Ranking stays the objective's: the bold row is the highest score, not the lowest loss
        // nor the highest.
        QCOMPARE(window.data().trials()[std::size_t(window.data().bestRow())].id,
                 QStringLiteral("t00003"));
        QCOMPARE(window.data().metric(), QStringLiteral("score"));
        screenshot(window, "curves-picked-metric");
    }
    MainWindow again;
    again.resize(1280, 800);
    again.show();
    again.openFolder(harness.experimentFolder("race"));
    auto* picker = again.findChild<QComboBox*>("curveMetric");
    QVERIFY(
        waitFor([&] { return picker->currentText() == "loss" && yTitle(again) == "loss"; }, 10000));
    QVERIFY(waitFor([&] { return again.chart()->redraw() == 4 * 6; }, 10000));
}

// The asha screenshot at 1280x800 read "0.0005540…" in the l2 column of a trial that started
// after the columns were fitted to the first one's config: every row's values show whole.
QTEST_MAIN(TestAppWindow)
#include "test_app_window.moc"
