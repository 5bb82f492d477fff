// The live view of a run: what a user sees on a terminal and in a log file.
#include <QJsonArray>
#include <QTemporaryFile>
#include <QtTest>
#include <cstdio>

#include "runtime/progress_reporter.h"

using namespace tunedeck;

class TestProgressReporter : public QObject {
    Q_OBJECT
  private slots:
    void tableShowsCountsConfigsMetricAndBest();
    void tableSummarisesTrialsBeyondItsRows();
    void linesStylePrintsStatusChangesAndThrottledSummaries();
    void tableRedrawsInPlaceAtMostTwiceASecond();
    void eachGpuShowsItsUtilisationMemoryAndTrials();
    void quietPrintsOnlyTheOutcomeAndErrors();
};

namespace {

ExperimentSpec spec() {
    ExperimentSpec s;
    s.name = QStringLiteral("demo");
    s.metric = QStringLiteral("loss");
    s.mode = MetricMode::Min;
    Parameter lr;
    lr.name = QStringLiteral("lr");
    lr.kind = Parameter::Kind::Sampled;
    lr.domain.kind = DomainKind::LogUniform;
    lr.domain.low = 1e-4;
    lr.domain.high = 1e-1;
    s.searchSpace.parameters.push_back(lr);
    return s;
}

std::vector<Trial> trials(int n) {
    std::vector<Trial> out;
    for (int i = 0; i < n; ++i) {
        Trial t;
        t.id = trialIdForIndex(i);
        t.config = QJsonObject{{"lr", 0.001 * (i + 1)}};
        t.status = i == 0 ? TrialStatus::Running : TrialStatus::Terminated;
        t.iteration = 10 + i;
        t.lastResult = QJsonObject{{"loss", 1.0 / (i + 1)}};
        out.push_back(t);
    }
    out.back().status = TrialStatus::Pending;
    out.back().pendingReason = QStringLiteral("waiting for resources: needs 1 CPU");
    return out;
}

ProgressSnapshot snapshotOf(const std::vector<Trial>& ts) {
    ProgressSnapshot s;
    for (const Trial& t : ts) {
        s.trials.push_back(&t);
    }
    s.bestTrialId = ts.back().id;
    s.bestValue = 1.0 / double(ts.size());
    s.cpuTotal = 2;
    s.cpuUsed = 1;
    return s;
}

// Runs `body` with a reporter writing into a temporary file; returns what it wrote.
template <typename Body>
QString capture(ProgressReporter::Style style, Body body) {
    QTemporaryFile file;
    if (!file.open()) {
        qFatal("no temporary file");
    }
    std::FILE* out = std::fopen(file.fileName().toLocal8Bit().constData(), "w");
    const ExperimentSpec s = spec();
    {
        ProgressReporter reporter(s, QStringLiteral("/results/demo"), style, out);
        body(reporter);
    }
    std::fclose(out);
    return QString::fromUtf8(file.readAll());
}

}  // namespace

void TestProgressReporter::tableShowsCountsConfigsMetricAndBest() {
    const ExperimentSpec s = spec();
    ProgressReporter reporter(s, QStringLiteral("/results/demo"), ProgressReporter::Style::Table,
                              stdout);
    std::vector<Trial> ts = trials(3);
    ts[1].pendingReason = QStringLiteral("max_concurrent_trials (2) reached");  // before it ran
    const QString table = reporter.renderTable(snapshotOf(ts), 20).join('\n');
    QVERIFY2(!table.contains("max_concurrent_trials"), qPrintable(table));  // it ended since
    QVERIFY2(table.contains("1 RUNNING | 1 PENDING | 1 TERMINATED"), qPrintable(table));
    QVERIFY2(table.contains("Best loss (min): 0.3333 in t00002"), qPrintable(table));
    QVERIFY(table.contains("lr"));
    QVERIFY(table.contains("0.002"));  // t00001's config
    QVERIFY(table.contains("waiting for resources: needs 1 CPU"));
    // Running trials come first: they are the ones that change.
    QVERIFY(table.indexOf("t00000") < table.indexOf("t00001"));
}

void TestProgressReporter::tableSummarisesTrialsBeyondItsRows() {
    const ExperimentSpec s = spec();
    ProgressReporter reporter(s, {}, ProgressReporter::Style::Table, stdout);
    const std::vector<Trial> ts = trials(30);
    const QStringList lines = reporter.renderTable(snapshotOf(ts), 20);
    QVERIFY(lines.last().contains("10 more trials"));
}

void TestProgressReporter::linesStylePrintsStatusChangesAndThrottledSummaries() {
    const std::vector<Trial> ts = trials(3);
    const QString text = capture(ProgressReporter::Style::Lines, [&](ProgressReporter& r) {
        r.trialStatusChanged(ts[1], QStringLiteral("training_iteration >= 11"));
        r.update(snapshotOf(ts));
        r.update(snapshotOf(ts));  // within 10 s: not printed again
    });
    QVERIFY2(text.contains("t00001 TERMINATED iter=11 loss=0.5 (training_iteration >= 11)"),
             qPrintable(text));
    QCOMPARE(text.count("Trials 3:"), 1);
    QVERIFY(!text.contains("\x1b["));  // no terminal control codes in a log file
}

void TestProgressReporter::eachGpuShowsItsUtilisationMemoryAndTrials() {
    const std::vector<Trial> ts = trials(3);
    ProgressSnapshot snapshot = snapshotOf(ts);
    tunedeck::node::GpuUsage card0;
    card0.index = 0;
    card0.name = "NVIDIA H200";
    card0.utilizationPercent = 87.4;
    card0.memoryUsedMb = 12595;
    card0.memoryTotalMb = 143771;
    card0.temperatureC = 45;
    card0.powerW = 310.2;
    card0.trials = {std::string("t00000"), std::string("t00001")};
    tunedeck::node::GpuUsage card1;
    card1.index = 1;
    card1.name = "NVIDIA H200";  // utilisation and power not read
    card1.memoryTotalMb = 143771;
    card1.temperatureC = 30;
    tunedeck::node::GpuUsage lost;
    lost.name = "Tesla T4";
    lost.lost = true;
    tunedeck::node::Usage local;
    local.gpus = {card0, card1};
    tunedeck::node::Usage gpu2;
    gpu2.gpus = {lost};
    snapshot.nodeUsage = {{QStringLiteral("local"), local}, {QStringLiteral("gpu-2"), gpu2}};

    const ExperimentSpec s = spec();
    ProgressReporter reporter(s, {}, ProgressReporter::Style::Table, stdout);
    const QString table = reporter.renderTable(snapshot, 20).join('\n');
    QVERIFY2(table.contains("GPU local/0 NVIDIA H200: 87% busy | 12.3/140.4 GiB | 45 C | 310 W | "
                            "trials: t00000 t00001"),
             qPrintable(table));
    QVERIFY2(table.contains("GPU local/1 NVIDIA H200: n/a busy | 0.0/140.4 GiB | 30 C | n/a | "
                            "trials: none"),
             qPrintable(table));
    QVERIFY2(table.contains("GPU gpu-2/0 Tesla T4: lost"), qPrintable(table));

    // A log (Lines style) has them under each summary too; a run without GPUs has none.
    const QString log =
        capture(ProgressReporter::Style::Lines, [&](ProgressReporter& r) { r.update(snapshot); });
    QVERIFY2(log.contains("  GPU local/0 NVIDIA H200: 87% busy"), qPrintable(log));
    QVERIFY(!reporter.renderTable(snapshotOf(ts), 20).join('\n').contains("GPU "));
}

void TestProgressReporter::tableRedrawsInPlaceAtMostTwiceASecond() {
    const std::vector<Trial> ts = trials(3);
    const QString text = capture(ProgressReporter::Style::Table, [&](ProgressReporter& r) {
        r.update(snapshotOf(ts));
        r.update(snapshotOf(ts));  // too soon: skipped
        QTest::qWait(600);
        r.update(snapshotOf(ts));  // redrawn over the first table
    });
    QCOMPARE(text.count("== demo =="), 2);
    QCOMPARE(text.count("\x1b[J"), 1);  // one redraw: cursor up, clear below
}

void TestProgressReporter::quietPrintsOnlyTheOutcomeAndErrors() {
    std::vector<Trial> ts = trials(3);
    ts[1].status = TrialStatus::Error;
    ts[1].errorMessage = QStringLiteral("exited with status 3");
    const QString text = capture(ProgressReporter::Style::Quiet, [&](ProgressReporter& r) {
        r.trialStatusChanged(ts[0], {});
        r.update(snapshotOf(ts), true);
        r.finish(snapshotOf(ts), QStringLiteral("Finished with 1 errored trial."));
    });
    QVERIFY(!text.contains("== demo =="));
    QVERIFY(text.contains("Trial t00001 failed: exited with status 3"));
    QVERIFY(text.contains("Finished with 1 errored trial."));
    QVERIFY(text.contains("Results: /results/demo"));
}

QTEST_GUILESS_MAIN(TestProgressReporter)
#include "test_progress_reporter.moc"
