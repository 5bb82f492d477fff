// Issue 18.1 from the user's side: one best trial. A real engine runs a trainable whose trials
// rank differently by scope (one peaks at 0.9 and ends at 0.1, one holds 0.5); the window's bold
// row, `tunedeck-engine best` and the file Export best config writes name the same trial, by the
// engine's scope (the last result) out of the box, and all follow the "Best trial by" picker.
// The table shows every cell whole, later rows' values too (issue 18, the asha screenshot).
// Trial > Edit note... keeps a note with the trial: in the table, the Trial tab, `show`, and the
// folder opened again (issue 18, notes on trials).
#include <QComboBox>
#include <QFont>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>
#include <csignal>

#include "analysis/importance_input.h"
#include "analysis/parallel_coordinates_view.h"
#include "app_test_support.h"
#include "engine_harness.h"
#include "local_engine.h"
#include "message_box_answer.h"
#include "models/trial_table_model.h"
#include "table_cells.h"
#include "views/main_window.h"
#include "wait_for.h"

using tunedeck::app::MainWindow;

namespace {

// The trial id of the row the table shows in bold ("" when none is).
QString boldTrial(QTableView* table) {
    QAbstractItemModel* model = table->model();
    for (int r = 0; r < model->rowCount(); ++r) {
        if (model->index(r, 0).data(Qt::FontRole).value<QFont>().bold()) {
            return model->index(r, 0).data().toString();
        }
    }
    return {};
}

// The trial `tunedeck-engine best` names on its summary line.
QString engineBest(const EngineHarness& harness, const QStringList& extra = {}) {
    const EngineResult best =
        harness.run(QStringList{"best", harness.experimentFolder("scopes")} + extra);
    const QRegularExpressionMatch m = QRegularExpression("best trial (t[0-9]+) of").match(best.err);
    return m.hasMatch() ? m.captured(1) : QStringLiteral("(none in: %1)").arg(best.all());
}

QString readFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

}  // namespace

class TestAppBestTrial : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void theWindowTheEngineAndTheExportNameOneBestTrial();
    void everyViewRanksByThePickersScope();
    void laterRowsShowTheirValuesWhole();
    void aNoteOnATrialIsKeptWithIt();
    void theListOfExperimentsCountsTrialsWithTheTable();
};

void TestAppBestTrial::theWindowTheEngineAndTheExportNameOneBestTrial() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    window.runExperimentFile(harness.writeFile(
        "scopes.yaml",
        QStringLiteral("name: scopes\n"
                       "trainable: {command: [python3, \"%1\"]}\n"
                       "search_space:\n"
                       "  shape: {grid: [peak, steady]}\n"
                       "metric: accuracy\n"
                       "mode: max\n")
            .arg(QStringLiteral(TUNEDECK_TEST_DATA_DIR "/trials/peak_or_steady.py"))));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 120000));
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(table);
    QVERIFY(waitFor([&] { return table->model()->rowCount() == 2; }, 5000));
    const auto trialOf = [&](const QString& shape) {
        for (const auto& t : window.data().trials()) {
            if (t.flatConfig.value("shape").toString() == shape) {
                return t.id;
            }
        }
        return QString();
    };
    const QString steady = trialOf("steady");
    const QString peak = trialOf("peak");

    // Out of the box: the engine's scope, the last result, everywhere.
    QVERIFY(waitFor([&] { return !boldTrial(table).isEmpty(); }, 5000));
    QCOMPARE(boldTrial(table), steady);
    QCOMPARE(engineBest(harness), boldTrial(table));
    const QString lastFile = harness.root() + "/best-last.yaml";
    window.exportBestTo(lastFile, "yaml");
    QVERIFY(waitFor([&] { return !readFile(lastFile).isEmpty(); }, 20000));
    QVERIFY2(readFile(lastFile).contains("best trial " + boldTrial(table) + " ") &&
                 readFile(lastFile).contains(QRegularExpression("shape: \"?steady")),
             qPrintable(readFile(lastFile)));

    // The picker names the scope; choosing the best result moves the bold row and the export.
    auto* scope = window.findChild<QComboBox*>("bestScope");
    QVERIFY(scope);
    QVERIFY2(scope->currentText().contains("last result"), qPrintable(scope->currentText()));
    scope->setCurrentIndex(scope->findData("all"));
    QVERIFY(waitFor([&] { return boldTrial(table) == peak; }, 5000));
    QCOMPARE(engineBest(harness, {"--scope", "all"}), boldTrial(table));
    const QString allFile = harness.root() + "/best-all.yaml";
    window.exportBestTo(allFile, "yaml");
    QVERIFY(waitFor([&] { return !readFile(allFile).isEmpty(); }, 20000));
    QVERIFY2(readFile(allFile).contains("best trial " + peak + " ") &&
                 readFile(allFile).contains(QRegularExpression("shape: \"?peak")),
             qPrintable(readFile(allFile)));

    // The folder opened straight from its SQLite file ranks the same way.
    MainWindow reader;
    reader.resize(1280, 800);
    reader.show();
    reader.openFolder(harness.experimentFolder("scopes"));
    auto* readTable = reader.findChild<QTableView*>("trials");
    QVERIFY(waitFor([&] { return readTable->model()->rowCount() == 2; }, 20000));
    QVERIFY(waitFor([&] { return boldTrial(readTable) == steady; }, 5000));
}

// Issue 34.3: parallel coordinates' colour bar and metric axis, Importance and Compare used
// each trial's best-ever value while the bold row and the history used the picker's scope (the
// engine's: the last result), so the window named two bests at once. Every view now scores a
// trial as the bold row is chosen, and follows the picker.
void TestAppBestTrial::everyViewRanksByThePickersScope() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    window.runExperimentFile(harness.writeFile(
        "scopes.yaml",
        QStringLiteral("name: scopes\n"
                       "trainable: {command: [python3, \"%1\"]}\n"
                       "search_space:\n"
                       "  shape: {grid: [peak, steady]}\n"
                       "metric: accuracy\n"
                       "mode: max\n")
            .arg(QStringLiteral(TUNEDECK_TEST_DATA_DIR "/trials/peak_or_steady.py"))));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 120000));
    auto* table = window.findChild<QTableView*>("trials");
    auto* parallel = window.findChild<tunedeck::app::ParallelCoordinatesView*>();
    auto* compare = window.findChild<QTableWidget*>("compareTrials");
    auto* scope = window.findChild<QComboBox*>("bestScope");
    QVERIFY(table && parallel && compare && scope);
    QVERIFY(waitFor([&] { return table->model()->rowCount() == 2; }, 5000));
    QVERIFY(waitFor([&] { return !boldTrial(table).isEmpty(); }, 5000));
    const QString steady = boldTrial(table);  // by the last result: 0.5 against 0.1

    // Parallel coordinates: the metric axis spans the trials' last results, the best on top.
    window.tabs()->setCurrentWidget(parallel);
    const auto metricTop = [&] {
        return parallel->axes().empty() ? -1.0 : parallel->axes().back().max;
    };
    QVERIFY2(waitFor([&] { return metricTop() == 0.5; }, 5000),
             qPrintable(QString::number(metricTop())));
    QVERIFY2(parallel->toolTipFor(steady).contains("last result: 0.5"),
             qPrintable(parallel->toolTipFor(steady)));
    app_test::screenshot(window, "parallel-coordinates-by-last-result");
    // Importance learns the same scores.
    std::vector<double> targets = tunedeck::app::ImportanceInput::of(window.data()).targets;
    std::sort(targets.begin(), targets.end());
    QCOMPARE(targets, (std::vector<double>{0.1, 0.5}));
    // Compare names the scope and shows the scores.
    table->selectAll();
    window.tabs()->setCurrentWidget(compare);
    const auto scoreRow = [&] {
        for (int r = 0; r < compare->rowCount(); ++r) {
            if (compare->verticalHeaderItem(r)->text().startsWith("accuracy")) {
                return r;
            }
        }
        return -1;
    };
    QVERIFY(scoreRow() >= 0);
    QCOMPARE(compare->verticalHeaderItem(scoreRow())->text(),
             QStringLiteral("accuracy, last result"));
    QStringList scores{compare->item(scoreRow(), 0)->text(), compare->item(scoreRow(), 1)->text()};
    scores.sort();
    QCOMPARE(scores, (QStringList{"0.1", "0.5"}));
    app_test::screenshot(window, "compare-by-last-result");

    // The picker moves every view: by the best result, the peak's 0.9 tops the axis.
    scope->setCurrentIndex(scope->findData("all"));
    window.tabs()->setCurrentWidget(parallel);
    QVERIFY2(waitFor([&] { return metricTop() == 0.9; }, 5000),
             qPrintable(QString::number(metricTop())));
    window.tabs()->setCurrentWidget(compare);
    QVERIFY(waitFor(
        [&] {
            return scoreRow() >= 0 &&
                   compare->verticalHeaderItem(scoreRow())->text() == "accuracy, best result";
        },
        5000));
}

void TestAppBestTrial::laterRowsShowTheirValuesWhole() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    window.runExperimentFile(
        harness.writeFile("widths.yaml", QStringLiteral("name: widths\n"
                                                        "trainable: {command: [python3, "
                                                        "\"@TRIAL@\"]}\n"
                                                        "search_space:\n"
                                                        "  x: {grid: [1, 0.000554032]}\n"
                                                        "  iterations: 2\n"
                                                        "metric: score\n"
                                                        "mode: max\n"
                                                        "max_concurrent_trials: 1\n")));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 60000));
    auto* table = window.findChild<QTableView*>("trials");
    QAbstractItemModel* model = table->model();
    QVERIFY(waitFor([&] { return model->rowCount() == 2; }, 5000));
    QTest::qWait(300);  // the table's next frame
    for (int r = 0; r < model->rowCount(); ++r) {
        for (int c = 0; c < model->columnCount(); ++c) {
            const QModelIndex index = model->index(r, c);
            QVERIFY2(app_test::missingPixels(table, index) == 0,
                     qPrintable(QStringLiteral("%1 in column %2 lacks %3 px")
                                    .arg(index.data().toString(),
                                         model->headerData(c, Qt::Horizontal).toString())
                                    .arg(app_test::missingPixels(table, index))));
        }
    }
}

void TestAppBestTrial::aNoteOnATrialIsKeptWithIt() {
    using tunedeck::app::TrialTableModel;
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    window.runExperimentFile(harness.writeFile("notes.yaml",
                                               "name: notes\n"
                                               "trainable: {command: [python3, "
                                               "\"@TRIAL@\"]}\n"
                                               "search_space:\n"
                                               "  x: {grid: [1, 2]}\n"
                                               "  iterations: 2\n"
                                               "metric: score\nmode: max\n"));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 60000));
    auto* table = window.findChild<QTableView*>("trials");
    QAbstractItemModel* model = table->model();
    QVERIFY(waitFor([&] { return model->rowCount() == 2; }, 5000));
    int row = 0;
    while (model->index(row, TrialTableModel::Trial).data().toString() != "t00001") {
        ++row;
    }
    table->selectRow(row);
    QAction* edit = nullptr;
    for (QAction* menu : window.menuBar()->actions()) {
        for (QAction* a : menu->menu() ? menu->menu()->actions() : QList<QAction*>{}) {
            edit = a->text().remove('&') == "Edit note..." ? a : edit;
        }
    }
    QVERIFY(edit);
    // No note, no Note column: it comes with the first note, after Runtime, in view.
    const auto noteColumn = [&] {
        return model->headerData(TrialTableModel::FirstExtra, Qt::Horizontal).toString() == "Note"
                   ? int(TrialTableModel::FirstExtra)
                   : -1;
    };
    QCOMPARE(noteColumn(), -1);
    // The user writes two lines in the dialog and presses OK.
    QString asked;
    QTimer::singleShot(200, [&] {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            if (auto* dialog = qobject_cast<QInputDialog*>(w); dialog && dialog->isVisible()) {
                asked = dialog->windowTitle();
                dialog->setTextValue("diverged at 2\nretry with lr/10");
                dialog->accept();
            }
        }
    });
    edit->trigger();
    QCOMPARE(asked, QStringLiteral("Note on t00001"));
    QVERIFY2(waitFor([&] { return noteColumn() > 0; }, 10000), "no Note column");
    const QModelIndex cell = model->index(row, noteColumn());
    QVERIFY2(
        waitFor([&] { return cell.data().toString() == "diverged at 2 retry with lr/10"; }, 10000),
        qPrintable(cell.data().toString()));
    QCOMPARE(cell.data(Qt::ToolTipRole).toString(),
             QStringLiteral("diverged at 2\nretry with lr/10"));
    // Text, aligned as text is, not as the numbers around it.
    QVERIFY(!(cell.data(Qt::TextAlignmentRole).toInt() & Qt::AlignRight));
    QVERIFY(model->index(row == 0 ? 1 : 0, noteColumn()).data().toString().isEmpty());
    // The other metrics follow it, each over its own values.
    QCOMPARE(model->headerData(noteColumn() + 1, Qt::Horizontal).toString(),
             QStringLiteral("loss"));
    QCOMPARE(model->index(row, noteColumn() + 1).data().toString(), QStringLiteral("0.25"));
    window.findChild<QTabWidget*>()->setCurrentWidget(
        window.findChild<QTextBrowser*>("trialDetail")->parentWidget());
    auto* detail = window.findChild<QTextBrowser*>("trialDetail");
    QVERIFY(waitFor([&] { return detail->toPlainText().contains("Note: diverged at 2"); }, 5000));
    // The search finds trials by their notes.
    window.findChild<QLineEdit*>("trialSearch")->setText("lr/10");
    QVERIFY(waitFor([&] { return model->rowCount() == 1; }, 5000));

    // From outside: the engine's own view of the folder, and the folder opened again.
    const QString folder = harness.experimentFolder("notes");
    const EngineResult shown = harness.run({"show", folder});
    QVERIFY2(shown.out.contains("diverged at 2 retry with lr/10"), qPrintable(shown.all()));
    MainWindow reopened;
    reopened.openFolder(folder);
    QVERIFY(waitFor([&] { return reopened.data().trials().size() == 2; }, 10000));
    QCOMPARE(reopened.data().trials()[1].note, QStringLiteral("diverged at 2\nretry with lr/10"));

    // A note longer than a note may be: the engine's refusal shows in the status bar, whole in
    // the bar's tooltip (a narrow window cuts the bar), and stays in View > Messages... after
    // the bar has moved on to the next message.
    window.resize(640, 600);
    table->selectRow(0);
    QTimer::singleShot(200, [&] {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            if (auto* dialog = qobject_cast<QInputDialog*>(w); dialog && dialog->isVisible()) {
                dialog->setTextValue(QString(4001, QLatin1Char('x')));
                dialog->accept();
            }
        }
    });
    edit->trigger();
    QStatusBar* bar = window.statusBar();
    QVERIFY2(waitFor([&] { return bar->currentMessage().contains("4001 characters"); }, 10000),
             qPrintable(bar->currentMessage()));
    const QString refusal = bar->currentMessage();
    QVERIFY2(refusal.startsWith("Note not kept: "), qPrintable(refusal));
    QCOMPARE(bar->toolTip(), refusal);
    QAction* copy = nullptr;
    QAction* messages = nullptr;
    for (QAction* menu : window.menuBar()->actions()) {
        for (QAction* a : menu->menu() ? menu->menu()->actions() : QList<QAction*>{}) {
            copy = a->text().remove('&') == "Copy best config as YAML" ? a : copy;
            messages = a->text().remove('&') == "Messages..." ? a : messages;
        }
    }
    QVERIFY(copy && messages);
    copy->trigger();
    QVERIFY(waitFor([&] { return bar->currentMessage() != refusal; }, 10000));
    messages->trigger();
    auto* log = window.findChild<QPlainTextEdit*>("messageHistoryText");
    QVERIFY2(log && log->isVisible(), "View > Messages... shows no messages");
    QVERIFY2(log->toPlainText().contains(refusal), qPrintable(log->toPlainText()));
    QVERIFY2(log->toPlainText().contains(bar->currentMessage()), qPrintable(log->toPlainText()));
}

// The list of experiments beside the table said "running, 3 trials" while the table showed 8
// (the tour's screenshot): it waited for its next refresh from the engine, every 5 s. The shown
// experiment's row now counts with the table, in the same tick.
void TestAppBestTrial::theListOfExperimentsCountsTrialsWithTheTable() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    window.runExperimentFile(harness.writeFile(
        "counted.yaml", QStringLiteral("name: counted\n"
                                       "trainable: {command: [python3, \"@TRIAL@\"]}\n"
                                       "search_space:\n"
                                       "  x: {uniform: [1, 4]}\n"
                                       "  iterations: 30\n"
                                       "  sleep: 0.05\n"
                                       "num_samples: 3\n"
                                       "metric: score\n"
                                       "mode: max\n"
                                       "max_concurrent_trials: 1\n")));
    // One trial at a time, the next one suggested as the last ends: the third comes mid-run.
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(waitFor([&] { return table->model()->rowCount() == 3; }, 60000));
    auto* list = window.findChild<QTreeWidget*>("experimentList");
    const auto shownRow = [&] {
        const QTreeWidgetItem* shown = list->currentItem();
        return shown ? shown->text(0) + ": " + shown->text(1) + ", " + shown->text(2)
                     : QStringLiteral("no row");
    };
    QVERIFY2(waitFor([&] { return shownRow() == "counted: running, 3"; }, 1000),
             qPrintable(shownRow()));

    // Stop with no trial selected said nothing and did nothing.
    QVERIFY(!table->selectionModel()->hasSelection());
    window.orderSelectedTrials(MainWindow::TrialOrder::Stop);
    QCOMPARE(window.statusBar()->currentMessage(),
             QStringLiteral("Select the trials in the table first."));
}

QTEST_MAIN(TestAppBestTrial)
#include "test_app_best_trial.moc"
