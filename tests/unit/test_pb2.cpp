// The pb2 scheduler: pbt's exploit with a GP-bandit explore (Ray's PB2): the data it learns
// from, where it steers copied trials, its options and resume.
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <cmath>

#include "core/pb2_explore.h"
#include "core/rng.h"
#include "scheduler_builders.h"
#include "space_builders.h"

using namespace tunedeck;
using namespace tunedeck::testing;
using Action = SchedulerDecision::Action;

namespace {

SearchSpace defaultSpace() {
    return space({param("lr", uniform(0, 1)), param("layers", randint(1, 9)),
                  param("opt", choice({"sgd", "adam"}))});
}

ExperimentSpec pb2Spec(QJsonObject options = {}, SearchSpace searchSpace = defaultSpace()) {
    if (!options.contains("time_attr")) {
        options.insert("time_attr", "training_iteration");
    }
    if (!options.contains("perturbation_interval")) {
        options.insert("perturbation_interval", 4);
    }
    if (!options.contains("hyperparam_bounds")) {
        options.insert("hyperparam_bounds", QJsonObject{{"lr", QJsonArray{0, 1}}});
    }
    ExperimentSpec spec =
        schedulerSpec(QStringLiteral("pb2"), std::move(options), "reward", MetricMode::Max);
    spec.searchSpace = std::move(searchSpace);
    return spec;
}

std::unique_ptr<PbtScheduler> make(const ExperimentSpec& spec) {
    QString badKey;
    const Status status = validatePb2Options(spec, &badKey);
    if (!status.isOk()) {
        qWarning("%s: %s", qPrintable(badKey), qPrintable(status.message()));
        return nullptr;
    }
    std::unique_ptr<Scheduler> scheduler = makePb2Scheduler(spec);
    return std::unique_ptr<PbtScheduler>(dynamic_cast<PbtScheduler*>(scheduler.release()));
}

const std::vector<PbtBound> kLr{{"lr", 0, 1, false}};

// How much one unit of training improves the reward at learning rate `lr`: best at `peak`.
double gain(double lr, double peak) {
    return 1 - 4 * (lr - peak) * (lr - peak);
}

// Sixteen stretches of training spread over lr, each recorded at its start and 4 units later
// with the reward it gained. Each starts at its own reward level (as trials do after copying
// checkpoints), so only lr explains the gain; the latest stretch is t00005's.
std::vector<Pb2Record> scriptedRecords(double peak) {
    std::vector<Pb2Record> records;
    for (int k = 0; k < 16; ++k) {
        const double lr = 0.03 + 0.94 * k / 15.0;
        const double start = 10 * Rng::forStream(99, static_cast<std::uint64_t>(k)).uniform01();
        const double t0 = 4 + 4 * (k % 3);
        records.push_back({trialIdForIndex(k), t0, {lr}, start});
        records.push_back({trialIdForIndex(k), t0 + 4, {lr}, start + 4 * gain(lr, peak)});
    }
    return records;
}

Pb2Explorer explorerWith(const std::vector<Pb2Record>& records,
                         const std::vector<PbtBound>& bounds = kLr) {
    Pb2Explorer explorer(bounds);
    for (const Pb2Record& r : records) {
        explorer.recordScore(r.trialId, r.time, {{"lr", r.values[0]}}, r.score);
    }
    return explorer;
}

Trial trialAt(int index, double lr) {
    Trial trial;
    trial.index = index;
    trial.id = trialIdForIndex(index);
    trial.config = {{"lr", lr}, {"layers", 3}, {"opt", "sgd"}};
    return trial;
}

// A population whose reward grows fastest at lr 0.7, plus noise of up to `noise` so that the
// ranking keeps changing; every trial reports every iteration. Returns the exploits as text.
QStringList runPopulation(Scheduler& scheduler, std::vector<Trial>& trials, int from, int to,
                          double noise = 1) {
    QStringList out;
    for (int it = from; it < to; ++it) {
        for (Trial& t : trials) {
            const double lr = t.config.value("lr").toDouble();
            const double luck =
                Rng::forStream(static_cast<std::uint64_t>(t.index), static_cast<std::uint64_t>(it))
                    .uniform(-noise, noise);
            const double reward = t.lastResult.value("reward").toDouble() + gain(lr, 0.7) + luck;
            t.lastResult = {{"training_iteration", it}, {"reward", reward}};
            const SchedulerDecision d = scheduler.onResult(t, t.lastResult);
            if (d.action == Action::Exploit) {
                // As the runtime does: the source's checkpoint (its reward) and the new config.
                for (const Trial& source : trials) {
                    if (source.id == d.source) {
                        t.lastResult["reward"] = source.lastResult.value("reward");
                    }
                }
                t.config = d.config;
                out.append(QStringLiteral("%1<-%2 lr=%3")
                               .arg(t.id, d.source)
                               .arg(d.config.value("lr").toDouble(), 0, 'g', 10));
            }
        }
    }
    return out;
}

}  // namespace

class TestPb2 : public QObject {
    Q_OBJECT

  private slots:
    void isInTheCatalogue() {
        QVERIFY(knownSchedulers().contains("pb2"));
        QVERIFY(makeValidated(pb2Spec()));
        QString key;
        QVERIFY(!validateScheduler(pb2Spec({{"eta", 3}}), &key).isOk());
        QCOMPARE(key, QString("scheduler.eta"));
    }

    void observationsAreRewardChangesPerUnitOfTime() {
        const std::vector<Pb2Record> records{
            {"a", 4, {0.1}, 1.0}, {"b", 4, {0.5}, 1.0},  {"a", 8, {0.1}, 2.0},
            {"b", 8, {0.5}, 1.5}, {"b", 12, {0.9}, 3.0},  // new values: no change to measure
        };
        const Pb2Data data = pb2Data(records, kLr, "a");
        QCOMPARE(data.x.rows(), Eigen::Index(2));
        QCOMPARE(data.x.cols(), Eigen::Index(3));
        // Both at time 8 with score 1 before: those columns carry nothing; lr is scaled by bounds.
        QCOMPARE(data.x(0, 0), 0.0);
        QCOMPARE(data.x(0, 1), 0.0);
        QCOMPARE(data.x(0, 2), 0.1);
        QCOMPARE(data.x(1, 2), 0.5);
        // Changes 0.25 and 0.125 per unit, standardised.
        QVERIFY(std::abs(data.y(0) - 1) < 1e-6);
        QVERIFY(std::abs(data.y(1) + 1) < 1e-6);
        QVERIFY(data.hasSource);
        QCOMPARE(data.sourceTime, 8.0);
        QCOMPARE(data.sourceScore, 2.0);
        QVERIFY(!pb2Data(records, kLr, "c").hasSource);
    }

    void scoresAndTimesAreScaledByTheirObservedRange() {
        const std::vector<Pb2Record> records{{"a", 0, {0.2}, 0},
                                             {"a", 10, {0.2}, 5},
                                             {"a", 20, {0.2}, 6},
                                             {"b", 0, {0.8}, 0},
                                             {"b", 5, {0.8}, 1}};
        const Pb2Data data = pb2Data(records, kLr, "a");
        // Sorted by time: b@5 (before 0), a@10 (before 0), a@20 (before 5).
        QCOMPARE(data.x.rows(), Eigen::Index(3));
        QCOMPARE(data.x(0, 0), 0.0);
        QCOMPARE(data.x(1, 0), 1.0 / 3);
        QCOMPARE(data.x(2, 0), 1.0);
        QCOMPARE(data.x(2, 1), 1.0);
        QCOMPARE(data.x(0, 2), 0.8);
        QCOMPARE(data.at, Eigen::Vector2d(1.0, 1.0));
        QCOMPARE(data.sourceScore, 6.0);
    }

    void onlyTheLatestObservationsAreKept() {
        std::vector<Pb2Record> records;
        for (int t = 0; t <= 300; ++t) {
            records.push_back({"a", double(t), {0.5}, t + (t >= 250 ? 10000.0 : 0.0)});
        }
        const Pb2Data data = pb2Data(records, kLr, "a");
        QCOMPARE(data.x.rows(), Eigen::Index(200));
        // The one outlying jump is clipped at two standard deviations, as Ray clips it.
        QCOMPARE(data.y.maxCoeff(), 2.0);
        QVERIFY(data.y.minCoeff() >= -2.0);
        QCOMPARE(data.sourceTime, 300.0);
    }

    void aSourceWithoutObservationsIsCopiedUnchanged() {
        Pb2Explorer explorer = explorerWith({{"t00000", 4, {0.3}, 1}});
        Rng rng(3);
        const QJsonObject config{{"lr", 0.3}, {"layers", 2}};
        QCOMPARE(explorer.explore("t00001", "t00000", config, rng), config);
        QCOMPARE(explorer.records().size(), std::size_t(1));
    }

    void exploreSteersTowardTheLrThatImprovedMost() {
        for (const double peak : {0.2, 0.8}) {
            for (std::uint64_t seed = 1; seed <= 3; ++seed) {
                Pb2Explorer explorer = explorerWith(scriptedRecords(peak));
                Rng rng(seed);
                const QJsonObject config =
                    explorer.explore("t00020", "t00005", {{"lr", 0.5}, {"opt", "sgd"}}, rng);
                const double lr = config.value("lr").toDouble();
                QVERIFY2(lr >= 0 && lr <= 1, qPrintable(QString::number(lr)));
                QVERIFY2(std::abs(lr - peak) < 0.2,
                         qPrintable(QStringLiteral("peak %1, chose %2").arg(peak).arg(lr)));
                QCOMPARE(config.value("opt"), QJsonValue("sgd"));
                // The exploited trial restarts at the source's latest time and reward.
                const Pb2Record& added = explorer.records().back();
                QCOMPARE(added.trialId, QString("t00020"));
                QCOMPARE(added.time, 16.0);
                QCOMPARE(added.score, explorer.records()[11].score);
                QCOMPARE(added.values, std::vector<double>{lr});
            }
        }
    }

    void choicesStayInsideTheBounds() {
        // Bounds narrower than the data: the pick stays inside them, truncated for integers.
        const std::vector<PbtBound> bounds{{"lr", 0.3, 0.4, false}};
        Pb2Explorer explorer = explorerWith(scriptedRecords(0.9), bounds);
        Rng rng(7);
        const double lr =
            explorer.explore("t00009", "t00003", {{"lr", 0.35}}, rng).value("lr").toDouble();
        QVERIFY2(lr >= 0.3 && lr <= 0.4, qPrintable(QString::number(lr)));
        QVERIFY2(lr > 0.35, qPrintable(QString::number(lr)));  // toward 0.9

        Pb2Explorer layers({{"layers", 1, 8, true}});
        for (int i = 0; i < 6; ++i) {
            for (int t = 4; t <= 8; t += 4) {
                layers.recordScore(trialIdForIndex(i), t, {{"layers", 1 + i}}, t * (1 + i));
            }
        }
        const QJsonValue chosen =
            layers.explore("t00009", "t00002", {{"layers", 3}}, rng).value("layers");
        QCOMPARE(QJsonDocument(QJsonObject{{"layers", chosen}}).toJson(QJsonDocument::Compact),
                 QByteArray("{\"layers\":") + QByteArray::number(chosen.toInteger()) + "}");
        QVERIFY(chosen.toInteger() >= 1 && chosen.toInteger() <= 8);
    }

    void aRoundRemembersItsPicks() {
        Pb2Explorer explorer = explorerWith(scriptedRecords(0.5));
        Rng rng(1);
        explorer.explore("t00020", "t00005", {{"lr", 0.5}}, rng);
        explorer.explore("t00021", "t00004", {{"lr", 0.5}}, rng);
        QCOMPARE(explorer.saveState().value("current").toArray().size(), 2);
        // A later record starts a new round.
        explorer.recordScore("t00005", 20, {{"lr", 0.5}}, 100);
        explorer.explore("t00022", "t00005", {{"lr", 0.5}}, rng);
        QCOMPARE(explorer.saveState().value("current").toArray().size(), 1);
    }

    void thePopulationDriftsTowardTheBetterLr() {
        // The values pb2 picks (those that differ from the copied trial's), pooled over seeds.
        std::vector<double> picks;
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            ExperimentSpec spec = pb2Spec();
            spec.seed = seed;
            auto pb2 = make(spec);
            QVERIFY(pb2);
            std::vector<Trial> trials;
            for (int i = 0; i < 8; ++i) {
                trials.push_back(trialAt(i, 0.05 + 0.12 * i));
                pb2->onTrialAdd(trials.back());
            }
            runPopulation(*pb2, trials, 1, 49, 0.2);
            for (const PbtExploit& e : pb2->exploits()) {
                const double lr = e.newConfig.value("lr").toDouble();
                QVERIFY(lr >= 0 && lr <= 1);
                QCOMPARE(e.newConfig.value("layers"), QJsonValue(3));
                if (lr != e.sourceConfig.value("lr").toDouble()) {
                    picks.push_back(lr);
                }
            }
        }
        QVERIFY2(picks.size() >= 8, qPrintable(QString::number(picks.size())));
        // The bandit tries the edges early on, then settles near 0.7; uniform picks would
        // have their median at 0.5.
        std::sort(picks.begin(), picks.end());
        const double median = picks[picks.size() / 2];
        QVERIFY2(std::abs(median - 0.7) < 0.15, qPrintable(QString::number(median)));
    }

    void restoredStateGivesTheSameLaterDecisions() {
        const ExperimentSpec spec =
            pb2Spec({{"perturbation_interval", 2}, {"quantile_fraction", 0.5}});
        auto original = make(spec);
        std::vector<Trial> trials;
        for (int i = 0; i < 6; ++i) {
            trials.push_back(trialAt(i, 0.1 + 0.15 * i));
            original->onTrialAdd(trials.back());
        }
        runPopulation(*original, trials, 1, 13);
        const QByteArray saved = QJsonDocument(original->saveState()).toJson();
        auto resumed = make(spec);
        QVERIFY(resumed->restoreState(QJsonDocument::fromJson(saved).object()).isOk());
        std::vector<Trial> copy = trials;
        const QStringList expected = runPopulation(*original, trials, 13, 31);
        QVERIFY2(expected.size() >= 3, qPrintable(expected.join("; ")));
        QCOMPARE(runPopulation(*resumed, copy, 13, 31), expected);
        QCOMPARE(resumed->saveState(), original->saveState());
        // A state whose records do not fit the bounds is refused.
        QJsonObject state = original->saveState();
        QJsonObject explorer = state["explorer"].toObject();
        explorer["records"] = QJsonArray{QJsonArray{"t00000", 4, QJsonArray{0.1, 0.2}, 1}};
        state["explorer"] = explorer;
        QCOMPARE(make(spec)->restoreState(state).code(), Status::Code::Corruption);
    }

    void badOptionsAreNamed_data() {
        QTest::addColumn<QJsonObject>("options");
        QTest::addColumn<QString>("badKey");
        QTest::addColumn<QString>("message");
        QTest::newRow("no bounds")
            << QJsonObject{{"hyperparam_bounds", QJsonObject{}}} << "scheduler.hyperparam_bounds"
            << "needs hyperparam_bounds";
        QTest::newRow("not a mapping")
            << QJsonObject{{"hyperparam_bounds", QJsonArray{0, 1}}} << "scheduler.hyperparam_bounds"
            << "must map each parameter to [low, high]";
        QTest::newRow("not in space")
            << QJsonObject{{"hyperparam_bounds", QJsonObject{{"wd", QJsonArray{0, 1}}}}}
            << "scheduler.hyperparam_bounds.wd"
            << "hyperparam_bounds.wd is not in search_space";
        QTest::newRow("three numbers")
            << QJsonObject{{"hyperparam_bounds", QJsonObject{{"lr", QJsonArray{0, 1, 2}}}}}
            << "scheduler.hyperparam_bounds.lr"
            << "hyperparam_bounds.lr must be [low, high] (two numbers)";
        QTest::newRow("empty range")
            << QJsonObject{{"hyperparam_bounds", QJsonObject{{"lr", QJsonArray{0.5, 0.5}}}}}
            << "scheduler.hyperparam_bounds.lr"
            << "low (0.5) must be below high (0.5)";
        QTest::newRow("outside the space")
            << QJsonObject{{"hyperparam_bounds", QJsonObject{{"lr", QJsonArray{0, 5}}}}}
            << "scheduler.hyperparam_bounds.lr"
            << "hyperparam_bounds.lr [0, 5] reaches outside search_space.lr (uniform 0 .. 1)";
        QTest::newRow("past an integer's top")
            << QJsonObject{{"hyperparam_bounds", QJsonObject{{"layers", QJsonArray{1, 9}}}}}
            << "scheduler.hyperparam_bounds.layers"
            << "hyperparam_bounds.layers [1, 9] reaches outside search_space.layers (randint 1 .. "
               "9)";
        QTest::newRow("categorical")
            << QJsonObject{{"hyperparam_bounds", QJsonObject{{"opt", QJsonArray{0, 1}}}}}
            << "scheduler.hyperparam_bounds.opt"
            << "search_space.opt is not a number";
        QTest::newRow("interval") << QJsonObject{{"perturbation_interval", -2}}
                                  << "scheduler.perturbation_interval"
                                  << "must be positive, not -2";
        QTest::newRow("quantile") << QJsonObject{{"quantile_fraction", 0.75}}
                                  << "scheduler.quantile_fraction"
                                  << "must be in (0, 0.5], not 0.75";
        QTest::newRow("log_config") << QJsonObject{{"log_config", 1}} << "scheduler.log_config"
                                    << "must be true or false";
    }

    void badOptionsAreNamed() {
        QFETCH(QJsonObject, options);
        QFETCH(QString, badKey);
        QFETCH(QString, message);
        QString key;
        const Status status = validatePb2Options(pb2Spec(options), &key);
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QCOMPARE(key, badKey);
        QVERIFY2(status.message().contains(message), qPrintable(status.message()));
    }

    void missingBoundsAreNamed() {
        ExperimentSpec spec = pb2Spec();
        spec.scheduler.options.remove("hyperparam_bounds");
        QString key;
        QVERIFY(!validatePb2Options(spec, &key).isOk());
        QCOMPARE(key, QString("scheduler.hyperparam_bounds"));
    }

    void multiObjectiveIsRefused() {
        ExperimentSpec spec = pb2Spec();
        spec.objectives = {{"reward", MetricMode::Max}, {"cost", MetricMode::Min}};
        QString key;
        QVERIFY(!validatePb2Options(spec, &key).isOk());
        QCOMPARE(key, QString("metric"));
    }

    void goodOptionsPass() {
        const SearchSpace nested = space(
            {group("optim", space({param("lr", loguniform(1e-4, 1))})), constant("dropout", 0.1)});
        QVERIFY(validatePb2Options(
                    pb2Spec({{"hyperparam_bounds",
                              QJsonObject{{"optim", QJsonObject{{"lr", QJsonArray{1e-4, 0.1}}}},
                                          {"dropout", QJsonArray{0, 0.5}}}},
                             {"quantile_fraction", 0.5},
                             {"synch", true},
                             {"log_config", true},
                             {"require_attrs", false},
                             {"mode", "min"}},
                            nested),
                    nullptr)
                    .isOk());
        QVERIFY(pb2OptionNames().contains("hyperparam_bounds"));
        QVERIFY(!pb2OptionNames().contains("hyperparam_mutations"));
    }
};

QTEST_GUILESS_MAIN(TestPb2)
#include "test_pb2.moc"
