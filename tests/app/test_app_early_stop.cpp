// Issue 18.9 from the user's side: a trial that ASHA stopped early does not look like one that
// ran to its end. A real engine runs ASHA over two trials one after the other (score = x *
// iteration): x = 4 runs to max_t, x = 1 is cut at the first rung (iteration 2). The trial table,
// live and reopened from the folder, and `tunedeck-engine show` say "stopped by ASHA at 2" for
// the one and TERMINATED for the other.
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>
#include <csignal>

#include "engine_harness.h"
#include "local_engine.h"
#include "models/trial_table_model.h"
#include "views/main_window.h"
#include "wait_for.h"

using tunedeck::app::MainWindow;
using tunedeck::app::TrialTableModel;

namespace {

// The Status cell of the trial whose config has `x`, as the table shows it.
QString statusCell(QTableView* table, int x) {
    QAbstractItemModel* model = table->model();
    int xColumn = -1;
    for (int c = 0; c < model->columnCount(); ++c) {
        xColumn = model->headerData(c, Qt::Horizontal).toString() == "x" ? c : xColumn;
    }
    for (int r = 0; r < model->rowCount() && xColumn >= 0; ++r) {
        if (model->index(r, xColumn).data().toString() == QString::number(x)) {
            return model->index(r, TrialTableModel::Status).data().toString();
        }
    }
    return QStringLiteral("(no trial with x = %1)").arg(x);
}

// The line of `show` for the trial whose id is `id`.
QString showLine(const QString& show, const QString& id) {
    for (const QString& line : show.split('\n')) {
        if (line.startsWith(id + ' ')) {
            return line;
        }
    }
    return QStringLiteral("(no line for %1 in:\n%2)").arg(id, show);
}

}  // namespace

class TestAppEarlyStop : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void aTrialStoppedByAshaSaysSoInTheTableAndInShow();
};

void TestAppEarlyStop::aTrialStoppedByAshaSaysSoInTheTableAndInShow() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    window.runExperimentFile(harness.writeFile(
        "halving.yaml", QStringLiteral("name: halving\n"
                                       "trainable: {command: [python3, \"@TRIAL@\"]}\n"
                                       "search_space:\n"
                                       "  x: {grid: [4, 1]}\n"
                                       "  iterations: 6\n"
                                       "metric: score\n"
                                       "mode: max\n"
                                       "scheduler: {type: asha, max_t: 6, grace_period: 2, "
                                       "reduction_factor: 2}\n"
                                       "max_concurrent_trials: 1\n")));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 120000));
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(table);
    QVERIFY(waitFor([&] { return statusCell(table, 1).startsWith("stopped"); }, 5000));
    QCOMPARE(statusCell(table, 1), QStringLiteral("stopped by ASHA at 2"));
    QCOMPARE(statusCell(table, 4), QStringLiteral("TERMINATED"));

    // Reopened from its folder: the same, from the history's events.
    MainWindow reader;
    reader.resize(1280, 800);
    reader.show();
    reader.openFolder(harness.experimentFolder("halving"));
    auto* readTable = reader.findChild<QTableView*>("trials");
    QVERIFY(waitFor([&] { return readTable->model()->rowCount() == 2; }, 20000));
    QCOMPARE(statusCell(readTable, 1), QStringLiteral("stopped by ASHA at 2"));
    QCOMPARE(statusCell(readTable, 4), QStringLiteral("TERMINATED"));

    // And on the command line.
    const EngineResult show = harness.run({"show", harness.experimentFolder("halving")});
    QVERIFY2(show.exitCode == 0, qPrintable(show.all()));
    QString stopped, ranToEnd;
    for (const auto& t : window.data().trials()) {
        (t.flatConfig.value("x").toInt() == 1 ? stopped : ranToEnd) = t.id;
    }
    QVERIFY2(showLine(show.out, stopped).contains("stopped by ASHA at 2"), qPrintable(show.out));
    QVERIFY2(showLine(show.out, ranToEnd).contains("TERMINATED") &&
                 !showLine(show.out, ranToEnd).contains("stopped"),
             qPrintable(show.out));
}

QTEST_MAIN(TestAppEarlyStop)
#include "test_app_early_stop.moc"
