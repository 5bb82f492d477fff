// The Curves tab from the researcher's side (issue 34): trials that report once are points,
// and a curve can be told apart and named: a legend, a readout under the pointer, a click that
// selects the trial's row, a colour of its own for each of a dozen selected trials, and the
// legend in the exported chart. The real window (offscreen) over folders a real
// `tunedeck-engine run` wrote.
#include <QChart>
#include <QCheckBox>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QStandardPaths>
#include <QTableView>
#include <QValueAxis>
#include <QtTest>
#include <cmath>

#include "app_test_support.h"
#include "charts/metric_chart.h"
#include "engine_harness.h"
#include "views/main_window.h"
#include "wait_for.h"

using tunedeck::app::MainWindow;
using tunedeck::app::MetricChart;

namespace {

// `trials` trials (x = 1, 2, ...), each reporting `iterations` times score = x * iteration.
QString fanFile(const EngineHarness& harness, int trials, int iterations) {
    QStringList xs;
    for (int x = 1; x <= trials; ++x) {
        xs << QString::number(x);
    }
    return harness.writeFile("fan.yaml", QStringLiteral("name: fan\n"
                                                        "trainable: {command: [python3, "
                                                        "\"@TRIAL@\"]}\n"
                                                        "search_space:\n"
                                                        "  x: {grid: [%1]}\n"
                                                        "  iterations: %2\n"
                                                        "metric: score\n"
                                                        "mode: max\n"
                                                        "max_concurrent_trials: 4\n")
                                             .arg(xs.join(", "))
                                             .arg(iterations));
}

// Where the point (x, y) of the data lies on the chart's viewport, by its axes' ranges.
QPoint pixelOf(MetricChart* chart, double x, double y) {
    auto* xAxis = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Horizontal).value(0));
    auto* yAxis = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Vertical).value(0));
    if (!xAxis || !yAxis) {
        qFatal("the chart has no linear axes");
    }
    const QRectF area = chart->chart()->plotArea();
    const QPointF scene(
        area.left() + (x - xAxis->min()) / (xAxis->max() - xAxis->min()) * area.width(),
        area.bottom() - (y - yAxis->min()) / (yAxis->max() - yAxis->min()) * area.height());
    return chart->mapFromScene(scene);
}

// The texts the chart's scene shows: axis labels are not simple text items, the chart's own
// words (legend, readout, notes) are.
QStringList sceneTexts(MetricChart* chart) {
    QStringList texts;
    for (QGraphicsItem* item : chart->chart()->scene()->items()) {
        if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
            if (text->isVisible() && !text->text().isEmpty()) {
                texts << text->text();
            }
        }
    }
    return texts;
}

bool anyTextHas(const QStringList& texts, const QStringList& parts) {
    return std::any_of(texts.begin(), texts.end(), [&](const QString& text) {
        return std::all_of(parts.begin(), parts.end(),
                           [&](const QString& part) { return text.contains(part); });
    });
}

// The most colourful pixel within two of `at`: a curve's colour where it passes there.
QColor inkAround(const QImage& image, QPoint at) {
    QColor ink = Qt::white;
    int most = -1;
    for (int dy = -2; dy <= 2; ++dy) {
        for (int dx = -2; dx <= 2; ++dx) {
            const QColor c = image.pixelColor(at + QPoint(dx, dy));
            const int chroma =
                std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()});
            const int darkness = 255 - c.lightness();
            if (chroma + darkness > most) {
                most = chroma + darkness;
                ink = c;
            }
        }
    }
    return ink;
}

double distance(const QColor& a, const QColor& b) {
    return std::hypot(a.red() - b.red(), a.green() - b.green(), a.blue() - b.blue());
}

// Waits until the chart shows every one of the data's `results` in its current view and choice
// of trials (the image drawn for them, with nothing still to come).
bool drawn(MetricChart* chart, std::size_t results) {
    if (!waitFor([&] { return chart->shownResults() == results; }, 10000)) {
        return false;
    }
    QTest::qWait(200);  // QtCharts lays its axes out in a posted event: seen in a picture after it
    return chart->shownResults() == results;
}

}  // namespace

class TestAppCurves : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }  // not the user's settings
    void singleReportTrialsShowAsPoints();
    void curvesAreNamedPointedAtAndClicked();
    void pastTwentyCurvesTheLegendNamesTheBestAndCountsTheRest();
};

// Issue 34.6: Optuna-style objectives (Branin) report once per trial; each trial was one pixel
// on the Curves tab, and the best trial, drawn over the image, nothing at all.
void TestAppCurves::singleReportTrialsShowAsPoints() {
    EngineHarness harness;
    QVERIFY(harness.run({"run", fanFile(harness, 4, 1)}).exitCode == 0);
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    window.openFolder(harness.experimentFolder("fan"));
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(waitFor([&] { return table->model()->rowCount() == 4; }, 20000));
    MetricChart* chart = window.chart();
    QVERIFY(drawn(chart, 4));
    const QImage image = chart->grab().toImage();
    app_test::screenshot(window, "curves-single-report");
    for (int x = 1; x <= 4; ++x) {
        const QPoint at = pixelOf(chart, 1, x);
        // A mark a user sees: most of the pixels around its place are inked.
        int inked = 0;
        for (int dy = -2; dy <= 2; ++dy) {
            for (int dx = -2; dx <= 2; ++dx) {
                inked += image.pixelColor(at + QPoint(dx, dy)).lightness() < 200 ? 1 : 0;
            }
        }
        QVERIFY2(inked >= 9, qPrintable(QStringLiteral("x = %1: %2 of 25 pixels inked at %3,%4")
                                            .arg(x)
                                            .arg(inked)
                                            .arg(at.x())
                                            .arg(at.y())));
    }
    // Not squeezed against the left axis: a single iteration sits inside the plot.
    const QRectF area = chart->chart()->plotArea();
    QVERIFY(chart->mapToScene(pixelOf(chart, 1, 1)).x() > area.left() + 20);
}

// Issue 34.7: a dozen selected curves each get a colour of their own and are named in a legend
// (which can be hidden, and is in the exported chart); the pointer over a curve reads its trial,
// step and value; a click on it selects the trial's row.
void TestAppCurves::curvesAreNamedPointedAtAndClicked() {
    EngineHarness harness;
    constexpr int kTrials = 12;
    QVERIFY(harness.run({"run", fanFile(harness, kTrials, 5)}).exitCode == 0);
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    window.openFolder(harness.experimentFolder("fan"));
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(waitFor([&] { return table->model()->rowCount() == kTrials; }, 20000));
    MetricChart* chart = window.chart();

    table->selectAll();
    QVERIFY(drawn(chart, kTrials * 5));
    // Each selected trial's own colour, where the curves are apart (score = 4x at iteration 4).
    const QImage image = chart->grab().toImage();
    app_test::screenshot(window, "curves-twelve-selected");
    std::vector<QColor> inks;
    for (int x = 1; x <= kTrials; ++x) {
        inks.push_back(inkAround(image, pixelOf(chart, 4, 4 * x)));
    }
    for (int a = 0; a < kTrials; ++a) {
        for (int b = a + 1; b < kTrials; ++b) {
            QVERIFY2(distance(inks[std::size_t(a)], inks[std::size_t(b)]) > 40,
                     qPrintable(QStringLiteral("t%1 %2 and t%3 %4 look alike")
                                    .arg(a, 5, 10, QChar('0'))
                                    .arg(inks[std::size_t(a)].name())
                                    .arg(b, 5, 10, QChar('0'))
                                    .arg(inks[std::size_t(b)].name())));
        }
    }

    const QStringList texts = sceneTexts(chart);
    for (const QString& id : {QStringLiteral("t00000"), QStringLiteral("t00005")}) {
        QVERIFY2(anyTextHas(texts, {id}), qPrintable(texts.join(" | ")));
    }
    QVERIFY2(anyTextHas(texts, {"t00011", "best"}), qPrintable(texts.join(" | ")));

    // The legend is a toggle.
    auto* legend = window.findChild<QCheckBox*>("curveLegend");
    QVERIFY(legend);
    legend->setChecked(false);
    QVERIFY(waitFor([&] { return !anyTextHas(sceneTexts(chart), {"t00000"}); }, 2000));
    legend->setChecked(true);
    QVERIFY(waitFor([&] { return anyTextHas(sceneTexts(chart), {"t00000"}); }, 2000));

    // The readout under the pointer: t00005 (x = 6) at iteration 3 scored 18.
    table->clearSelection();
    QVERIFY(drawn(chart, kTrials * 5));
    const QPoint onCurve = pixelOf(chart, 3, 18);
    QTest::mouseMove(chart->viewport(), onCurve);
    QVERIFY2(waitFor(
                 [&] {
                     return anyTextHas(sceneTexts(chart), {"t00005", "3", "18"});
                 },
                 2000),
             qPrintable(sceneTexts(chart).join(" | ")));
    app_test::screenshot(window, "curves-hover-readout");

    // A click on the curve selects its row.
    QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, onCurve);
    QVERIFY(waitFor([&] { return table->selectionModel()->selectedRows().size() == 1; }, 2000));
    QCOMPARE(table->selectionModel()->selectedRows().first().data().toString(),
             QStringLiteral("t00005"));

    // The exported chart carries the legend, as text in the SVG (the readout gone with the
    // pointer, so the name is the legend's).
    QTest::mouseMove(chart->viewport(), QPoint(2, 2));
    QVERIFY(waitFor([&] { return !anyTextHas(sceneTexts(chart), {"18"}); }, 2000));
    QVERIFY(drawn(chart, kTrials * 5));
    app_test::screenshot(window, "curves-clicked-t00005");
    QString error;
    const QString svgPath = harness.root() + "/curves.svg";
    QVERIFY2(window.saveChart(svgPath, &error), qPrintable(error));
    QFile svg(svgPath);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(svg.readAll());
    QVERIFY2(text.contains("t00005"), "the exported chart does not name its curve");
}

// More curves than colours to tell them apart: the legend names the thick best trial and counts
// the others, rather than listing two dozen lookalike hues.
void TestAppCurves::pastTwentyCurvesTheLegendNamesTheBestAndCountsTheRest() {
    EngineHarness harness;
    constexpr int kTrials = 24;
    QVERIFY(harness.run({"run", fanFile(harness, kTrials, 2)}).exitCode == 0);
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    window.openFolder(harness.experimentFolder("fan"));
    auto* table = window.findChild<QTableView*>("trials");
    QVERIFY(waitFor([&] { return table->model()->rowCount() == kTrials; }, 20000));
    MetricChart* chart = window.chart();
    QVERIFY(drawn(chart, kTrials * 2));
    const QStringList texts = sceneTexts(chart);
    QVERIFY2(texts.contains("t00023 (best)"), qPrintable(texts.join(" | ")));
    QVERIFY2(anyTextHas(texts, {"23 other trial"}), qPrintable(texts.join(" | ")));
    QVERIFY2(!anyTextHas(texts, {"t00000"}), qPrintable(texts.join(" | ")));
    app_test::screenshot(window, "curves-24-trials-legend");
}

QTEST_MAIN(TestAppCurves)
#include "test_app_curves.moc"
