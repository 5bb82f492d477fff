// The app's models against scripted event streams (the envelopes the engine sends): what the
// table shows, what the curves hold, and the decimation that keeps every spike.
#include <QJsonArray>
#include <QtTest>
#include <cmath>

#include "charts/decimate.h"
#include "models/experiment_data.h"
#include "models/trial_table_model.h"
#include "scripted_events.h"

using namespace tunedeck::app;

namespace {

using scripted::added;
using scripted::event;
using scripted::metricResult;
using scripted::result;
using scripted::status;

}  // namespace

class TestAppModels : public QObject {
    Q_OBJECT
  private slots:
    void trialsCurvesAndTheBestFollowTheEvents();
    void aRestoredTrialsCurveGoesBackToItsCheckpoint();
    void tableShowsConfigColumnsAndSortsByValue();
    void searchAndStatusFilterTheTable();
    void changesComeInBatches();
    void decimationKeepsEverySpikeAndBoundsThePoints();
    void smoothingIsAnExponentialAverage();
};

void TestAppModels::trialsCurvesAndTheBestFollowTheEvents() {
    ExperimentData data;
    data.setObjective("loss", true);
    data.apply(added("t00000", {{"lr", 0.1}, {"model", QJsonObject{{"depth", 3}}}}));
    data.apply(added("t00001", {{"lr", 0.01}, {"model", QJsonObject{{"depth", 5}}}}));
    data.apply(status("t00000", "RUNNING", "10.0.0.2:22"));
    for (int i = 1; i <= 3; ++i) {
        data.apply(result("t00000", i, 1.0 / i, 1000 + i));
        data.apply(result("t00001", i, 0.9 - 0.1 * i, 1000 + i));
    }
    data.apply(status("t00000", "TERMINATED"));
    QCOMPARE(int(data.trials().size()), 2);
    QCOMPARE(data.configKeys(), QStringList({"lr", "model.depth"}));
    const TrialRow& first = data.trials()[0];
    QCOMPARE(first.status, QStringLiteral("TERMINATED"));
    QCOMPARE(first.node, QStringLiteral("10.0.0.2:22"));  // a later status without node keeps it
    QCOMPARE(first.iteration, 3);
    QCOMPARE(first.values.size(), std::size_t(3));
    QCOMPARE(first.best, 1.0 / 3);
    QCOMPARE(first.times.back(), 3.0);  // seconds since the first event
    QCOMPARE(data.bestRow(), 0);        // 0.333 < 0.6 (min)
    data.setObjective("loss", false);
    data.clear();
    QVERIFY(data.trials().empty());
    const StatusCounts none = data.counts();
    QCOMPARE(none.total(), 0);
}

void TestAppModels::aRestoredTrialsCurveGoesBackToItsCheckpoint() {
    ExperimentData data;
    data.setObjective("loss", true);
    data.apply(added("t00000", {{"lr", 0.1}}));
    for (int i = 1; i <= 7; ++i) {
        data.apply(result("t00000", i, 1.0 / i));
    }
    // Lost at 7, restored from the checkpoint at 5: iterations 6 and 7 come again.
    data.apply(result("t00000", 6, 0.5));
    const TrialRow& row = data.trials()[0];
    QCOMPARE(row.iterations.size(), std::size_t(6));
    QCOMPARE(row.iterations.back(), 6.0);
    QCOMPARE(row.values.back(), 0.5);
}

void TestAppModels::tableShowsConfigColumnsAndSortsByValue() {
    ExperimentData data;
    data.setObjective("loss", true);
    TrialTableModel model(&data);
    data.apply(added("t00000", {{"lr", 0.1}}));
    data.apply(added("t00001", {{"lr", 0.001}}));
    data.apply(added("t00002", {{"lr", 0.01}}));
    data.apply(result("t00001", 1, 0.2));
    model.refresh(data.takeChanges());
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), TrialTableModel::FirstConfig + 1);
    QCOMPARE(model.headerData(TrialTableModel::Latest, Qt::Horizontal, Qt::DisplayRole).toString(),
             QStringLiteral("loss"));
    QCOMPARE(
        model.headerData(TrialTableModel::FirstConfig, Qt::Horizontal, Qt::DisplayRole).toString(),
        QStringLiteral("lr"));
    QCOMPARE(model.index(1, TrialTableModel::Latest).data().toString(), QStringLiteral("0.2"));
    QCOMPARE(model.index(1, TrialTableModel::Status).data(Qt::ForegroundRole).value<QColor>(),
             TrialTableModel::statusColor("PENDING"));
    TrialFilter filter;
    filter.setSourceModel(&model);
    filter.sort(TrialTableModel::FirstConfig, Qt::AscendingOrder);
    // By value, not by text: 0.001 < 0.01 < 0.1.
    QCOMPARE(filter.index(0, TrialTableModel::Trial).data().toString(), QStringLiteral("t00001"));
    QCOMPARE(filter.index(2, TrialTableModel::Trial).data().toString(), QStringLiteral("t00000"));
}

void TestAppModels::searchAndStatusFilterTheTable() {
    ExperimentData data;
    TrialTableModel model(&data);
    data.apply(added("t00000", {{"optimizer", "adam"}}));
    data.apply(added("t00001", {{"optimizer", "sgd"}}));
    data.apply(status("t00001", "ERROR"));
    model.refresh(data.takeChanges());
    TrialFilter filter;
    filter.setSourceModel(&model);
    filter.setSearch("ADAM");
    QCOMPARE(filter.rowCount(), 1);
    filter.setSearch({});
    filter.setStatus("ERROR");
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.index(0, 0).data().toString(), QStringLiteral("t00001"));
}

void TestAppModels::changesComeInBatches() {
    ExperimentData data;
    data.setObjective("loss", true);
    TrialTableModel model(&data);
    data.apply(added("t99999", {{"x", -1}}));
    model.refresh(data.takeChanges());  // the first config keys: the columns are made anew
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    for (int t = 0; t < 99; ++t) {
        const QString id = QStringLiteral("t%1").arg(t, 5, 10, QLatin1Char('0'));
        data.apply(added(id, {{"x", t}}));
        for (int i = 1; i <= 50; ++i) {
            data.apply(result(id, i, t + 1.0 / i));
        }
    }
    model.refresh(data.takeChanges());
    QCOMPARE(model.rowCount(), 100);
    QCOMPARE(inserted.count(), 1);  // 99 trials and 4,950 results: one insert, one change
    QCOMPARE(changed.count(), 1);
    model.refresh(data.takeChanges());  // nothing new: nothing emitted
    QCOMPARE(changed.count(), 1);
}

void TestAppModels::decimationKeepsEverySpikeAndBoundsThePoints() {
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

void TestAppModels::smoothingIsAnExponentialAverage() {
    const std::vector<double> raw{0, 10, 0, 10};
    QCOMPARE(smooth(raw, 1.0), raw);
    const std::vector<double> half = smooth(raw, 0.5);
    QCOMPARE(half[1], 5.0);
    QCOMPARE(half[2], 2.5);
    QCOMPARE(half[3], 6.25);
}

QTEST_MAIN(TestAppModels)
#include "tst_app_models.moc"
