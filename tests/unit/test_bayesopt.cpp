// The bayesopt searcher: validation messages, the random start, optimisation against random
// search on Branin and Hartmann-6, state round trips, parallel proposals and time per proposal.
#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <ctime>
#include <functional>
#include <numbers>

#include "core/bayesopt_searcher.h"
#include "core/rng.h"
#include "median.h"
#include "space_builders.h"
#include "test_objectives.h"

using namespace tunedeck;
using namespace tunedeck::testing;

namespace {

using LossFunction = std::function<double(const QJsonObject&)>;

ExperimentSpec bayesoptSpec(const SearchSpace& space, QJsonObject options = {},
                            std::uint64_t seed = 1) {
    ExperimentSpec spec;
    spec.metric = QStringLiteral("loss");
    spec.mode = MetricMode::Min;
    spec.objectives = {{spec.metric, spec.mode}};
    spec.searchSpace = space;
    spec.numSamples = 100000;
    spec.seed = seed;
    spec.search.name = QStringLiteral("bayesopt");
    spec.search.options = std::move(options);
    return spec;
}

std::unique_ptr<Searcher> make(const ExperimentSpec& spec) {
    QString badKey;
    const Status status = validateBayesoptOptions(spec, &badKey);
    if (!status.isOk()) {
        qWarning("%s: %s", qPrintable(badKey), qPrintable(status.message()));
        return nullptr;
    }
    return makeBayesoptSearcher(spec);
}

QString trialId(int index) {
    return QStringLiteral("t%1").arg(index, 5, 10, QLatin1Char('0'));
}

double number(const QJsonObject& config, const QString& key) {
    return config.value(key).toDouble();
}

QJsonObject resultOf(double loss) {
    return {{QStringLiteral("loss"), loss}};
}

// Trials `first` .. `first + count - 1` one after another; returns the best loss seen.
double run(Searcher& searcher, const LossFunction& f, int first, int count) {
    double best = std::numeric_limits<double>::infinity();
    for (int i = first; i < first + count; ++i) {
        const Suggestion suggestion = searcher.suggest(trialId(i));
        if (suggestion.kind != Suggestion::Kind::Config) {
            qWarning("no config for trial %d", i);
            return best;
        }
        const double loss = f(suggestion.config);
        best = std::min(best, loss);
        searcher.onComplete(trialId(i), resultOf(loss), false);
    }
    return best;
}

double randomSearchBest(const SearchSpace& space, const LossFunction& f, std::uint64_t seed,
                        int count) {
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < count; ++i) {
        Rng rng = Rng::forStream(seed + 1000, std::uint64_t(i));
        best = std::min(best, f(space.sample(rng)));
    }
    return best;
}

double quadratic(const QJsonObject& config) {
    const double x = number(config, "x") - 0.3;
    const double y = number(config, "y") - 0.7;
    return x * x + y * y;
}

SearchSpace squareSpace() {
    return space({param("x", uniform(0, 1)), param("y", uniform(0, 1))});
}

// A searcher of `spec` that already has `count` finished random trials of `f`: the random
// trials come from a searcher that never leaves its initial phase, moved over by its state.
std::unique_ptr<Searcher> withRandomHistory(const ExperimentSpec& spec, const LossFunction& f,
                                            int count) {
    ExperimentSpec randomSpec = spec;
    randomSpec.search.options.insert(QStringLiteral("n_initial_points"), 1000000);
    auto random = make(randomSpec);
    run(*random, f, 0, count);
    auto searcher = make(spec);
    const Status status = searcher->restoreState(random->saveState());
    if (!status.isOk()) {
        qWarning("%s", qPrintable(status.message()));
        return nullptr;
    }
    return searcher;
}

Eigen::Vector2d pointOf(const QJsonObject& config) {
    return {number(config, "x"), number(config, "y")};
}

}  // namespace

class TestBayesopt : public QObject {
    Q_OBJECT

  private slots:
    void refusesAChoiceParameter() {
        const auto spec = bayesoptSpec(
            space({param("lr", loguniform(1e-4, 1e-1)), param("x", choice({"a", "b"}))}));
        QString badKey;
        const Status status = validateBayesoptOptions(spec, &badKey);
        QCOMPARE(status.message(),
                 QStringLiteral("bayesopt needs a continuous space: 'x' is a choice; use tpe or "
                                "cmaes"));
        QCOMPARE(badKey, QStringLiteral("search_space.x"));
    }

    void refusesAGridParameterInsideAGroup() {
        const auto spec =
            bayesoptSpec(space({group("model", space({param("depth", grid({2, 4}))}))}));
        QString badKey;
        const Status status = validateBayesoptOptions(spec, &badKey);
        QCOMPARE(status.message(), QStringLiteral("bayesopt needs a continuous space: "
                                                  "'model.depth' is a grid; use tpe or cmaes"));
        QCOMPARE(badKey, QStringLiteral("search_space.model.depth"));
    }

    void refusesAConditionalParameter() {
        const auto spec =
            bayesoptSpec(space({param("lr", uniform(0, 1)),
                                when(param("momentum", uniform(0, 1)), "lr", QJsonArray{0.5})}));
        QString badKey;
        const Status status = validateBayesoptOptions(spec, &badKey);
        QCOMPARE(status.message(), QStringLiteral("bayesopt needs a continuous space: 'momentum' "
                                                  "is conditional (`when`); use tpe"));
        QCOMPARE(badKey, QStringLiteral("search_space.momentum"));
    }

    void refusesSeveralObjectives() {
        auto spec = bayesoptSpec(squareSpace());
        spec.objectives.push_back({QStringLiteral("latency"), MetricMode::Min});
        QString badKey;
        const Status status = validateBayesoptOptions(spec, &badKey);
        QVERIFY(status.message().startsWith(QStringLiteral("bayesopt optimises one metric")));
        QCOMPARE(badKey, QStringLiteral("metric"));
    }

    void refusesASpaceWithoutNumbers() {
        const auto spec = bayesoptSpec(space({constant("name", "run")}));
        QString badKey;
        QVERIFY(!validateBayesoptOptions(spec, &badKey).isOk());
        QCOMPARE(badKey, QStringLiteral("search_space"));
    }

    void refusesBadOptionValues_data() {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative initial points")
            << "n_initial_points" << QJsonValue(-1)
            << "n_initial_points must be a whole number >= 0 (got -1)";
        QTest::newRow("fractional initial points")
            << "n_initial_points" << QJsonValue(2.5)
            << "n_initial_points must be a whole number >= 0 (got 2.5)";
        QTest::newRow("unknown acquisition")
            << "acquisition" << QJsonValue("pi")
            << "acquisition must be 'ei' (expected improvement) or 'ucb' (upper confidence "
               "bound) (got 'pi')";
        QTest::newRow("negative xi")
            << "xi" << QJsonValue(-0.1) << "xi must be a number >= 0 (got -0.1)";
        QTest::newRow("kappa as text")
            << "kappa" << QJsonValue("big") << "kappa must be a number >= 0 (got 'big')";
        QTest::newRow("too few observations")
            << "max_observations" << QJsonValue(5)
            << "max_observations must be a whole number >= 10 (got 5)";
    }
    void refusesBadOptionValues() {
        QFETCH(QString, option);
        QFETCH(QJsonValue, value);
        QFETCH(QString, message);
        const auto spec = bayesoptSpec(squareSpace(), {{option, value}});
        QString badKey;
        const Status status = validateBayesoptOptions(spec, &badKey);
        QCOMPARE(status.message(), message);
        QCOMPARE(badKey, QStringLiteral("search.") + option);
    }

    void acceptsItsOptions() {
        const auto spec = bayesoptSpec(squareSpace(), {{"n_initial_points", 5},
                                                       {"acquisition", "ucb"},
                                                       {"xi", 0},
                                                       {"kappa", 1},
                                                       {"max_observations", 100}});
        QVERIFY(validateBayesoptOptions(spec, nullptr).isOk());
        const auto options = BayesoptOptions::fromSpec(spec);
        QCOMPARE(options.nInitialPoints, 5);
        QVERIFY(options.acquisition == BayesoptOptions::Acquisition::UpperConfidenceBound);
        QCOMPARE(options.maxObservations, 100);
        QCOMPARE(bayesoptOptionNames().size(), 5);
    }

    void initialPointsAreRandomThenTheModelProposes() {
        const auto spec = bayesoptSpec(squareSpace(), {}, 7);
        auto searcher = make(spec);
        for (int i = 0; i < 10; ++i) {
            const Suggestion suggestion = searcher->suggest(trialId(i));
            Rng rng = Rng::forStream(7, std::uint64_t(i));
            QCOMPARE(suggestion.config, spec.searchSpace.sample(rng));
            searcher->onComplete(trialId(i), resultOf(quadratic(suggestion.config)), false);
        }
        // The eleventh comes from the model, not from the random stream.
        const Suggestion eleventh = searcher->suggest(trialId(10));
        Rng rng = Rng::forStream(7, 10);
        QVERIFY(eleventh.config != spec.searchSpace.sample(rng));
    }

    void modelProposalsApproachTheOptimum() {
        auto searcher = make(bayesoptSpec(squareSpace(), {}, 3));
        run(*searcher, quadratic, 0, 10);
        const double best = run(*searcher, quadratic, 10, 10);
        QVERIFY2(best < 1e-3, qPrintable(QString::number(best)));
    }

    void upperConfidenceBoundAlsoFindsTheOptimum() {
        auto searcher = make(bayesoptSpec(squareSpace(), {{"acquisition", "ucb"}}, 3));
        run(*searcher, quadratic, 0, 10);
        const double best = run(*searcher, quadratic, 10, 15);
        QVERIFY2(best < 1e-3, qPrintable(QString::number(best)));
    }

    void integerAndLogParametersStayInTheirDomains() {
        const SearchSpace s = space({param("layers", randint(1, 9)),
                                     group("opt", space({param("lr", loguniform(1e-5, 1e-1))})),
                                     constant("name", "net")});
        auto searcher = make(bayesoptSpec(s, {{"n_initial_points", 4}}));
        const LossFunction f = [](const QJsonObject& config) {
            const double lr = config.value("opt").toObject().value("lr").toDouble();
            const double layers = config.value("layers").toDouble();
            return std::pow(std::log10(lr) + 3, 2) + std::pow(layers - 5, 2);
        };
        for (int i = 0; i < 12; ++i) {
            const Suggestion suggestion = searcher->suggest(trialId(i));
            const QJsonObject& config = suggestion.config;
            const double layers = number(config, "layers");
            const double lr = config.value("opt").toObject().value("lr").toDouble();
            QCOMPARE(layers, std::round(layers));
            QVERIFY(layers >= 1 && layers < 9);
            QVERIFY(lr >= 1e-5 && lr <= 1e-1);
            QCOMPARE(config.value("name").toString(), QStringLiteral("net"));
            searcher->onComplete(trialId(i), resultOf(f(config)), false);
        }
    }

    void beatsRandomSearchOnBranin() {
        std::vector<double> model;
        std::vector<double> random;
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            auto searcher = make(bayesoptSpec(braninSpace(), {}, seed));
            model.push_back(run(*searcher, branin, 0, 40));
            random.push_back(randomSearchBest(braninSpace(), branin, seed, 40));
        }
        qInfo(
            "Branin, best after 40 (median of 5 seeds): bayesopt %.4f, random %.4f "
            "(optimum 0.3979)",
            median(model), median(random));
        QVERIFY(median(model) < median(random));
        QVERIFY(median(model) < 0.45);
    }

    void beatsRandomSearchOnHartmann6() {
        std::vector<double> model;
        std::vector<double> random;
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            auto searcher = make(bayesoptSpec(hartmannSpace(), {}, seed));
            model.push_back(run(*searcher, hartmann6, 0, 40));
            random.push_back(randomSearchBest(hartmannSpace(), hartmann6, seed, 40));
        }
        qInfo(
            "Hartmann-6, best after 40 (median of 5 seeds): bayesopt %.4f, random %.4f "
            "(optimum -3.3224)",
            median(model), median(random));
        QVERIFY(median(model) < median(random));
        QVERIFY(median(model) < -2.8);
    }

    void restoredStateMakesTheSameProposals() {
        const auto spec = bayesoptSpec(braninSpace(), {}, 5);
        auto original = make(spec);
        run(*original, branin, 0, 13);
        // One trial still running, so the kriging believer is part of what must carry over.
        QCOMPARE(original->suggest(trialId(13)).kind, Suggestion::Kind::Config);
        auto restored = make(spec);
        QVERIFY(restored->restoreState(original->saveState()).isOk());
        for (int i = 14; i < 17; ++i) {
            const Suggestion a = original->suggest(trialId(i));
            const Suggestion b = restored->suggest(trialId(i));
            QCOMPARE(a.config, b.config);
            original->onComplete(trialId(i), resultOf(branin(a.config)), false);
            restored->onComplete(trialId(i), resultOf(branin(b.config)), false);
        }
    }

    void aSavedFitOfAnotherSpaceIsRefused() {
        const auto spec = bayesoptSpec(braninSpace(), {}, 5);
        auto original = make(spec);
        run(*original, branin, 0, 12);
        QJsonObject state = original->saveState();
        QJsonObject model = state.value(QStringLiteral("model")).toObject();
        QVERIFY(model.contains(QStringLiteral("previous_fit")));
        model.insert(QStringLiteral("previous_fit"),
                     QJsonObject{{QStringLiteral("length_scales"), QJsonArray{0.5}},
                                 {QStringLiteral("signal_variance"), 1},
                                 {QStringLiteral("noise_variance"), 1e-4}});
        state.insert(QStringLiteral("model"), model);
        const Status status = make(spec)->restoreState(state);
        QVERIFY(!status.isOk());
        QVERIFY2(status.message().contains(QStringLiteral("previous_fit")),
                 qPrintable(status.message()));
    }

    void parallelProposalsSpreadOut() {
        // Trial A is running when B is proposed. A twin searcher in the same state proposes A,
        // sees it fail (so it is neither running nor observed) and proposes B' from the same
        // stream: B' lands next to A, where the model wants to go, while B moves away from A.
        const auto spec = bayesoptSpec(squareSpace(), {}, 9);
        auto searcher = make(spec);
        run(*searcher, quadratic, 0, 12);
        auto twin = make(spec);
        QVERIFY(twin->restoreState(searcher->saveState()).isOk());

        const Eigen::Vector2d a = pointOf(searcher->suggest(trialId(12)).config);
        const Eigen::Vector2d b = pointOf(searcher->suggest(trialId(13)).config);
        QCOMPARE(pointOf(twin->suggest(trialId(12)).config), a);
        twin->onComplete(trialId(12), {}, true);
        const Eigen::Vector2d alone = pointOf(twin->suggest(trialId(13)).config);
        qInfo("A %.4f,%.4f  B %.4f,%.4f  B without A running %.4f,%.4f", a[0], a[1], b[0], b[1],
              alone[0], alone[1]);
        QVERIFY((alone - a).norm() < 0.02);
        QVERIFY((b - a).norm() > 3 * (alone - a).norm());
        QVERIFY((b - a).norm() > 0.01);
    }

    void trainingSetKeepsTheBestQuarterAndTheMostRecent() {
        std::vector<double> losses(20);
        for (int i = 0; i < 20; ++i) {
            losses[std::size_t(i)] = 100 - i;  // later trials are better...
        }
        losses[0] = -5;  // ...but the first two are the best of all
        losses[1] = -4;
        const auto chosen = bayesoptTrainingSet(losses, 10);
        const std::vector<std::size_t> expected{0, 1, 12, 13, 14, 15, 16, 17, 18, 19};
        QCOMPARE(chosen, expected);
        QCOMPARE(bayesoptTrainingSet(losses, 500).size(), std::size_t(20));
    }

    void timePerProposal() {
        // Printed for the record, not asserted: machines differ too much.
        const LossFunction sphere2 = quadratic;
        const LossFunction sphere6 = [](const QJsonObject& config) {
            double total = 0;
            for (int i = 0; i < 6; ++i) {
                total += std::pow(number(config, QStringLiteral("x%1").arg(i)) - 0.4, 2);
            }
            return total;
        };
        struct Case {
            const char* name;
            SearchSpace space;
            LossFunction f;
        };
        const Case cases[] = {{"2-d", squareSpace(), sphere2}, {"6-d", hartmannSpace(), sphere6}};
        for (const Case& c : cases) {
            for (int count : {100, 1000}) {
                auto searcher = withRandomHistory(bayesoptSpec(c.space), c.f, count);
                QVERIFY(searcher);
                QElapsedTimer timer;
                timer.start();
                const std::clock_t cpuStart = std::clock();
                QCOMPARE(searcher->suggest(trialId(count)).kind, Suggestion::Kind::Config);
                const double cpuMs = 1000.0 * double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
                qInfo(
                    "bayesopt %s: %lld ms per proposal (%.0f ms of CPU) after %d finished "
                    "trials",
                    c.name, static_cast<long long>(timer.elapsed()), cpuMs, count);
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestBayesopt)
#include "test_bayesopt.moc"
