// The real window (offscreen) attached to a real `tunedeck-engine serve`, from the user's side:
// one click on a row of the experiments list opens that experiment, and the highlighted row is
// always the one shown (defect 4); a second experiment started from the window is shown with its
// axes and metric and highlighted in the list (defect 3); quitting while the engine runs
// experiments asks whether to pause them or leave them running, and does what was chosen
// (defect 10). Issue 18. The engine's queue as the window shows it (issue 22). Experiment >
// Change limits... of a running experiment, and the progress bar that follows (issue 18).
// Another experiment opened starts with no trial selected, and Compare two experiments tells two
// folders of one name apart (issue 34).
#include <QChart>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QValueAxis>
#include <QtTest>
#include <csignal>

#include "app_test_support.h"
#include "charts/curve_overlay.h"
#include "charts/metric_chart.h"
#include "charts/node_usage_view.h"
#include "charts/scatter_view.h"
#include "engine_harness.h"
#include "local_engine.h"
#include "message_box_answer.h"
#include "models/trial_table_model.h"
#include "session/experiment_session.h"
#include "views/appearance.h"
#include "views/experiments_compare.h"
#include "views/main_window.h"
#include "views/settings_dialog.h"
#include "wait_for.h"

using app_test::MessageBoxAnswer;
using tunedeck::app::MainWindow;
using tunedeck::app::TrialTableModel;
using tunedeck::client::EngineClient;

namespace {

// The menu item that reads `text` (without its & mnemonic).
QAction* menuAction(MainWindow& window, const QString& text) {
    for (QAction* menu : window.menuBar()->actions()) {
        for (QAction* action : menu->menu() ? menu->menu()->actions() : QList<QAction*>{}) {
            if (action->text().remove('&') == text) {
                return action;
            }
        }
    }
    qFatal("no %s in the menus", qPrintable(text));
}

QAction* quitAction(MainWindow& window) {
    return menuAction(window, "Quit");
}

QTreeWidget* experimentList(MainWindow& window) {
    auto* list = window.findChild<QTreeWidget*>("experimentList");
    if (!list) {
        qFatal("no experiment list");
    }
    return list;
}

QTreeWidgetItem* rowOf(QTreeWidget* list, const QString& name) {
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        if (list->topLevelItem(i)->text(0) == name) {
            return list->topLevelItem(i);
        }
    }
    return nullptr;
}

QString highlighted(QTreeWidget* list) {
    return list->currentItem() ? list->currentItem()->text(0) : QString();
}

// The y axis's title of the curves, empty when the chart has no axes.
QString metricAxisTitle(MainWindow& window) {
    const QList<QAbstractAxis*> axes = window.chart()->chart()->axes(Qt::Vertical);
    return axes.isEmpty() ? QString() : axes.first()->titleText();
}

// What a second client of the engine hears from `list` about `experiment`: its status.
QString statusOnTheEngine(const QString& socket, const QString& experiment) {
    EngineClient client;
    client.setLocalServer(socket);
    client.open(200);
    QString status;
    bool answered = false;
    if (!waitFor([&] { return client.isReady(); }, 20000)) {
        return QStringLiteral("(no engine)");
    }
    client.listExperiments([&](const tunedeck::Status& ok,
                               const std::vector<tunedeck::api::ExperimentListEntry>& list) {
        answered = true;
        for (const auto& entry : list) {
            status = ok && entry.experiment == experiment ? entry.status : status;
        }
    });
    waitFor([&] { return answered; }, 20000);
    client.close();
    return status;
}

}  // namespace

class TestAppWindowLifecycle : public QObject {
    Q_OBJECT

  private:
    static QString experimentFile(const EngineHarness& harness, const QString& name, int iterations,
                                  double sleep) {
        return harness.writeFile(name + ".yaml",
                                 QStringLiteral("name: %1\n"
                                                "trainable: {command: [python3, \"@TRIAL@\"]}\n"
                                                "search_space:\n"
                                                "  x: {grid: [1, 2]}\n"
                                                "  iterations: %2\n"
                                                "  sleep: %3\n"
                                                "metric: score\n"
                                                "mode: max\n")
                                     .arg(name)
                                     .arg(iterations)
                                     .arg(sleep));
    }

    // Starts `name` from the window and waits until its trials run.
    static bool runUntilRunning(MainWindow& window, const EngineHarness& harness,
                                const QString& name) {
        window.runExperimentFile(experimentFile(harness, name, 600, 0.2));
        return waitFor(
            [&] {
                return window.currentExperiment() == name && !window.data().trials().empty() &&
                       window.data().trials()[0].status == "RUNNING";
            },
            60000);
    }

  private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }  // not the user's settings
    void oneClickOnARowOpensItsExperiment();
    void openingAnotherExperimentClearsTheSelection();
    void attachingAnotherEngineDropsAHistoryStillBeingRead();
    void aTrialStoppedByTheUserReadsSoAndIsNotCountedDone();
    void stoppingATrialAsksFirst();
    void aPausedExperimentReadsPaused();
    void pausedAndResumedTrialsReadAsTheyAre();
    void aSecondExperimentStartedFromTheWindowIsShownAndHighlighted();
    void quittingWhileExperimentsRunAsksAndCanPauseThem();
    void quittingCanLeaveTheExperimentsRunning();
    void quittingRightAfterARunEndedAsksNothing();
    void restartingForALanguageEndsThisInstanceAndLeavesTheRunGoing();
    void anExperimentIsKnownByItsFolderNotItsName();
    void twoFoldersOfOneNameCompareUnderTheirOwnNames();
    void theEngineQueueShowsWhoWaitsAndWhy();
    void maxWorkersOfARunningClusterIsSetFromTheNodesTab();
    void limitsOfARunningExperimentChangeFromTheWindow();
    void theHeaderMenuHidesColumnsForTheNextSessionToo();
};

void TestAppWindowLifecycle::oneClickOnARowOpensItsExperiment() {
    EngineHarness harness;
    QVERIFY(harness.run({"run", experimentFile(harness, "alpha", 3, 0)}).exitCode == 0);
    QVERIFY(harness.run({"run", experimentFile(harness, "beta", 5, 0)}).exitCode == 0);
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    QTreeWidget* list = experimentList(window);
    QVERIFY(waitFor([&] { return list->topLevelItemCount() == 2; }, 20000));

    for (const QString& name : {QStringLiteral("alpha"), QStringLiteral("beta")}) {
        QTreeWidgetItem* row = rowOf(list, name);
        QVERIFY(row);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(row).center());
        QVERIFY2(waitFor([&] { return window.currentExperiment() == name; }, 5000),
                 qPrintable(window.currentExperiment()));
        QVERIFY(waitFor([&] { return window.data().trials().size() == 2; }, 20000));
        QCOMPARE(int(window.data().trials()[0].values.size()), name == "alpha" ? 3 : 5);
        QVERIFY2(window.windowTitle().startsWith(name), qPrintable(window.windowTitle()));
        QCOMPARE(highlighted(list), name);
    }
    // The list's refresh (every 5 s) keeps the row of what is shown highlighted.
    QTest::qWait(5500);
    QCOMPARE(highlighted(list), QStringLiteral("beta"));
}

// Issue 34.2: t00001 selected in one experiment, then another opened. The table highlighted
// nothing, yet the Trial tab showed the new experiment's t00001, Compare the old one's, and the
// curves and plots kept only t00001, also in a run started next. Nothing that follows the
// selection may outlive the experiment it was made in.
void TestAppWindowLifecycle::openingAnotherExperimentClearsTheSelection() {
    EngineHarness harness;
    QVERIFY(harness.run({"run", experimentFile(harness, "alpha", 3, 0)}).exitCode == 0);
    QVERIFY(harness.run({"run", experimentFile(harness, "beta", 5, 0)}).exitCode == 0);
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    auto* table = window.findChild<QTableView*>("trials");
    auto* compare = window.findChild<QTableWidget*>("compareTrials");
    auto* detail = window.findChild<QTextBrowser*>("trialDetail");
    auto* scatter = window.findChild<tunedeck::app::ScatterView*>();
    QVERIFY(table && compare && detail && scatter);
    const auto shows = [&](const QString& name, int results) {
        return waitFor(
            [&] {
                return window.currentExperiment() == name && window.data().trials().size() == 2 &&
                       int(window.data().trials()[0].values.size()) == results &&
                       int(window.data().trials()[1].values.size()) == results &&
                       table->model()->rowCount() == 2;
            },
            30000);
    };
    // What follows the selection, as the user sees it: nothing of `trialId` anywhere.
    const auto nothingSelected = [&] {
        return table->selectionModel()->selectedRows().isEmpty() && compare->columnCount() == 0 &&
               detail->toPlainText().trimmed().startsWith("No trial selected") &&
               scatter->selectedPoints().isEmpty();
    };
    window.tabs()->setCurrentWidget(detail->parentWidget());

    window.openExperiment("alpha");
    QVERIFY(shows("alpha", 3));
    table->selectRow(1);  // t00001: the table is sorted by trial
    QCOMPARE(compare->columnCount(), 1);
    QCOMPARE(compare->horizontalHeaderItem(0)->text(), QStringLiteral("t00001"));
    QVERIFY2(detail->toPlainText().trimmed().startsWith("t00001"),
             qPrintable(detail->toPlainText()));
    QCOMPARE(window.chart()->redraw(), 3);  // t00001's curve alone

    window.openExperiment("beta");
    QVERIFY(shows("beta", 5));
    QVERIFY2(waitFor(nothingSelected, 2000), qPrintable(detail->toPlainText()));
    app_test::screenshot(window, "selection-cleared-on-open");
    QCOMPARE(window.chart()->redraw(), 2 * 5);  // every curve of beta

    // A run started from the window is another experiment too.
    table->selectRow(0);
    QVERIFY2(detail->toPlainText().trimmed().startsWith("t00000"),
             qPrintable(detail->toPlainText()));
    window.runExperimentFile(experimentFile(harness, "gamma", 4, 0));
    QVERIFY(shows("gamma", 4));
    QVERIFY2(waitFor(nothingSelected, 2000), qPrintable(detail->toPlainText()));
    QCOMPARE(window.chart()->redraw(), 2 * 4);
}

// Issue 34 (the session outside the window): an experiment's history is read on a worker
// thread; attaching to another engine before the read landed showed the old engine's
// experiment under the new one's start page, table and curves, and subscribed to its name on
// the new engine. What a read brings is dropped when something else was opened since, and
// attaching elsewhere closes what was open.
void TestAppWindowLifecycle::attachingAnotherEngineDropsAHistoryStillBeingRead() {
    EngineHarness harness;
    QVERIFY(harness.run({"run", experimentFile(harness, "alpha", 3, 0)}).exitCode == 0);
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(table);

    window.openExperiment("alpha");  // its SQLite file, read on a worker thread
    window.attachLocal(harness.root() + "/another-engine.sock", {});  // before the read landed
    QTest::qWait(2000);
    QCOMPARE(window.currentExperiment(), QString());
    QCOMPARE(int(window.data().trials().size()), 0);
    QCOMPARE(table->model()->rowCount(), 0);
    QCOMPARE(window.windowTitle(), QStringLiteral("Tunedeck"));
}

// Issue 34.8 and 34.12: a trial stopped with Trial > Stop read TERMINATED, in green, and was
// counted with the trials that ran to their end. It reads "stopped by the user", in grey, has
// its own entry in the status filter, and the status bar counts it apart from the done ones.
void TestAppWindowLifecycle::aTrialStoppedByTheUserReadsSoAndIsNotCountedDone() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    QVERIFY(runUntilRunning(window, harness, "halt"));
    auto* table = window.findChild<QTableView*>("trials");
    auto* counts = window.findChild<QLabel*>("trialCounts");
    auto* statusFilter = window.findChild<QComboBox*>("statusFilter");
    QVERIFY(table && counts && statusFilter);
    QVERIFY(waitFor([&] { return table->model()->rowCount() == 2; }, 5000));  // next frame
    table->selectRow(0);                                                      // t00000
    {
        MessageBoxAnswer yes(QMessageBox::Yes);  // the question: stoppingATrialAsksFirst
        window.orderSelectedTrials(MainWindow::TrialOrder::Stop);
    }
    QVERIFY2(
        waitFor([&] { return window.data().trials()[0].status == "TERMINATED"; }, 30000),
        qPrintable(window.data().trials()[0].status + " " + window.statusBar()->currentMessage()));
    const QModelIndex status = table->model()->index(0, TrialTableModel::Status);
    QVERIFY(waitFor([&] { return status.data().toString() == "stopped by the user"; }, 5000));
    QVERIFY(status.data(Qt::ForegroundRole).value<QColor>() !=
            TrialTableModel::statusColor("TERMINATED"));
    QVERIFY2(
        waitFor([&] { return counts->text().contains("0 done, 1 stopped by the user"); }, 5000),
        qPrintable(counts->text()));
    // Compare reads the same.
    auto* compare = window.findChild<QTableWidget*>("compareTrials");
    QVERIFY(compare && compare->rowCount() > 0);
    QCOMPARE(compare->item(compare->rowCount() - 1, 0)->text(),
             QStringLiteral("stopped by the user"));
    statusFilter->setCurrentIndex(statusFilter->findData("USER_STOPPED"));
    QCOMPARE(table->model()->rowCount(), 1);
    QCOMPARE(table->model()->index(0, TrialTableModel::Trial).data().toString(),
             QStringLiteral("t00000"));
    app_test::screenshot(window, "trial-stopped-by-the-user");
    statusFilter->setCurrentIndex(0);
    bool stopped = false;
    window.client().stopExperiment("halt", [&](const tunedeck::Status&) { stopped = true; });
    QVERIFY(waitFor([&] { return stopped; }, 20000));
    // And `show` on the command line: not TERMINATED like a trial that ran to its end.
    QVERIFY(waitFor([&] { return window.data().trials()[1].status == "TERMINATED"; }, 30000));
    const EngineResult show = harness.run({"show", harness.experimentFolder("halt")});
    QVERIFY2(show.exitCode == 0, qPrintable(show.all()));
    const QString line = show.out.section(QStringLiteral("\nt00000 "), 1, 1).section('\n', 0, 0);
    QVERIFY2(line.contains("stopped by the user at "), qPrintable(show.out));
    // The Trial tab's status history and the timeline read it so too, not TERMINATED/completed.
    auto* detail = window.findChild<QTextBrowser*>("trialDetail");
    QVERIFY(detail);
    window.tabs()->setCurrentWidget(detail->parentWidget());
    table->clearSelection();
    table->selectRow(0);
    // Its status history says so too: no TERMINATED row.
    QVERIFY2(waitFor([&] { return detail->toPlainText().contains("stopped by the user"); }, 5000),
             qPrintable(detail->toPlainText()));
    QVERIFY2(!detail->toPlainText().contains("TERMINATED"), qPrintable(detail->toPlainText()));
}

// Issue 34.8: Trial > Stop cannot be taken back, so it asks first, saying so; No leaves the
// trial running.
void TestAppWindowLifecycle::stoppingATrialAsksFirst() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    QVERIFY(runUntilRunning(window, harness, "ask"));
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(table);
    QVERIFY(waitFor([&] { return table->model()->rowCount() == 2; }, 5000));
    table->selectRow(0);  // t00000
    {
        MessageBoxAnswer no(QMessageBox::No);
        window.orderSelectedTrials(MainWindow::TrialOrder::Stop);
        QVERIFY2(no.answered(), "Stop asked nothing");
        QVERIFY2(no.seen().contains("t00000") && no.seen().contains("not resumed"),
                 qPrintable(no.seen()));
    }
    QTest::qWait(1500);
    QCOMPARE(window.data().trials()[0].status, QStringLiteral("RUNNING"));
    bool stopped = false;
    window.client().stopExperiment("ask", [&](const tunedeck::Status&) { stopped = true; });
    QVERIFY(waitFor([&] { return stopped; }, 20000));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 60000));
}

// Issue 34.8: Experiment > Pause leaves the experiment "paused" (not "interrupted", its list row
// saying it is resumable) and the trials it stopped PAUSED (not PENDING as trials that never
// ran); Resume runs them again.
void TestAppWindowLifecycle::aPausedExperimentReadsPaused() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    QVERIFY(runUntilRunning(window, harness, "rest"));
    QVERIFY(waitFor([&] { return window.data().trials().size() == 2; }, 10000));
    window.orderExperiment(MainWindow::ExperimentOrder::Pause);
    QVERIFY2(waitFor([&] { return window.data().experimentStatus() == "paused"; }, 60000),
             qPrintable(window.data().experimentStatus()));
    for (const auto& t : window.data().trials()) {
        QVERIFY2(t.status == "PAUSED" && t.reason == "experiment paused",
                 qPrintable(t.id + " " + t.status + ": " + t.reason));
    }
    QCOMPARE(statusOnTheEngine(engine.socket, "rest"), QStringLiteral("paused"));
    QTreeWidget* list = experimentList(window);
    QVERIFY(waitFor(
        [&] {
            QTreeWidgetItem* row = rowOf(list, "rest");
            return row && row->text(1) == "paused" && row->toolTip(1).contains("Resume");
        },
        20000));
    window.orderExperiment(MainWindow::ExperimentOrder::Resume);
    QVERIFY2(waitFor(
                 [&] {
                     return window.data().experimentStatus() == "running" &&
                            window.data().trials()[0].status == "RUNNING";
                 },
                 60000),
             qPrintable(window.data().experimentStatus() + " " + window.data().trials()[0].status));
    window.orderExperiment(MainWindow::ExperimentOrder::Pause);
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "paused"; }, 60000));
}

// Issue 34.8: a trial paused and resumed while another holds the only slot waits as PENDING,
// not PAUSED; Experiment > Pause leaves the experiment "paused" (not "interrupted") and the
// trial it stopped PAUSED (not PENDING like one that never ran); after Experiment > Resume that
// trial waits as PENDING again until a slot frees.
void TestAppWindowLifecycle::pausedAndResumedTrialsReadAsTheyAre() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    window.runExperimentFile(harness.writeFile("one-slot.yaml",
                                               "name: one-slot\n"
                                               "trainable: {command: [python3, \"@TRIAL@\"]}\n"
                                               "search_space:\n"
                                               "  x: {grid: [1, 2, 3]}\n"
                                               "  iterations: 600\n"
                                               "  sleep: 0.1\n"
                                               "metric: score\n"
                                               "mode: max\n"
                                               "max_concurrent_trials: 1\n"
                                               "checkpoint: {frequency: 1}\n"));
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(table);
    QStringList failed;
    connect(&window, &MainWindow::requestFailed, this, [&](const QString& m) { failed << m; });
    const auto statusOf = [&](int row) {
        return row < int(window.data().trials().size())
                   ? window.data().trials()[std::size_t(row)].status
                   : QString();
    };
    // The Status cell, as the user reads it.
    const auto cellOf = [&](int row) {
        return table->model()->index(row, TrialTableModel::Status).data().toString();
    };
    QVERIFY(waitFor(
        [&] { return statusOf(0) == "RUNNING" && window.data().trials()[0].iteration >= 3; },
        60000));
    QVERIFY(waitFor([&] { return table->model()->rowCount() >= 1; }, 10000));
    table->selectRow(0);
    window.orderSelectedTrials(MainWindow::TrialOrder::Pause);
    QVERIFY2(waitFor([&] { return statusOf(0) == "PAUSED" && statusOf(1) == "RUNNING"; }, 30000),
             qPrintable(statusOf(0) + " " + statusOf(1)));
    table->clearSelection();
    table->selectRow(0);
    window.orderSelectedTrials(MainWindow::TrialOrder::Resume);
    // t00001 holds the slot: t00000 waits for it.
    QVERIFY2(waitFor([&] { return statusOf(0) == "PENDING"; }, 10000),
             qPrintable(statusOf(0) + " " + window.data().trials()[0].reason + " " +
                        failed.join(" | ") + [&] {
                            QString h;
                            for (const auto& c : window.data().trials()[0].statusHistory) {
                                h += " / " + c.status + ": " + c.reason;
                            }
                            return h;
                        }()));
    QVERIFY(waitFor([&] { return cellOf(0) == "PENDING"; }, 5000));
    QCOMPARE(statusOf(1), QStringLiteral("RUNNING"));

    // The experiment paused: "paused", and the trial it stopped PAUSED.
    window.orderExperiment(MainWindow::ExperimentOrder::Pause);
    QVERIFY2(waitFor([&] { return window.data().experimentStatus() == "paused"; }, 60000),
             qPrintable(window.data().experimentStatus()));
    QVERIFY2(waitFor([&] { return statusOf(1) == "PAUSED"; }, 10000),
             qPrintable(statusOf(1) + " " + window.data().trials()[1].reason));
    QCOMPARE(window.data().trials()[1].reason, QStringLiteral("experiment paused"));
    QCOMPARE(statusOnTheEngine(engine.socket, "one-slot"), QStringLiteral("paused"));
    QTreeWidget* list = experimentList(window);
    QVERIFY(waitFor(
        [&] {
            QTreeWidgetItem* row = rowOf(list, "one-slot");
            return row && row->text(1) == "paused" && row->toolTip(1).contains("Resume");
        },
        20000));
    app_test::screenshot(window, "experiment-paused");

    // Resumed: t00000 (first in line) runs, t00001 waits as PENDING, not PAUSED.
    window.orderExperiment(MainWindow::ExperimentOrder::Resume);
    QVERIFY2(waitFor([&] { return window.data().experimentStatus() == "running"; }, 60000),
             qPrintable(window.data().experimentStatus()));
    QVERIFY2(waitFor([&] { return statusOf(0) == "RUNNING"; }, 60000), qPrintable(statusOf(0)));
    QVERIFY2(waitFor([&] { return statusOf(1) == "PENDING" && cellOf(1) == "PENDING"; }, 10000),
             qPrintable(statusOf(1) + " " + window.data().trials()[1].reason));
    bool stopped = false;
    window.client().stopExperiment("one-slot", [&](const tunedeck::Status&) { stopped = true; });
    QVERIFY(waitFor([&] { return stopped; }, 20000));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 60000));
}

void TestAppWindowLifecycle::aSecondExperimentStartedFromTheWindowIsShownAndHighlighted() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    QTreeWidget* list = experimentList(window);
    window.runExperimentFile(experimentFile(harness, "first", 3, 0));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 60000));
    QVERIFY(waitFor([&] { return highlighted(list) == "first"; }, 10000));

    window.runExperimentFile(experimentFile(harness, "second", 8, 0.1));
    QVERIFY(waitFor([&] { return window.currentExperiment() == "second"; }, 30000));
    QVERIFY(waitFor([&] { return window.data().trials().size() == 2; }, 30000));
    QCOMPARE(window.data().metric(), QStringLiteral("score"));
    QVERIFY(waitFor([&] { return !metricAxisTitle(window).isEmpty(); }, 5000));
    QCOMPARE(metricAxisTitle(window), QStringLiteral("score"));
    QVERIFY(waitFor([&] { return highlighted(list) == "second"; }, 10000));
    QVERIFY2(window.windowTitle().startsWith("second"), qPrintable(window.windowTitle()));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 60000));
    QTest::qWait(5500);  // a refresh of the list later, the new experiment is still the one
    QCOMPARE(highlighted(list), QStringLiteral("second"));
    QCOMPARE(metricAxisTitle(window), QStringLiteral("score"));
}

void TestAppWindowLifecycle::quittingWhileExperimentsRunAsksAndCanPauseThem() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    QVERIFY(runUntilRunning(window, harness, "long"));
    QTest::qWait(300);  // the list's answer about the new experiment

    // Cancel: nothing happens.
    {
        MessageBoxAnswer cancel("Cancel");
        quitAction(window)->trigger();
        QVERIFY2(cancel.answered(), qPrintable(cancel.seen()));
        QVERIFY2(cancel.seen().contains("long"), qPrintable(cancel.seen()));
    }
    QTest::qWait(300);
    QVERIFY(window.isVisible());
    QCOMPARE(statusOnTheEngine(engine.socket, "long"), QStringLiteral("running"));

    // Pause: each trial saves and stops; the experiment can be resumed later.
    {
        MessageBoxAnswer pause("Pause and quit");
        quitAction(window)->trigger();
        QVERIFY2(pause.answered(), qPrintable(pause.buttons().join(", ")));
    }
    QVERIFY(waitFor([&] { return !window.isVisible(); }, 30000));
    QVERIFY(waitFor([&] { return statusOnTheEngine(engine.socket, "long") == "paused"; }, 30000));
}

void TestAppWindowLifecycle::quittingCanLeaveTheExperimentsRunning() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    QVERIFY(runUntilRunning(window, harness, "long"));
    QTest::qWait(300);
    {
        MessageBoxAnswer leave("Leave running and quit");
        quitAction(window)->trigger();
        QVERIFY2(leave.answered(), qPrintable(leave.buttons().join(", ")));
    }
    QVERIFY(waitFor([&] { return !window.isVisible(); }, 10000));
    QTest::qWait(1000);
    QCOMPARE(statusOnTheEngine(engine.socket, "long"), QStringLiteral("running"));

    // Issue 34.13: opened again, the app showed its start page; it shows the run.
    MainWindow again;
    again.resize(1280, 800);
    again.show();
    again.attachLocal(engine.socket, {});
    QVERIFY2(waitFor([&] { return again.currentExperiment() == "long"; }, 20000),
             qPrintable(again.currentExperiment()));
    QVERIFY(waitFor([&] { return again.data().counts().running > 0; }, 20000));
    app_test::screenshot(again, "reopened-after-leave-running");
}

// Quitting a moment after the run ended asked whether to pause "Running on the engine of this
// machine: short" under a window that showed it finished. The engine's last list still named the
// run's process (it closes its files after "finished"); the shown experiment's stream, newer,
// decides for it now, and only runs are asked about.
void TestAppWindowLifecycle::quittingRightAfterARunEndedAsksNothing() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    window.runExperimentFile(experimentFile(harness, "short", 5, 0.02));
    QVERIFY(waitFor(
        [&] {
            return window.currentExperiment() == "short" &&
                   window.data().experimentStatus() == "finished";
        },
        60000));
    MessageBoxAnswer cancel("Cancel");  // at once: the list may not have been asked again yet
    quitAction(window)->trigger();
    QVERIFY2(waitFor([&] { return !window.isVisible(); }, 10000), qPrintable(cancel.seen()));
    QCOMPARE(cancel.asked(), 0);
}

// Issue 34.4: Settings > Deutsch > restart during a run started the new instance and left this
// one open behind it, asking whether to pause the run. A restart is no quit: this window closes
// without asking, the run goes on in the engine (as with "Leave running"), and main() is told to
// start the app again on the open experiment.
void TestAppWindowLifecycle::restartingForALanguageEndsThisInstanceAndLeavesTheRunGoing() {
    const auto english = [] {
        tunedeck::app::saveAppearance({});
        tunedeck::app::applyAppearance({tunedeck::app::Theme::System, QStringLiteral("en")});
    };
    english();  // whatever an earlier run left in the test's settings
    const auto backToEnglish = qScopeGuard(english);
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    QVERIFY(runUntilRunning(window, harness, "long"));
    QTest::qWait(300);  // the list's answer about the new experiment
    const QString folder = window.session().folder();
    QSignalSpy restart(&window, &MainWindow::restartRequested);

    QTimer settings;  // Settings: Deutsch, OK
    settings.setInterval(20);
    connect(&settings, &QTimer::timeout, &window, [&] {
        auto* dialog =
            qobject_cast<tunedeck::app::SettingsDialog*>(QApplication::activeModalWidget());
        if (!dialog) {
            return;
        }
        settings.stop();
        auto* language = dialog->findChild<QComboBox*>("language");
        language->setCurrentIndex(language->findData(QStringLiteral("de")));
        dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
    });
    settings.start();
    // Yes to the restart. A question after it (whether to pause the run) is counted and closed
    // unanswered, which keeps the window open.
    MessageBoxAnswer yes(QMessageBox::Yes);
    QStringList after;
    QTimer questions;
    questions.setInterval(50);
    connect(&questions, &QTimer::timeout, &window, [&] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (yes.answered() && box && box->isVisible()) {
            after << box->text();
            box->reject();
        }
    });
    questions.start();
    menuAction(window, "Settings...")->trigger();
    QVERIFY2(yes.answered(), "no restart question");
    QVERIFY2(waitFor([&] { return !window.isVisible(); }, 10000),
             qPrintable("still open, having asked: " + after.join(" | ")));
    QTest::qWait(500);
    QVERIFY2(after.isEmpty(), qPrintable(after.join(" | ")));
    QCOMPARE(restart.count(), 1);
    QCOMPARE(restart.first().first().toString(), folder);
    QCOMPARE(statusOnTheEngine(engine.socket, "long"), QStringLiteral("running"));
}

// Defect 2: a folder `quickstart` opened read-only, then a new `quickstart` run on the engine: the
// window switches to the engine's folder; opening the copy again highlights none of the engine's
// rows. The open folder and a read-only badge are shown.
void TestAppWindowLifecycle::anExperimentIsKnownByItsFolderNotItsName() {
    EngineHarness harness;
    const QString copies = harness.root() + "/copies";
    QVERIFY(harness.run({"run", experimentFile(harness, "quickstart", 3, 0), "--results", copies})
                .exitCode == 0);
    const QString copy = copies + "/quickstart";
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    QTreeWidget* list = experimentList(window);
    auto* folder = window.findChild<QLabel*>("openFolder");
    auto* badge = window.findChild<QLabel*>("readOnlyBadge");
    QVERIFY(folder && badge);

    window.openFolder(copy);
    QVERIFY(waitFor([&] { return window.data().trials().size() == 2; }, 20000));
    QVERIFY2(folder->text().contains(copies), qPrintable(folder->text()));
    QVERIFY(badge->isVisible());
    QVERIFY2(window.windowTitle().contains("read-only"), qPrintable(window.windowTitle()));

    window.runExperimentFile(experimentFile(harness, "quickstart", 5, 0));
    QVERIFY2(waitFor([&] { return folder->text().contains(harness.resultsRoot()); }, 30000),
             qPrintable(folder->text()));
    QVERIFY(waitFor(
        [&] {
            return window.data().trials().size() == 2 &&
                   window.data().trials()[0].values.size() == 5;
        },
        60000));
    QVERIFY(!badge->isVisible());
    QVERIFY2(!window.windowTitle().contains("read-only"), qPrintable(window.windowTitle()));
    QVERIFY(waitFor([&] { return highlighted(list) == "quickstart"; }, 10000));

    // The copy again: the engine's `quickstart` is another experiment, and is not highlighted.
    window.openFolder(copy);
    QVERIFY(waitFor(
        [&] {
            return window.data().trials().size() == 2 &&
                   window.data().trials()[0].values.size() == 3;
        },
        20000));
    QVERIFY(badge->isVisible());
    QVERIFY2(folder->text().contains(copies), qPrintable(folder->text()));
    QCOMPARE(highlighted(list), QString());
    QTest::qWait(5500);  // and after a refresh of the list
    QCOMPARE(highlighted(list), QString());
    QCOMPARE(window.data().trials()[0].values.size(), std::size_t(3));
}

// Two users' experiments on an engine whose queue shares one CPU: Experiment > Engine queue...
// shows both, the CPU in use, and why the lower priority waits (issue 22).
// Issue 34.5: File > Compare two experiments headed both columns "quickstart" for the engine's
// quickstart and a copy of it. Each folder is named by the part of its path that tells it from
// the other, in the pickers, the table's columns and the curves, with its whole path in the
// tooltip.
void TestAppWindowLifecycle::twoFoldersOfOneNameCompareUnderTheirOwnNames() {
    EngineHarness harness;
    const QString copies = harness.root() + "/copies";
    QVERIFY(harness.run({"run", experimentFile(harness, "quickstart", 3, 0), "--results", copies})
                .exitCode == 0);
    QVERIFY(harness.run({"run", experimentFile(harness, "quickstart", 4, 0)}).exitCode == 0);
    const QString copy = copies + "/quickstart";
    const QString ours = harness.experimentFolder("quickstart");
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    QVERIFY(waitFor([&] { return experimentList(window)->topLevelItemCount() == 1; }, 20000));
    window.openFolder(copy);
    QVERIFY(waitFor([&] { return window.data().trials().size() == 2; }, 20000));

    window.compareExperiments();
    auto* dialog = window.findChild<tunedeck::app::ExperimentsCompare*>();
    QVERIFY(dialog);
    QSignalSpy compared(dialog, &tunedeck::app::ExperimentsCompare::compared);
    QVERIFY(compared.wait(20000));
    QTableWidget* table = dialog->table();
    QCOMPARE(table->horizontalHeaderItem(0)->text(), QStringLiteral("copies/quickstart"));
    QCOMPARE(table->horizontalHeaderItem(1)->text(), QStringLiteral("results/quickstart"));
    QVERIFY2(table->horizontalHeaderItem(0)->toolTip().contains(copy),
             qPrintable(table->horizontalHeaderItem(0)->toolTip()));
    QVERIFY2(table->horizontalHeaderItem(1)->toolTip().contains(ours),
             qPrintable(table->horizontalHeaderItem(1)->toolTip()));
    auto* first = dialog->findChild<QComboBox*>("first");
    auto* second = dialog->findChild<QComboBox*>("second");
    QVERIFY(first && second);
    QCOMPARE(first->currentText(), QStringLiteral("copies/quickstart"));
    QCOMPARE(second->currentText(), QStringLiteral("results/quickstart"));
    QCOMPARE(first->itemData(first->currentIndex(), Qt::ToolTipRole).toString(), copy);
    QCOMPARE(second->itemData(second->currentIndex(), Qt::ToolTipRole).toString(), ours);
    const QList<QAbstractSeries*> curves = dialog->chartView()->chart()->series();
    QCOMPARE(curves.size(), 2);
    QVERIFY2(curves[0]->name().startsWith("copies/quickstart"), qPrintable(curves[0]->name()));
    QVERIFY2(curves[1]->name().startsWith("results/quickstart"), qPrintable(curves[1]->name()));
    dialog->resize(900, 700);
    QTest::qWait(200);  // the chart lays itself out for the new size
    app_test::screenshot(*dialog, "compare-two-quickstarts");
}

void TestAppWindowLifecycle::theEngineQueueShowsWhoWaitsAndWhy() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window, {"--capacity", "cpu=1"}));
    const auto start = [&](const QString& name, const QString& user, int priority) {
        bool answered = false;
        window.client().request("start",
                                {{"path", experimentFile(harness, name, 600, 0.2)},
                                 {"user", user},
                                 {"priority", priority}},
                                [&](const QJsonObject&) { answered = true; });
        return waitFor([&] { return answered; }, 30000);
    };
    QVERIFY(start("background", "alice", 1));
    QVERIFY(start("urgent", "bob", 4));
    menuAction(window, "Engine queue...")->trigger();
    auto* dialog = window.findChild<QDialog*>("queueDialog");
    QVERIFY(dialog && dialog->isVisible());
    auto* table = dialog->findChild<QTableWidget*>("queueTable");
    auto* summary = dialog->findChild<QLabel*>("queueSummary");
    const auto rowOfUser = [&](const QString& user) {
        for (int row = 0; row < table->rowCount(); ++row) {
            if (table->item(row, 1) && table->item(row, 1)->text() == user) {
                return row;
            }
        }
        return -1;
    };
    QVERIFY2(waitFor(
                 [&] {
                     const int alice = rowOfUser("alice");
                     return table->rowCount() == 2 && alice >= 0 &&
                            table->item(alice, 6)->text().contains(
                                "higher priority first: urgent (priority 4)");
                 },
                 30000),
             qPrintable(table->rowCount() > 0 && table->item(0, 6) ? table->item(0, 6)->text()
                                                                   : summary->text()));
    QCOMPARE(table->horizontalHeaderItem(6)->text(), QStringLiteral("Waits because"));
    // alice's trial keeps running (nothing is stopped), but she may run none until bob's start.
    QCOMPARE(table->item(rowOfUser("alice"), 3)->text(), QStringLiteral("1"));
    QCOMPARE(table->item(rowOfUser("alice"), 4)->text(), QStringLiteral("0"));
    QCOMPARE(table->item(rowOfUser("bob"), 0)->text(), QStringLiteral("urgent"));
    QCOMPARE(table->item(rowOfUser("bob"), 2)->text(), QStringLiteral("4"));
    QVERIFY2(summary->text().contains("1 of 1 CPUs"), qPrintable(summary->text()));
}

void TestAppWindowLifecycle::maxWorkersOfARunningClusterIsSetFromTheNodesTab() {
    // A command cluster whose "nodes" are files and whose agents run here, one node at most; once
    // a trial runs, the Nodes tab raises max_workers to 3 and the engine launches for the trials
    // waiting (issue 19).
    EngineHarness harness;
    QFile script(harness.root() + "/nodes.sh");
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(
        "#!/bin/sh\ncd \"$(dirname \"$0\")\" || exit 1\nmkdir -p live\ncase \"$1\" in\n"
        "create) echo \"$3\" > \"live/$2\"; echo \"$2 127.0.0.1\" ;;\n"
        "terminate) rm -f \"live/$2\" ;;\nlist) ls live ;;\nesac\n");
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    harness.writeFile("cluster.yaml",
                      "cluster_name: captest\n"
                      "provider:\n"
                      "  type: command\n"
                      "  create: ./nodes.sh create {node} {type}\n"
                      "  terminate: ./nodes.sh terminate {id}\n"
                      "  list: ./nodes.sh list\n"
                      "  connect: exec {worker}\n"
                      "available_node_types:\n"
                      "  small: {resources: {CPU: 1}, max_workers: 1}\n"
                      "idle_timeout_minutes: 0.05\n");
    const QString experiment = harness.writeFile("cap.yaml",
                                                 "name: cap\n"
                                                 "trainable: {command: [python3, \"@TRIAL@\"]}\n"
                                                 "resources_per_trial: {cpu: 1}\n"
                                                 "search_space:\n"
                                                 "  x: {grid: [1, 2, 3, 4]}\n"
                                                 "  iterations: 12\n"
                                                 "  sleep: 0.25\n"
                                                 "metric: score\nmode: max\n"
                                                 "cluster: cluster.yaml\n");
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window, {"--capacity", "cpu=8"}));
    window.runExperimentFile(experiment);
    QVERIFY(waitFor(
        [&] {
            return window.currentExperiment() == "cap" && !window.data().trials().empty() &&
                   window.data().trials()[0].status == "RUNNING";
        },
        60000));
    auto* nodes = window.findChild<tunedeck::app::NodeUsageView*>();
    window.findChild<QTabWidget*>("views")->setCurrentWidget(nodes);
    auto* type = nodes->findChild<QComboBox*>("maxWorkersType");
    auto* cap = nodes->findChild<QSpinBox*>("maxWorkers");
    QVERIFY(waitFor([&] { return type->isVisible() && type->currentText() == "small"; }, 10000));
    QCOMPARE(cap->value(), 1);  // the one node seen
    cap->setValue(3);
    nodes->findChild<QPushButton*>("setMaxWorkers")->click();
    QVERIFY2(waitFor(
                 [&] {
                     return nodes->decisions()
                                ->findItems(
                                    "max_workers of small: 1 -> 3 (control "
                                    "request)",
                                    Qt::MatchExactly)
                                .size() == 1;
                 },
                 10000),
             qPrintable(window.statusBar()->currentMessage()));
    QVERIFY(waitFor(
        [&] {
            int done = 0;
            for (const auto& trial : window.data().trials()) {
                done += trial.status == "TERMINATED" ? 1 : 0;
            }
            return done == 4;
        },
        60000));
    // The history: one node launched before the new cap, two more after it, none beyond.
    const QString db = harness.experimentFolder("cap") + "/experiment.sqlite";
    QCOMPARE(sqliteQuery(db,
                         "SELECT COUNT(*) FROM events WHERE type = 'node' AND "
                         "json_extract(payload, '$.state') = 'launching' AND seq < (SELECT seq "
                         "FROM events WHERE type = 'node' AND json_extract(payload, '$.state') = "
                         "'max_workers')"),
             QStringLiteral("1"));
    QCOMPARE(sqliteQuery(db,
                         "SELECT COUNT(*) FROM events WHERE type = 'node' AND "
                         "json_extract(payload, '$.state') = 'launching'"),
             QStringLiteral("3"));
}

void TestAppWindowLifecycle::limitsOfARunningExperimentChangeFromTheWindow() {
    EngineHarness harness;
    const QString file = harness.writeFile("lim.yaml",
                                           "name: lim\n"
                                           "trainable: {command: [python3, \"@TRIAL@\"]}\n"
                                           "search_space:\n"
                                           "  x: {uniform: [1, 2]}\n"
                                           "  iterations: 8\n"
                                           "  sleep: 0.15\n"
                                           "num_samples: 2\n"
                                           "max_concurrent_trials: 1\n"
                                           "metric: score\nmode: max\n");
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    window.runExperimentFile(file);
    // Both trials made, the second waiting for the first (max_concurrent_trials: 1).
    QVERIFY(waitFor(
        [&] { return window.currentExperiment() == "lim" && window.data().trials().size() == 2; },
        60000));
    auto* progress = window.findChild<QProgressBar*>();
    QVERIFY(waitFor([&] { return progress->text() == "0 of 2 trials ended"; }, 5000));

    menuAction(window, "Change limits...")->trigger();
    QPointer<QDialog> dialog = window.findChild<QDialog*>("limitsDialog");
    QVERIFY(dialog && dialog->isVisible());
    auto* samples = dialog->findChild<QSpinBox*>("numSamples");
    auto* concurrent = dialog->findChild<QSpinBox*>("maxConcurrentTrials");
    QCOMPARE(samples->value(), 2);
    QCOMPARE(concurrent->value(), 1);
    QCOMPARE(concurrent->text(), QStringLiteral("1"));  // a limit, not "No limit"
    // Fewer samples than trials made: the engine's refusal is shown, the dialog stays.
    samples->setValue(1);
    dialog->findChild<QPushButton*>("applyLimits")->click();
    auto* error = dialog->findChild<QLabel*>("limitsError");
    QVERIFY(waitFor([&] { return error->isVisible() && !error->text().isEmpty(); }, 10000));
    QVERIFY2(error->text().contains("fewer than the 2 trials already created"),
             qPrintable(error->text()));
    QVERIFY(dialog->isVisible());
    // Issue 34.11: the refusal's lines get room of their own; the fields were squashed to make it.
    QTest::qWait(100);  // the dialog's layout follows the label at the next turn of the loop
    for (QSpinBox* field : {samples, concurrent}) {
        QVERIFY2(field->height() >= field->sizeHint().height(),
                 qPrintable(QStringLiteral("%1 is %2 px high of %3")
                                .arg(field->objectName())
                                .arg(field->height())
                                .arg(field->sizeHint().height())));
    }
    QVERIFY2(error->height() >= error->heightForWidth(error->width()),
             qPrintable(QStringLiteral("the refusal is %1 px high of %2")
                            .arg(error->height())
                            .arg(error->heightForWidth(error->width()))));
    app_test::screenshot(*dialog, "limits-refused");
    // Three samples: taken, and the progress bar counts them.
    samples->setValue(3);
    dialog->findChild<QPushButton*>("applyLimits")->click();
    QVERIFY(waitFor([&] { return !dialog || !dialog->isVisible(); }, 10000));
    QVERIFY2(waitFor([&] { return progress->text().endsWith(" of 3 trials ended"); }, 10000),
             qPrintable(progress->text()));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 60000));
    QVERIFY(waitFor([&] { return progress->text() == "3 of 3 trials ended"; }, 5000));
    QCOMPARE(int(window.data().trials().size()), 3);
}

// Issue 18, a column chooser: a right click on the trial table's header lists the columns; one
// unticked is hidden, also in the next window (the next session), until Show all columns.
void TestAppWindowLifecycle::theHeaderMenuHidesColumnsForTheNextSessionToo() {
    const auto popUpMenu = [](QTableView* table) {
        emit table->horizontalHeader()->customContextMenuRequested(QPoint(5, 5));
        for (QWidget* w : QApplication::topLevelWidgets()) {
            if (w->objectName() == QLatin1String("trialColumns") && w->isVisible()) {
                return qobject_cast<QMenu*>(w);
            }
        }
        return static_cast<QMenu*>(nullptr);
    };
    const auto action = [](QMenu* menu, const QString& text) {
        for (QAction* a : menu->actions()) {
            if (a->text() == text) {
                return a;
            }
        }
        return static_cast<QAction*>(nullptr);
    };
    {
        MainWindow window;
        window.show();
        auto* table = window.findChild<QTableView*>("trials");
        QMenu* menu = popUpMenu(table);
        QVERIFY(menu);
        QVERIFY(action(menu, "Trial") && !action(menu, "Trial")->isEnabled());
        QAction* node = action(menu, "Node");
        QVERIFY(node && node->isChecked());
        node->trigger();
        menu->close();
        QVERIFY(table->isColumnHidden(TrialTableModel::Node));
        QVERIFY(!table->isColumnHidden(TrialTableModel::Status));
    }
    MainWindow next;
    next.show();
    auto* table = next.findChild<QTableView*>("trials");
    QVERIFY(table->isColumnHidden(TrialTableModel::Node));
    QMenu* menu = popUpMenu(table);
    QVERIFY(menu && !action(menu, "Node")->isChecked());
    action(menu, "Show all columns")->trigger();
    menu->close();
    QVERIFY(!table->isColumnHidden(TrialTableModel::Node));
    MainWindow third;
    QVERIFY(!third.findChild<QTableView*>("trials")->isColumnHidden(TrialTableModel::Node));
}

QTEST_MAIN(TestAppWindowLifecycle)
#include "test_app_window_lifecycle.moc"
