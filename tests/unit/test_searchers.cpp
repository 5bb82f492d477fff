// Searchers: how many trials they propose, in which order, and that a resumed experiment
// continues with exactly the configs the first run would have proposed.
#include <QTest>

#include "core/experiment_limits.h"
#include "core/searcher.h"
#include "space_builders.h"

using namespace tunedeck;
using namespace tunedeck::testing;

namespace {

ExperimentSpec specWith(const SearchSpace& searchSpace, const QString& algorithm, int numSamples,
                        std::uint64_t seed = 1) {
    ExperimentSpec spec;
    spec.searchSpace = searchSpace;
    spec.search.name = algorithm;
    spec.numSamples = numSamples;
    spec.seed = seed;
    return spec;
}

// Every config the searcher proposes until Finished (bounded, so a bug cannot hang the test).
QList<QJsonObject> drain(Searcher& searcher, int limit = 10000) {
    QList<QJsonObject> configs;
    for (int i = 0; i < limit; ++i) {
        const Suggestion s = searcher.suggest(QStringLiteral("t%1").arg(i));
        if (s.kind == Suggestion::Kind::Finished) {
            break;
        }
        configs.append(s.config);
    }
    return configs;
}

QString validationKey(const ExperimentSpec& spec, Status* status = nullptr) {
    QString badKey;
    const Status result = validateSearcher(spec, &badKey);
    if (status) {
        *status = result;
    }
    return badKey;
}

}  // namespace

class TestSearchers : public QObject {
    Q_OBJECT

  private slots:
    void knownNames() {
        QCOMPARE(knownSearchers(),
                 (QStringList{"random", "grid", "tpe", "bayesopt", "cmaes", "bohb"}));
    }

    void randomProposesNumSamplesThenFinished() {
        const auto spec = specWith(space({param("lr", loguniform(1e-4, 1))}), "random", 5);
        QVERIFY(validateSearcher(spec, nullptr).isOk());
        auto searcher = makeSearcher(spec);
        QVERIFY(searcher);
        QCOMPARE(searcher->totalTrials(), std::int64_t(5));
        QCOMPARE(drain(*searcher).size(), 5);
        QCOMPARE(searcher->suggest("t99").kind, Suggestion::Kind::Finished);
    }

    void randomRepeatsTheGridNumSamplesTimes() {
        // Ray: num_samples=2 with a 3-point grid runs 6 trials, the grid swept once per sample.
        const auto spec =
            specWith(space({param("a", grid({1, 2, 3})), param("lr", uniform(0, 1))}), "random", 2);
        auto searcher = makeSearcher(spec);
        QCOMPARE(searcher->totalTrials(), std::int64_t(6));
        const auto configs = drain(*searcher);
        QCOMPARE(configs.size(), 6);
        QList<int> order;
        QSet<double> lrs;
        for (const auto& c : configs) {
            order << c["a"].toInt();
            lrs.insert(c["lr"].toDouble());
        }
        QCOMPARE(order, (QList<int>{1, 2, 3, 1, 2, 3}));
        QCOMPARE(lrs.size(), 6);  // the random part is drawn afresh for every trial
    }

    void sameSeedSameConfigsDifferentSeedDifferent() {
        const auto s = space({param("lr", loguniform(1e-4, 1)), param("bs", choice({16, 32, 64}))});
        auto a = makeSearcher(specWith(s, "random", 10, 7));
        auto b = makeSearcher(specWith(s, "random", 10, 7));
        auto c = makeSearcher(specWith(s, "random", 10, 8));
        const auto ca = drain(*a);
        QCOMPARE(drain(*b), ca);
        QVERIFY(drain(*c) != ca);
    }

    void restoreOnAFreshSearcherContinuesExactly_data() {
        QTest::addColumn<QString>("algorithm");
        QTest::newRow("random") << "random";
        QTest::newRow("grid") << "grid";
    }
    void restoreOnAFreshSearcherContinuesExactly() {
        QFETCH(QString, algorithm);
        auto spec = specWith(space({param("a", grid({1, 2})), param("b", randint(0, 3)),
                                    param("c", choice({"x", "y"}))}),
                             algorithm, 3);
        if (algorithm == QStringLiteral("random")) {
            spec.search.options.insert("points_to_evaluate", QJsonArray{QJsonObject{{"b", 2}}});
        }
        QVERIFY(validateSearcher(spec, nullptr).isOk());
        auto original = makeSearcher(spec);
        for (int i = 0; i < 3; ++i) {
            original->suggest("t");
        }
        const QJsonObject state = original->saveState();
        auto resumed = makeSearcher(spec);
        QVERIFY(resumed->restoreState(state).isOk());
        const auto expected = drain(*original);
        QVERIFY(!expected.isEmpty());
        QCOMPARE(drain(*resumed), expected);
    }

    void restoreRejectsForeignOrBrokenState() {
        const auto spec = specWith(space({param("x", randint(0, 5))}), "random", 3);
        auto searcher = makeSearcher(spec);
        QVERIFY(!searcher->restoreState({{"algorithm", "grid"}, {"next", 1}}).isOk());
        QVERIFY(!searcher->restoreState({{"algorithm", "random"}, {"next", "two"}}).isOk());
        QVERIFY(!searcher->restoreState({{"algorithm", "random"}, {"next", 99}}).isOk());
        QVERIFY(!searcher->restoreState({{"algorithm", "random"}, {"next", -1}}).isOk());
        QVERIFY(searcher->restoreState({{"algorithm", "random"}, {"next", 3}}).isOk());
        QCOMPARE(searcher->suggest("t").kind, Suggestion::Kind::Finished);
    }

    void pointsToEvaluateComeFirstAndCountTowardTheTotal() {
        auto spec = specWith(space({param("lr", uniform(0, 1)), param("bs", choice({16, 32}))}),
                             "random", 4);
        spec.search.options.insert(
            "points_to_evaluate",
            QJsonArray{QJsonObject{{"lr", 0.5}}, QJsonObject{{"lr", 0.25}, {"bs", 32}}});
        QVERIFY(validateSearcher(spec, nullptr).isOk());
        auto searcher = makeSearcher(spec);
        QCOMPARE(searcher->totalTrials(), std::int64_t(4));
        const auto configs = drain(*searcher);
        QCOMPARE(configs.size(), 4);
        QCOMPARE(configs[0]["lr"].toDouble(), 0.5);
        QVERIFY(configs[0].contains("bs"));  // filled in by sampling
        QCOMPARE(configs[1], (QJsonObject{{"lr", 0.25}, {"bs", 32}}));
        QVERIFY(configs[2]["lr"].toDouble() != 0.5 && configs[2]["lr"].toDouble() != 0.25);
        QCOMPARE(searcher->saveState()["points_consumed"].toInt(), 2);
    }

    void pointsBeyondNumSamplesAllRun() {
        auto spec = specWith(space({param("lr", uniform(0, 1))}), "random", 1);
        spec.search.options.insert("points_to_evaluate",
                                   QJsonArray{QJsonObject{{"lr", 0.1}}, QJsonObject{{"lr", 0.2}},
                                              QJsonObject{{"lr", 0.3}}});
        auto searcher = makeSearcher(spec);
        const auto configs = drain(*searcher);
        QCOMPARE(configs.size(), 3);
        QCOMPARE(configs[2]["lr"].toDouble(), 0.3);
    }

    void aPointSweepsTheGridParametersItLeavesOpen() {
        // Ray's _count_variants: each point is one sample and expands over unset grid axes.
        auto spec =
            specWith(space({param("g", grid({1, 2})), param("lr", uniform(0, 1))}), "random", 3);
        spec.search.options.insert(
            "points_to_evaluate",
            QJsonArray{QJsonObject{{"lr", 0.5}}, QJsonObject{{"lr", 0.1}, {"g", 2}}});
        auto searcher = makeSearcher(spec);
        QCOMPARE(searcher->totalTrials(), std::int64_t(5));
        const auto configs = drain(*searcher);
        QCOMPARE(configs.size(), 5);
        QCOMPARE(configs[0], (QJsonObject{{"g", 1}, {"lr", 0.5}}));
        QCOMPARE(configs[1], (QJsonObject{{"g", 2}, {"lr", 0.5}}));
        QCOMPARE(configs[2], (QJsonObject{{"g", 2}, {"lr", 0.1}}));
        QCOMPARE(configs[3]["g"].toInt(), 1);
        QCOMPARE(configs[4]["g"].toInt(), 2);
    }

    void gridExpandsEveryFiniteDomainInWrittenOrder() {
        const auto spec = specWith(space({param("a", randint(0, 3)), constant("k", "fixed"),
                                          group("m", space({param("b", choice({"x", "y"}))}))}),
                                   "grid", 2);
        QVERIFY(validateSearcher(spec, nullptr).isOk());
        auto searcher = makeSearcher(spec);
        QCOMPARE(searcher->totalTrials(), std::int64_t(12));
        const auto configs = drain(*searcher);
        QCOMPARE(configs.size(), 12);
        QStringList order;
        for (const auto& c : configs) {
            order << QString::number(c["a"].toInt()) + c["m"].toObject()["b"].toString();
            QCOMPARE(c["k"].toString(), QStringLiteral("fixed"));
        }
        const QStringList once{"0x", "0y", "1x", "1y", "2x", "2y"};
        QCOMPARE(order, once + once);
        QCOMPARE(searcher->suggest("t").kind, Suggestion::Kind::Finished);
    }

    void gridExpandsQuantizedDomains() {
        const auto spec = specWith(
            space({param("p", quniform(0, 1, 0.25)), param("n", qrandint(0, 10, 5))}), "grid", 1);
        auto searcher = makeSearcher(spec);
        const auto configs = drain(*searcher);
        QCOMPARE(configs.size(), 15);
        QCOMPARE(configs[0], (QJsonObject{{"p", 0}, {"n", 0}}));
        QCOMPARE(configs[14], (QJsonObject{{"p", 1}, {"n", 10}}));
        QCOMPARE(configs[4]["p"].toDouble(), 0.25);
    }

    void gridRejectsContinuousDomains() {
        const auto spec = specWith(
            space({param("bs", choice({16, 32})), param("lr", loguniform(1e-4, 1e-1))}), "grid", 1);
        Status status;
        QCOMPARE(validationKey(spec, &status), QStringLiteral("search_space.lr"));
        QCOMPARE(status.message(),
                 QStringLiteral("grid search needs finite domains: 'lr' is loguniform; give it a q "
                                "or use random"));
        QVERIFY(!makeSearcher(spec));
        for (const Domain& d : {uniform(0, 1), normal(0, 1), lograndint(1, 10)}) {
            QVERIFY(!validateSearcher(specWith(space({param("x", d)}), "grid", 1), nullptr).isOk());
        }
    }

    void gridRejectsChoicesOfGroupsAndConditions() {
        Status status;
        const auto groups =
            specWith(space({param("opt", choiceOfGroups({space({param("m", choice({1, 2}))})}))}),
                     "grid", 1);
        QCOMPARE(validationKey(groups, &status), QStringLiteral("search_space.opt"));
        QVERIFY(status.message().contains(QStringLiteral("options contain search domains")));
        const auto conditional =
            specWith(space({param("opt", choice({"sgd", "adam"})),
                            when(param("m", choice({0.9, 0.99})), "opt", {"sgd"})}),
                     "grid", 1);
        QCOMPARE(validationKey(conditional, &status), QStringLiteral("search_space.m"));
    }

    void gridRejectsAnAbsurdNumberOfTrials() {
        const auto spec = specWith(
            space({param("a", randint(0, 1000000)), param("b", randint(0, 1000000))}), "grid", 1);
        Status status;
        QCOMPARE(validationKey(spec, &status), QStringLiteral("search.algorithm"));
        QVERIFY(status.message().contains(QStringLiteral("more than")));
    }

    void unknownAlgorithmListsTheKnownOnes() {
        Status status;
        QCOMPARE(validationKey(specWith(space({}), "bayes", 1), &status),
                 QStringLiteral("search.algorithm"));
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QCOMPARE(status.message(),
                 QStringLiteral("unknown search algorithm 'bayes'; known algorithms: random, grid, "
                                "tpe, bayesopt, cmaes, bohb"));
        QVERIFY(!makeSearcher(specWith(space({}), "bayes", 1)));
    }

    void unknownOptionListsTheAllowedOnes() {
        auto spec = specWith(space({param("x", uniform(0, 1))}), "random", 1);
        spec.search.options.insert("point_to_evaluate", QJsonArray{});
        Status status;
        QCOMPARE(validationKey(spec, &status), QStringLiteral("search.point_to_evaluate"));
        QVERIFY(status.message().contains(QStringLiteral("allowed: points_to_evaluate")));
        auto grid = specWith(space({param("x", choice({1}))}), "grid", 1);
        grid.search.options.insert("points_tu_evaluate", QJsonArray{});
        QCOMPARE(validationKey(grid, &status), QStringLiteral("search.points_tu_evaluate"));
        QVERIFY(status.message().contains(QStringLiteral("allowed: points_to_evaluate")));
    }

    void gridRunsPointsToEvaluateBeforeTheGrid() {
        auto spec = specWith(space({param("x", choice({1, 2}))}), "grid", 1);
        spec.search.options.insert("points_to_evaluate", QJsonArray{QJsonObject{{"x", 7}}});
        QVERIFY(validateSearcher(spec, nullptr).isOk());
        auto searcher = makeSearcher(spec);
        QCOMPARE(searcher->totalTrials().value(), 3);
        QCOMPARE(searcher->suggest("t0").config.value("x").toInt(), 7);
        QCOMPARE(searcher->suggest("t1").config.value("x").toInt(), 1);
        QCOMPARE(searcher->suggest("t2").config.value("x").toInt(), 2);
        QCOMPARE(int(searcher->suggest("t3").kind), int(Suggestion::Kind::Finished));
    }

    void malformedPointsAreRejected_data() {
        QTest::addColumn<QJsonValue>("points");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a list")
            << QJsonValue(QJsonObject{{"lr", 0.1}}) << "must be a list of mappings";
        QTest::newRow("item not a mapping")
            << QJsonValue(QJsonArray{QJsonObject{{"lr", 0.1}}, 0.2}) << "item 2 is not a mapping";
        QTest::newRow("unknown key") << QJsonValue(QJsonArray{QJsonObject{{"learning_rate", 0.1}}})
                                     << "item 1 sets 'learning_rate', which is not in the search "
                                        "space";
        QTest::newRow("unknown nested key")
            << QJsonValue(QJsonArray{QJsonObject{{"model", QJsonObject{{"dept", 3}}}}})
            << "item 1 sets 'model.dept', which is not in the search space";
        QTest::newRow("group given a scalar")
            << QJsonValue(QJsonArray{QJsonObject{{"model", 3}}}) << "is a group of parameters";
    }
    void malformedPointsAreRejected() {
        QFETCH(QJsonValue, points);
        QFETCH(QString, message);
        auto spec = specWith(space({param("lr", uniform(0, 1)),
                                    group("model", space({param("depth", randint(1, 4))}))}),
                             "random", 1);
        spec.search.options.insert("points_to_evaluate", points);
        Status status;
        QCOMPARE(validationKey(spec, &status), QStringLiteral("search.points_to_evaluate"));
        QVERIFY2(status.message().contains(message), qPrintable(status.message()));
    }

    // set_limits (core/experiment_limits.h): a running experiment's num_samples raised from 3 to
    // 5 after 2 trials; every searcher carries on from its state and proposes the rest.
    void everySearcherTakesMoreSamples_data() {
        QTest::addColumn<QString>("algorithm");
        for (const QString& name : knownSearchers()) {
            QTest::newRow(qPrintable(name)) << name;
        }
    }
    void everySearcherTakesMoreSamples() {
        QFETCH(QString, algorithm);
        const bool isGrid = algorithm == QStringLiteral("grid");
        auto spec =
            specWith(space({param("x", isGrid ? grid({1, 2}) : uniform(0, 1))}), algorithm, 3);
        spec.metric = QStringLiteral("score");
        spec.mode = MetricMode::Max;
        if (algorithm == QStringLiteral("bohb")) {
            spec.scheduler.name = QStringLiteral("hyperband");
        }
        Status valid = Status::ok();
        QVERIFY2(validationKey(spec, &valid).isEmpty(), qPrintable(valid.message()));
        auto searcher = makeSearcher(spec);
        int made = 0;
        // Proposes and completes trials until `upTo` exist or it has no more.
        const auto propose = [&](Searcher& s, int upTo) {
            while (made < upTo) {
                const QString id = QStringLiteral("t%1").arg(made);
                const Suggestion next = s.suggest(id);
                if (next.kind != Suggestion::Kind::Config) {
                    return next.kind;
                }
                ++made;
                s.onComplete(
                    id, {{"score", next.config.value("x").toDouble()}, {"training_iteration", 1}},
                    false);
            }
            return Suggestion::Kind::Config;
        };
        propose(*searcher, 2);
        QCOMPARE(made, 2);
        LimitsChange change;
        change.numSamples = 5;
        QVERIFY(applyLimitsChange(change, made, &spec).isOk());
        Status why;
        auto grown = searcherForLimits(*searcher, spec, &why);
        QVERIFY2(grown, qPrintable(why.message()));
        const std::int64_t total = isGrid ? 10 : 5;
        QCOMPARE(grown->totalTrials(), std::optional<std::int64_t>(total));
        QCOMPARE(propose(*grown, 100), Suggestion::Kind::Finished);
        QCOMPARE(made, int(total));
    }

    void limitsAnExperimentCannotTakeAreRefusedNamingTheField() {
        const auto refusal = [](const QJsonObject& fields) {
            LimitsChange change;
            return parseLimitsChange(fields, &change).message();
        };
        QVERIFY(refusal({}).contains("num_samples, max_concurrent_trials or both"));
        QCOMPARE(refusal({{"num_samples", 0}}),
                 QStringLiteral("num_samples must be a whole number >= 1, not 0"));
        QCOMPARE(refusal({{"max_concurrent_trials", 1.5}}),
                 QStringLiteral("max_concurrent_trials must be a whole number >= 1, not 1.5"));
        QCOMPARE(refusal({{"num_samples", "many"}}),
                 QStringLiteral("num_samples must be a whole number >= 1, not 'many'"));
        auto spec = specWith(space({param("x", uniform(0, 1))}), "random", 6);
        LimitsChange fewer;
        fewer.numSamples = 2;
        QCOMPARE(applyLimitsChange(fewer, 4, &spec).message(),
                 QStringLiteral("num_samples 2 is fewer than the 4 trials already created (a "
                                "created trial is not taken back)"));
        auto gridSpec = specWith(space({param("x", grid({1, 2, 3}))}), "grid", 3);
        QCOMPARE(applyLimitsChange(fewer, 7, &gridSpec).message(),
                 QStringLiteral("num_samples 2 makes 6 trials in all, fewer than the 7 trials "
                                "already created (a created trial is not taken back)"));
        spec.search.options.insert("repeat", 3);
        LimitsChange odd;
        odd.numSamples = 7;
        QVERIFY(applyLimitsChange(odd, 0, &spec).message().contains("multiple of search.repeat"));
        QCOMPARE(spec.numSamples, 6);  // a refused change leaves the spec as it was
        spec.numSamples = ExperimentSpec::kSampleUntilBudget;
        QVERIFY(applyLimitsChange(odd, 0, &spec).message().contains("until time_budget_s"));
    }

    void numSamplesBelowOneIsRejected() {
        QCOMPARE(validationKey(specWith(space({}), "random", 0)), QStringLiteral("num_samples"));
    }
};

QTEST_GUILESS_MAIN(TestSearchers)
#include "test_searchers.moc"
