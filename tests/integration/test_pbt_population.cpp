// PBT with a population larger than the slots (issue 16.8): a member gives its slot back at each
// perturbation while others wait, as Ray's "yield time to other trials", so the whole population
// trains side by side and is ranked together, instead of two by two to the end.
#include <QtTest>

#include "engine_harness.h"

class TestPbtPopulation : public QObject {
    Q_OBJECT
  private slots:
    void aPopulationOfEightOnTwoSlotsCoexists();
};

void TestPbtPopulation::aPopulationOfEightOnTwoSlotsCoexists() {
    EngineHarness h;
    const QString yaml = R"(name: population
trainable:
  command: python3 @TRIAL@
resources_per_trial: {cpu: 1}
search_space:
  x: {uniform: [1, 2]}
  iterations: 100
  sleep: 0.02
num_samples: 8
metric: score
mode: max
scheduler:
  type: pbt
  time_attr: training_iteration
  perturbation_interval: 3
  hyperparam_mutations:
    x: {uniform: [1, 2]}
stop: {training_iteration: 9}
max_concurrent_trials: 2
seed: 5
)";
    const EngineResult r = h.run({"run", h.writeFile("population.yaml", yaml), "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QString db = h.experimentFolder("population") + "/experiment.sqlite";
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'"),
             QStringLiteral("8"));
    QCOMPARE(sqliteQuery(db,
                         "SELECT COUNT(*) FROM (SELECT trial_id FROM results GROUP BY "
                         "trial_id HAVING MAX(iteration) = 9)"),
             QStringLiteral("8"));
    // Every member reached the first perturbation before any member reached the end.
    QCOMPARE(sqliteQuery(db,
                         "SELECT COUNT(DISTINCT trial_id) FROM results WHERE iteration = 3 "
                         "AND seq < (SELECT MIN(seq) FROM results WHERE iteration = 9)"),
             QStringLiteral("8"));
    // Nor did two members run ahead: none was two intervals in before all had reported.
    QCOMPARE(sqliteQuery(db,
                         "SELECT COUNT(DISTINCT trial_id) FROM results WHERE seq < "
                         "(SELECT MIN(seq) FROM results WHERE iteration > 6)"),
             QStringLiteral("8"));
    // Ranked together, the bottom copied the top.
    const int exploits = sqliteQuery(db, "SELECT COUNT(*) FROM exploits").toInt();
    QVERIFY2(exploits > 0, qPrintable(r.all()));
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM exploits WHERE trial_id = source_trial_id"),
             QStringLiteral("0"));
}

QTEST_GUILESS_MAIN(TestPbtPopulation)
#include "test_pbt_population.moc"
