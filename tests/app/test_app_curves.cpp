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

QTEST_MAIN(TestAppCurves)
#include "test_app_curves.moc"
