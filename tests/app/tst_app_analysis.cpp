// The analysis views (parallel coordinates, scatter, importance, PBT lineage) against scripted
// event streams, and the random forest behind the importance. With TUNEDECK_SCREENSHOT_DIR set,
// each view of a realistic 40-trial experiment is saved there as a PNG for people to look at.
#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QHelpEvent>
#include <QLogValueAxis>
#include <QRandomGenerator>
#include <QToolTip>
#include <QTreeWidget>
#include <QtTest>
#include <cmath>
#include <ctime>

#include "analysis/importance_view.h"
#include "analysis/lineage_view.h"
#include "analysis/parallel_coordinates_view.h"
#include "analysis/random_forest.h"
#include "charts/scatter_view.h"
#include "models/experiment_data.h"
#include "scripted_events.h"

using namespace tunedeck::app;

namespace {

using scripted::added;
using scripted::event;
using scripted::metricResult;
using scripted::result;
using scripted::status;

tunedeck::events::Event exploit(const QString& trial, const QString& source, int iteration,
                                int sourceIteration, const QJsonObject& before,
                                const QJsonObject& after) {
    return event("exploit", {{"trial", trial},
                             {"source", source},
                             {"iteration", iteration},
                             {"source_iteration", sourceIteration},
                             {"old_config", before},
                             {"new_config", after},
                             {"reason", "bottom quantile"}});
}

QString trialId(int i) {
    return QStringLiteral("t%1").arg(i, 5, 10, QLatin1Char('0'));
}

// A finished trial with one result: its best is `loss`.
void finished(ExperimentData& data, const QString& id, const QJsonObject& config, double loss) {
    data.apply(added(id, config));
    data.apply(result(id, 1, loss));
    data.apply(status(id, "TERMINATED"));
}

// `lr` drives the loss; `noise` and `optimizer` do not; `epochs` is constant.
void drivenExperiment(ExperimentData& data, int trials, quint64 seed) {
    data.setObjective("loss", true);
    QRandomGenerator rng(seed);
    const QStringList optimizers{"adam", "sgd", "rmsprop"};
    for (int i = 0; i < trials; ++i) {
        const double logLr = -5 + 4 * rng.generateDouble();
        const double lr = std::pow(10.0, logLr);
        const double loss = 0.2 + 0.3 * (logLr + 3) * (logLr + 3) + 0.02 * rng.generateDouble();
        finished(data, trialId(i),
                 {{"lr", lr},
                  {"noise", rng.generateDouble()},
                  {"optimizer", optimizers[int(rng.bounded(3))]},
                  {"epochs", 10}},
                 loss);
    }
}

double threadCpuMs() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

double importanceOf(const std::vector<ParameterImportance>& all, const QString& parameter) {
    for (const ParameterImportance& p : all) {
        if (p.parameter == parameter) {
            return p.importance;
        }
    }
    return -1;
}

void screenshot(QWidget& view, const QString& name) {
    const QString dir = qEnvironmentVariable("TUNEDECK_SCREENSHOT_DIR");
    if (!dir.isEmpty()) {
        QTest::qWait(100);  // charts lay themselves out on the next turns of the event loop
        QDir().mkpath(dir);
        QVERIFY(view.grab().save(QDir(dir).filePath(name)));
    }
}

}  // namespace

class TestAppAnalysis : public QObject {
    Q_OBJECT
  private slots:
    void forestLearnsAStepAndIsDeterministic();
    void importanceRanksTheDrivingParameterAboveNoise();
    void importanceAsksForFinishedTrialsFirst();
    void parallelCoordinatesPlaceValuesOnTheirAxes();
    void parallelCoordinatesHighlightAndNameTrials();
    void scatterHasOnePointPerTrialWithTheMetric();
    void lineageFollowsExploitsBackToTheStart();
    void viewsStayResponsiveWithAThousandTrials();
    void screenshotsOfARealisticExperiment();
};

void TestAppAnalysis::forestLearnsAStepAndIsDeterministic() {
    std::vector<std::vector<double>> samples;
    std::vector<double> targets;
    QRandomGenerator rng(7);
    for (int i = 0; i < 200; ++i) {
        const double x = rng.generateDouble();
        samples.push_back({x, rng.generateDouble()});  // the second feature is noise
        targets.push_back((x > 0.5 ? 10.0 : 0.0) + 0.2 * rng.generateDouble());
    }
    ForestOptions options;
    options.seed = 3;
    RandomForest forest(samples, targets, options);
    forest.fit();
    QCOMPARE(forest.treesGrown(), 64);
    QVERIFY(std::abs(forest.predict({0.2, 0.5}) - 0.1) < 0.2);
    QVERIFY(std::abs(forest.predict({0.8, 0.5}) - 10.1) < 0.2);
    const std::vector<double> importances = forest.importances();
    QVERIFY2(importances[0] > 0.95, qPrintable(QString::number(importances[0])));
    QCOMPARE(importances[0] + importances[1], 1.0);

    // The same seed: the same forest, whether grown at once or tree by tree.
    RandomForest again(samples, targets, options);
    while (again.growTree()) {
    }
    QCOMPARE(again.importances(), importances);
    QCOMPARE(again.predict({0.51, 0.3}), forest.predict({0.51, 0.3}));
    // Another seed draws other bootstraps.
    options.seed = 4;
    RandomForest other(samples, targets, options);
    other.fit();
    QVERIFY(other.importances() != importances);
    // Constant targets: nothing to explain, no importance.
    RandomForest flat(samples, std::vector<double>(samples.size(), 1.5), options);
    flat.fit();
    QCOMPARE(flat.importances(), std::vector<double>(2, 0.0));
    QCOMPARE(flat.predict({0.1, 0.1}), 1.5);
}

void TestAppAnalysis::importanceRanksTheDrivingParameterAboveNoise() {
    ExperimentData data;
    drivenExperiment(data, 40, 11);
    ImportanceView view(&data);
    view.resize(700, 400);
    view.show();
    view.refresh();
    QTRY_VERIFY(!view.computing() && !view.importances().empty());
    const std::vector<ParameterImportance>& shown = view.importances();
    QCOMPARE(int(shown.size()), 3);  // epochs is constant: not a parameter to rank
    QCOMPARE(shown.front().parameter, QStringLiteral("lr"));
    const double lr = importanceOf(shown, "lr");
    QVERIFY2(lr > 0.6, qPrintable(QString::number(lr)));
    QVERIFY(lr > 4 * importanceOf(shown, "noise"));
    QVERIFY(lr > 4 * importanceOf(shown, "optimizer"));
    double sum = 0;
    for (const ParameterImportance& p : shown) {
        sum += p.importance;
    }
    QVERIFY(std::abs(sum - 1.0) < 1e-9);
    QCOMPARE(view.fittedTrials(), 40);
    QVERIFY(view.message().isEmpty());
    // The chart's top bar (the category axis's last entry) is the most important parameter.
    const auto axes = view.chartView()->chart()->axes(Qt::Vertical);
    QCOMPARE(axes.size(), 1);
    QCOMPARE(static_cast<QBarCategoryAxis*>(axes.front())->categories().last(),
             QStringLiteral("lr"));

    // The same trials give the same bars.
    ImportanceView twin(&data);
    twin.show();
    twin.refresh();
    QTRY_VERIFY(!twin.computing() && !twin.importances().empty());
    for (std::size_t i = 0; i < shown.size(); ++i) {
        QCOMPARE(twin.importances()[i].parameter, shown[i].parameter);
        QCOMPARE(twin.importances()[i].importance, shown[i].importance);
    }
    screenshot(view, "analysis_importance_scripted.png");
}

void TestAppAnalysis::importanceAsksForFinishedTrialsFirst() {
    ExperimentData data;
    data.setObjective("loss", true);
    ImportanceView view(&data);
    view.show();
    for (int i = 0; i < 3; ++i) {
        finished(data, trialId(i), {{"x", i}}, i);
    }
    data.apply(added(trialId(3), {{"x", 3}}));
    data.apply(result(trialId(3), 1, 3.0));  // running: not finished yet
    view.refresh();
    QTRY_VERIFY(view.message().contains(QStringLiteral("3 so far")));
    QVERIFY(view.message().contains(QStringLiteral("loss")));
    QVERIFY(view.importances().empty());
    screenshot(view, "analysis_importance_too_few_trials.png");
    for (int i = 3; i < 8; ++i) {
        data.apply(status(trialId(3), "TERMINATED"));
        finished(data, trialId(i + 1), {{"x", i + 1}}, i + 1);
    }
    view.refresh();
    QTRY_VERIFY(!view.importances().empty());
    QVERIFY(view.message().isEmpty());
    QCOMPARE(view.importances().front().parameter, QStringLiteral("x"));
}

void TestAppAnalysis::parallelCoordinatesPlaceValuesOnTheirAxes() {
    ExperimentData data;
    data.setObjective("loss", true);
    finished(data, "a", {{"lr", 1e-4}, {"dropout", 0.0}, {"optimizer", "sgd"}}, 0.9);
    finished(data, "b", {{"lr", 1e-3}, {"dropout", 0.25}, {"optimizer", "adam"}}, 0.5);
    finished(data, "c", {{"lr", 1e-1}, {"dropout", 0.5}, {"optimizer", "rmsprop"}}, 0.1);
    data.apply(added("d", {{"lr", 1e-2}, {"dropout", 0.5}, {"optimizer", "adam"}}));  // no metric
    ParallelCoordinatesView view(&data);
    view.resize(800, 400);
    view.show();
    view.refresh();
    QTRY_COMPARE(int(view.axes().size()), 4);
    // Config keys sorted, then the metric.
    QCOMPARE(view.axes()[0].key, QStringLiteral("dropout"));
    QCOMPARE(view.axes()[0].kind, ParameterScale::Kind::Linear);
    QCOMPARE(view.axes()[1].key, QStringLiteral("lr"));
    QCOMPARE(view.axes()[1].kind, ParameterScale::Kind::Log);  // three decades
    QCOMPARE(view.axes()[2].kind, ParameterScale::Kind::Categorical);
    QCOMPARE(view.axes()[3].key, QStringLiteral("loss"));
    QCOMPARE(view.axes()[3].kind, ParameterScale::Kind::Linear);  // 0.1 to 0.9
    // Their labels: decades on the log axis, round steps on the linear ones.
    QCOMPARE(view.axes()[1].ticks(5), std::vector<double>({1e-4, 1e-3, 1e-2, 1e-1}));
    const std::vector<double> dropoutTicks = view.axes()[0].ticks(5);
    QCOMPARE(int(dropoutTicks.size()), 6);  // 0, 0.1, ..., 0.5
    QCOMPARE(dropoutTicks[2], 0.2);

    const double top = view.vertexOf("c", 0).y();     // dropout 0.5, the largest
    const double bottom = view.vertexOf("a", 0).y();  // dropout 0, the smallest
    QVERIFY(top < bottom);                            // larger values higher up
    const auto at = [&](double fraction) { return bottom - fraction * (bottom - top); };
    QCOMPARE(view.vertexOf("b", 0).y(), at(0.5));
    // Log: 1e-3 sits a third of the way from 1e-4 to 1e-1, 1e-2 two thirds.
    QCOMPARE(view.vertexOf("a", 1).y(), at(0.0));
    QVERIFY(std::abs(view.vertexOf("b", 1).y() - at(1.0 / 3)) < 1e-6);
    QVERIFY(std::abs(view.vertexOf("d", 1).y() - at(2.0 / 3)) < 1e-6);
    QCOMPARE(view.vertexOf("c", 1).y(), at(1.0));
    // Categories evenly spaced in sorted order: adam, rmsprop, sgd.
    QCOMPARE(view.vertexOf("b", 2).y(), at(0.0));
    QCOMPARE(view.vertexOf("c", 2).y(), at(0.5));
    QCOMPARE(view.vertexOf("a", 2).y(), at(1.0));
    // The metric: the best trial's best value.
    QCOMPARE(view.vertexOf("c", 3).y(), at(0.0));
    QCOMPARE(view.vertexOf("b", 3).y(), at(0.5));
    QVERIFY(std::isnan(view.vertexOf("d", 3).y()));  // no metric yet: its line stops before
    // Axes evenly spaced, left to right.
    const double step = view.vertexOf("a", 1).x() - view.vertexOf("a", 0).x();
    QVERIFY(step > 100);
    for (int axis = 1; axis < 4; ++axis) {
        QCOMPARE(view.vertexOf("b", axis).x() - view.vertexOf("b", axis - 1).x(), step);
    }
    // The colour scale runs from the worst to the best trial.
    QVERIFY(view.colourOf("a") != view.colourOf("c"));
}

void TestAppAnalysis::parallelCoordinatesHighlightAndNameTrials() {
    ExperimentData data;
    data.setObjective("loss", true);
    for (int i = 0; i < 12; ++i) {
        finished(data, trialId(i), {{"x", i}, {"y", (i * 7) % 12}}, 1.0 + i);
    }
    ParallelCoordinatesView view(&data);
    view.resize(700, 360);
    view.show();
    view.refresh();
    QTRY_COMPARE(int(view.axes().size()), 3);
    // A quarter of the way from the first axis to the second, only trial 5's line passes.
    const QString chosen = trialId(5);
    const QPointF from = view.vertexOf(chosen, 0);
    const QPointF to = view.vertexOf(chosen, 1);
    const QPointF onLine = from + (to - from) / 4;
    QCOMPARE(view.trialAt(onLine), chosen);
    QCOMPARE(view.trialAt(QPointF(onLine.x(), 3)), QString());  // above every line
    // Hovering names the trial and its config.
    QHelpEvent help(QEvent::ToolTip, onLine.toPoint(), view.mapToGlobal(onLine.toPoint()));
    QApplication::sendEvent(&view, &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY(QToolTip::text().contains(chosen));
    QVERIFY(QToolTip::text().contains(QStringLiteral("y: %1").arg((5 * 7) % 12)));
    QToolTip::hideText();
    // A selected line is drawn opaque and thick over the others: its colour at full strength
    // appears around the point, where before it was see-through.
    QColor expected = view.colourOf(chosen);
    expected.setAlpha(255);
    const auto opaqueNear = [&](const QImage& image) {
        int found = 0;
        for (int dx = -2; dx <= 2; ++dx) {
            for (int dy = -2; dy <= 2; ++dy) {
                const QColor c = image.pixelColor(onLine.toPoint() + QPoint(dx, dy));
                found += std::abs(c.red() - expected.red()) <= 3 &&
                         std::abs(c.green() - expected.green()) <= 3 &&
                         std::abs(c.blue() - expected.blue()) <= 3;
            }
        }
        return found;
    };
    QCOMPARE(opaqueNear(view.grab().toImage()), 0);
    view.setSelectedTrials({chosen});
    QVERIFY(opaqueNear(view.grab().toImage()) >= 3);
    view.setSelectedTrials({});
    QCOMPARE(opaqueNear(view.grab().toImage()), 0);
}

void TestAppAnalysis::scatterHasOnePointPerTrialWithTheMetric() {
    ExperimentData data;
    data.setObjective("loss", true);
    const QStringList optimizers{"adam", "sgd"};
    for (int i = 0; i < 8; ++i) {
        finished(data, trialId(i),
                 {{"lr", std::pow(10.0, -5 + i * 0.5)}, {"optimizer", optimizers[i % 2]}},
                 1.0 + std::abs(i - 5));
    }
    data.apply(added(trialId(8), {{"lr", 0.5}, {"optimizer", "adam"}}));  // no result yet
    ScatterView view(&data);
    view.resize(700, 420);
    view.show();
    view.refresh();
    QTRY_COMPARE(view.parameterBox()->count(), 2);
    view.setParameter("lr");
    QCOMPARE(view.parameter(), QStringLiteral("lr"));
    QCOMPARE(int(view.points().size()), 8);
    for (int i = 0; i < 8; ++i) {
        const QPointF p = view.points()[i];
        QCOMPARE(view.pointTrials()[i], trialId(i));
        QCOMPARE(p.x(), std::pow(10.0, -5 + i * 0.5));
        QCOMPARE(p.y(), data.trials()[std::size_t(i)].best);
    }
    QCOMPARE(view.bestPoints().size(), 1);
    QCOMPARE(view.bestPoints().front().y(), 1.0);  // t00005, minimising
    // lr spans 3.5 decades: on a log axis unless the user turns it off.
    QVERIFY(view.logX());
    QVERIFY(qobject_cast<QLogValueAxis*>(view.chartView()->chart()->axes(Qt::Horizontal).front()));
    view.logBox()->click();
    QVERIFY(!view.logX());
    QVERIFY(!qobject_cast<QLogValueAxis*>(view.chartView()->chart()->axes(Qt::Horizontal).front()));
    // A categorical parameter: one column per category, no log.
    view.parameterBox()->setCurrentIndex(view.parameterBox()->findText("optimizer"));
    QVERIFY(!view.logBox()->isEnabled());
    QCOMPARE(int(view.points().size()), 8);
    for (int i = 0; i < 8; ++i) {
        QCOMPARE(int(std::lround(view.points()[i].x())), i % 2);
    }
    view.setSelectedTrials({trialId(2), trialId(3), trialId(8)});
    QCOMPARE(view.selectedPoints().size(), 2);  // t00008 has no metric to show
    // A new trial shows after the next refresh.
    finished(data, trialId(9), {{"lr", 0.01}, {"optimizer", "sgd"}}, 0.5);
    view.refresh();
    QTRY_COMPARE(int(view.points().size()), 9);
    QCOMPARE(view.bestPoints().front().y(), 0.5);
    screenshot(view, "analysis_scatter_scripted.png");
}

void TestAppAnalysis::lineageFollowsExploitsBackToTheStart() {
    ExperimentData data;
    data.setObjective("loss", true);
    LineageView view(&data);
    view.resize(800, 300);
    view.show();
    for (int i = 0; i < 4; ++i) {
        data.apply(added(QStringLiteral("t%1").arg(i), {{"lr", 0.01 * (i + 1)}}));
        data.apply(result(QStringLiteral("t%1").arg(i), 5, 1.0 - 0.1 * i));
    }
    view.refresh();
    QTRY_VERIFY(!view.message().isEmpty());
    QCOMPARE(view.message(), QStringLiteral("No PBT exploits in this experiment."));
    QVERIFY(!view.hasLineage());
    screenshot(view, "analysis_lineage_without_pbt.png");

    data.apply(exploit("t1", "t0", 10, 9, {{"lr", 0.02}}, {{"lr", 0.012}}));
    data.apply(exploit("t3", "t1", 20, 18, {{"lr", 0.04}}, {{"lr", 0.0144}}));
    // Later, t0 copies t2: t3's weights came from t0 before that, so t2 is not in its chain.
    data.apply(exploit("t0", "t2", 30, 29, {{"lr", 0.01}}, {{"lr", 0.036}}));
    view.refresh();
    QTRY_VERIFY(view.hasLineage());
    QCOMPARE(view.chainOf("t3"), QStringList({"t3", "t1", "t0"}));
    QCOMPARE(view.chainOf("t0"), QStringList({"t0", "t2"}));
    QTreeWidgetItem* t3 = view.itemOf("t3");
    QVERIFY(t3 != nullptr);
    QCOMPARE(t3->text(LineageView::FromColumn), QStringLiteral("← t1 ← t0"));
    view.tree()->expandItem(t3);
    QCOMPARE(t3->childCount(), 3);
    QCOMPARE(t3->child(0)->text(LineageView::TrialColumn), QStringLiteral("t3"));
    QCOMPARE(t3->child(0)->text(LineageView::IterationColumn), QStringLiteral("20"));
    QCOMPARE(t3->child(0)->text(LineageView::FromColumn), QStringLiteral("t1 at iteration 18"));
    QCOMPARE(t3->child(0)->text(LineageView::ChangesColumn), QStringLiteral("lr: 0.04 → 0.0144"));
    QCOMPARE(t3->child(1)->text(LineageView::TrialColumn), QStringLiteral("t1"));
    QCOMPARE(t3->child(1)->text(LineageView::FromColumn), QStringLiteral("t0 at iteration 9"));
    QCOMPARE(t3->child(2)->text(LineageView::TrialColumn), QStringLiteral("t0"));
    QCOMPARE(t3->child(2)->text(LineageView::FromColumn), QStringLiteral("started from scratch"));
    QCOMPARE(t3->child(2)->text(LineageView::ChangesColumn), QStringLiteral("lr: 0.01"));
    // Best first: t3 (loss 0.7) above t1 (0.9) and t0 (1.0).
    QCOMPARE(view.tree()->topLevelItem(0), t3);
    QCOMPARE(view.tree()->topLevelItemCount(), 3);
    view.setSelectedTrials({"t1"});
    QVERIFY(view.itemOf("t1")->isSelected());
    QVERIFY(view.itemOf("t1")->isExpanded());
    screenshot(view, "analysis_lineage_scripted.png");
}

void TestAppAnalysis::viewsStayResponsiveWithAThousandTrials() {
    ExperimentData data;
    drivenExperiment(data, 1000, 5);
    ParallelCoordinatesView parallel(&data);
    ScatterView scatter(&data);
    ImportanceView importance(&data);
    for (QWidget* view : {static_cast<QWidget*>(&parallel), static_cast<QWidget*>(&scatter),
                          static_cast<QWidget*>(&importance)}) {
        view->resize(1000, 600);
        view->show();
    }
    QVERIFY(QTest::qWaitForWindowExposed(&parallel));
    QTRY_VERIFY_WITH_TIMEOUT(!importance.computing() && !importance.importances().empty(), 30000);
    QTest::qWait(1100);  // every throttle's interval has passed: the next refresh works at once
    finished(data, trialId(1000),
             {{"lr", 1e-3}, {"noise", 0.5}, {"optimizer", "adam"}, {"epochs", 10}}, 0.2);
    // The GUI thread's own CPU time, so that other work on a shared machine does not count.
    double mark = threadCpuMs();
    const auto lap = [&mark] {
        const double now = threadCpuMs();
        return now - std::exchange(mark, now);
    };
    parallel.refresh();
    parallel.repaint();
    const double parallelMs = lap();
    QTRY_VERIFY(!parallel.rendering());  // the lines finish drawing in later turns
    lap();
    scatter.refresh();
    QCoreApplication::processEvents();  // QtCharts lays out and paints its items later
    scatter.repaint();
    const double scatterMs = lap();
    importance.refresh();  // prepares the fit and grows its first slice of trees
    const double importanceMs = lap();
    qInfo(
        "1,000 trials, CPU time of one turn: parallel coordinates %.1f ms, scatter %.1f ms, "
        "importance %.1f ms",
        parallelMs, scatterMs, importanceMs);
    // The design figure is ~20 ms per event-loop turn; the bounds leave room for slow machines.
    QVERIFY2(parallelMs < 60, qPrintable(QString::number(parallelMs)));
    QVERIFY2(scatterMs < 60, qPrintable(QString::number(scatterMs)));
    QVERIFY2(importanceMs < 60, qPrintable(QString::number(importanceMs)));
    QVERIFY(importance.computing());  // the rest of the forest grows in later turns
    QCOMPARE(scatter.parameter(), QStringLiteral("lr"));  // not the constant "epochs"
    QCOMPARE(int(scatter.points().size()), 1001);
    QCOMPARE(int(parallel.axes().size()), 4);  // lr, noise, optimizer, then the metric
    QTRY_VERIFY(!parallel.rendering());        // the lines finish drawing in later turns
    QTRY_VERIFY_WITH_TIMEOUT(!importance.computing(), 30000);
    QCOMPARE(importance.fittedTrials(), 1001);
    QCOMPARE(importance.importances().front().parameter, QStringLiteral("lr"));
}

void TestAppAnalysis::screenshotsOfARealisticExperiment() {
    if (qEnvironmentVariableIsEmpty("TUNEDECK_SCREENSHOT_DIR")) {
        QSKIP("set TUNEDECK_SCREENSHOT_DIR to save the views as PNG");
    }
    ExperimentData data;
    data.setObjective("val_loss", true);
    QRandomGenerator rng(2024);
    const QStringList optimizers{"adam", "sgd", "rmsprop"};
    const QStringList activations{"relu", "gelu"};
    const int batches[] = {32, 64, 128, 256};
    for (int i = 0; i < 40; ++i) {
        const QString id = trialId(i);
        const double logLr = -5 + 4 * rng.generateDouble();
        const double dropout = 0.5 * rng.generateDouble();
        const QString optimizer = optimizers[int(rng.bounded(3))];
        const int depth = 2 + int(rng.bounded(7));
        QJsonObject config{
            {"lr", std::pow(10.0, logLr)},
            {"batch_size", batches[rng.bounded(4)]},
            {"optimizer", optimizer},
            {"dropout", dropout},
            {"model", QJsonObject{{"depth", depth}, {"activation", activations[i % 2]}}}};
        data.apply(added(id, config));
        const double final = 0.25 + 0.12 * (logLr + 3) * (logLr + 3) +
                             0.6 * (dropout - 0.2) * (dropout - 0.2) +
                             (optimizer == "sgd" ? 0.12 : 0.0) + 0.02 * std::abs(depth - 5) +
                             0.03 * rng.generateDouble();
        const int iterations = i % 3 == 0 ? 8 : 30;  // a third stopped early
        const bool running = i >= 36;
        const int reported = running ? 12 : iterations;
        for (int it = 1; it <= reported; ++it) {
            const double value = final + (2.3 - final) * std::exp(-it / 6.0);
            data.apply(metricResult(id, it, "val_loss", value, 1000 + it));
        }
        data.apply(status(id, running ? "RUNNING" : (i == 17 ? "ERROR" : "TERMINATED")));
    }
    // A few PBT exploits (copy a better trial, perturb its learning rate), so the lineage has
    // something to show.
    const auto copy = [&](int trial, int source, int iteration, double factor) {
        const QJsonObject before = data.trials()[std::size_t(trial)].config;
        QJsonObject after = data.trials()[std::size_t(source)].config;
        after.insert("lr", after.value("lr").toDouble() * factor);
        data.apply(
            exploit(trialId(trial), trialId(source), iteration, iteration - 1, before, after));
    };
    copy(7, 2, 10, 1.2);
    copy(13, 7, 20, 0.8);
    copy(31, 13, 25, 1.2);
    copy(22, 4, 15, 0.8);
    ParallelCoordinatesView parallel(&data);
    ScatterView scatter(&data);
    ImportanceView importance(&data);
    LineageView lineage(&data);
    for (QWidget* view :
         std::initializer_list<QWidget*>{&parallel, &scatter, &importance, &lineage}) {
        view->resize(960, 540);
        view->show();
    }
    parallel.refresh();
    scatter.refresh();
    importance.refresh();
    lineage.refresh();
    QTRY_VERIFY(!parallel.rendering() && !parallel.axes().empty());
    screenshot(parallel, "analysis_parallel_coordinates.png");
    const QStringList selected{trialId(4), trialId(9)};
    parallel.setSelectedTrials(selected);
    scatter.setSelectedTrials(selected);
    lineage.setSelectedTrials({trialId(31)});
    QTRY_VERIFY(!importance.computing() && !importance.importances().empty());
    QTRY_VERIFY(lineage.hasLineage());
    scatter.setParameter("lr");
    screenshot(parallel, "analysis_parallel_coordinates_selected.png");
    screenshot(scatter, "analysis_scatter.png");
    screenshot(importance, "analysis_importance.png");
    screenshot(lineage, "analysis_lineage.png");
    scatter.setParameter("optimizer");
    screenshot(scatter, "analysis_scatter_categorical.png");
}

QTEST_MAIN(TestAppAnalysis)
#include "tst_app_analysis.moc"
