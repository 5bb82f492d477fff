// Issue 34.1 from the user's side: an experiment of two objectives (`metric: [loss,
// latency_ms]`, `mode: [min, min]`, as Optuna's `directions=` and NNI's multi-objective
// configs ask for a trade-off) run by a real engine. The window marks exactly the trials
// `tunedeck-engine best` prints as the Pareto front: in the table (a sortable column, the
// front's rows bold, their tooltip saying "on the Pareto front" instead of one objective's
// best), in the Study plots' Pareto front plot (the front's points, a click selecting the
// row), in the file Export best config writes, and in the folder opened again from its SQLite
// file.
#include <QChart>
#include <QFont>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLegend>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>
#include <functional>

#include "analysis/importance_view.h"
#include "analysis/parallel_coordinates_view.h"
#include "app_test_support.h"
#include "charts/curve_overlay.h"
#include "charts/scatter_view.h"
#include "engine_harness.h"
#include "local_engine.h"
#include "plots/optimization_history_view.h"
#include "plots/pareto_front_view.h"
#include "plots/study_plots.h"
#include "views/experiments_compare.h"
#include "views/main_window.h"
#include "wait_for.h"

using tunedeck::app::MainWindow;
using tunedeck::app::ParetoFrontView;
using tunedeck::app::StudyPlots;

namespace {

const char* const kExperiment = R"(name: tradeoff
trainable: {command: [python3, "%1"]}
search_space:
  x: {grid: [0.2, 0.4, 0.6, 0.8]}
  penalty: {grid: [0, 0.25]}
metric: [loss, latency_ms]
mode: [min, min]
)";

// The trial ids of `best --format json`'s (or the exported file's) pareto_front, sorted.
QStringList frontIds(const QString& json) {
    QStringList ids;
    const QJsonArray members =
        QJsonDocument::fromJson(json.toUtf8()).object().value("pareto_front").toArray();
    for (const QJsonValue& member : members) {
        ids << member.toObject().value("trial_id").toString();
    }
    ids.sort();
    return ids;
}

// The column headed `header`, or -1.
int columnOf(const QAbstractItemModel* model, const QString& header) {
    for (int c = 0; c < model->columnCount(); ++c) {
        if (model->headerData(c, Qt::Horizontal).toString() == header) {
            return c;
        }
    }
    return -1;
}

// The trials whose cell in `column` is not empty, sorted.
QStringList markedTrials(const QAbstractItemModel* model, int column) {
    QStringList ids;
    for (int r = 0; column >= 0 && r < model->rowCount(); ++r) {
        if (!model->index(r, column).data().toString().isEmpty()) {
            ids << model->index(r, 0).data().toString();
        }
    }
    ids.sort();
    return ids;
}

QStringList boldTrials(const QAbstractItemModel* model) {
    QStringList ids;
    for (int r = 0; r < model->rowCount(); ++r) {
        if (model->index(r, 0).data(Qt::FontRole).value<QFont>().bold()) {
            ids << model->index(r, 0).data().toString();
        }
    }
    ids.sort();
    return ids;
}

// The vertical header's labels of `table`, top to bottom.
QStringList rowLabels(const QTableWidget* table) {
    QStringList labels;
    for (int r = 0; r < table->rowCount(); ++r) {
        const QTableWidgetItem* item = table->verticalHeaderItem(r);
        labels << (item ? item->text() : QString());
    }
    return labels;
}

QString cellText(const QTableWidget* table, const QString& row, int column) {
    const int r = int(rowLabels(table).indexOf(row));
    const QTableWidgetItem* item = r >= 0 ? table->item(r, column) : nullptr;
    return item ? item->text() : QStringLiteral("(no row %1)").arg(row);
}

}  // namespace

class TestAppPareto : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void theWindowMarksTheFrontTheEnginePrints();
    void everyViewTakesTheFrontAsTheBest();
};

void TestAppPareto::theWindowMarksTheFrontTheEnginePrints() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    window.resize(1280, 800);
    window.show();
    window.runExperimentFile(harness.writeFile(
        "tradeoff.yaml",
        QString::fromLatin1(kExperiment)
            .arg(QStringLiteral(TUNEDECK_TEST_DATA_DIR "/trials/two_objectives.py"))));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 120000));
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(table);
    QAbstractItemModel* model = table->model();
    QVERIFY(waitFor([&] { return model->rowCount() == 8; }, 5000));

    // The engine's front, from outside: the four trials without a penalty.
    const QString folder = harness.experimentFolder("tradeoff");
    const EngineResult best = harness.run({"best", folder, "--format", "json"});
    const QStringList front = frontIds(best.out);
    QCOMPARE(front.size(), 4);
    for (const QString& id : front) {
        const int row = window.data().rowOf(id);
        QVERIFY(row >= 0);
        QCOMPARE(window.data().trials()[std::size_t(row)].flatConfig.value("penalty").toDouble(),
                 0.0);
    }

    // The table: a Pareto front column marking exactly those, the same rows bold, and their
    // tooltip naming the front, not one objective's best.
    const int frontColumn = columnOf(model, "Pareto front");
    QVERIFY2(frontColumn >= 0, "the table has no Pareto front column");
    QVERIFY(waitFor([&] { return markedTrials(model, frontColumn) == front; }, 5000));
    QCOMPARE(markedTrials(model, frontColumn), front);
    QCOMPARE(boldTrials(model), front);
    int frontRow = 0;
    while (frontRow < model->rowCount() - 1 &&
           model->index(frontRow, 0).data().toString() != front.front()) {
        ++frontRow;
    }
    const QString tip =
        model->index(frontRow, columnOf(model, "Iteration")).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.startsWith("On the Pareto front of loss (min), latency_ms (min) by last result"),
             qPrintable(tip));
    // Sorted by the column, the front comes first.
    table->sortByColumn(frontColumn, Qt::DescendingOrder);
    QStringList firstRows;
    for (int r = 0; r < int(front.size()); ++r) {
        firstRows << model->index(r, 0).data().toString();
    }
    firstRows.sort();
    QCOMPARE(firstRows, front);

    // The Pareto front plot: the front's points are the engine's front, the other trials
    // dimmed, and a click on a point selects its trial's row.
    auto* plots = window.findChild<StudyPlots*>("studyPlots");
    QVERIFY(plots);
    auto* pareto = plots->findChild<ParetoFrontView*>("paretoFront");
    QVERIFY2(pareto, "the Study plots have no Pareto front plot");
    window.tabs()->setCurrentWidget(plots);
    plots->setCurrentWidget(pareto);
    pareto->recomputeNow();
    QCOMPARE(pareto->frontTrials(), front);
    QCOMPARE(pareto->pointCount(), 8);
    window.resize(1280, 800);
    QTest::qWait(50);  // the pickers' new names laid out
    app_test::screenshot(window, "pareto-front");
    const QString clicked = front.back();
    const QPointF at = pareto->pointOf(clicked);
    QVERIFY(pareto->canvas()->rect().contains(at.toPoint()));
    // Hovering the point names its trial, on the front, with both objectives.
    QCOMPARE(pareto->canvas()->trialAt(at), clicked);
    const QString hover = pareto->canvas()->toolTipOf(clicked);
    QVERIFY2(hover.startsWith(clicked + ", on the Pareto front") && hover.contains("latency_ms"),
             qPrintable(hover));
    QTest::mouseClick(pareto->canvas(), Qt::LeftButton, {}, at.toPoint());
    const QModelIndexList selected = table->selectionModel()->selectedRows();
    QCOMPARE(int(selected.size()), 1);
    QCOMPARE(selected[0].data().toString(), clicked);

    // For people to look at: the history and the scatter of the same run.
    plots->setCurrentWidget(plots->history());
    QTest::qWait(400);
    app_test::screenshot(window, "pareto-history");
    auto* scatter = window.findChild<tunedeck::app::ScatterView*>();
    QVERIFY(scatter);
    window.tabs()->setCurrentWidget(scatter);
    QTest::qWait(400);
    app_test::screenshot(window, "pareto-scatter");
    // Its stars are the front's points, not one best trial's.
    QCOMPARE(int(scatter->bestPoints().size()), int(front.size()));

    // Export best config writes the engine's front, the same trials.
    const QString exported = harness.root() + "/front.json";
    window.exportBestTo(exported, "json");
    QVERIFY(waitFor([&] { return !app_test::readFile(exported).isEmpty(); }, 20000));
    QCOMPARE(frontIds(app_test::readFile(exported)), front);

    // The folder opened from its SQLite file marks the same trials.
    MainWindow reader;
    reader.resize(1280, 800);
    reader.show();
    reader.openFolder(folder);
    QAbstractItemModel* readModel = reader.findChild<QTableView*>("trials")->model();
    QVERIFY(waitFor([&] { return readModel->rowCount() == 8; }, 20000));
    QVERIFY(waitFor(
        [&] { return markedTrials(readModel, columnOf(readModel, "Pareto front")) == front; },
        5000));
    QCOMPARE(boldTrials(readModel), front);
}

// Issue 34: "one best rule for every view". With two objectives the best is the Pareto front
// (ExperimentData::isBest), and so it is in parallel coordinates (an axis per objective, the
// front's lines in one colour), Importance (what puts a trial on the front: here only the
// penalty does), the Compare tab (each objective's score and the front) and Compare two
// experiments (the front, not the first objective's best trial). They used the first objective
// (loss) alone: x = 0.2 bright, x = 0.8 dark, and x explaining most of it.
void TestAppPareto::everyViewTakesTheFrontAsTheBest() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    window.resize(1280, 800);
    window.show();
    window.runExperimentFile(harness.writeFile(
        "tradeoff.yaml",
        QString::fromLatin1(kExperiment)
            .arg(QStringLiteral(TUNEDECK_TEST_DATA_DIR "/trials/two_objectives.py"))));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 120000));
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(table);
    QVERIFY(waitFor([&] { return table->model()->rowCount() == 8; }, 5000));
    const QString folder = harness.experimentFolder("tradeoff");
    const QStringList front = frontIds(harness.run({"best", folder, "--format", "json"}).out);
    QCOMPARE(front.size(), 4);
    QStringList dominated;
    for (const auto& t : window.data().trials()) {
        if (!front.contains(t.id)) {
            dominated << t.id;
        }
    }
    QCOMPARE(dominated.size(), 4);

    // Each view's problems, so that one run names every view that does not follow the rule.
    QStringList problems;
    const auto expect = [&](bool ok, const QString& problem) {
        if (!ok) {
            problems << problem;
        }
    };

    // The optimisation history rings the front's trials, as the scatter stars them.
    auto* studyPlots = window.findChild<StudyPlots*>("studyPlots");
    QVERIFY(studyPlots);
    window.tabs()->setCurrentWidget(studyPlots);
    studyPlots->setCurrentWidget(studyPlots->history());
    auto* history = studyPlots->history();
    QVERIFY(waitFor([&] { return history->points().size() == 8; }, 5000));
    QStringList ringed = history->markedBest();
    ringed.sort();
    QStringList sortedFront = front;
    sortedFront.sort();
    expect(ringed == sortedFront,
           "history rings " + ringed.join(", ") + ", not the front " + sortedFront.join(", "));

    // Parallel coordinates: both objectives as axes, every front line in one colour, no
    // dominated line in it.
    auto* parallel = window.findChild<tunedeck::app::ParallelCoordinatesView*>();
    QVERIFY(parallel);
    window.tabs()->setCurrentWidget(parallel);
    QVERIFY(waitFor([&] { return parallel->axes().size() >= 2 && !parallel->rendering(); }, 5000));
    QStringList axes;
    for (const auto& axis : parallel->axes()) {
        axes << axis.key;
    }
    expect(axes.contains("loss") && axes.contains("latency_ms"),
           "parallel coordinates' axes: " + axes.join(", "));
    const QColor frontColour = parallel->colourOf(front.front());
    for (const QString& id : front) {
        expect(parallel->colourOf(id) == frontColour,
               "parallel coordinates: front trial " + id + " in another colour");
    }
    for (const QString& id : dominated) {
        expect(parallel->colourOf(id) != frontColour,
               "parallel coordinates: dominated " + id + " in the front's colour");
    }
    app_test::screenshot(window, "pareto-parallel-coordinates");

    // Importance: fitted to the front, which the penalty alone decides.
    auto* importance = window.findChild<tunedeck::app::ImportanceView*>();
    QVERIFY(importance);
    window.tabs()->setCurrentWidget(importance);
    QVERIFY2(waitFor([&] { return !importance->importances().empty() && !importance->computing(); },
                     20000),
             qPrintable(importance->message()));
    expect(importance->chartView()->chart()->title().contains("Pareto front"),
           "importance's title: " + importance->chartView()->chart()->title());
    expect(importance->importances().front().parameter == "penalty",
           "importance: the most important is " + importance->importances().front().parameter);
    app_test::screenshot(window, "pareto-importance");

    // The Compare tab: one trial of the front and the dominated one of the same x.
    const auto select = [&](const QStringList& ids) {
        table->clearSelection();
        for (int r = 0; r < table->model()->rowCount(); ++r) {
            const QModelIndex index = table->model()->index(r, 0);
            if (ids.contains(index.data().toString())) {
                table->selectionModel()->select(
                    index, QItemSelectionModel::Select | QItemSelectionModel::Rows);
            }
        }
    };
    const QString onFront = front.front();
    const double x = window.data()
                         .trials()[std::size_t(window.data().rowOf(onFront))]
                         .flatConfig.value("x")
                         .toDouble();
    QString beaten;
    for (const QString& id : dominated) {
        const auto& t = window.data().trials()[std::size_t(window.data().rowOf(id))];
        beaten = t.flatConfig.value("x").toDouble() == x ? id : beaten;
    }
    QVERIFY(!beaten.isEmpty());
    select({onFront, beaten});
    auto* compare = window.findChild<QTableWidget*>("compareTrials");
    QVERIFY(compare);
    window.tabs()->setCurrentWidget(compare);
    QVERIFY(waitFor([&] { return compare->columnCount() == 2; }, 5000));
    const int frontColumn = compare->horizontalHeaderItem(0)->text() == onFront ? 0 : 1;
    expect(rowLabels(compare).contains("latency_ms, last result"),
           "the Compare tab's rows: " + rowLabels(compare).join(" | "));
    expect(cellText(compare, "Pareto front", frontColumn) == "on the front" &&
               cellText(compare, "Pareto front", 1 - frontColumn) == "dominated",
           "the Compare tab's Pareto front row: " + cellText(compare, "Pareto front", 0));
    app_test::screenshot(window, "pareto-compare");

    // Compare two experiments: the run's front, each objective's range over it.
    tunedeck::app::ExperimentsCompare dialog({folder}, folder, folder);
    QSignalSpy compared(&dialog, &tunedeck::app::ExperimentsCompare::compared);
    QVERIFY(compared.wait(20000));
    const QString trialCell = cellText(dialog.table(), "trial", 0);
    expect(trialCell.startsWith("Pareto front of 4 trials: ") &&
               std::all_of(front.begin(), front.end(),
                           [&](const QString& id) { return trialCell.contains(id); }),
           "Compare two experiments' trial: " + trialCell);
    expect(cellText(dialog.table(), "loss, last result", 0) == "0.2 to 0.8",
           "Compare two experiments' loss: " + cellText(dialog.table(), "loss, last result", 0));
    expect(dialog.chartView()->chart()->series().size() == 8,
           QStringLiteral("Compare two experiments' curves: %1")
               .arg(dialog.chartView()->chart()->series().size()));
    dialog.resize(900, 700);
    dialog.show();
    QTest::qWait(200);
    app_test::screenshot(dialog, "pareto-compare-experiments");
    // Each of the 8 curves is named whole in the legend, and shown: a row of them above the plot
    // was cut to "tradeoff: t..." (QtCharts ends what does not fit with "...").
    QStringList legend;
    const QRectF legendArea = dialog.chartView()->chart()->legend()->sceneBoundingRect();
    std::function<void(QGraphicsItem*)> collect = [&](QGraphicsItem* item) {
        QString text;
        if (auto* rich = dynamic_cast<QGraphicsTextItem*>(item)) {
            text = rich->toPlainText();
        } else if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
            text = simple->text();
        }
        if (!text.isEmpty()) {
            // A name outside the legend's area is not drawn (the ninth of a short chart).
            legend << (legendArea.contains(item->sceneBoundingRect()) ? text : "(hidden) " + text);
        }
        for (QGraphicsItem* child : item->childItems()) {
            collect(child);
        }
    };
    collect(dialog.chartView()->chart()->legend());
    expect(legend.size() == 8 && std::none_of(legend.begin(), legend.end(),
                                              [](const QString& text) {
                                                  return text.endsWith(QLatin1String("...")) ||
                                                         text.endsWith(QChar(0x2026)) ||
                                                         text.startsWith("(hidden)");
                                              }),
           "Compare two experiments' legend: " + legend.join(" | "));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
}

QTEST_MAIN(TestAppPareto)
#include "test_app_pareto.moc"
