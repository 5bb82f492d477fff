// PBT with a population larger than the slots (issue 16.8): a member gives its slot back at each
// perturbation while others wait, as Ray's "yield time to other trials", so the whole population
// trains side by side and is ranked together, instead of two by two to the end.
#include <QtTest>
#include <tuple>

#include "engine_harness.h"

class TestPbtPopulation : public QObject {
    Q_OBJECT
  private slots:
    void aPopulationOfEightOnTwoSlotsCoexists();
    void anExploreCommandShapesEachExploit();
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

namespace {

QString exploringExperiment(const QString& name, const QString& command) {
    return QStringLiteral(R"(name: %1
trainable:
  command: python3 @TRIAL@
resources_per_trial: {cpu: 1}
search_space:
  x: {uniform: [1, 2]}
  iterations: 100
num_samples: 4
metric: score
mode: max
scheduler:
  type: pbt
  time_attr: training_iteration
  perturbation_interval: 2
  quantile_fraction: 0.5
  synch: true
  explore_command: %2
  hyperparam_mutations:
    x: {uniform: [1, 2]}
stop: {training_iteration: 6}
max_concurrent_trials: 2
seed: 3
)")
        .arg(name, command);
}

}  // namespace

// pbt's explore_command (Ray's custom_explore_fn as a program, as a YAML user writes it): each
// exploit's config is what the program printed; a program that fails is a warning, and the
// trial goes on with the config PBT explored.
// (Synchronous PBT: each sync point has its exploits, however busy the machine.)
void TestPbtPopulation::anExploreCommandShapesEachExploit() {
    EngineHarness h;
    h.writeFile("explore.py", R"(import json, sys
config = json.load(sys.stdin)
config["x"] = round(config["x"], 1)
config["explored"] = config.get("explored", 0) + 1
print(json.dumps(config))
)");
    h.writeFile("broken_explore.py", "import sys\nsys.exit('no idea what to explore')\n");
    // Each run: its history, and how many exploits it made (at least one).
    const auto run = [&h](const QString& name, const QString& command) {
        const EngineResult r = h.run(
            {"run", h.writeFile(name + ".yaml", exploringExperiment(name, command)), "--quiet"});
        const QString db = h.experimentFolder(name) + "/experiment.sqlite";
        const QString exploits = sqliteQuery(db, "SELECT COUNT(*) FROM exploits");
        return std::tuple{r.exitCode == 0 && exploits.toInt() > 0, r.all(), db, exploits};
    };
    const auto [ran, output, db, exploits] = run("explore", "[python3, explore.py]");
    QVERIFY2(ran, qPrintable(output));
    // Every exploit went on with the program's config: x to one decimal, counted.
    QCOMPARE(sqliteQuery(db,
                         "SELECT COUNT(*) FROM exploits WHERE "
                         "json_extract(new_config, '$.explored') >= 1 AND "
                         "json_extract(new_config, '$.x') = round(json_extract(new_config, "
                         "'$.x'), 1)"),
             exploits);
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'"),
             QStringLiteral("4"));

    const auto [brokenRan, brokenOutput, brokenDb, brokenExploits] =
        run("broken", "[python3, broken_explore.py]");
    QVERIFY2(brokenRan, qPrintable(brokenOutput));
    QCOMPARE(sqliteQuery(brokenDb,
                         "SELECT COUNT(*) FROM exploits WHERE "
                         "json_extract(new_config, '$.explored') IS NULL"),
             brokenExploits);
    const QString warning =
        sqliteQuery(brokenDb,
                    "SELECT json_extract(payload, '$.message') FROM events WHERE type = 'warning' "
                    "AND payload LIKE '%explore_command%' LIMIT 1");
    QVERIFY2(warning.contains("exited with code 1: no idea what to explore") &&
                 warning.contains("goes on with the config PBT explored"),
             qPrintable(warning));
}

QTEST_GUILESS_MAIN(TestPbtPopulation)
#include "test_pbt_population.moc"
