// The tpe searcher: its options, Optuna 3.1's good/bad split, proposals that follow the good
// region, conditional spaces, the constant liar, multi-objective splits, points_to_evaluate and
// state round trips, and that it beats random search. The Parzen estimators' own numbers are in
// test_parzen_estimator.cpp.
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <ctime>
#include <functional>
#include <numbers>

#include "core/searcher.h"
#include "core/tpe_searcher.h"
#include "median.h"
#include "space_builders.h"
#include "test_objectives.h"

using namespace tunedeck;
using namespace tunedeck::testing;

namespace {

using Loss = std::function<double(const QJsonObject&)>;

ExperimentSpec tpeSpec(const SearchSpace& searchSpace, const QJsonObject& options = {},
                       std::uint64_t seed = 1, int numSamples = 5000) {
    ExperimentSpec spec;
    spec.searchSpace = searchSpace;
    spec.search.name = QStringLiteral("tpe");
    spec.search.options = options;
    spec.numSamples = numSamples;
    spec.seed = seed;
    spec.metric = QStringLiteral("loss");
    spec.mode = MetricMode::Min;
    spec.objectives = {{QStringLiteral("loss"), MetricMode::Min}};
    return spec;
}

std::unique_ptr<Searcher> makeTpe(const ExperimentSpec& spec) {
    const Status status = validateTpeOptions(spec, nullptr);
    if (!status.isOk()) {
        qWarning("%s", qPrintable(status.message()));
        return nullptr;
    }
    return makeTpeSearcher(spec);
}

QString trialName(int index) {
    return QStringLiteral("trial_%1").arg(index, 5, 10, QLatin1Char('0'));
}

QJsonObject suggestOne(Searcher& searcher, int index) {
    const Suggestion s = searcher.suggest(trialName(index));
    return s.kind == Suggestion::Kind::Config ? s.config : QJsonObject();
}

// Runs trials [first, first + count) one after the other, each finishing with `loss` of its
// config; returns the configs and puts the best loss into *best.
QList<QJsonObject> runTrials(Searcher& searcher, int first, int count, const Loss& loss,
                             double* best = nullptr) {
    QList<QJsonObject> configs;
    double lowest = std::numeric_limits<double>::infinity();
    for (int i = first; i < first + count; ++i) {
        const QJsonObject config = suggestOne(searcher, i);
        const double value = loss(config);
        lowest = std::min(lowest, value);
        searcher.onComplete(trialName(i), {{QStringLiteral("loss"), value}}, false);
        configs.append(config);
    }
    if (best) {
        *best = lowest;
    }
    return configs;
}

double number(const QJsonObject& config, const QString& path) {
    return valueAtPath(config, path).toDouble();
}

// Median over 10 seeds of the best loss after 60 trials.
double medianBest(const SearchSpace& s, const QString& algorithm, const QJsonObject& options,
                  const Loss& loss) {
    std::vector<double> bests;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        ExperimentSpec spec = tpeSpec(s, options, seed, 60);
        spec.search.name = algorithm;
        auto searcher = algorithm == QLatin1String("tpe") ? makeTpe(spec) : makeSearcher(spec);
        double best = 0;
        runTrials(*searcher, 0, 60, loss, &best);
        bests.push_back(best);
    }
    return median(bests);
}

double quadratic(const QJsonObject& c) {
    const double x = number(c, "x") - 0.3;
    const double y = number(c, "y") + 0.2;
    return x * x + y * y;
}

// A space with every kind of condition: `when`, a nested group, and a choice of groups whose
// options share a parameter name (`layers`) with different ranges.
SearchSpace conditionalSpace() {
    return space({
        param("optimizer", choice({"sgd", "adam"})),
        when(param("momentum", uniform(0.5, 0.99)), "optimizer", {"sgd"}),
        param("model", choiceOfGroups({
                           space({constant("type", "cnn"), param("layers", randint(1, 5)),
                                  param("kernel", choice({3, 5}))}),
                           space({constant("type", "mlp"), param("layers", randint(1, 9)),
                                  param("units", lograndint(16, 513))}),
                       })),
        group("train", space({param("lr", loguniform(1e-4, 1e-1)),
                              param("schedule", choice({"cosine", "step"})),
                              when(param("step_size", randint(1, 50)), "schedule", {"step"})})),
    });
}

QString keysOf(const QJsonObject& object) {
    QStringList keys = object.keys();
    keys.sort();
    return keys.join(',');
}

// Empty when `c` has exactly the keys SearchSpace::sample gives conditionalSpace(), with
// values in range; else what is wrong.
QString conditionalProblem(const QJsonObject& c) {
    const bool sgd = c.value("optimizer").toString() == QLatin1String("sgd");
    if (keysOf(c) != (sgd ? "model,momentum,optimizer,train" : "model,optimizer,train")) {
        return "top-level keys " + keysOf(c);
    }
    const QJsonObject model = c.value("model").toObject();
    const QString type = model.value("type").toString();
    const int layers = model.value("layers").toInt(-1);
    if (type == QLatin1String("cnn")) {
        if (keysOf(model) != "kernel,layers,type" || layers < 1 || layers > 4) {
            return "cnn model " + keysOf(model) + " layers " + QString::number(layers);
        }
    } else if (type == QLatin1String("mlp")) {
        const int units = model.value("units").toInt(-1);
        if (keysOf(model) != "layers,type,units" || layers < 1 || layers > 8 || units < 16 ||
            units > 512) {
            return "mlp model " + keysOf(model);
        }
    } else {
        return "model type " + type;
    }
    const QJsonObject train = c.value("train").toObject();
    const bool step = train.value("schedule").toString() == QLatin1String("step");
    if (keysOf(train) != (step ? "lr,schedule,step_size" : "lr,schedule")) {
        return "train keys " + keysOf(train);
    }
    return {};
}

double conditionalLoss(const QJsonObject& c) {
    const QJsonObject model = c.value("model").toObject();
    double loss = model.value("type").toString() == QLatin1String("cnn") ? 0 : 1;
    loss += std::abs(model.value("layers").toDouble() - 3) * 0.1;
    loss += std::abs(std::log10(number(c, "train.lr")) + 2);
    if (c.contains("momentum")) {
        loss += std::abs(number(c, "momentum") - 0.9);
    }
    return loss;
}

}  // namespace

class TestTpe : public QObject {
    Q_OBJECT

  private slots:
    void optionsAreValidatedWithOneLineMessages_data() {
        QTest::addColumn<QJsonObject>("options");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("message");
        QTest::newRow("startup") << QJsonObject{{"n_startup_trials", -1}}
                                 << "search.n_startup_trials"
                                 << "n_startup_trials must be a whole number >= 0 (got -1)";
        QTest::newRow("startup fraction")
            << QJsonObject{{"n_startup_trials", 2.5}} << "search.n_startup_trials"
            << "n_startup_trials must be a whole number >= 0 (got 2.5)";
        QTest::newRow("candidates")
            << QJsonObject{{"n_ei_candidates", 0}} << "search.n_ei_candidates"
            << "n_ei_candidates must be a whole number >= 1 (got 0)";
        QTest::newRow("gamma") << QJsonObject{{"gamma", 1.5}} << "search.gamma"
                               << "gamma must be a number in (0, 1], the fraction of finished "
                                  "trials modelled as good (got 1.5)";
        QTest::newRow("prior weight") << QJsonObject{{"prior_weight", 0}} << "search.prior_weight"
                                      << "prior_weight must be a number > 0 (got 0)";
        QTest::newRow("weights") << QJsonObject{{"weights", "linear"}} << "search.weights"
                                 << "weights must be 'default' (Optuna's: older trials beyond the "
                                    "newest 25 weigh less) or 'flat' (got 'linear')";
        QTest::newRow("flag") << QJsonObject{{"constant_liar", "yes"}} << "search.constant_liar"
                              << "constant_liar must be true or false (got 'yes')";
        QTest::newRow("multivariate") << QJsonObject{{"multivariate", 1}} << "search.multivariate"
                                      << "multivariate must be true or false (got 1)";
    }
    void optionsAreValidatedWithOneLineMessages() {
        QFETCH(QJsonObject, options);
        QFETCH(QString, key);
        QFETCH(QString, message);
        QString badKey;
        const Status status =
            validateTpeOptions(tpeSpec(space({param("x", uniform(0, 1))}), options), &badKey);
        QVERIFY(!status.isOk());
        QCOMPARE(badKey, key);
        QCOMPARE(status.message(), message);
        QVERIFY(!status.message().contains('\n'));
    }

    void defaultsAreOptunasExceptTheConstantLiar() {
        const QJsonObject all{{"n_startup_trials", 5},
                              {"n_ei_candidates", 8},
                              {"gamma", 0.2},
                              {"weights", "flat"},
                              {"prior_weight", 2.0},
                              {"consider_prior", false},
                              {"consider_magic_clip", false},
                              {"consider_endpoints", true},
                              {"multivariate", true},
                              {"constant_liar", false}};
        const ExperimentSpec spec = tpeSpec(space({param("x", uniform(0, 1))}), all);
        QVERIFY(validateTpeOptions(spec, nullptr).isOk());
        QStringList given = all.keys();
        QStringList names = tpeOptionNames();
        given.sort();
        names.sort();
        QCOMPARE(given, names);
        const TpeOptions set = TpeOptions::fromSpec(spec);
        QCOMPARE(set.nStartupTrials, 5);
        QVERIFY(set.flatWeights && set.estimator.multivariate && !set.constantLiar);

        const TpeOptions defaults = TpeOptions::fromSpec(tpeSpec(space({})));
        QCOMPARE(defaults.nStartupTrials, 10);
        QCOMPARE(defaults.nEiCandidates, 24);
        QCOMPARE(defaults.gamma, 0.1);
        QCOMPARE(defaults.estimator.priorWeight, 1.0);
        QVERIFY(defaults.estimator.considerPrior && defaults.estimator.considerMagicClip);
        QVERIFY(!defaults.estimator.considerEndpoints && !defaults.estimator.multivariate);
        QVERIFY(!defaults.flatWeights);
        QVERIFY(defaults.constantLiar);
    }

    void goodCountIsOptunasDefaultGamma() {
        // optuna.samplers._tpe.sampler.default_gamma(n) for these n, from Optuna 3.1.
        const std::vector<std::pair<std::size_t, std::size_t>> optuna = {
            {0, 0},    {1, 1},    {9, 1},    {10, 1},   {11, 2},   {30, 3},   {99, 10},
            {100, 10}, {101, 11}, {249, 25}, {250, 25}, {251, 25}, {1000, 25}};
        for (const auto& [n, good] : optuna) {
            QCOMPARE(tpeGoodCount(TpeOptions(), n), good);
        }
    }

    void startupPhaseIsRandom() {
        const SearchSpace s = space({param("x", uniform(-1, 1)), param("n", randint(0, 100)),
                                     param("c", choice({"a", "b", "c"}))});
        const ExperimentSpec spec = tpeSpec(s, {}, 5);
        auto searcher = makeTpe(spec);
        const auto configs = runTrials(
            *searcher, 0, 11, [](const QJsonObject& c) { return std::abs(number(c, "x")); });
        for (int i = 0; i < 10; ++i) {
            Rng rng = Rng::forStream(spec.seed, static_cast<std::uint64_t>(i));
            QCOMPARE(configs[i], s.sample(rng));
        }
        Rng rng = Rng::forStream(spec.seed, 10);
        QVERIFY(configs[10] != s.sample(rng));
    }

    void pointsToEvaluateComeFirst() {
        const SearchSpace s = space({param("x", uniform(0, 1)), param("y", uniform(0, 1))});
        const QJsonArray points{QJsonObject{{"x", 0.5}, {"y", 0.125}}, QJsonObject{{"x", 0.25}}};
        auto searcher = makeTpe(tpeSpec(s, {{"points_to_evaluate", points}}));
        const QJsonObject first = suggestOne(*searcher, 0);
        const QJsonObject second = suggestOne(*searcher, 1);
        QCOMPARE(first, (QJsonObject{{"x", 0.5}, {"y", 0.125}}));
        QCOMPARE(second.value("x").toDouble(), 0.25);
        QVERIFY(second.contains("y"));
    }

    void nextProposalLandsInTheGoodRegion() {
        // 30 scripted trials spread over [0, 1], the best at 0.7.
        QJsonArray points;
        for (int i = 0; i < 30; ++i) {
            points.append(QJsonObject{{"x", (i + 0.5) / 30}});
        }
        const SearchSpace s = space({param("x", uniform(0, 1))});
        const Loss loss = [](const QJsonObject& c) { return std::abs(number(c, "x") - 0.7); };
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
            auto searcher = makeTpe(tpeSpec(s, {{"points_to_evaluate", points}}, seed));
            runTrials(*searcher, 0, 30, loss);
            const double next = number(suggestOne(*searcher, 30), "x");
            QVERIFY2(std::abs(next - 0.7) < 0.1,
                     qPrintable(QStringLiteral("seed %1 proposed x = %2").arg(seed).arg(next)));
        }
    }

    void nextChoiceIsTheGoodOption() {
        // 30 scripted trials cycling through the options; "b" is always best.
        QJsonArray points;
        for (int i = 0; i < 30; ++i) {
            points.append(QJsonObject{{"c", QJsonArray{"a", "b", "c"}[i % 3]}});
        }
        const SearchSpace s = space({param("c", choice({"a", "b", "c"}))});
        const Loss loss = [](const QJsonObject& c) {
            return c.value("c").toString() == QLatin1String("b") ? 0.0 : 1.0;
        };
        int optionB = 0;
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
            auto searcher = makeTpe(tpeSpec(s, {{"points_to_evaluate", points}}, seed));
            runTrials(*searcher, 0, 30, loss);
            optionB += suggestOne(*searcher, 30).value("c").toString() == QLatin1String("b");
        }
        // Random search would pick it about 3 times in 10.
        QVERIFY2(optionB >= 8, qPrintable(QString::number(optionB)));
    }

    void everyDomainKindGivesValuesOfItsDomain() {
        const SearchSpace s = space({
            param("u", uniform(-1, 1)),
            param("qu", quniform(0, 1, 0.25)),
            param("lu", loguniform(1e-3, 1)),
            param("qlu", qloguniform(1, 100, 5)),
            param("ri", randint(-3, 4)),
            param("qri", qrandint(0, 20, 5)),
            param("lri", lograndint(1, 1000)),
            param("n", normal(10, 2)),
            param("qn", normal(0, 1, 0.5)),
            param("c", choice({"a", 1, true})),
            param("g", grid({"p", "q"})),
        });
        auto searcher = makeTpe(tpeSpec(s));
        const auto configs = runTrials(*searcher, 0, 40, [](const QJsonObject& c) {
            return std::abs(number(c, "u") - 0.5) + std::abs(number(c, "n") - 11);
        });
        QSet<QString> grids;
        for (const QJsonObject& c : configs) {
            auto whole = [&c](const QString& k) {
                const double v = number(c, k);
                return v == std::floor(v);
            };
            auto multiple = [&c](const QString& k, double q) {
                const double ratio = number(c, k) / q;
                return std::abs(ratio - std::round(ratio)) < 1e-9;
            };
            const QString shown =
                QString::fromUtf8(QJsonDocument(c).toJson(QJsonDocument::Compact));
            QVERIFY2(c.size() == 11, qPrintable(shown));
            QVERIFY2(number(c, "u") >= -1 && number(c, "u") < 1, qPrintable(shown));
            QVERIFY2(multiple("qu", 0.25) && number(c, "qu") <= 1, qPrintable(shown));
            QVERIFY2(number(c, "lu") >= 1e-3 && number(c, "lu") < 1, qPrintable(shown));
            QVERIFY2(number(c, "qlu") >= 1 && number(c, "qlu") <= 100, qPrintable(shown));
            QVERIFY2(whole("ri") && number(c, "ri") >= -3 && number(c, "ri") <= 3,
                     qPrintable(shown));
            QVERIFY2(multiple("qri", 5) && number(c, "qri") >= 0 && number(c, "qri") <= 20,
                     qPrintable(shown));
            QVERIFY2(whole("lri") && number(c, "lri") >= 1 && number(c, "lri") <= 999,
                     qPrintable(shown));
            QVERIFY2(std::abs(number(c, "n") - 10) <= 10.0 + 1e-9, qPrintable(shown));
            QVERIFY2(multiple("qn", 0.5), qPrintable(shown));
            QVERIFY2(QJsonArray({"a", 1, true}).contains(c.value("c")), qPrintable(shown));
            grids.insert(c.value("g").toString());
        }
        QCOMPARE(grids, (QSet<QString>{"p", "q"}));
    }

    void conditionalSpaceGivesOnlyValidKeys_data() {
        QTest::addColumn<bool>("multivariate");
        QTest::newRow("independent") << false;
        QTest::newRow("multivariate") << true;
    }
    void conditionalSpaceGivesOnlyValidKeys() {
        QFETCH(bool, multivariate);
        auto searcher = makeTpe(tpeSpec(conditionalSpace(), {{"multivariate", multivariate}}));
        const auto configs = runTrials(*searcher, 0, 80, conditionalLoss);
        QSet<QString> types;
        int cnn = 0;
        for (int i = 0; i < configs.size(); ++i) {
            const QString problem = conditionalProblem(configs[i]);
            QVERIFY2(problem.isEmpty(),
                     qPrintable(QStringLiteral("trial %1: %2").arg(i).arg(problem)));
            const QJsonObject model = configs[i].value("model").toObject();
            types.insert(model.value("type").toString());
            cnn += i >= 40 && model.value("type") == QLatin1String("cnn");
        }
        QCOMPARE(types, (QSet<QString>{"cnn", "mlp"}));
        // The model found the better branch (random search: about 20 of the last 40).
        QVERIFY2(cnn >= 30, qPrintable(QString::number(cnn)));
    }

    void constantLiarSteersAwayFromRunningTrials() {
        const SearchSpace s = space({param("x", uniform(0, 1))});
        const Loss loss = [](const QJsonObject& c) { return std::abs(number(c, "x") - 0.3); };
        double liarDistance = 0;
        double honestDistance = 0;
        int differ = 0;
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
            double running = 0;
            double next[2] = {0, 0};
            for (const bool liar : {false, true}) {
                auto searcher = makeTpe(tpeSpec(s, {{"constant_liar", liar}}, seed));
                runTrials(*searcher, 0, 30, loss);
                // Trial 30 is still running, in the good region, when trial 31 is proposed.
                const QJsonObject runningConfig = suggestOne(*searcher, 30);
                running = number(runningConfig, "x");
                next[liar] = number(suggestOne(*searcher, 31), "x");
            }
            differ += next[0] != next[1];
            honestDistance += std::abs(next[0] - running);
            liarDistance += std::abs(next[1] - running);
        }
        QVERIFY2(differ >= 8, qPrintable(QString::number(differ)));
        QVERIFY2(liarDistance > honestDistance,
                 qPrintable(QStringLiteral("%1 vs %2").arg(liarDistance).arg(honestDistance)));
    }

    void beatsRandomOnAQuadratic() {
        const SearchSpace s = space({param("x", uniform(-1, 1)), param("y", uniform(-1, 1))});
        const double random = medianBest(s, "random", {}, quadratic);
        const double tpe = medianBest(s, "tpe", {}, quadratic);
        const double joint = medianBest(s, "tpe", {{"multivariate", true}}, quadratic);
        qInfo("quadratic, median best after 60: random %g, tpe %g, multivariate tpe %g", random,
              tpe, joint);
        QVERIFY(tpe < random);
        QVERIFY(joint < random);
    }

    void beatsRandomOnBranin() {
        const SearchSpace s = space({param("x1", uniform(-5, 10)), param("x2", uniform(0, 15))});
        const double random = medianBest(s, "random", {}, branin);
        const double tpe = medianBest(s, "tpe", {}, branin);
        qInfo("branin (minimum 0.398), median best after 60: random %g, tpe %g", random, tpe);
        QVERIFY(tpe < random);
    }

    void multiObjectiveSplitTakesTheParetoFrontFirst() {
        // Front 0 is {0, 1, 2}: its extremes (infinite crowding distance) first, then the
        // middle; then the fronts {3}, {4}, {5}.
        const std::vector<std::vector<double>> losses = {{1, 5}, {2, 2}, {5, 1},
                                                         {3, 3}, {4, 4}, {6, 6}};
        const std::vector<std::size_t> order = tpeBestFirst(losses);
        QCOMPARE(order, (std::vector<std::size_t>{0, 2, 1, 3, 4, 5}));

        // f1 = x^2 and f2 = (x - 1)^2 trade off on [0, 1], the Pareto set.
        const SearchSpace s = space({param("x", uniform(-2, 3))});
        int inParetoSet = 0;
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            ExperimentSpec spec = tpeSpec(s, {}, seed);
            spec.objectives = {{"f1", MetricMode::Min}, {"f2", MetricMode::Max}};
            spec.metric = "f1";
            auto searcher = makeTpe(spec);
            for (int i = 0; i < 60; ++i) {
                const double x = number(suggestOne(*searcher, i), "x");
                if (i >= 40) {
                    inParetoSet += x >= -0.1 && x <= 1.1;
                }
                searcher->onComplete(trialName(i), {{"f1", x * x}, {"f2", -(x - 1) * (x - 1)}},
                                     false);
            }
        }
        // Random search would put about 24% there (1.2 of 5).
        QVERIFY2(inParetoSet >= 36, qPrintable(QString::number(inParetoSet)));
    }

    void restoredStateMakesTheSameProposals() {
        const SearchSpace s = conditionalSpace();
        const ExperimentSpec spec = tpeSpec(s, {}, 3);
        auto original = makeTpe(spec);
        runTrials(*original, 0, 20, conditionalLoss);
        // Two trials are still running when the state is saved.
        const QJsonObject r20 = suggestOne(*original, 20);
        const QJsonObject r21 = suggestOne(*original, 21);
        const QJsonObject saved = original->saveState();

        auto restored = makeTpe(spec);
        QVERIFY(restored->restoreState(saved).isOk());
        for (int i = 22; i < 30; ++i) {
            const QJsonObject a = suggestOne(*original, i);
            const QJsonObject b = suggestOne(*restored, i);
            QCOMPARE(a, b);
            if (i == 24) {
                for (Searcher* searcher : {original.get(), restored.get()}) {
                    searcher->onComplete(trialName(20), {{"loss", conditionalLoss(r20)}}, false);
                }
            }
            for (Searcher* searcher : {original.get(), restored.get()}) {
                searcher->onComplete(trialName(i), {{"loss", conditionalLoss(a)}}, false);
            }
        }
        QVERIFY(!r21.isEmpty());
    }

    void suggestionTime() {
        // The goal: a suggestion after 1,000 trials with 5 parameters well under 1 ms
        // in a Release build. Measured and printed, not asserted (machines differ).
        const SearchSpace s = space({param("a", uniform(0, 1)), param("b", uniform(0, 1)),
                                     param("c", loguniform(1e-3, 1)), param("d", randint(0, 100)),
                                     param("e", choice({"x", "y", "z"}))});
        const Loss loss = [](const QJsonObject& c) {
            return number(c, "a") + number(c, "b") + number(c, "c") + number(c, "d") / 100;
        };
        for (const int history : {100, 1000}) {
            QJsonArray points;
            Rng rng(history);
            for (int i = 0; i < history; ++i) {
                points.append(s.sample(rng));
            }
            auto searcher = makeTpe(tpeSpec(s, {{"points_to_evaluate", points}}));
            // The first proposal reads the whole history in; the timing is of the steady state.
            runTrials(*searcher, 0, history + 1, loss);
            const int timed = 50;
            qint64 nanoseconds = 0;
            std::clock_t processor = 0;
            for (int i = history + 1; i < history + 1 + timed; ++i) {
                QElapsedTimer timer;
                timer.start();
                const std::clock_t start = std::clock();
                const QJsonObject config = suggestOne(*searcher, i);
                processor += std::clock() - start;
                nanoseconds += timer.nsecsElapsed();
                QCOMPARE(config.size(), 5);
                searcher->onComplete(trialName(i), {{"loss", loss(config)}}, false);
            }
            // Processor time too: on a busy machine the wall clock counts other processes.
            qInfo("tpe suggestion after %d trials, 5 parameters: %.3f ms (processor time %.3f ms)",
                  history, double(nanoseconds) / timed / 1e6,
                  1e3 * double(processor) / CLOCKS_PER_SEC / timed);
        }
    }
};

QTEST_GUILESS_MAIN(TestTpe)
#include "test_tpe.moc"
