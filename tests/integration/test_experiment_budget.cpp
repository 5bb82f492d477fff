// Ray's experiment-wide limits in an experiment file (issue 16.10): time_budget_s stops the run
// when it is spent, num_samples: -1 samples until then (and is refused without it), and
// fail_fast: raise ends the run at the first trial error with that error.
#include <QElapsedTimer>
#include <QtTest>

#include "engine_harness.h"

class TestExperimentBudget : public QObject {
    Q_OBJECT
  private slots:
    void timeBudgetStopsTheRunningTrialsAndStartsNoMore();
    void numSamplesMinusOneSamplesUntilTheBudgetIsSpent();
    void numSamplesMinusOneWithoutABudgetIsRefused();
    void failFastRaiseEndsTheRunWithTheTrialsError();
};

namespace {

const char* const kEndless = R"(name: budget
trainable:
  command: python3 @TRIAL@
search_space:
  x: {uniform: [1, 2]}
  iterations: 100000
  sleep: 0.05
num_samples: 6
metric: score
mode: max
max_concurrent_trials: 2
time_budget_s: 3
)";

}  // namespace

void TestExperimentBudget::timeBudgetStopsTheRunningTrialsAndStartsNoMore() {
    EngineHarness h;
    QElapsedTimer timer;
    timer.start();
    const EngineResult r = h.run({"run", h.writeFile("budget.yaml", kEndless)}, 60000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY2(r.all().contains("time_budget_s (3 s) spent"), qPrintable(r.all()));
    const QString db = h.experimentFolder("budget") + "/experiment.sqlite";
    // Two ran and were stopped; the one queued behind them ended without starting.
    const int trials = sqliteQuery(db, "SELECT COUNT(*) FROM trials").toInt();
    QVERIFY2(trials >= 2 && trials < 6, qPrintable(QString::number(trials)));
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status != 'TERMINATED'"),
             QStringLiteral("0"));
    QCOMPARE(sqliteQuery(db,
                         "SELECT COUNT(DISTINCT trial_id) FROM events WHERE type = "
                         "'trial_status' AND payload LIKE '%TERMINATED%' AND payload LIKE "
                         "'%time_budget_s (3 s) spent%'"),
             QString::number(trials));
}

void TestExperimentBudget::numSamplesMinusOneSamplesUntilTheBudgetIsSpent() {
    EngineHarness h;
    const QString yaml = QString(kEndless)
                             .replace("iterations: 100000", "iterations: 2")
                             .replace("num_samples: 6", "num_samples: -1")
                             .replace("time_budget_s: 3", "time_budget_s: 5");
    const EngineResult validated = h.run({"validate", h.writeFile("open.yaml", yaml)});
    QVERIFY2(validated.exitCode == 0, qPrintable(validated.all()));
    QVERIFY2(validated.out.contains("an open number of trials"), qPrintable(validated.all()));
    const EngineResult r = h.run({"run", h.root() + "/open.yaml", "--quiet"}, 60000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QString db = h.experimentFolder("budget") + "/experiment.sqlite";
    // Short trials one after another for 5 s: many more than one sample.
    const int trials = sqliteQuery(db, "SELECT COUNT(*) FROM trials").toInt();
    QVERIFY2(trials > 4, qPrintable(QString::number(trials)));
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status != 'TERMINATED'"),
             QStringLiteral("0"));
}

void TestExperimentBudget::numSamplesMinusOneWithoutABudgetIsRefused() {
    EngineHarness h;
    const QString yaml = QString(kEndless)
                             .replace("num_samples: 6", "num_samples: -1")
                             .replace("time_budget_s: 3\n", "");
    const QString file = h.writeFile("forever.yaml", yaml);
    for (const char* command : {"validate", "run"}) {
        const EngineResult r = h.run({command, file});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.all().contains("forever.yaml:8:") && r.all().contains("num_samples") &&
                     r.all().contains("time_budget_s"),
                 qPrintable(r.all()));
    }
}

void TestExperimentBudget::failFastRaiseEndsTheRunWithTheTrialsError() {
    EngineHarness h;
    const QString yaml = R"(name: raise
trainable:
  command: python3 @TRIAL@
search_space:
  x: {grid: [1, 2, 3]}
  crash_at: 2
  always_crash: true
  iterations: 50
  sleep: 0.1
metric: score
mode: max
max_concurrent_trials: 1
failure: {max_failures: 3, fail_fast: raise}
)";
    const EngineResult r = h.run({"run", h.writeFile("raise.yaml", yaml)}, 60000);
    QCOMPARE(r.exitCode, 1);
    // The trial's error, with its log, not retried although max_failures allows it.
    QVERIFY2(r.all().contains("fail_fast: trial t00000 failed: exited with status 3") &&
                 r.all().contains("crashing on purpose at iteration 2"),
             qPrintable(r.all()));
    const QString db = h.experimentFolder("raise") + "/experiment.sqlite";
    QCOMPARE(sqliteQuery(db, "SELECT status FROM trials WHERE id = 't00000'"),
             QStringLiteral("ERROR"));
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'"),
             QStringLiteral("0"));
    const EngineResult wrong =
        h.run({"validate", h.writeFile("wrong.yaml", QString(yaml).replace("raise}", "loud}"))});
    QCOMPARE(wrong.exitCode, 2);
    QVERIFY2(wrong.all().contains("failure.fail_fast"), qPrintable(wrong.all()));
}

QTEST_GUILESS_MAIN(TestExperimentBudget)
#include "test_experiment_budget.moc"
