// Issue 18.9 from the user's side: a trial that ASHA stopped early does not look like one that
// ran to its end. A real engine runs ASHA over two trials one after the other (score = x *
// iteration): x = 4 runs to max_t, x = 1 is cut at the first rung (iteration 2). The trial table,
// live and reopened from the folder, and `tunedeck-engine show` say "stopped by ASHA at 2" for
// the one and TERMINATED for the other. The same run shows that a trial's runtime reads the same
// in the table live, reopened and in `show` (issue 18.6), and that the progress bar counts the
// experiment's budget, not the trials created so far. Its trials take 30 MiB more memory at each
// report, and the curves' system health shows each trial's memory growing, live and reopened
// (issue 22). Each trial saves a checkpoint every 3 iterations, and the Trial tab shows the
// selected trial whole: config, metrics, status history with the scheduler's reason, checkpoints
// and node (issue 18).
#include <QApplication>
#include <QChart>
#include <QClipboard>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTextEdit>
#include <QValueAxis>
#include <QtTest>
#include <cmath>
#include <csignal>

#include "charts/curve_overlay.h"
#include "engine_harness.h"
#include "local_engine.h"
#include "models/trial_table_model.h"
#include "plots/trial_health_view.h"
#include "views/experiments_compare.h"
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

// The cell of `column` in the row of the trial whose config has `x`.
QString cellOf(QTableView* table, int x, int column) {
    QAbstractItemModel* model = table->model();
    int xColumn = -1;
    for (int c = 0; c < model->columnCount(); ++c) {
        xColumn = model->headerData(c, Qt::Horizontal).toString() == "x" ? c : xColumn;
    }
    for (int r = 0; r < model->rowCount() && xColumn >= 0; ++r) {
        if (model->index(r, xColumn).data().toString() == QString::number(x)) {
            return model->index(r, column).data().toString();
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

// Whether `cells` follow one another in `text` as the cells of one table row read (a tab or a
// line break between them).
bool hasRow(const QString& text, const QStringList& cells) {
    QStringList escaped;
    for (const QString& cell : cells) {
        escaped << QRegularExpression::escape(cell);
    }
    return QRegularExpression("(^|\\n)" + escaped.join("[\\t\\n]") + "($|[\\t\\n])")
        .match(text)
        .hasMatch();
}

}  // namespace

class TestAppEarlyStop : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void aTrialStoppedByAshaSaysSoInTheTableAndInShow();
    void aTrialsRuntimeReadsTheSameLiveReopenedAndInShow();
    void twoFoldersOfOneExperimentAreToldApartWhenCompared();
    void aTrialsMemoryIsShownUnderItsCurvesLiveAndReopened();
    void theCodeTheRunUsedIsShownBesideItsFolder();
    void theTrialTabShowsTheSelectedTrialLiveAndReopened();
    void cleanupTestCase() {
        reader_.reset();
        window_.reset();
    }

  private:
    EngineHarness harness_;
    app_test::LocalEngine engine_;
    std::unique_ptr<MainWindow> window_;  // watched the run live
    std::unique_ptr<MainWindow> reader_;  // the folder opened read-only afterwards
    QString progressWhileFirstRan_;
    int trialsWhileFirstRan_ = 0;
};

// One run for every test: two trials one after the other (max_concurrent_trials: 1), so while
// the first runs the engine has created one of the two.
void TestAppEarlyStop::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    window_ = std::make_unique<MainWindow>();
    QVERIFY(engine_.startAttached(harness_, window_.get()));
    MainWindow& window = *window_;
    window.runExperimentFile(harness_.writeFile(
        "halving.yaml", QStringLiteral("name: halving\n"
                                       "trainable: {command: [python3, \"@TRIAL@\"]}\n"
                                       "search_space:\n"
                                       "  x: {grid: [4, 1]}\n"
                                       "  iterations: 6\n"
                                       "  sleep: 0.15\n"
                                       "  grow_mb: 30\n"
                                       "metric: score\n"
                                       "mode: max\n"
                                       "scheduler: {type: asha, max_t: 6, grace_period: 2, "
                                       "reduction_factor: 2}\n"
                                       "max_concurrent_trials: 1\n"
                                       "checkpoint: {frequency: 3}\n"
                                       "gpu_sample_s: 0.1\n")));
    auto* progress = window.findChild<QProgressBar*>();
    QVERIFY(progress);
    QVERIFY(waitFor(
        [&] {
            return !window.data().trials().empty() && !window.data().trials()[0].values.empty();
        },
        60000));
    QTest::qWait(200);  // two ticks of the status bar
    trialsWhileFirstRan_ = int(window.data().trials().size());
    qInfo("%d trial(s) created while the first ran", trialsWhileFirstRan_);
    progressWhileFirstRan_ = progress->text();
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 120000));

    reader_ = std::make_unique<MainWindow>();
    reader_->resize(1280, 800);
    reader_->show();
    reader_->openFolder(harness_.experimentFolder("halving"));
    auto* readTable = reader_->findChild<QTableView*>("trials");
    QVERIFY(waitFor([&] { return readTable->model()->rowCount() == 2; }, 20000));
}

void TestAppEarlyStop::aTrialStoppedByAshaSaysSoInTheTableAndInShow() {
    MainWindow& window = *window_;
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(table);
    QVERIFY(waitFor([&] { return statusCell(table, 1).startsWith("stopped"); }, 5000));
    QCOMPARE(statusCell(table, 1), QStringLiteral("stopped by ASHA at 2"));
    QCOMPARE(statusCell(table, 4), QStringLiteral("TERMINATED"));

    // Reopened from its folder: the same, from the history's events.
    auto* readTable = reader_->findChild<QTableView*>("trials");
    QCOMPARE(statusCell(readTable, 1), QStringLiteral("stopped by ASHA at 2"));
    QCOMPARE(statusCell(readTable, 4), QStringLiteral("TERMINATED"));

    // And on the command line.
    const EngineResult show = harness_.run({"show", harness_.experimentFolder("halving")});
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

// Issue 18.6: one runtime per trial, whoever shows it; and the progress bar's "of" is the
// experiment's two trials while the engine had created only the first.
void TestAppEarlyStop::aTrialsRuntimeReadsTheSameLiveReopenedAndInShow() {
    QVERIFY2(progressWhileFirstRan_ == "0 of 2 trials ended",
             qPrintable(QStringLiteral("%1 with %2 trials created")
                            .arg(progressWhileFirstRan_)
                            .arg(trialsWhileFirstRan_)));
    auto* progress = window_->findChild<QProgressBar*>();
    QTRY_COMPARE_WITH_TIMEOUT(progress->text(), QStringLiteral("2 of 2 trials ended"), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(reader_->findChild<QProgressBar*>()->text(),
                              QStringLiteral("2 of 2 trials ended"), 5000);

    auto* table = window_->findChild<QTableView*>("trials");
    auto* readTable = reader_->findChild<QTableView*>("trials");
    const EngineResult show = harness_.run({"show", harness_.experimentFolder("halving")});
    QVERIFY2(show.exitCode == 0, qPrintable(show.all()));
    for (const auto& t : window_->data().trials()) {
        const int x = t.flatConfig.value("x").toInt();
        const QString live = cellOf(table, x, TrialTableModel::Runtime);
        // Six or two reports 0.15 s apart: a runtime in seconds, not zero.
        QVERIFY2(QRegularExpression("^[0-9]+\\.[0-9] s$").match(live).hasMatch(), qPrintable(live));
        QVERIFY2(live != "0.0 s", qPrintable(live));
        QCOMPARE(cellOf(readTable, x, TrialTableModel::Runtime), live);
        QVERIFY2(showLine(show.out, t.id).contains(" " + live + " "),
                 qPrintable(live + " in\n" + show.out));
    }
}

// Issue 18.7: the run's folder and a copy of it (halving, halving-2: one experiment name) compared:
// the columns name the folders, the chart has room, its ticks are round numbers.
void TestAppEarlyStop::twoFoldersOfOneExperimentAreToldApartWhenCompared() {
    const QString first = harness_.experimentFolder("halving");
    const QString second = harness_.experimentFolder("halving-2");
    QVERIFY(QDir().mkpath(second));
    for (const QString& file : QDir(first).entryList({"experiment.sqlite*"}, QDir::Files)) {
        QVERIFY(QFile::copy(first + '/' + file, second + '/' + file));
    }
    tunedeck::app::ExperimentsCompare dialog({first, second}, first, second,
                                             tunedeck::kDefaultScoreScope);
    QSignalSpy compared(&dialog, &tunedeck::app::ExperimentsCompare::compared);
    dialog.show();
    QVERIFY(compared.wait(20000));
    auto* table = dialog.findChild<QTableWidget*>("comparison");
    QVERIFY(table);
    const QString a = table->horizontalHeaderItem(0)->text();
    const QString b = table->horizontalHeaderItem(1)->text();
    QVERIFY2(a != b && a.contains("halving") && b.contains("halving-2"), qPrintable(a + " | " + b));
    auto* chart = dialog.findChild<tunedeck::app::CurveOverlay*>();
    QVERIFY(chart);
    QTest::qWait(50);
    QVERIFY2(chart->height() >= 200, qPrintable(QString::number(chart->height())));
    for (QAbstractAxis* axis : chart->chart()->axes()) {
        const auto* value = qobject_cast<QValueAxis*>(axis);
        QVERIFY(value && value->tickCount() >= 2);
        const double step = (value->max() - value->min()) / (value->tickCount() - 1);
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        QVERIFY2(std::abs(mantissa - 1) < 1e-6 || std::abs(mantissa - 2) < 1e-6 ||
                     std::abs(mantissa - 5) < 1e-6 || std::abs(mantissa - 2.5) < 1e-6,
                 qPrintable(QStringLiteral("%1..%2 in %3 ticks")
                                .arg(value->min())
                                .arg(value->max())
                                .arg(value->tickCount())));
        QVERIFY(std::abs(std::remainder(value->min(), step)) < step * 1e-9);
        // Labelled as the curves' axes are: "10", not "10.0" (the tour's screenshot 11).
        QCOMPARE(value->labelFormat(), QStringLiteral("%g"));
    }
}

// Issue 22: the trial that ran six reports took 6 x 30 MiB; chosen in the table, its memory is
// drawn under its curve, and the line over the panels gives its peak, in the window that watched
// it and in the one that read its folder.
void TestAppEarlyStop::aTrialsMemoryIsShownUnderItsCurvesLiveAndReopened() {
    QString longest;
    for (const auto& t : window_->data().trials()) {
        if (t.flatConfig.value("x").toInt() == 4) {
            longest = t.id;
        }
    }
    for (MainWindow* window : {window_.get(), reader_.get()}) {
        auto* table = window->findChild<QTableView*>("trials");
        for (int r = 0; r < table->model()->rowCount(); ++r) {
            if (table->model()->index(r, TrialTableModel::Trial).data().toString() == longest) {
                table->selectRow(r);  // as a click on its row does
            }
        }
        auto* health = window->findChild<tunedeck::app::TrialHealthView*>("trialHealth");
        QVERIFY(health);
        QVERIFY(health->isVisible());
        QCOMPARE(health->shownTrials(), QStringList{longest});
        auto* legend = window->findChild<QLabel*>("trialHealthLegend");
        QVERIFY(legend && legend->isVisible());
        const QRegularExpression peak(longest +
                                      ": CPU up to [0-9]+% of a core, memory up to "
                                      "([0-9]+) MiB \\(node local, samples: ([0-9]+)\\)");
        const QRegularExpressionMatch match = peak.match(legend->text());
        QVERIFY2(match.hasMatch(), qPrintable(legend->text()));
        QVERIFY2(match.captured(1).toInt() >= 150, qPrintable(legend->text()));
        QVERIFY2(match.captured(2).toInt() >= 3, qPrintable(legend->text()));
    }
}

// Issue 22: the window says which code the run used, in the words of `show`'s "Code:" line, in
// the window that watched the run and in the one that read its folder.
void TestAppEarlyStop::theCodeTheRunUsedIsShownBesideItsFolder() {
    const EngineResult show = harness_.run({"show", harness_.experimentFolder("halving")});
    QString code;
    for (const QString& line : show.out.split('\n')) {
        code = line.startsWith("Code: ") ? line : code;
    }
    QVERIFY2(!code.isEmpty(), qPrintable(show.out));
    // The files' hash in 12 digits (its 64 ran past the window's edge at 1280x800), whole in
    // the tooltip.
    QString brief = code;
    brief.replace(QRegularExpression("\\b([0-9a-f]{12})[0-9a-f]{52}\\b"), "\\1");
    for (MainWindow* window : {window_.get(), reader_.get()}) {
        auto* label = window->findChild<QLabel*>("codeVersion");
        QVERIFY(label);
        QVERIFY(label->isVisible());
        QCOMPARE(label->text(), brief);
        QVERIFY2(label->toolTip().contains(code), qPrintable(label->toolTip()));
        window->resize(1280, 800);
        QTest::qWait(50);
        QVERIFY2(
            label->fontMetrics().horizontalAdvance(label->text()) <= label->width(),
            qPrintable(QStringLiteral("'%1' in %2 px").arg(label->text()).arg(label->width())));
    }
}

// Issue 18, a trial detail pane: chosen in the table like a user does, the Trial tab shows the
// trial's config, its metrics, its status history with the scheduler's reason, its checkpoints
// and its node, in the window that watched the run and in the one that read its folder; it says
// when no trial or several are selected, and copies the config.
void TestAppEarlyStop::theTrialTabShowsTheSelectedTrialLiveAndReopened() {
    for (MainWindow* window : {window_.get(), reader_.get()}) {
        auto* table = window->findChild<QTableView*>("trials");
        auto* pane = window->findChild<QTextEdit*>("trialDetail");
        QVERIFY(pane);
        window->tabs()->setCurrentIndex(window->tabs()->indexOf(pane->parentWidget()));
        QVERIFY(pane->isVisible());
        table->clearSelection();
        QVERIFY2(pane->toPlainText().contains("No trial selected"),
                 qPrintable(pane->toPlainText()));
        table->selectAll();
        QVERIFY2(pane->toPlainText().contains("2 trials selected"),
                 qPrintable(pane->toPlainText()));
        for (const auto& t : window->data().trials()) {
            const int x = t.flatConfig.value("x").toInt();
            for (int r = 0; r < table->model()->rowCount(); ++r) {
                if (table->model()->index(r, TrialTableModel::Trial).data().toString() == t.id) {
                    table->selectRow(r);  // as a click on its row does
                }
            }
            const QString text = pane->toPlainText();
            QVERIFY2(text.contains(t.id), qPrintable(text));
            QVERIFY2(hasRow(text, {"x", QString::number(x)}), qPrintable(text));
            QVERIFY2(hasRow(text, {"sleep", "0.15"}), qPrintable(text));
            // score = x * iteration: its last (and best) value, 2 or 24.
            const QString score = QString::number(x == 1 ? 2 : 24);
            QVERIFY2(hasRow(text, {"score", score, score}), qPrintable(text));
            QVERIFY2(hasRow(text, {"Node", "local"}), qPrintable(text));
            QVERIFY2(text.contains("RUNNING"), qPrintable(text));
            if (x == 1) {
                QVERIFY2(text.contains("stopped by ASHA at 2"), qPrintable(text));
                QVERIFY2(text.contains("No checkpoints"), qPrintable(text));
            } else {
                // Saved at 3; at 6 it reached max_t and ended, with no save asked.
                QVERIFY2(!text.contains("stopped by"), qPrintable(text));
                QVERIFY2(
                    QRegularExpression("\\n3[\\t\\n][^\\t\\n]*checkpoint").match(text).hasMatch(),
                    qPrintable(text));
                QApplication::clipboard()->clear();
                auto* copy = window->findChild<QPushButton*>("copyTrialConfigJson");
                QVERIFY(copy && copy->isEnabled());
                copy->click();
                QVERIFY2(QApplication::clipboard()->text().contains("\"x\": 4"),
                         qPrintable(QApplication::clipboard()->text()));
            }
        }
    }
}

QTEST_MAIN(TestAppEarlyStop)
#include "test_app_early_stop.moc"
