// cmaes: the update is the cmaes package's (Optuna's backend) number for number, the searcher
// optimises what CMA-ES should, runs asynchronous generations as Optuna does, and a resumed
// experiment continues the same run.
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

#include "core/cmaes_searcher.h"
#include "core/searcher.h"
#include "core/unit_cube.h"
#include "median.h"
#include "space_builders.h"
#include "test_objectives.h"

using namespace tunedeck;
using namespace tunedeck::testing;

namespace {

using Objective = std::function<double(const QJsonObject&)>;

ExperimentSpec cmaesSpec(const SearchSpace& searchSpace, int numSamples, std::uint64_t seed,
                         const QJsonObject& options = {}) {
    ExperimentSpec spec;
    spec.searchSpace = searchSpace;
    spec.search.name = QStringLiteral("cmaes");
    spec.search.options = options;
    spec.numSamples = numSamples;
    spec.seed = seed;
    spec.metric = QStringLiteral("loss");
    spec.mode = MetricMode::Min;
    spec.objectives = {{spec.metric, spec.mode}};
    return spec;
}

std::unique_ptr<CmaesSearcher> makeCmaes(const ExperimentSpec& spec) {
    QString badKey;
    const Status status = validateCmaesOptions(spec, &badKey);
    if (!status.isOk()) {
        qWarning("%s: %s", qPrintable(badKey), qPrintable(status.message()));
        return nullptr;
    }
    auto searcher = makeCmaesSearcher(spec);
    return std::unique_ptr<CmaesSearcher>(dynamic_cast<CmaesSearcher*>(searcher.release()));
}

QString trialName(int i) {
    return QStringLiteral("t%1").arg(i, 5, 10, QLatin1Char('0'));
}

QJsonObject suggestConfig(Searcher& searcher, int i) {
    const Suggestion s = searcher.suggest(trialName(i));
    if (s.kind != Suggestion::Kind::Config) {
        qWarning("trial %d: no config", i);
    }
    return s.config;
}

void finish(Searcher& searcher, int i, double loss) {
    searcher.onComplete(trialName(i), {{QStringLiteral("loss"), loss}}, false);
}

// Runs `evaluations` trials one at a time; returns the best loss seen.
double bestAfter(Searcher& searcher, const Objective& f, int evaluations) {
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < evaluations; ++i) {
        const QJsonObject config = suggestConfig(searcher, i);
        const double loss = f(config);
        best = std::min(best, loss);
        finish(searcher, i, loss);
    }
    return best;
}

// Median over seeds of the best value after `evaluations`, for `algorithm` ("cmaes", "random").
double medianBest(const QString& algorithm, const SearchSpace& searchSpace, const Objective& f,
                  int evaluations, int seeds) {
    std::vector<double> bests;
    for (int seed = 1; seed <= seeds; ++seed) {
        ExperimentSpec spec = cmaesSpec(searchSpace, evaluations, std::uint64_t(seed) * 7919);
        spec.search.name = algorithm;
        auto searcher = algorithm == QLatin1String("cmaes")
                            ? std::unique_ptr<Searcher>(makeCmaes(spec))
                            : makeSearcher(spec);
        bests.push_back(bestAfter(*searcher, f, evaluations));
    }
    return median(bests);
}

double value(const QJsonObject& config, const QString& name) {
    return config.value(name).toDouble();
}

SearchSpace unitSquare() {
    return space({param("x", uniform(0, 1)), param("y", uniform(0, 1))});
}

QString rejection(const ExperimentSpec& spec, QString* badKey) {
    const Status status = validateCmaesOptions(spec, badKey);
    return status.isOk() ? QString() : status.message();
}

void compareVectors(const Eigen::VectorXd& actual, const std::vector<double>& expected,
                    double tolerance) {
    QCOMPARE(actual.size(), Eigen::Index(expected.size()));
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (std::abs(actual[Eigen::Index(i)] - expected[i]) > tolerance) {
            QFAIL(qPrintable(QStringLiteral("element %1: %2, expected %3")
                                 .arg(i)
                                 .arg(actual[Eigen::Index(i)], 0, 'g', 17)
                                 .arg(expected[i], 0, 'g', 17)));
        }
    }
}

Eigen::VectorXd flat(const Eigen::MatrixXd& m) {
    return Eigen::Map<const Eigen::VectorXd>(m.data(), m.size());
}

}  // namespace

class TestCmaes : public QObject {
    Q_OBJECT

  private slots:
    // Reference numbers: cmaes 0.9.1 (Debian's python3-cmaes, the package Optuna 3.1 calls),
    // CMA(mean=np.full(d, 0.5), sigma=1/6, bounds=[[0, 1]] * d), its private attributes
    // _popsize, _mu, _mu_eff, _cc, _c1, _cmu, _c_sigma, _d_sigma, _chi_n, _funhist_term,
    // _weights printed with repr().
    void constantsMatchTheCmaesPackage_data() {
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("popsize");
        QTest::addColumn<int>("mu");
        QTest::addColumn<std::vector<double>>("scalars");  // muEff cc c1 cmu cSigma dSigma chiN
        QTest::addColumn<int>("funhistTerm");
        QTest::addColumn<std::vector<double>>("weights");
        QTest::newRow("d=2") << 2 << 6 << 3
                             << std::vector<double>{2.0286114646100617,  0.6245545390268264,
                                                    0.1548153998964136,  0.057859085071916304,
                                                    0.44620498737831715, 1.4462049873783172,
                                                    1.254272742818995}
                             << 20 << std::vector<double>{0.6370425712412168,  0.28457025743803294,
                                                          0.07838717132075033, -0.28638378259655295,
                                                          -0.7649580940851276, -1.1559817781589212};
        QTest::newRow("d=6") << 6 << 9 << 4
                             << std::vector<double>{2.8406104297170534,  0.40864968827481546,
                                                    0.03563118207139872, 0.0356863119967521,
                                                    0.3497396631671549,  1.349739663167155,
                                                    2.3506677359645445}
                             << 30 << std::vector<double>{0.4937383774843409,
                                                          0.2810968324806433,
                                                          0.15670950255807004,
                                                          0.06845528747694568,
                                                          0.0,
                                                          -0.23110816440549842,
                                                          -0.42650733323224577,
                                                          -0.5957697922778267,
                                                          -0.745069862150622};
    }
    void constantsMatchTheCmaesPackage() {
        QFETCH(int, d);
        QFETCH(int, popsize);
        QFETCH(int, mu);
        QFETCH(std::vector<double>, scalars);
        QFETCH(int, funhistTerm);
        QFETCH(std::vector<double>, weights);
        QCOMPARE(CmaEs::defaultPopsize(d), popsize);
        const CmaEs::Constants k = CmaEs::constantsFor(d, popsize);
        QCOMPARE(k.mu, mu);
        Eigen::VectorXd got(7);
        got << k.muEff, k.cc, k.c1, k.cmu, k.cSigma, k.dSigma, k.chiN;
        compareVectors(got, scalars, 1e-14);
        QCOMPARE(k.funhistTerm, funhistTerm);
        compareVectors(k.weights, weights, 1e-14);
    }

    // Two scripted generations through the package (same CMA as above, d = 2, tell() with the
    // points below and f = (x - 0.3)^2 + 2 (y - 0.4)^2, then _eigen_decomposition()):
    // mean, sigma, C, p_c and p_sigma after each must match.
    void tellMatchesTheCmaesPackage() {
        CmaEs cma(Eigen::Vector2d(0.5, 0.5), 1.0 / 6.0, 6);
        const auto f = [](double x, double y) {
            return (x - 0.3) * (x - 0.3) + 2 * (y - 0.4) * (y - 0.4);
        };
        const auto generation = [&](std::vector<std::pair<double, double>> points) {
            std::vector<CmaEs::Solution> solutions;
            for (const auto& [x, y] : points) {
                solutions.push_back({Eigen::Vector2d(x, y), f(x, y)});
            }
            cma.tell(solutions);
        };
        generation({{0.3, 0.6}, {0.7, 0.4}, {0.5, 0.9}, {0.2, 0.2}, {0.6, 0.55}, {0.45, 0.35}});
        QCOMPARE(cma.generation(), 1);
        compareVectors(cma.mean(), {0.3877176685541075, 0.40938448866139565}, 1e-13);
        QVERIFY(std::abs(cma.sigma() - 0.1575926280390503) < 1e-13);
        compareVectors(
            flat(cma.covariance()),
            {0.9818814519004404, 0.133763328387758, 0.133763328387758, 0.8871676169161464}, 1e-13);
        compareVectors(cma.pathC(), {-0.8893423664252462, -0.7177283571773942}, 1e-13);
        compareVectors(cma.pathSigma(), {-0.7989621060028076, -0.6447885330070875}, 1e-13);

        generation(
            {{0.31, 0.42}, {0.35, 0.5}, {0.2, 0.38}, {0.28, 0.3}, {0.4, 0.41}, {0.33, 0.45}});
        compareVectors(cma.mean(), {0.3227462505676282, 0.4277532360099335}, 1e-13);
        QVERIFY(std::abs(cma.sigma() - 0.14678942498317823) < 1e-13);
        compareVectors(
            flat(cma.covariance()),
            {0.9342706346213391, 0.12123487304144531, 0.12123487304144534, 0.674959347734812},
            1e-13);
        compareVectors(cma.pathC(), {-0.8781424355649045, -0.1155992716327765}, 1e-13);
        compareVectors(cma.pathSigma(), {-0.9500615370442085, -0.17242683934110636}, 1e-13);
    }

    void samplesStayInsideTheCube() {
        CmaEs cma(Eigen::Vector2d(0.02, 0.98), 0.5, 6);  // most raw draws fall outside
        Rng rng(5);
        for (int i = 0; i < 200; ++i) {
            const Eigen::VectorXd x = cma.ask(rng);
            QVERIFY((x.array() >= 0).all() && (x.array() <= 1).all());
        }
    }

    void defaultsFollowOptuna() {
        auto searcher = makeCmaes(cmaesSpec(unitSquare(), 50, 3));
        QVERIFY(searcher);
        // n_startup_trials 1: the first trial is random, the distribution waits for its result.
        suggestConfig(*searcher, 0);
        suggestConfig(*searcher, 1);
        QVERIFY(!searcher->distribution());
        finish(*searcher, 0, 1.0);
        suggestConfig(*searcher, 2);
        const CmaEs* cma = searcher->distribution();
        QVERIFY(cma);
        QCOMPARE(cma->popsize(), 6);  // 4 + floor(3 ln 2)
        QCOMPARE(cma->sigma(), 1.0 / 6.0);
        compareVectors(cma->mean(), {0.5, 0.5}, 0);
    }

    void optionsSetTheStartingDistribution() {
        const SearchSpace s = space({param("lr", loguniform(1e-4, 1)),
                                     group("net", space({param("width", uniform(0, 10))}))});
        auto searcher = makeCmaes(cmaesSpec(s, 50, 3,
                                            {{"x0", QJsonObject{{"lr", 1e-2}, {"net.width", 2.5}}},
                                             {"sigma0", 0.3},
                                             {"popsize", 10},
                                             {"n_startup_trials", 0}}));
        QVERIFY(searcher);
        suggestConfig(*searcher, 0);
        const CmaEs* cma = searcher->distribution();
        QVERIFY(cma);
        QCOMPARE(cma->popsize(), 10);
        QCOMPARE(cma->sigma(), 0.3);
        compareVectors(cma->mean(), {0.5, 0.25}, 1e-12);  // lr 1e-2 is halfway in log scale
    }

    // With cm = 1 and the positive weights summing to 1, the new mean is the weighted mean of
    // the best half of the generation: it moves toward the better samples.
    void meanMovesTowardTheBetterSamples() {
        auto searcher = makeCmaes(cmaesSpec(unitSquare(), 50, 9, {{"n_startup_trials", 0}}));
        QVERIFY(searcher);
        const UnitCube cube(unitSquare());
        std::vector<std::pair<double, Eigen::VectorXd>> told;  // (loss, point)
        for (int i = 0; i < 6; ++i) {
            const QJsonObject config = suggestConfig(*searcher, i);
            told.emplace_back(value(config, "x"), *cube.encode(config));
        }
        const Eigen::VectorXd before = searcher->distribution()->mean();
        for (int i = 0; i < 6; ++i) {
            finish(*searcher, i, told[std::size_t(i)].first);  // lower x is better
        }
        suggestConfig(*searcher, 6);  // tells the generation
        const CmaEs* cma = searcher->distribution();
        QCOMPARE(cma->generation(), 1);
        std::stable_sort(told.begin(), told.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        Eigen::VectorXd expected = Eigen::VectorXd::Zero(2);
        for (int i = 0; i < cma->constants().mu; ++i) {
            expected += cma->constants().weights[i] * told[std::size_t(i)].second;
        }
        compareVectors(cma->mean(), {expected[0], expected[1]}, 1e-12);
        QVERIFY(cma->mean()[0] < before[0]);
        QVERIFY(cma->mean()[0] < median({told[0].second[0], told[1].second[0], told[2].second[0],
                                         told[3].second[0], told[4].second[0], told[5].second[0]}));
    }

    void sigmaShrinksOnASphere() {
        auto searcher = makeCmaes(cmaesSpec(unitSquare(), 400, 4));
        QVERIFY(searcher);
        bestAfter(
            *searcher,
            [](const QJsonObject& c) {
                return std::pow(value(c, "x") - 0.4, 2) + std::pow(value(c, "y") - 0.6, 2);
            },
            200);
        QVERIFY(searcher->distribution()->sigma() < 1.0 / 6.0 / 10);
    }

    void convergesOnAShiftedSphere8d() {
        SearchSpace s;
        for (int i = 0; i < 8; ++i) {
            s.parameters.push_back(param(QStringLiteral("x%1").arg(i), uniform(-5, 5)));
        }
        const auto sphere = [](const QJsonObject& c) {
            double sum = 0;
            for (int i = 0; i < 8; ++i) {
                const double d = value(c, QStringLiteral("x%1").arg(i)) - (1.5 - 0.4 * i);
                sum += d * d;
            }
            return sum;
        };
        for (std::uint64_t seed : {1, 2, 3}) {
            auto searcher = makeCmaes(cmaesSpec(s, 800, seed));
            QVERIFY(searcher);
            const double best = bestAfter(*searcher, sphere, 800);
            QVERIFY2(best < 1e-3, qPrintable(QString::number(best)));
        }
    }

    // Optuna falls back to random search for a single coordinate; we run CMA-ES (see header).
    // Also checks that mode max is maximised.
    void oneParameterMaximisedWithCmaEs() {
        ExperimentSpec spec = cmaesSpec(space({param("lr", loguniform(1e-5, 1))}), 150, 6);
        spec.mode = MetricMode::Max;
        spec.objectives = {{spec.metric, spec.mode}};
        auto searcher = makeCmaes(spec);
        QVERIFY(searcher);
        double best = -std::numeric_limits<double>::infinity();
        for (int i = 0; i < 150; ++i) {
            const QJsonObject config = suggestConfig(*searcher, i);
            const double accuracy = -std::pow(std::log10(value(config, "lr")) + 3.3, 2);
            best = std::max(best, accuracy);
            finish(*searcher, i, accuracy);
        }
        QCOMPARE(searcher->distribution()->dimensions(), 1);
        QVERIFY2(best > -1e-6, qPrintable(QString::number(best)));
        QVERIFY(std::abs(searcher->distribution()->mean()[0] - 1.7 / 5) < 1e-2);
    }

    void beatsRandomOnBranin() {
        const SearchSpace s = space({param("x1", uniform(-5, 10)), param("x2", uniform(0, 15))});
        const double cmaes = medianBest("cmaes", s, branin, 100, 5);
        const double random = medianBest("random", s, branin, 100, 5);
        QVERIFY2(cmaes < random,
                 qPrintable(QStringLiteral("cmaes %1, random %2").arg(cmaes).arg(random)));
    }

    void beatsRandomOnHartmann6() {
        SearchSpace s;
        for (int i = 0; i < 6; ++i) {
            s.parameters.push_back(param(QStringLiteral("x%1").arg(i), uniform(0, 1)));
        }
        const double cmaes = medianBest("cmaes", s, hartmann6, 100, 5);
        const double random = medianBest("random", s, hartmann6, 100, 5);
        QVERIFY2(cmaes < random,
                 qPrintable(QStringLiteral("cmaes %1, random %2").arg(cmaes).arg(random)));
    }

    // Trials drawn from generation 0 that finish after generation 1 has started must not count
    // toward generation 1: the run is the same as if they never finished.
    void lateArrivalsFromAnOldGenerationAreIgnored() {
        const auto run = [](bool lateArrivals) {
            auto searcher = makeCmaes(cmaesSpec(unitSquare(), 100, 21, {{"n_startup_trials", 0}}));
            const auto loss = [](const QJsonObject& c) { return value(c, "x") + value(c, "y"); };
            std::vector<QJsonObject> configs;
            for (int i = 0; i < 8; ++i) {  // generation 0, two more than popsize
                configs.push_back(suggestConfig(*searcher, i));
            }
            for (int i = 0; i < 6; ++i) {
                finish(*searcher, i, loss(configs[std::size_t(i)]));
            }
            configs.push_back(suggestConfig(*searcher, 8));  // tells generation 0
            if (lateArrivals) {
                finish(*searcher, 6, -100);  // would dominate the next update if counted
                finish(*searcher, 7, -100);
            }
            QStringList proposals;
            for (int i = 9; i < 30; ++i) {
                configs.push_back(suggestConfig(*searcher, i));
                finish(*searcher, i - 1, loss(configs[std::size_t(i - 1)]));
                proposals.append(QString::fromUtf8(QJsonDocument(configs.back()).toJson()));
            }
            return std::make_pair(proposals, searcher->distribution()->generation());
        };
        const auto [withLate, generationWithLate] = run(true);
        const auto [without, generationWithout] = run(false);
        QCOMPARE(generationWithLate, generationWithout);
        QVERIFY(generationWithout >= 3);
        QCOMPARE(withLate, without);
    }

    void ipopRestartsWithADoubledPopulationWhenStuck() {
        const auto flatLoss = [](const QJsonObject&) { return 1.0; };
        auto plain = makeCmaes(cmaesSpec(unitSquare(), 200, 2));
        bestAfter(*plain, flatLoss, 200);
        QCOMPARE(plain->restarts(), 0);
        QCOMPARE(plain->distribution()->popsize(), 6);

        auto ipop = makeCmaes(cmaesSpec(unitSquare(), 200, 2, {{"restart_strategy", "ipop"}}));
        bestAfter(*ipop, flatLoss, 200);
        // Values flat for more than funhist_term (20) generations: should_stop() holds.
        QCOMPARE(ipop->restarts(), 1);
        QCOMPARE(ipop->distribution()->popsize(), 12);
        QVERIFY(ipop->distribution()->mean() != Eigen::Vector2d(0.5, 0.5));
    }

    // Saved mid-generation (some trials out, some back) and restored from its JSON text into a
    // new searcher: the next proposals and the distribution are the original's.
    void savedStateContinuesTheSameRun() {
        const SearchSpace s =
            space({param("x", uniform(-1, 1)), param("n", randint(0, 20)),
                   param("lr", loguniform(1e-4, 1e-1)), param("act", choice({"relu", "tanh"}))});
        const ExperimentSpec spec = cmaesSpec(s, 200, 8, {{"restart_strategy", "ipop"}});
        const auto loss = [](const QJsonObject& c) {
            return std::pow(value(c, "x") - 0.3, 2) + std::pow(value(c, "n") - 7, 2) / 100 +
                   std::pow(std::log10(value(c, "lr")) + 2.5, 2);
        };
        auto original = makeCmaes(spec);
        std::vector<QJsonObject> configs;
        for (int i = 0; i < 40; ++i) {
            configs.push_back(suggestConfig(*original, i));
            if (i >= 3) {
                finish(*original, i - 3, loss(configs[std::size_t(i - 3)]));  // 3 always out
            }
        }
        const QByteArray saved = QJsonDocument(original->saveState()).toJson();
        auto restored = makeCmaes(spec);
        QVERIFY(restored->restoreState(QJsonDocument::fromJson(saved).object()).isOk());
        QCOMPARE(restored->distribution()->generation(), original->distribution()->generation());
        for (int i = 40; i < 120; ++i) {
            const QJsonObject a = suggestConfig(*original, i);
            const QJsonObject b = suggestConfig(*restored, i);
            QCOMPARE(b, a);
            configs.push_back(a);
            finish(*original, i - 3, loss(configs[std::size_t(i - 3)]));
            finish(*restored, i - 3, loss(configs[std::size_t(i - 3)]));
        }
        QVERIFY(original->distribution()->generation() > 10);
        QCOMPARE(restored->distribution()->sigma(), original->distribution()->sigma());
        QVERIFY(restored->distribution()->covariance() == original->distribution()->covariance());
    }

    void corruptStateIsRefused() {
        auto searcher = makeCmaes(cmaesSpec(unitSquare(), 50, 1, {{"n_startup_trials", 0}}));
        suggestConfig(*searcher, 0);
        QJsonObject state = searcher->saveState();
        QJsonObject model = state.value("model").toObject();
        QJsonObject cma = model.value("cma").toObject();
        cma.insert("mean", QJsonArray{0.5, 0.5, 0.5});  // three coordinates for a 2-d space
        model.insert("cma", cma);
        state.insert("model", model);
        auto other = makeCmaes(cmaesSpec(unitSquare(), 50, 1, {{"n_startup_trials", 0}}));
        const Status status = other->restoreState(state);
        QCOMPARE(status.code(), Status::Code::Corruption);
    }

    // choice parameters are drawn uniformly for every trial, whatever CMA-ES has learnt.
    void categoricalParametersAreSampledAtRandom() {
        const SearchSpace s = space({param("x", uniform(0, 1)), param("y", uniform(0, 1)),
                                     param("opt", choice({"a", "b", "c"}))});
        auto searcher = makeCmaes(cmaesSpec(s, 400, 5));
        std::map<QString, int> late;
        for (int i = 0; i < 400; ++i) {
            const QJsonObject config = suggestConfig(*searcher, i);
            const QString opt = config.value("opt").toString();
            QVERIFY(opt == "a" || opt == "b" || opt == "c");
            if (i >= 100) {
                ++late[opt];
            }
            const double penalty = opt == "a" ? 0 : 1;  // a model would learn to pick "a"
            finish(*searcher, i, std::pow(value(config, "x") - 0.2, 2) + penalty);
        }
        for (const QString opt : {"a", "b", "c"}) {
            QVERIFY2(late[opt] > 70 && late[opt] < 130,
                     qPrintable(QStringLiteral("%1: %2 of 300").arg(opt).arg(late[opt])));
        }
    }

    void refusesWhatItCannotDo() {
        QString badKey;
        auto spec = cmaesSpec(space({param("opt", choice({"a", "b"}))}), 10, 1);
        QVERIFY(rejection(spec, &badKey)
                    .startsWith(QStringLiteral("cmaes needs at least one numeric parameter (or an "
                                               "empty search_space, whose trials ask")));
        QCOMPARE(badKey, QStringLiteral("search_space"));
        // An empty space is define-by-run: the trials ask for their parameters.
        QVERIFY(rejection(cmaesSpec(SearchSpace(), 10, 1), &badKey).isEmpty());

        spec = cmaesSpec(unitSquare(), 10, 1);
        spec.objectives.push_back({"time", MetricMode::Min});
        QCOMPARE(rejection(spec, &badKey), QStringLiteral("cmaes optimises one metric"));
        QCOMPARE(badKey, QStringLiteral("metric"));
    }

    void refusesBadOptions_data() {
        QTest::addColumn<QJsonObject>("options");
        QTest::addColumn<QString>("badKey");
        QTest::addColumn<QString>("message");
        QTest::newRow("x0 outside") << QJsonObject{{"x0", QJsonObject{{"y", 1.5}}}} << "search.x0.y"
                                    << "x0: 'y' = 1.5 is outside its range [0, 1]";
        QTest::newRow("x0 nested outside")
            << QJsonObject{{"x0", QJsonObject{{"net", QJsonObject{{"depth", 9}}}}}}
            << "search.x0.net.depth"
            << "x0: 'net.depth' = 9 is outside its range [2, 9)";
        QTest::newRow("x0 unknown") << QJsonObject{{"x0", QJsonObject{{"z", 0.5}}}} << "search.x0.z"
                                    << "x0 sets 'z', which is not a numeric parameter cmaes "
                                       "searches (it searches x, y, net.depth)";
        QTest::newRow("x0 not a number")
            << QJsonObject{{"x0", QJsonObject{{"x", "half"}}}} << "search.x0.x"
            << "x0: 'x' must be a number (got 'half')";
        QTest::newRow("x0 not a mapping")
            << QJsonObject{{"x0", QJsonArray{0.5, 0.5}}} << "search.x0"
            << "x0 must be a mapping of parameter names to starting "
               "values (got a list)";
        QTest::newRow("startup") << QJsonObject{{"n_startup_trials", -1}}
                                 << "search.n_startup_trials"
                                 << "n_startup_trials must be a whole number >= 0 (got -1)";
        QTest::newRow("popsize") << QJsonObject{{"popsize", 3}} << "search.popsize"
                                 << "popsize must be a whole number >= 4 (got 3)";
        QTest::newRow("popsize fraction") << QJsonObject{{"popsize", 6.5}} << "search.popsize"
                                          << "popsize must be a whole number >= 4 (got 6.5)";
        QTest::newRow("sigma0") << QJsonObject{{"sigma0", 0}} << "search.sigma0"
                                << "sigma0 must be a number > 0, a fraction of each parameter's "
                                   "range (got 0)";
        // The value reads back as the user wrote it, as in every searcher's messages.
        QTest::newRow("sigma0 long") << QJsonObject{{"sigma0", -0.1234567891}} << "search.sigma0"
                                     << "sigma0 must be a number > 0, a fraction of each "
                                        "parameter's range (got -0.1234567891)";
        QTest::newRow("restart") << QJsonObject{{"restart_strategy", "bipop"}}
                                 << "search.restart_strategy"
                                 << "restart_strategy must be none or ipop (got 'bipop')";
        QTest::newRow("inc_popsize") << QJsonObject{{"inc_popsize", 0}} << "search.inc_popsize"
                                     << "inc_popsize must be a whole number >= 1 (got 0)";
    }
    void refusesBadOptions() {
        QFETCH(QJsonObject, options);
        QFETCH(QString, badKey);
        QFETCH(QString, message);
        const SearchSpace s = space({param("x", uniform(0, 1)), param("y", uniform(0, 1)),
                                     group("net", space({param("depth", randint(2, 9))}))});
        QString key;
        QCOMPARE(rejection(cmaesSpec(s, 10, 1, options), &key), message);
        QCOMPARE(key, badKey);
    }

    void acceptsOptunasOptions() {
        const QJsonObject options{
            {"x0", QJsonObject{{"x", 0.2}, {"net", QJsonObject{{"depth", 8}}}}},
            {"sigma0", 0.2},
            {"popsize", 8},
            {"n_startup_trials", 0},
            {"restart_strategy", "ipop"},
            {"inc_popsize", 3}};
        const SearchSpace s = space({param("x", uniform(0, 1)), param("y", uniform(0, 1)),
                                     group("net", space({param("depth", randint(2, 9))}))});
        QString key;
        QCOMPARE(rejection(cmaesSpec(s, 10, 1, options), &key), QString());
        QCOMPARE(rejection(cmaesSpec(s, 10, 1, {{"restart_strategy", QJsonValue()}}), &key),
                 QString());
        for (const QString& option : options.keys()) {
            QVERIFY(cmaesOptionNames().contains(option));
        }
    }
};

QTEST_APPLESS_MAIN(TestCmaes)
#include "test_cmaes.moc"
