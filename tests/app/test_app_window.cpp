// The real window under the offscreen platform, attached to a real `tunedeck-engine serve`
// running real experiments: running a file fills the table and the curves, a stop from the
// window stops the trial, and the best config lands on the clipboard. With
// TUNEDECK_SCREENSHOT_DIR set it saves what the window showed.
#include <QApplication>
#include <QClipboard>
#include <QTableView>
#include <QtTest>
#include <csignal>

#include "charts/metric_chart.h"
#include "editors/experiment_editor.h"
#include "engine_harness.h"
#include "views/main_window.h"

using tunedeck::app::MainWindow;

namespace {

template <typename Condition>
bool waitFor(Condition done, int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < timeoutMs) {
        QTest::qWait(50);
    }
    return done();
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
    struct Engine {
        std::unique_ptr<QProcess> process;
        QString socket;
        ~Engine() {
            if (process && process->state() == QProcess::Running) {
                ::kill(pid_t(process->processId()), SIGTERM);
                process->waitForFinished(30000);
            }
        }
    };

    static bool startEngine(const EngineHarness& harness, Engine* engine) {
        engine->socket = harness.root() + "/engine.sock";
        engine->process = harness.start(
            {"serve", "--listen", "unix:" + engine->socket, "--results", harness.resultsRoot()});
        return waitFor([&] { return QFile::exists(engine->socket); }, 20000);
    }

    // A serve of the harness, and `window` shown and attached to it.
    static bool startAttached(const EngineHarness& harness, Engine* engine, MainWindow* window) {
        if (!startEngine(harness, engine)) {
            return false;
        }
        window->resize(1280, 800);
        window->show();
        window->attachLocal(engine->socket, {});
        return true;
    }

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
    void runningAFileShowsItsTrialsAndCurves();
    void stopFromTheWindowStopsTheTrial();
    void aFolderOpensStraightFromItsHistory();
    void theEditorValidatesAndRunsItsFile();
};

void TestAppWindow::runningAFileShowsItsTrialsAndCurves() {
    EngineHarness harness;
    Engine engine;
    MainWindow window;
    QVERIFY(startAttached(harness, &engine, &window));
    window.runExperimentFile(experimentFile(harness, 15, 0.02));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 120000));
    QTest::qWait(300);  // a frame of the table and the chart
    QCOMPARE(window.currentExperiment(), QStringLiteral("race"));
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(table);
    QCOMPARE(table->model()->rowCount(), 4);
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
    Engine engine;
    MainWindow window;
    QVERIFY(startAttached(harness, &engine, &window));
    window.runExperimentFile(experimentFile(harness, 60, 0.05));
    QVERIFY(waitFor(
        [&] {
            const auto& trials = window.data().trials();
            return !trials.empty() && trials[0].status == "RUNNING" && trials[0].iteration >= 3;
        },
        60000));
    auto* table = window.findChild<QTableView*>("trials");
    table->selectRow(0);  // t00000: the table is sorted by trial
    screenshot(window, "monitor-running");
    window.orderSelectedTrials("stop_trial");
    QVERIFY(waitFor([&] { return window.data().trials()[0].status == "TERMINATED"; }, 30000));
    QVERIFY2(window.data().trials()[0].reason.contains("stopped by the user"),
             qPrintable(window.data().trials()[0].reason));
    QVERIFY(window.data().trials()[0].iteration < 60);
    window.orderExperiment("pause");  // nothing left running when the test ends
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "interrupted"; }, 60000));
}

void TestAppWindow::aFolderOpensStraightFromItsHistory() {
    EngineHarness harness;
    const EngineResult ran = harness.run({"run", experimentFile(harness, 12, 0)});
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
    QTest::qWait(300);
    QCOMPARE(window.findChild<QTableView*>("trials")->model()->rowCount(), 4);
    screenshot(window, "history-folder");
    // Not a Tunedeck folder: a clear message, nothing shown.
    QSignalSpy failed(&window, &MainWindow::requestFailed);
    window.openFolder(harness.root());
    QVERIFY(failed.wait(10000));
    QVERIFY2(failed.first().first().toString().contains("no experiment.sqlite"),
             qPrintable(failed.first().first().toString()));
}

void TestAppWindow::theEditorValidatesAndRunsItsFile() {
    EngineHarness harness;
    Engine engine;
    MainWindow window;
    QVERIFY(startAttached(harness, &engine, &window));
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

QTEST_MAIN(TestAppWindow)
#include "test_app_window.moc"
