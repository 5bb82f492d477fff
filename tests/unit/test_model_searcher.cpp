// The bookkeeping every model-based searcher shares (core/model_searcher.h): points first, the
// num_samples budget, observations as losses, failed trials kept apart, curves, and a resume
// that is the same whether the saved state is current or older than the history.
#include <QtTest>

#include "core/model_searcher.h"
#include "core/searcher.h"
#include "space_builders.h"

using namespace tunedeck;
using namespace tunedeck::testing;

namespace {

// The smallest model: a random draw, recording what it was told.
class RecordingModel final : public ModelSearcher {
  public:
    explicit RecordingModel(const ExperimentSpec& spec) : ModelSearcher(spec, "recording") {}
    std::vector<QString> told;
    using ModelSearcher::curves;
    using ModelSearcher::failed;
    using ModelSearcher::observations;
    using ModelSearcher::running;

  protected:
    Suggestion propose(const QString&, Rng& rng) override {
        return Suggestion::of(space().sample(rng));
    }
    void observed(const Observation& observation) override { told.push_back(observation.trialId); }
};

ExperimentSpec spec(int samples, MetricMode mode = MetricMode::Min) {
    ExperimentSpec s;
    s.searchSpace = space({param("x", uniform(0, 1)), param("y", uniform(0, 1))});
    s.numSamples = samples;
    s.metric = "loss";
    s.mode = mode;
    s.objectives = {{"loss", mode}};
    s.seed = 9;
    return s;
}

QJsonObject result(double loss, int iteration = 1) {
    return {{"loss", loss}, {"training_iteration", iteration}};
}

}  // namespace

class TestModelSearcher : public QObject {
    Q_OBJECT
  private slots:
    void pointsComeFirstAndTheBudgetHolds() {
        ExperimentSpec s = spec(3);
        s.search.options.insert("points_to_evaluate", QJsonArray{QJsonObject{{"x", 0.25}}});
        RecordingModel m(s);
        QCOMPARE(m.suggest("t0").config.value("x").toDouble(), 0.25);
        QVERIFY(m.suggest("t0").config.contains("y") || true);
        QCOMPARE(int(m.suggest("t2").kind), int(Suggestion::Kind::Config));
        QCOMPARE(int(m.suggest("t3").kind), int(Suggestion::Kind::Finished));
        QCOMPARE(m.totalTrials().value(), 3);
    }

    // Ray's evaluated_rewards: the points are finished trials already, as losses, and are not
    // run again; num_samples counts new trials only. Saved and restored like any observation.
    void evaluatedRewardsAreObservedNotRunAgain() {
        ExperimentSpec s = spec(2, MetricMode::Max);
        s.search.name = "tpe";
        s.search.options.insert(
            "points_to_evaluate",
            QJsonArray{QJsonObject{{"x", 0.1}, {"y", 0.2}}, QJsonObject{{"x", 0.9}, {"y", 0.8}}});
        s.search.options.insert("evaluated_rewards", QJsonArray{5.0, 7.5});
        QVERIFY(validateSearcher(s, nullptr));
        RecordingModel m(s);
        QCOMPARE(m.observations().size(), size_t(2));
        QCOMPARE(m.observations()[1].config.value("x").toDouble(), 0.9);
        QCOMPARE(m.observations()[1].losses, std::vector<double>{-7.5});
        for (const QString id : {"t0", "t1"}) {
            const QJsonObject config = m.suggest(id).config;
            QVERIFY(config.value("x").toDouble() != 0.1 && config.value("x").toDouble() != 0.9);
        }
        QCOMPARE(int(m.suggest("t2").kind), int(Suggestion::Kind::Finished));
        RecordingModel resumed(s);
        QVERIFY(resumed.restoreState(m.saveState()));
        QCOMPARE(resumed.observations().size(), size_t(2));
    }

    // Each mistake is refused with the key and what to write instead.
    void evaluatedRewardsThatCannotBeUsedAreRefused_data() {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<QJsonValue>("rewards");
        QTest::addColumn<QString>("expected");
        QTest::newRow("random") << "random" << QJsonValue(QJsonArray{1.0})
                                << "random search learns nothing from evaluated_rewards";
        QTest::newRow("too few") << "tpe" << QJsonValue(QJsonArray{})
                                 << "one value for each of the 1 points_to_evaluate";
        QTest::newRow("not a number")
            << "bayesopt" << QJsonValue(QJsonArray{"high"}) << "item 1 must be a finite number";
    }
    void evaluatedRewardsThatCannotBeUsedAreRefused() {
        QFETCH(QString, algorithm);
        QFETCH(QJsonValue, rewards);
        QFETCH(QString, expected);
        ExperimentSpec s = spec(2);
        s.search.name = algorithm;
        s.search.options.insert("points_to_evaluate", QJsonArray{QJsonObject{{"x", 0.5}}});
        s.search.options.insert("evaluated_rewards", rewards);
        QString badKey;
        const Status status = validateSearcher(s, &badKey);
        QVERIFY(!status);
        QCOMPARE(badKey, QStringLiteral("search.evaluated_rewards"));
        QVERIFY2(status.message().contains(expected), qPrintable(status.message()));
    }

    void lossesAreNegatedForMaxAndFailuresKeptApart() {
        RecordingModel m(spec(3, MetricMode::Max));
        m.suggest("t0");
        m.suggest("t1");
        m.suggest("t2");
        m.onComplete("t0", result(0.8), false);
        m.onComplete("t1", result(0.9), true);                 // errored
        m.onComplete("t2", QJsonObject{{"other", 1}}, false);  // never reported the metric
        QCOMPARE(m.observations().size(), size_t(1));
        QCOMPARE(m.observations()[0].losses, std::vector<double>{-0.8});
        QCOMPARE(m.failed().size(), size_t(2));
        QCOMPARE(m.told, std::vector<QString>{"t0"});
        QVERIFY(m.running().empty());
    }

    void curvesFollowTheTimeAttributeAndRestartsTrimThem() {
        RecordingModel m(spec(1));
        m.suggest("t0");
        m.onResult("t0", result(3, 1));
        m.onResult("t0", result(2, 2));
        m.onResult("t0", result(1, 3));
        m.onResult("t0", result(2.5, 2));  // restarted from the checkpoint at iteration 1
        const auto& curve = m.curves().at("t0");
        QCOMPARE(curve.size(), size_t(2));
        QCOMPARE(curve.back(), (std::pair<double, double>{2, 2.5}));
    }

    void restoredStateProposesWhatTheOriginalWould() {
        RecordingModel a(spec(6));
        for (int i = 0; i < 3; ++i) {
            a.suggest(QStringLiteral("t%1").arg(i));
        }
        a.onComplete("t0", result(1), false);
        RecordingModel b(spec(6));
        QVERIFY(b.restoreState(a.saveState()));
        QVERIFY(b.told.empty());  // restored observations are not told again
        QCOMPARE(b.observations().size(), size_t(1));
        QCOMPARE(b.running().size(), size_t(2));
        QCOMPARE(b.suggest("t3").config, a.suggest("t3").config);
    }

    void replayOverAnOlderStateCatchesUp() {
        RecordingModel a(spec(6));
        const QJsonObject early = a.saveState();  // nothing proposed yet
        QJsonObject c0 = a.suggest("t0").config;
        QJsonObject c1 = a.suggest("t1").config;
        a.onComplete("t0", result(1), false);
        // Resume from `early`, replaying the history as the runtime does, twice over.
        RecordingModel b(spec(6));
        QVERIFY(b.restoreState(early));
        for (int pass = 0; pass < 2; ++pass) {
            b.onTrialRecovered(0, "t0", c0);
            b.onTrialRecovered(1, "t1", c1);
            b.onComplete("t0", result(1), false);
        }
        QCOMPARE(b.observations().size(), size_t(1));
        QCOMPARE(b.running().size(), size_t(1));
        QCOMPARE(b.told, std::vector<QString>{"t0"});
        QCOMPARE(b.suggest("t2").config, a.suggest("t2").config);
    }

    void aStateOfAnotherAlgorithmIsRefused() {
        RecordingModel m(spec(2));
        QJsonObject state = m.saveState();
        state.insert("algorithm", "tpe");
        QVERIFY(!m.restoreState(state));
    }
};

QTEST_GUILESS_MAIN(TestModelSearcher)
#include "test_model_searcher.moc"
