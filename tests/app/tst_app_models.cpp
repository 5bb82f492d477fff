// The app's models against scripted event streams (the typed events the client hands on): what
// the table shows and filters, what the curves hold, how changes come in batches, and the metric
// read from a history's result text as ExperimentData reads it. The charts drawn from these
// models are tst_app_charts.
#include <QFont>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>
#include <cmath>
#include <random>

#include "core/events.h"
#include "core/pareto.h"
#include "models/config_text.h"
#include "models/experiment_data.h"
#include "models/folder_labels.h"
#include "models/history_reader.h"
#include "models/pareto_front.h"
#include "models/trial_table_model.h"
#include "scripted_events.h"

using namespace tunedeck::app;

namespace {

using scripted::added;
using scripted::result;
using scripted::status;

}  // namespace

class TestAppModels : public QObject {
    Q_OBJECT
  private slots:
    void trialsCurvesAndTheBestFollowTheEvents();
    void aRestoredTrialsCurveGoesBackToItsCheckpoint();
    void tableShowsConfigColumnsAndSortsByValue();
    void wholeFloatsFromTheStreamShowAsFloats();
    void searchAndStatusFilterTheTable();
    void changesComeInBatches();
    void resultMetricReadsWhatExperimentDataReads();
    void foldersOfOneNameAreLabelledByWhatTellsThemApart();
    void theFrontIsTheEnginesFirstFront();
    void severalObjectivesRankByTheFrontNotOneBest();
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
    QCOMPARE(row.rewinds, 1);  // so a chart that drew iterations 6 and 7 knows to draw anew
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
    QCOMPARE(model.columnCount(), TrialTableModel::FirstExtra + 1);
    QCOMPARE(model.headerData(TrialTableModel::Latest, Qt::Horizontal, Qt::DisplayRole).toString(),
             QStringLiteral("loss"));
    QCOMPARE(
        model.headerData(TrialTableModel::FirstExtra, Qt::Horizontal, Qt::DisplayRole).toString(),
        QStringLiteral("lr"));
    QCOMPARE(model.index(1, TrialTableModel::Latest).data().toString(), QStringLiteral("0.2"));
    QCOMPARE(model.index(1, TrialTableModel::Status).data(Qt::ForegroundRole).value<QColor>(),
             TrialTableModel::statusColor("PENDING"));
    TrialFilter filter;
    filter.setSourceModel(&model);
    filter.sort(TrialTableModel::FirstExtra, Qt::AscendingOrder);
    // By value, not by text: 0.001 < 0.01 < 0.1.
    QCOMPARE(filter.index(0, TrialTableModel::Trial).data().toString(), QStringLiteral("t00001"));
    QCOMPARE(filter.index(2, TrialTableModel::Trial).data().toString(), QStringLiteral("t00000"));
}

// Issue 16.4: the engine's trial_added and exploit events, as they cross the wire (JSON text,
// read back by QJsonDocument, which makes 1.0 the integer 1), still show 1.0 in the table: the
// float paths beside the config say which numbers are floats.
void TestAppModels::wholeFloatsFromTheStreamShowAsFloats() {
    const auto overTheWire = [](const QString& type, const QJsonObject& payload) {
        const QByteArray line =
            QJsonDocument(tunedeck::events::envelope(type, scripted::sequence()++, 1000, payload))
                .toJson(QJsonDocument::Compact);
        return scripted::decoded(QJsonDocument::fromJson(line).object());
    };
    tunedeck::Trial trial;
    trial.id = "t00000";
    trial.config = QJsonObject{{"x", 1.0},
                               {"n", 3},
                               {"big", 1234567},
                               {"lr", 123456.7},
                               {"sizes", QJsonArray{1.0, 2}},
                               {"model", QJsonObject{{"ratio", 2.0}}},
                               {"name", "adam"}};
    const tunedeck::FloatPaths floats{"x", "lr", "sizes.0", "model.ratio"};
    ExperimentData data;
    data.setObjective("loss", true);
    TrialTableModel model(&data);
    data.apply(overTheWire(tunedeck::events::type::kTrialAdded,
                           tunedeck::events::trialAdded(trial, floats)));
    model.refresh(data.takeChanges());
    QMap<QString, QString> shown;
    for (int c = TrialTableModel::FirstExtra; c < model.columnCount(); ++c) {
        shown[model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString()] =
            model.index(0, c).data().toString();
    }
    QCOMPARE(shown.value("x"), QStringLiteral("1.0"));
    QCOMPARE(shown.value("n"), QStringLiteral("3"));
    QCOMPARE(shown.value("big"), QStringLiteral("1234567"));
    QCOMPARE(shown.value("lr"), QStringLiteral("123456.7"));
    QCOMPARE(shown.value("sizes"), QStringLiteral("[1.0,2]"));
    QCOMPARE(shown.value("model.ratio"), QStringLiteral("2.0"));
    QCOMPARE(shown.value("name"), QStringLiteral("adam"));
    // Sorting still goes by value.
    QCOMPARE(model.index(0, TrialTableModel::FirstExtra + int(shown.keys().indexOf("x")))
                 .data(Qt::UserRole),
             QVariant(1.0));

    // A PBT exploit gives the trial a new config, with its own floats.
    const QJsonObject newConfig{{"x", 3.0}, {"n", 2}};
    data.apply(overTheWire(tunedeck::events::type::kExploit,
                           tunedeck::events::exploit("t00000", "t00001", 4, 4, trial.config,
                                                     newConfig, "exploit", floats, {"x"})));
    model.refresh(data.takeChanges());
    const int x = TrialTableModel::FirstExtra + int(data.configKeys().indexOf("x"));
    QCOMPARE(model.index(0, x).data().toString(), QStringLiteral("3.0"));

    // Without float paths (an older engine), whole numbers read as integers.
    QCOMPARE(configValueText(QJsonValue(1.0)), QStringLiteral("1"));
    QCOMPARE(configValueText(QJsonValue(0.5)), QStringLiteral("0.5"));
    QCOMPARE(configValueText(QJsonValue(1e-5), {""}), QStringLiteral("1e-05"));
    QCOMPARE(configValueText(QJsonValue(0.0), {""}), QStringLiteral("0.0"));
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

void TestAppModels::resultMetricReadsWhatExperimentDataReads() {
    const std::vector<std::pair<QString, QByteArray>> cases{
        {"loss", R"({"loss":0.25,"training_iteration":3})"},
        {"loss", R"({ "training_iteration" : 3 , "loss" : -1.5e-3 })"},
        {"loss", R"({"a":{"loss":9},"loss":2})"},
        {"loss", R"({"a":{"loss":9}})"},
        {"loss", R"({"loss":"0.5"})"},
        {"loss", R"({"loss":null})"},
        {"loss", R"({"loss":true})"},
        {"loss", R"({"lo\u0073s":4})"},
        {"loss", R"({"note":"a \"loss\": 1, {[","loss":7})"},
        {"loss", R"({"list":[{"loss":1},[2,3]],"loss":8})"},
        {"loss", R"({"loss":12345678901234567890})"},
        {"val/loss", R"({"val":{"loss":0.75}})"},
        {"val/loss", R"({"val/loss":0.5,"val":{"loss":0.75}})"},
        {"val/loss", R"({"val":3})"},
        {"val/loss", R"({"val":{"acc":1}})"},
        {"a/b/c", R"({"a":{"b":{"c":6}}})"},
    };
    for (const auto& [metric, text] : cases) {
        ExperimentData data;
        data.setObjective(metric, true);
        data.apply(scripted::event(
            "result", {{"trial", "t00000"}, {"result", QJsonDocument::fromJson(text).object()}}));
        const std::vector<double>& values = data.trials()[0].values;
        const double expected = values.empty() ? kNoValue : values.back();
        const double read =
            ResultMetric(metric).in(std::string_view(text.data(), std::size_t(text.size())));
        QVERIFY2(std::isnan(expected) ? std::isnan(read) : read == expected,
                 qPrintable(QStringLiteral("%1 in %2: %3, expected %4")
                                .arg(metric, QString::fromUtf8(text))
                                .arg(read)
                                .arg(expected)));
    }
}

// Issue 34.5: two `quickstart` folders compared read "quickstart" twice.
void TestAppModels::foldersOfOneNameAreLabelledByWhatTellsThemApart() {
    QCOMPARE(
        distinguishingFolderLabels({"/home/a/results/quickstart", "/home/a/copies/quickstart"}),
        QStringList({"results/quickstart", "copies/quickstart"}));
    QCOMPARE(distinguishingFolderLabels({"/r/asha", "/r/asha-2"}), QStringList({"asha", "asha-2"}));
    // As deep as it takes, and no deeper for the others.
    QCOMPARE(distinguishingFolderLabels({"/a/x/results/q", "/b/x/results/q", "/r/other"}),
             QStringList({"/a/x/results/q", "/b/x/results/q", "other"}));
    QCOMPARE(distinguishingFolderLabels({"/x/y/q", "/z/y/q/"}), QStringList({"/x/y/q", "/z/y/q"}));
    // The same folder twice cannot be told apart, and needs not be.
    QCOMPARE(distinguishingFolderLabels({"/r/q", "/r/q"}), QStringList({"q", "q"}));
    QCOMPARE(distinguishingFolderLabels({}), QStringList());
}

QTEST_MAIN(TestAppModels)
// nonDominated finds front 0 of core/pareto.h's sort, ties and duplicates included, on random
// sets of two and three objectives.
void TestAppModels::theFrontIsTheEnginesFirstFront() {
    std::mt19937 random(34);
    for (int round = 0; round < 300; ++round) {
        const int n = 1 + int(random() % 60);
        const std::size_t objectives = 2 + random() % 2;
        std::vector<std::vector<double>> points(static_cast<std::size_t>(n),
                                                std::vector<double>(objectives));
        for (std::vector<double>& point : points) {
            for (double& value : point) {
                value = double(random() % 7);  // few values: many ties
            }
        }
        const std::vector<int> ranks = tunedeck::pareto::frontRanks(points);
        std::vector<int> expected;
        for (int i = 0; i < n; ++i) {
            if (ranks[std::size_t(i)] == 0) {
                expected.push_back(i);
            }
        }
        QCOMPARE(nonDominated(points), expected);
    }
}

void TestAppModels::severalObjectivesRankByTheFrontNotOneBest() {
    const auto report = [](const QString& trial, int iteration, double loss, double latency) {
        return scripted::event("result", {{"trial", trial},
                                          {"result", QJsonObject{{"training_iteration", iteration},
                                                                 {"loss", loss},
                                                                 {"latency_ms", latency}}}});
    };
    ExperimentData data;
    data.setObjective("loss", true);
    data.setObjectives(
        {{"loss", tunedeck::MetricMode::Min}, {"latency_ms", tunedeck::MetricMode::Max}});
    for (const char* id : {"t00000", "t00001", "t00002"}) {
        data.apply(added(id, {{"x", 1}}));
    }
    // Last results: t00000 (1, 5) and t00001 (2, 9) trade; t00002 (3, 4) is beaten by both.
    data.apply(report("t00000", 1, 1, 5));
    data.apply(report("t00001", 1, 0.5, 20));  // its best result: it drops from there
    data.apply(report("t00001", 2, 2, 9));
    data.apply(report("t00002", 1, 3, 4));
    QCOMPARE(data.bestRow(), -1);
    QCOMPARE(data.paretoFront(), (std::vector<int>{0, 1}));
    QVERIFY(!data.onParetoFront(2));
    QCOMPARE(data.objectiveScore(1, 1), 9.0);
    // By each trial's best result, t00001's (0.5, 20) beats everyone.
    data.setScope(tunedeck::ScoreScope::All);
    QCOMPARE(data.paretoFront(), (std::vector<int>{1}));
    // Restored to before its best, it is back to (2, 9).
    data.setScope(tunedeck::ScoreScope::Last);
    data.apply(report("t00001", 1, 2, 9));
    data.setScope(tunedeck::ScoreScope::All);
    QCOMPARE(data.paretoFront(), (std::vector<int>{0, 1}));

    // The table: a Pareto front column with a star on the front's rows, sortable, those rows
    // bold and named as the front's.
    TrialTableModel table(&data);
    table.reset();
    const int column = table.frontColumn();
    QVERIFY(column >= 0);
    QCOMPARE(table.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString(),
             QStringLiteral("Pareto front"));
    QVERIFY(!table.index(0, column).data().toString().isEmpty());
    QVERIFY(table.index(2, column).data().toString().isEmpty());
    QCOMPARE(table.index(0, column).data(Qt::UserRole).toInt(), 1);
    QCOMPARE(table.index(2, column).data(Qt::UserRole).toInt(), 0);
    QVERIFY(table.index(1, 0).data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(!table.index(2, 0).data(Qt::FontRole).isValid());
    QCOMPARE(table.index(0, TrialTableModel::Iteration).data(Qt::ToolTipRole).toString(),
             QStringLiteral("On the Pareto front of loss (min), latency_ms (max) by best "
                            "result: loss = 1, latency_ms = 5"));
    // One objective again (another experiment): no column, one best.
    data.setObjective("loss", true);
    table.reset();
    QCOMPARE(table.frontColumn(), -1);
    QCOMPARE(data.bestRow(), 0);
}

#include "tst_app_models.moc"
