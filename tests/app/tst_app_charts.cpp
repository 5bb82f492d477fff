// The metric chart against the models it draws (tst_app_models): the decimation that keeps
// every spike, smoothing, the curves drawn on a worker thread (only the newest image shown, a
// restored trial's curve drawn anew), the chart as SVG, and the health line under the curves.
#include <QLabel>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>
#include <cmath>

#include "charts/curve_renderer.h"
#include "charts/decimate.h"
#include "charts/metric_chart.h"
#include "models/experiment_data.h"
#include "plots/plot_axis.h"
#include "plots/trial_health_view.h"
#include "scripted_events.h"
#include "views/appearance.h"

using namespace tunedeck::app;

namespace {

using scripted::added;
using scripted::result;
// A finished experiment's trials as the history reader hands them over: `points` results each,
// the metric `value(trial, iteration)`.
template <typename Value>
std::vector<TrialRow> trialsOf(int trials, int points, Value value) {
    std::vector<TrialRow> rows;
    for (int t = 0; t < trials; ++t) {
        TrialRow row;
        row.id = QStringLiteral("t%1").arg(t, 5, 10, QLatin1Char('0'));
        for (int i = 1; i <= points; ++i) {
            row.iterations.push_back(i);
            row.times.push_back(i);
            row.values.push_back(value(t, i));
            row.best =
                std::isnan(row.best) ? row.values.back() : std::min(row.best, row.values.back());
        }
        row.latest = row.values.back();
        rows.push_back(std::move(row));
    }
    return rows;
}

// A polyline of an SVG file and the stroke it was drawn with.
struct SvgLine {
    QString stroke;
    double width = 0;
    std::vector<QPointF> points;
};

// The polylines of at least three points: the curves (QtCharts draws its grid, ticks and axes
// as single segments).
std::vector<SvgLine> curvesIn(const QString& svg) {
    std::vector<SvgLine> lines;
    static const QRegularExpression element(
        QString::fromLatin1("<g ([^>]*)>|<polyline [^>]*points=\"([^\"]*)\""));
    static const QRegularExpression strokeOf(QString::fromLatin1(" stroke=\"([^\"]*)\""));
    static const QRegularExpression widthOf(QString::fromLatin1("stroke-width=\"([^\"]*)\""));
    QString stroke;
    double width = 0;
    for (auto it = element.globalMatch(svg); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        if (!m.captured(1).isEmpty()) {
            stroke = strokeOf.match(m.captured(1)).captured(1);
            width = widthOf.match(m.captured(1)).captured(1).toDouble();
            continue;
        }
        SvgLine line{stroke, width, {}};
        for (const QString& pair : m.captured(2).split(' ', Qt::SkipEmptyParts)) {
            const QStringList xy = pair.split(',');
            line.points.emplace_back(xy.value(0).toDouble(), xy.value(1).toDouble());
        }
        if (line.points.size() >= 3) {
            lines.push_back(std::move(line));
        }
    }
    return lines;
}

double topOf(const SvgLine& line) {
    double top = line.points.front().y();
    for (const QPointF& p : line.points) {
        top = std::min(top, p.y());
    }
    return top;
}

QString saveSvg(MetricChart& chart, const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("curves.svg"));
    QString error;
    if (!chart.saveSvg(path, &error)) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    QFile file(path);
    file.open(QIODevice::ReadOnly);
    return QString::fromUtf8(file.readAll());
}

// A node's `node_usage` event as the agent's sampler sends it (4 of 16 GiB used, no GPUs), with
// each trial's figures in `trials`.
tunedeck::events::Event nodeUsage(qint64 seq, double time, const QString& node,
                                  const QJsonArray& trials) {
    return scripted::decoded(QJsonObject{{"v", 1},
                                         {"seq", seq},
                                         {"time", time},
                                         {"type", "node_usage"},
                                         {"node", node},
                                         {"memory_used_mb", 4096},
                                         {"memory_total_mb", 16384},
                                         {"gpus", QJsonArray()},
                                         {"trials", trials}});
}

// Whether the chart's window shows a pixel of trial row 0's colour within 3 pixels of the data
// point (x, y).
bool rowZeroNear(MetricChart& chart, double x, double y) {
    const auto* xAxis = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
    const auto* yAxis = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
    const QRectF area = chart.chart()->plotArea();
    const QPointF at(
        area.left() + (x - xAxis->min()) / (xAxis->max() - xAxis->min()) * area.width(),
        area.bottom() - (y - yAxis->min()) / (yAxis->max() - yAxis->min()) * area.height());
    const QImage image = chart.grab().toImage();
    const QColor ink = chart.colorOf(0);
    for (int dx = -3; dx <= 3; ++dx) {
        for (int dy = -3; dy <= 3; ++dy) {
            const QColor c = image.pixelColor(int(at.x()) + dx, int(at.y()) + dy);
            if (std::hypot(c.red() - ink.red(), c.green() - ink.green(), c.blue() - ink.blue()) <
                40) {
                return true;
            }
        }
    }
    return false;
}

}  // namespace

class TestAppCharts : public QObject {
    Q_OBJECT
  private slots:
    void decimationKeepsEverySpikeAndBoundsThePoints();
    void smoothingIsAnExponentialAverage();
    void smoothedDecimationIsTheDecimatedSmoothCurve();
    void onlyTheNewestImageFromTheWorkerArrives();
    void theChartShowsEveryResultAfterAWorkerDrawsIt();
    void aRestoredTrialsCurveIsDrawnAnew();
    void aRestoredTrialIsDrawnAnewByTheWorker();
    void anotherRunsFirstResultsSetTheAxesAgain();
    void svgHoldsOnePolylinePerTrialTheBestThickAndTheLabels();
    void svgShowsOnlyTheSelectedTrialsAndALogAxis();
    void svgOfAZoomedChartKeepsItsLinesInsideThePlot();
    void anEndedRunLeavesNoRoomToGrowAndAWaitingOneSaysSo();
    void theHealthLineIsOneLineInGermanAndNoBandWithoutSamples();
    void aSmallPlotsAxisHasAtLeastTwoLabels();
    void englishCountsInTheSingularAndThePlural();
    void aSingleHealthSampleIsDrawnAsADot();
    void oneSampleMeasuresNoCpu();
    void theHealthLineShowsWholeTrialsAndHowManyMore();
};

void TestAppCharts::decimationKeepsEverySpikeAndBoundsThePoints() {
    std::vector<double> xs;
    std::vector<double> ys;
    for (int i = 0; i < 1000000; ++i) {
        xs.push_back(i);
        ys.push_back(std::sin(i / 1000.0));
    }
    ys[123456] = 50;   // a spike
    ys[654321] = -50;  // and a dip
    const QList<QPointF> drawn = decimate(xs, ys, 0, 999999, 800);
    QVERIFY2(drawn.size() <= 4 * 800 + 2, qPrintable(QString::number(drawn.size())));
    bool spike = false;
    bool dip = false;
    for (const QPointF& p : drawn) {
        spike = spike || p.y() == 50;
        dip = dip || p.y() == -50;
    }
    QVERIFY(spike);
    QVERIFY(dip);
    for (qsizetype i = 1; i < drawn.size(); ++i) {
        QVERIFY(drawn[i].x() >= drawn[i - 1].x());  // still a curve, in order
    }
    // A zoomed view keeps the points just outside it, so the line enters and leaves the view.
    const QList<QPointF> zoomed = decimate(xs, ys, 1000.5, 1010.5, 800);
    QCOMPARE(zoomed.first().x(), 1000.0);
    QCOMPARE(zoomed.last().x(), 1011.0);
    // Few points: all of them.
    QCOMPARE(decimate({1, 2, 3}, {3, 1, 2}, 0, 10, 800).size(), 3);
}

void TestAppCharts::smoothingIsAnExponentialAverage() {
    const std::vector<double> raw{0, 10, 0, 10};
    QCOMPARE(smooth(raw, 1.0), raw);
    const std::vector<double> half = smooth(raw, 0.5);
    QCOMPARE(half[1], 5.0);
    QCOMPARE(half[2], 2.5);
    QCOMPARE(half[3], 6.25);
}

void TestAppCharts::smoothedDecimationIsTheDecimatedSmoothCurve() {
    std::vector<double> xs;
    std::vector<double> ys;
    for (int i = 0; i < 100000; ++i) {
        xs.push_back(i);
        ys.push_back(std::sin(i / 700.0) + (i % 9973 == 0 ? 20 : 0));
    }
    for (const auto& [from, to] : {std::pair{0.0, 99999.0}, std::pair{40000.5, 41000.5}}) {
        std::vector<QPointF> inPlace;
        double last = 0;
        decimateInto(xs, ys, from, to, 500, 0.3, &inPlace, &last);
        const QList<QPointF> copied = decimate(xs, smooth(ys, 0.3), from, to, 500);
        QCOMPARE(qsizetype(inPlace.size()), copied.size());
        for (qsizetype i = 0; i < copied.size(); ++i) {
            QCOMPARE(inPlace[std::size_t(i)].x(), copied[i].x());
            QVERIFY(std::abs(inPlace[std::size_t(i)].y() - copied[i].y()) < 1e-9);
        }
        QVERIFY(std::abs(last - smooth(ys, 0.3).back()) < 1e-9);
    }
}

void TestAppCharts::onlyTheNewestImageFromTheWorkerArrives() {
    auto snapshot = [](QColor colour, int curves, int points) {
        auto s = std::make_shared<CurveSnapshot>();
        s->view.area = QRectF(0, 0, 200, 100);
        s->view.xMin = 0;
        s->view.xMax = 10;
        s->view.yMin = 0;
        s->view.yMax = 10;
        for (int c = 0; c < curves; ++c) {
            CurveData curve;
            curve.pen = QPen(colour, 3);
            for (int i = 0; i <= points; ++i) {
                curve.points.emplace_back(10.0 * i / points, 5);
            }
            s->curves.push_back(std::move(curve));
        }
        return s;
    };
    CurveRenderer renderer;
    QSignalSpy rendered(&renderer, &CurveRenderer::rendered);
    // A long render, then two more before it is done: only the last one's image comes back.
    renderer.render(snapshot(Qt::red, 2000, 1000));
    renderer.render(snapshot(Qt::blue, 1, 10));
    const quint64 last = renderer.render(snapshot(Qt::green, 1, 10));
    QVERIFY(renderer.busy());
    QTRY_COMPARE(rendered.count(), 1);
    QTest::qWait(100);
    QCOMPARE(rendered.count(), 1);
    QCOMPARE(rendered.first().at(0).value<quint64>(), last);
    const QImage image = rendered.first().at(1).value<QImage>();
    QCOMPARE(image.size(), QSize(200, 100));
    QCOMPARE(image.pixelColor(100, 50), QColor(Qt::green));
    QCOMPARE(image.pixelColor(100, 10).alpha(), 0);  // transparent where no curve is
    QVERIFY(!renderer.busy());
}

void TestAppCharts::theChartShowsEveryResultAfterAWorkerDrawsIt() {
    ExperimentData data;
    data.setObjective("loss", true);
    // 40,000 points: more than the chart draws on the GUI thread.
    data.load(trialsOf(40, 1000, [](int t, int i) { return t + std::sin(i / 50.0); }), {},
              QStringLiteral("running"), 0);
    MetricChart chart(&data);
    chart.resize(800, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.markDirty();
    QTRY_COMPARE(chart.shownResults(), std::size_t(40000));
    // A trial's new results are added to the image.
    data.apply(result("t00039", 1001, 39.5));
    chart.markDirty();
    QTRY_COMPARE(chart.shownResults(), std::size_t(40001));
    // A zoom asks for a new image, and still every result is in it.
    const auto* x = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
    const double width = x->max() - x->min();
    QTest::keyClick(&chart, Qt::Key_Plus);
    QCOMPARE(chart.shownResults(), std::size_t(0));  // the old image, scaled, until then
    QTRY_COMPARE(chart.shownResults(), std::size_t(40001));
    QCOMPARE(x->max() - x->min(), width / 1.25);
}

void TestAppCharts::aRestoredTrialsCurveIsDrawnAnew() {
    ExperimentData data;
    data.setObjective("loss", true);
    data.apply(added("t00000", {{"lr", 0.1}}));
    data.apply(added("t00001", {{"lr", 0.2}}));
    for (int i = 1; i <= 10; ++i) {
        data.apply(result("t00000", i, 1.0));
        data.apply(result("t00001", i, 0.1));  // the best: drawn over the image, not in it
    }
    MetricChart chart(&data);
    chart.resize(800, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.markDirty();
    QTRY_COMPARE(chart.shownResults(), std::size_t(20));
    QVERIFY(rowZeroNear(chart, 8, 1.0));
    // Restored at 5: iterations 6 to 12 come again, lower, all within one frame. More points
    // than before, yet the old line from 6 to 10 must go.
    for (int i = 6; i <= 12; ++i) {
        data.apply(result("t00000", i, 0.5));
    }
    chart.markDirty();
    QTRY_COMPARE(chart.shownResults(), std::size_t(22));
    QTest::qWait(100);
    QVERIFY(!rowZeroNear(chart, 8, 1.0));
    QVERIFY(rowZeroNear(chart, 8, 0.5));
}

// Seen in the screenshot tour: a run started in a window that showed a finished experiment had
// its iteration axis read 0 to 1 under curves drawn for the old one's 0 to 20. The window resets
// the axes when a history is loaded (AnalysisTabs::onLoaded), before the run's first result;
// that refit was dropped for want of data, and the new results, inside the old view, asked for
// none.
void TestAppCharts::anotherRunsFirstResultsSetTheAxesAgain() {
    ExperimentData data;
    data.setObjective("loss", true);
    data.load(trialsOf(2, 20, [](int t, int i) { return t + 1.0 / i; }), {},
              QStringLiteral("finished"), 0);
    MetricChart chart(&data);
    chart.resize(800, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.markDirty();
    QTRY_COMPARE(chart.shownResults(), std::size_t(40));
    const auto xMax = [&] {
        return qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0))->max();
    };
    QCOMPARE(xMax(), 20.0);

    // Another run opens: its history is empty, the axes are made anew, then results come.
    data.clear();
    data.load({}, {}, QStringLiteral("running"), 0);
    chart.setLogScale(false);
    chart.markDirty();
    QTest::qWait(100);
    data.apply(added("t00000", {{"lr", 0.1}}));
    for (int i = 1; i <= 3; ++i) {
        data.apply(result("t00000", i, 1.0 / i));
    }
    chart.markDirty();
    QTRY_COMPARE(chart.shownResults(), std::size_t(3));
    QTRY_VERIFY2(xMax() >= 3 && xMax() < 20, qPrintable(QString::number(xMax())));
}

void TestAppCharts::aRestoredTrialIsDrawnAnewByTheWorker() {
    ExperimentData data;
    data.setObjective("loss", true);
    data.load(trialsOf(200, 2000, [](int t, int i) { return t + 1.0 / i; }), {},
              QStringLiteral("running"), 0);
    MetricChart chart(&data);
    chart.resize(800, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.markDirty();
    QTRY_COMPARE(chart.shownResults(), std::size_t(400000));
    // Trial 199 restored at 499: its curve goes back by 1,501 points, and the worker draws the
    // 398,500 left anew (the frames meanwhile must not keep asking for another image).
    data.apply(result("t00199", 500, 199.5));
    chart.markDirty();
    QTRY_COMPARE(chart.shownResults(), std::size_t(398500));
}

void TestAppCharts::svgHoldsOnePolylinePerTrialTheBestThickAndTheLabels() {
    ExperimentData data;
    data.setObjective("loss", true);
    // 20,000 points a trial; trial 2 has one spike.
    data.load(trialsOf(5, 20000,
                       [](int t, int i) {
                           return t == 2 && i == 12345 ? 100.0 : t + 1 + std::sin(i / 300.0);
                       }),
              {}, QStringLiteral("finished"), 0);
    MetricChart chart(&data);
    chart.resize(800, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.redraw();
    QTemporaryDir dir;
    const QString svg = saveSvg(chart, dir);
    QVERIFY(!svg.isEmpty());
    const std::vector<SvgLine> curves = curvesIn(svg);
    QCOMPARE(int(curves.size()), 5);
    int thick = 0;
    for (const SvgLine& curve : curves) {
        // Decimated to the chart's pixel columns: at most 4 a column, not 20,000.
        QVERIFY2(curve.points.size() <= 4 * 800 + 2,
                 qPrintable(QString::number(curve.points.size())));
        if (curve.width == 3) {
            ++thick;
            QCOMPARE(curve.stroke, chart.colorOf(data.bestRow()).name());
        }
    }
    QCOMPARE(thick, 1);  // the best trial (the lowest loss)
    // The spike survives, at its place on the y axis; every other point lies far below it.
    const auto* y = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
    const QRectF area = chart.chart()->plotArea();
    auto pixelOf = [&](double value) {
        return area.bottom() - (value - y->min()) / (y->max() - y->min()) * area.height();
    };
    std::vector<double> tops;
    for (const SvgLine& curve : curves) {
        tops.push_back(topOf(curve));
    }
    std::sort(tops.begin(), tops.end());
    QVERIFY2(std::abs(tops[0] - pixelOf(100)) < 1,
             qPrintable(QStringLiteral("%1 %2").arg(tops[0]).arg(pixelOf(100))));
    QVERIFY(tops[1] > pixelOf(10));
    // The axes as QtCharts draws them: titles and tick labels as text.
    QVERIFY(svg.contains(QStringLiteral(">iteration</text>")));
    QVERIFY(svg.contains(QStringLiteral(">loss</text>")));
    QVERIFY(svg.contains(QRegularExpression(QStringLiteral(">[0-9]+</text>"))));
    QVERIFY(!svg.contains(QStringLiteral("<image")));  // lines, not the raster image
}

void TestAppCharts::svgShowsOnlyTheSelectedTrialsAndALogAxis() {
    ExperimentData data;
    data.setObjective("loss", true);
    // Each loss falls from 1 to 0.001: a straight line on a log axis.
    data.load(trialsOf(4, 300,
                       [](int t, int i) { return std::pow(10.0, -3.0 * (i - 1) / 299) * (t + 1); }),
              {}, QStringLiteral("finished"), 0);
    MetricChart chart(&data);
    chart.resize(800, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.setVisibleTrials({QStringLiteral("t00001"), QStringLiteral("t00003")});
    chart.setLogScale(true);
    chart.redraw();
    QTemporaryDir dir;
    const std::vector<SvgLine> curves = curvesIn(saveSvg(chart, dir));
    QCOMPARE(int(curves.size()), 2);
    for (const SvgLine& curve : curves) {
        const QPointF first = curve.points.front();
        const QPointF middle = curve.points[curve.points.size() / 2];
        const QPointF last = curve.points.back();
        const double straight =
            first.y() + (last.y() - first.y()) * (middle.x() - first.x()) / (last.x() - first.x());
        QVERIFY2(std::abs(middle.y() - straight) < 3,
                 qPrintable(QStringLiteral("%1 vs %2").arg(middle.y()).arg(straight)));
    }
    QString error;
    QVERIFY(!chart.saveSvg(dir.filePath(QStringLiteral("missing/folder/curves.svg")), &error));
    QVERIFY(error.contains(QStringLiteral("missing/folder")));
}

void TestAppCharts::svgOfAZoomedChartKeepsItsLinesInsideThePlot() {
    ExperimentData data;
    data.setObjective("loss", true);
    data.load(trialsOf(3, 500, [](int t, int i) { return t + std::sin(i / 20.0); }), {},
              QStringLiteral("finished"), 0);
    MetricChart chart(&data);
    chart.resize(800, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.redraw();
    for (int i = 0; i < 3; ++i) {
        QTest::keyClick(&chart, Qt::Key_Plus);
    }
    QTemporaryDir dir;
    const std::vector<SvgLine> curves = curvesIn(saveSvg(chart, dir));
    // The zoomed view cuts the curves: what is drawn lies within the plot area, not over the
    // axes (an SVG file does not keep the painter's clip).
    QVERIFY(!curves.empty());
    const QRectF area = chart.chart()->plotArea().adjusted(-0.01, -0.01, 0.01, 0.01);
    for (const SvgLine& curve : curves) {
        for (const QPointF& p : curve.points) {
            QVERIFY2(area.contains(p), qPrintable(QStringLiteral("%1,%2").arg(p.x()).arg(p.y())));
        }
    }
}

// Issue 18.7 and 18.8: the room to grow (a quarter more iterations) is for a run that still
// reports, not an empty quarter after one that ended; a run with no result yet shows its axes
// and says it waits for the first result.
void TestAppCharts::anEndedRunLeavesNoRoomToGrowAndAWaitingOneSaysSo() {
    ExperimentData data;
    data.setObjective("loss", true);
    data.load({}, {}, QStringLiteral("running"), 0);
    MetricChart chart(&data);
    chart.resize(800, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.markDirty();
    QTest::qWait(100);
    QCOMPARE(chart.chart()->axes().size(), 2);
    QCOMPARE(chart.chart()->axes(Qt::Vertical).value(0)->titleText(), QStringLiteral("loss"));
    QVERIFY2(chart.note().contains("first result"), qPrintable(chart.note()));

    data.load(trialsOf(3, 30, [](int t, int i) { return t + 1.0 / i; }), {},
              QStringLiteral("running"), 0);
    chart.markDirty();
    const auto* x = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
    QTRY_VERIFY(x->max() > 30);  // room to grow while it runs
    QCOMPARE(chart.note(), QString());

    data.load(trialsOf(3, 30, [](int t, int i) { return t + 1.0 / i; }), {},
              QStringLiteral("finished"), 0);
    chart.markDirty();
    QTRY_COMPARE(x->max(), 30.0);
}

// Issue 18 (the tour at 1280x800, German): the health line under the curves wrapped to three or
// four lines, and with no samples yet its empty panels left a blank band under it.
void TestAppCharts::theHealthLineIsOneLineInGermanAndNoBandWithoutSamples() {
    applyAppearance({Theme::Light, QStringLiteral("de")});
    ExperimentData data;
    TrialHealthModel health;
    TrialHealthView view(&health, &data);
    view.resize(1000, 400);  // the Curves tab's width at 1280x800
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    auto* legend = view.findChild<QLabel*>("trialHealthLegend");
    QVERIFY(legend);
    const int oneLine = legend->fontMetrics().lineSpacing();
    QVERIFY2(view.sizeHint().height() <= oneLine + 8,
             qPrintable(QStringLiteral("%1 px with no samples").arg(view.sizeHint().height())));
    for (int t = 0; t < 3; ++t) {
        QJsonArray trials;
        for (int rank = 0; rank < 2; ++rank) {
            QJsonObject usage{{"trial", QStringLiteral("t0000%1").arg(t)},
                              {"cpu_percent", 98.0},
                              {"rss_mb", 212.0},
                              {"processes", 1},
                              {"gpu_memory_mb", 4096.0}};
            if (rank > 0) {
                usage.insert("rank", rank);
            }
            trials.append(usage);
        }
        for (int sample = 1; sample <= 3; ++sample) {
            health.apply(nodeUsage(10 * t + sample, sample, "gpu-node-1", trials));
        }
    }
    view.recomputeNow();
    QTest::qWait(20);
    QCOMPARE(view.shownTrials().size(), 3);
    QVERIFY(view.legend().contains(QStringLiteral("2 R\u00e4nge")));
    QVERIFY2(legend->height() < 2 * oneLine,
             qPrintable(QStringLiteral("%1 px for lines of %2 px: %3")
                            .arg(legend->height())
                            .arg(oneLine)
                            .arg(view.legend())));
    // What does not fit is in the tooltip, whole.
    QVERIFY2(legend->toolTip().contains(QStringLiteral("t00002: ")), qPrintable(legend->toolTip()));
    QVERIFY(view.sizeHint().height() > 100);  // the panels are back
    applyAppearance({Theme::Light, QStringLiteral("en")});
}

// The asha tour's slice of momentum (0 to 0.95) in a small panel read just "0" under its axis:
// the round step for two intervals was 1. Each axis a panel draws has two labels at least.
void TestAppCharts::aSmallPlotsAxisHasAtLeastTwoLabels() {
    using tunedeck::app::PlotAxis;
    const auto labels = [](const PlotAxis& axis, int wanted) {
        QStringList texts;
        for (const auto& [value, text] : axis.ticks(wanted)) {
            texts << text;
        }
        return texts;
    };
    QCOMPARE(labels(PlotAxis::linear(0.0, 0.95, "momentum"), 2), QStringList({"0", "0.5"}));
    QCOMPARE(labels(PlotAxis::linear(0.01, 0.93, "momentum"), 2), QStringList({"0", "0.5"}));
    QCOMPARE(labels(PlotAxis::linear(0, 100, "x"), 2), QStringList({"0", "100"}));
    QCOMPARE(labels(PlotAxis::linear(0.3, 0.7, "x"), 4), QStringList({"0.4", "0.6"}));
}

// The plots' notes read "16 trial(s) drawn" in English (the tour's screenshots): English has its
// plural forms too, "1 trial" and "16 trials".
void TestAppCharts::englishCountsInTheSingularAndThePlural() {
    QCOMPARE(applyAppearance({Theme::Light, QStringLiteral("en")}), QStringLiteral("en"));
    const auto count = [](const char* context, const char* text, int n) {
        return QCoreApplication::translate(context, text, nullptr, n);
    };
    QCOMPARE(count("tunedeck::app::ContourView", "%n trial(s) drawn", 1),
             QStringLiteral("1 trial drawn"));
    QCOMPARE(count("tunedeck::app::ContourView", "%n trial(s) drawn", 16),
             QStringLiteral("16 trials drawn"));
    QCOMPARE(count("tunedeck::app::TimelineView", "%n run(s) of trials", 1),
             QStringLiteral("1 run of trials"));
    QCOMPARE(count("tunedeck::app::YamlDocumentEditor", "YAML (%n error(s))", 2),
             QStringLiteral("YAML (2 errors)"));
    // The editors' lines with several counts take each in its own words.
    QCOMPARE(count("tunedeck::app::SearchSpaceTable", "%n sample(s)", 1),
             QStringLiteral("1 sample"));
    QCOMPARE(count("tunedeck::app::ExperimentEditor", "%n parameter(s)", 4),
             QStringLiteral("4 parameters"));
}

// A trial of a second or two has one usage sample: its health panels were empty axes (the tour's
// screenshots) since one reading makes no line. It is drawn as a dot.
void TestAppCharts::aSingleHealthSampleIsDrawnAsADot() {
    ExperimentData data;
    TrialHealthModel health;
    TrialHealthView view(&health, &data);
    view.resize(1000, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    health.apply(nodeUsage(
        1, 1.0, "local",
        QJsonArray{QJsonObject{{"trial", "t00000"}, {"cpu_percent", 50.0}, {"rss_mb", 100.0}}}));
    view.recomputeNow();
    QTest::qWait(20);
    QCOMPARE(view.shownTrials().size(), 1);
    const QImage image = view.grab().toImage();
    int coloured = 0;  // the axes and text are grey; a trial's colour is saturated
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            coloured += image.pixelColor(x, y).hsvSaturation() > 100 ? 1 : 0;
        }
    }
    QVERIFY2(coloured >= 2 * 12, qPrintable(QStringLiteral("%1 coloured pixels").arg(coloured)));
}

// Issue 34.12: a short trial sampled once read "CPU up to 0% of a core" while its node was busy:
// a CPU share is the time used between two samples, and the agent's first reading says 0.
void TestAppCharts::oneSampleMeasuresNoCpu() {
    applyAppearance({Theme::Light, QStringLiteral("en")});
    ExperimentData data;
    TrialHealthModel health;
    TrialHealthView view(&health, &data);
    view.resize(1000, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const auto sample = [&](qint64 seq, const QString& trial, double cpu) {
        health.apply(nodeUsage(
            seq, double(seq), "local",
            QJsonArray{QJsonObject{{"trial", trial}, {"cpu_percent", cpu}, {"rss_mb", 15.0}}}));
    };
    sample(1, QStringLiteral("t00000"), 0);
    sample(2, QStringLiteral("t00001"), 0);
    sample(3, QStringLiteral("t00001"), 97);
    view.recomputeNow();
    const QString legend = view.legend();
    QVERIFY2(legend.contains(QStringLiteral("t00000: CPU not measured (one sample)")),
             qPrintable(legend));
    QVERIFY2(!legend.contains(QStringLiteral("t00000: CPU up to 0%")), qPrintable(legend));
    QVERIFY2(legend.contains(QStringLiteral("t00001: CPU up to 97% of a core")),
             qPrintable(legend));
}

// Issue 34.12: the health line was cut mid-word ("... memory up to 0 MiB (node local, sam…").
// It shows whole trials, then how many more there are; the tooltip has them all.
void TestAppCharts::theHealthLineShowsWholeTrialsAndHowManyMore() {
    applyAppearance({Theme::Light, QStringLiteral("en")});
    ExperimentData data;
    TrialHealthModel health;
    TrialHealthView view(&health, &data);
    view.resize(1000, 400);  // the Curves tab's width at 1280x800
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    for (int sample = 1; sample <= 3; ++sample) {
        QJsonArray trials;
        for (int t = 0; t < 6; ++t) {
            trials.append(QJsonObject{{"trial", QStringLiteral("t0000%1").arg(t)},
                                      {"cpu_percent", 50.0 + t},
                                      {"rss_mb", 100.0 + t}});
        }
        health.apply(nodeUsage(sample, sample, "local", trials));
    }
    view.recomputeNow();
    QCOMPARE(view.shownTrials().size(), 6);
    const QString shown = view.shownLegend();
    QVERIFY2(!shown.contains(QChar(0x2026)), qPrintable(shown));  // no "…"
    QVERIFY2(shown.endsWith(QStringLiteral("more (hover for all)")), qPrintable(shown));
    // Every trial it names is whole: its line ends with its samples.
    QCOMPARE(shown.count(QStringLiteral(": CPU up to")),
             shown.count(QStringLiteral("samples: 3)")));
    QVERIFY(shown.count(QStringLiteral(": CPU up to")) >= 1);
    QVERIFY(view.legend().contains(QStringLiteral("t00005: CPU up to 55% of a core")));
}

QTEST_MAIN(TestAppCharts)
#include "tst_app_charts.moc"
