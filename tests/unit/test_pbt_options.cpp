// The pbt scheduler's options as Ray's PopulationBasedTraining takes them: each bad one named
// with its key and what is wrong, and the good ones accepted.
#include <QJsonArray>
#include <QTest>

#include "core/pbt_scheduler.h"
#include "pbt_builders.h"

using namespace tunedeck;
using namespace tunedeck::testing;

Q_DECLARE_METATYPE(tunedeck::SearchSpace)

class TestPbtOptions : public QObject {
    Q_OBJECT

  private slots:
    void badOptionsAreNamed_data() {
        QTest::addColumn<QJsonObject>("options");
        QTest::addColumn<SearchSpace>("mutations");
        QTest::addColumn<QString>("badKey");
        QTest::addColumn<QString>("message");
        const SearchSpace ok = defaultMutations();
        QTest::newRow("not in space") << QJsonObject{} << space({param("momentum", uniform(0, 1))})
                                      << "scheduler.hyperparam_mutations.momentum"
                                      << "hyperparam_mutations.momentum is not in search_space";
        QTest::newRow("outside range")
            << QJsonObject{} << space({param("lr", loguniform(0.0001, 2))})
            << "scheduler.hyperparam_mutations.lr"
            << "hyperparam_mutations.lr (loguniform 0.0001 .. 2) reaches outside "
               "search_space.lr (loguniform 0.0001 .. 1)";
        QTest::newRow("list outside range")
            << QJsonObject{} << space({param("lr", choice({0.1, 5}))})
            << "scheduler.hyperparam_mutations.lr"
            << "hyperparam_mutations.lr lists 5, outside search_space.lr";
        QTest::newRow("value not offered")
            << QJsonObject{} << space({param("batch", choice({32, 256}))})
            << "scheduler.hyperparam_mutations.batch"
            << "hyperparam_mutations.batch lists 256, which search_space.batch does not offer";
        QTest::newRow("number for a choice")
            << QJsonObject{} << space({param("batch", uniform(16, 128))})
            << "scheduler.hyperparam_mutations.batch"
            << "must list values of search_space.batch, which is a choice";
        QTest::newRow("constant") << QJsonObject{} << space({constant("lr", 0.1)})
                                  << "scheduler.hyperparam_mutations.lr"
                                  << "must be a domain or a list of values";
        QTest::newRow("nothing to explore")
            << QJsonObject{} << SearchSpace{} << "scheduler.hyperparam_mutations"
            << "needs hyperparam_mutations, custom_explore or explore_command";
        QTest::newRow("explore_command number")
            << QJsonObject{{"explore_command", 3}} << ok << "scheduler.explore_command"
            << "must be a list of a program and its arguments, such as [python3, explore.py]";
        QTest::newRow("explore_command string")
            << QJsonObject{{"explore_command", "python3 explore.py"}} << ok
            << "scheduler.explore_command"
            << "must be a list of a program and its arguments";
        QTest::newRow("explore_command empty")
            << QJsonObject{{"explore_command", QJsonArray{}}} << ok << "scheduler.explore_command"
            << "must be a list of a program and its arguments";
        QTest::newRow("explore_command word")
            << QJsonObject{{"explore_command", QJsonArray{"python3", 2}}} << ok
            << "scheduler.explore_command"
            << "must be a list of a program and its arguments";
        QTest::newRow("interval 0")
            << QJsonObject{{"perturbation_interval", 0}} << ok << "scheduler.perturbation_interval"
            << "'perturbation_interval' must be positive, not 0";
        QTest::newRow("quantile 0")
            << QJsonObject{{"quantile_fraction", 0}} << ok << "scheduler.quantile_fraction"
            << "must be in (0, 0.5], not 0";
        QTest::newRow("quantile 0.6")
            << QJsonObject{{"quantile_fraction", 0.6}} << ok << "scheduler.quantile_fraction"
            << "must be in (0, 0.5], not 0.6";
        QTest::newRow("resample 2")
            << QJsonObject{{"resample_probability", 2}} << ok << "scheduler.resample_probability"
            << "between 0 and 1";
        QTest::newRow("burn-in") << QJsonObject{{"burn_in_period", -1}} << ok
                                 << "scheduler.burn_in_period"
                                 << "must not be negative";
        QTest::newRow("factors") << QJsonObject{{"perturbation_factors", QJsonArray{1.2, -1}}} << ok
                                 << "scheduler.perturbation_factors"
                                 << "list of positive numbers";
        QTest::newRow("synch text") << QJsonObject{{"synch", "yes"}} << ok << "scheduler.synch"
                                    << "must be true or false";
        QTest::newRow("custom_explore shape")
            << QJsonObject{{"custom_explore", QJsonObject{{"lr", 0.1}}}} << ok
            << "scheduler.custom_explore.lr"
            << "custom_explore.lr must be [low, high] (two numbers)";
        QTest::newRow("custom_explore order")
            << QJsonObject{{"custom_explore", QJsonObject{{"lr", QJsonArray{1, 0.1}}}}} << ok
            << "scheduler.custom_explore.lr"
            << "low (1) must not exceed high (0.1)";
        QTest::newRow("custom_explore key")
            << QJsonObject{{"custom_explore", QJsonObject{{"wd", QJsonArray{0, 1}}}}} << ok
            << "scheduler.custom_explore.wd"
            << "custom_explore.wd is not in search_space";
        QTest::newRow("mode") << QJsonObject{{"mode", "up"}} << ok << "scheduler.mode"
                              << "'min' or 'max'";
    }

    void badOptionsAreNamed() {
        QFETCH(QJsonObject, options);
        QFETCH(SearchSpace, mutations);
        QFETCH(QString, badKey);
        QFETCH(QString, message);
        QString key;
        const Status status = validatePbtOptions(pbtSpec(options, mutations), &key);
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QCOMPARE(key, badKey);
        QVERIFY2(status.message().contains(message), qPrintable(status.message()));
        QVERIFY(!status.message().contains('\n'));
    }

    void goodOptionsPass() {
        QVERIFY(validatePbtOptions(
                    pbtSpec({{"time_attr", "time_total_s"},
                             {"perturbation_interval", 30},
                             {"burn_in_period", 60},
                             {"quantile_fraction", 0.5},
                             {"resample_probability", 0},
                             {"perturbation_factors", QJsonArray{1.5, 0.5}},
                             {"custom_explore", QJsonObject{{"lr", QJsonArray{0.001, 0.1}}}},
                             {"synch", true},
                             {"require_attrs", false},
                             {"log_config", false},
                             {"mode", "min"}}),
                    nullptr)
                    .isOk());
        // A constant of the search space may be mutated: PBT is what changes it.
        QVERIFY(validatePbtOptions(pbtSpec({}, space({param("epochs", randint(1, 20))})), nullptr)
                    .isOk());
        // Ray's custom_explore_fn alone (no mutations): the program is what changes the config.
        const ExperimentSpec explored =
            pbtSpec({{"explore_command", QJsonArray{"python3", "explore.py"}}}, SearchSpace{});
        QVERIFY(validatePbtOptions(explored, nullptr).isOk());
        QCOMPARE(pbtExploreCommand(explored), (QStringList{"python3", "explore.py"}));
        QVERIFY(pbtExploreCommand(pbtSpec()).isEmpty());
        QVERIFY(pbtOptionNames().contains("hyperparam_mutations"));
        QVERIFY(pbtNeedsCheckpoints());
    }
};

QTEST_GUILESS_MAIN(TestPbtOptions)
#include "test_pbt_options.moc"
