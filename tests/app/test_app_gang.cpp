// Issue 20 from the user's side: a gang trial (resources_per_trial.workers: 2) run by a real
// engine on a node with two cards (the fake NVML driver of tests/worker), one card per rank. The
// Trial tab says how many ranks it has and where each runs, the Nodes and GPUs tab lists the
// trial on both cards with the rank on each, and the trial's system health adds up its ranks'
// memory in each sample, as the samples in its SQLite file have them.
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTextEdit>
#include <QtTest>
#include <cmath>
#include <map>

#include "app_test_support.h"
#include "charts/node_usage_view.h"
#include "engine_harness.h"
#include "fake_gpus.h"
#include "local_engine.h"
#include "models/trial_table_model.h"
#include "plots/study_plots.h"
#include "plots/timeline_view.h"
#include "plots/trial_health_view.h"
#include "scoped_environment.h"
#include "store/history_reader.h"
#include "views/appearance.h"
#include "views/main_window.h"
#include "wait_for.h"

using tunedeck::app::MainWindow;
using tunedeck::app::TrialTableModel;

namespace {

// "Trials on it" of each card row of the Nodes and GPUs table, by card ("GPU 0: ...").
QStringList trialsOnCards(QTableWidget* table) {
    QStringList onCards;
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, 1) && table->item(r, 1)->text().startsWith("GPU") && table->item(r, 6)) {
            onCards << table->item(r, 1)->text() + ": " + table->item(r, 6)->text();
        }
    }
    return onCards;
}

// The highest sum of `trial`'s entries' resident memory in one sample of the history.
double peakSummedRss(const QString& folder, const QString& trial, int* entriesPerSample) {
    std::unique_ptr<tunedeck::store::HistoryReader> reader;
    std::vector<tunedeck::store::HistoryNodeUsage> samples;
    if (!tunedeck::store::HistoryReader::open(folder + "/experiment.sqlite", &reader) ||
        !reader->readNodeUsage(&samples)) {
        return -1;
    }
    double peak = 0;
    *entriesPerSample = 0;
    for (const auto& sample : samples) {
        double sum = 0;
        int entries = 0;
        for (const QJsonValue& entry : sample.usage.value("trials").toArray()) {
            if (entry.toObject().value("trial").toString() == trial) {
                sum += entry.toObject().value("rss_mb").toDouble();
                ++entries;
            }
        }
        peak = std::max(peak, sum);
        *entriesPerSample = std::max(*entriesPerSample, entries);
    }
    return peak;
}

// The experiment's and its trials' states, for a failure's message.
QString stateOf(MainWindow& window) {
    QString state = window.data().experimentStatus();
    for (const auto& trial : window.data().trials()) {
        state += QStringLiteral(", %1 %2 %3 (%4 ranks)")
                     .arg(trial.id, trial.status, trial.reason)
                     .arg(trial.ranks.size());
    }
    return state;
}

}  // namespace

class TestAppGang : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void aGangTrialShowsItsRanksCardsAndSummedHealth();
};

void TestAppGang::aGangTrialShowsItsRanksCardsAndSummedHealth() {
    EngineHarness harness;
    const QString state = harness.root() + "/nvml.state";
    worker_test::writeState(state, {{"GPU-app-0", "Fake_H200"}, {"GPU-app-1", "Fake_H200"}});
    const ScopedEnvironment environment(
        {{"LD_LIBRARY_PATH", TUNEDECK_BUILD_DIR "/tunedeck-fake-nvml"},
         {"TUNEDECK_FAKE_NVML_STATE", state}});
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    window.runExperimentFile(harness.writeFile(
        "gang.yaml", QStringLiteral("name: gang\n"
                                    "trainable: {command: [python3, %1]}\n"
                                    "search_space:\n  iterations: 20\n"
                                    "resources_per_trial: {cpu: 0.5, gpu: 1, workers: 2}\n"
                                    "metric: score\nmode: max\ngpu_sample_s: 0.2\n")
                         .arg(EngineHarness::trialScript("gang_rank.py"))));

    // While it runs: each card lists the trial with the rank that uses it.
    auto* nodes = window.findChild<tunedeck::app::NodeUsageView*>();
    QVERIFY(nodes);
    window.tabs()->setCurrentWidget(nodes);
    const QStringList expectedCards{"GPU 0: Fake H200: t00000 (rank 0)",
                                    "GPU 1: Fake H200: t00000 (rank 1)"};
    QVERIFY2(waitFor([&] { return trialsOnCards(nodes->table()) == expectedCards; }, 30000),
             qPrintable(trialsOnCards(nodes->table()).join(" | ") + " / " + stateOf(window)));
    app_test::screenshot(window, "gang-nodes");

    // The Trial tab of the trial chosen in the table: its size and where each rank runs.
    auto* table = window.findChild<QTableView*>("trials");
    auto* pane = window.findChild<QTextEdit*>("trialDetail");
    QVERIFY(table && pane);
    window.tabs()->setCurrentIndex(window.tabs()->indexOf(pane->parentWidget()));
    QVERIFY(waitFor([&] { return table->model()->rowCount() == 1; }, 10000));
    table->selectRow(0);
    const QRegularExpression ranks(QStringLiteral(
        "Ranks[\\t\\n]2 \u2014 rank 0 on local \\(GPU 0\\),\\s+rank 1 on local \\(GPU 1\\)"));
    QVERIFY2(waitFor([&] { return ranks.match(pane->toPlainText()).hasMatch(); }, 10000),
             qPrintable(pane->toPlainText()));
    // Its GPUs are both ranks' cards: it read "GPUs 0", rank 0's card index taken for a count.
    const QRegularExpression gpus(QStringLiteral("GPUs[\\t\\n]2 in all, 1 per rank\n"));
    QVERIFY2(gpus.match(pane->toPlainText()).hasMatch(), qPrintable(pane->toPlainText()));
    app_test::screenshot(window, "gang-trial");

    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 60000));
    // The finished gang still says how it ran.
    QVERIFY2(ranks.match(pane->toPlainText()).hasMatch(), qPrintable(pane->toPlainText()));
    // Its bar on the timeline says its size.
    auto* plots = window.findChild<tunedeck::app::StudyPlots*>("studyPlots");
    QVERIFY(plots);
    const auto& segments = plots->timelineView()->timeline().segments();
    QVERIFY(!segments.empty());
    QCOMPARE(tunedeck::app::TimelineView::barLabel(segments.front()),
             QStringLiteral("t00000 \u00d72"));

    // Its health: both ranks' memory in each sample, added up.
    int entriesPerSample = 0;
    const double peak =
        peakSummedRss(harness.experimentFolder("gang"), "t00000", &entriesPerSample);
    QCOMPARE(entriesPerSample, 2);  // the samples name both ranks' processes
    window.tabs()->setCurrentIndex(0);
    table->selectRow(0);
    auto* legend = window.findChild<QLabel*>("trialHealthLegend");
    QVERIFY(legend);
    const QRegularExpression line("t00000: CPU up to [0-9]+% of a core, memory up to ([0-9]+) MiB");
    QVERIFY2(waitFor([&] { return line.match(legend->text()).hasMatch(); }, 10000),
             qPrintable(legend->text()));
    const int shown = line.match(legend->text()).captured(1).toInt();
    QVERIFY2(std::abs(shown - peak) <= 1.0,
             qPrintable(QStringLiteral("%1 shown, %2 summed").arg(shown).arg(peak)));
    QVERIFY2(legend->text().contains("(2 ranks added up, node local"), qPrintable(legend->text()));
    app_test::screenshot(window, "gang-health");

    // The folder opened afterwards, in German: the ranks as its history recorded them.
    tunedeck::app::applyAppearance({tunedeck::app::Theme::Light, QStringLiteral("de")});
    {
        MainWindow reader;
        reader.resize(1280, 800);
        reader.show();
        reader.openFolder(harness.experimentFolder("gang"));
        auto* readTable = reader.findChild<QTableView*>("trials");
        QVERIFY(waitFor([&] { return readTable->model()->rowCount() == 1; }, 20000));
        auto* readPane = reader.findChild<QTextEdit*>("trialDetail");
        reader.tabs()->setCurrentIndex(reader.tabs()->indexOf(readPane->parentWidget()));
        readTable->selectRow(0);
        const QRegularExpression german(QStringLiteral(
            "R\u00e4nge[\\t\\n]2 \u2014 Rang 0 auf local \\(GPU 0\\),\\s+Rang 1 auf local "
            "\\(GPU 1\\)"));
        QVERIFY2(waitFor([&] { return german.match(readPane->toPlainText()).hasMatch(); }, 10000),
                 qPrintable(readPane->toPlainText()));
        QVERIFY2(readPane->toPlainText().contains(QStringLiteral("2 insgesamt, 1 je Rang")),
                 qPrintable(readPane->toPlainText()));
        app_test::screenshot(reader, "gang-trial-de");
        reader.tabs()->setCurrentIndex(0);
        readTable->selectRow(0);
        auto* readLegend = reader.findChild<QLabel*>("trialHealthLegend");
        QVERIFY2(
            waitFor([&] { return readLegend->text().contains("(2 R\u00e4nge addiert"); }, 10000),
            qPrintable(readLegend->text()));
        app_test::screenshot(reader, "gang-health-de");
    }
    tunedeck::app::applyAppearance({tunedeck::app::Theme::Light, QStringLiteral("en")});
}

QTEST_MAIN(TestAppGang)
#include "test_app_gang.moc"
