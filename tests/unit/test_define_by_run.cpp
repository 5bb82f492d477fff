// Define-by-run (Optuna's trial.suggest_*): the `suggest` line as the experiment loop takes it
// (a value answered, the parameter recorded in the trial's config and history, the same value
// when asked again, a clash refused), Optuna's distributions (core/suggested_distribution.h),
// and the random and tpe searchers on a space that grows as trials ask.
#include <QJsonArray>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>

#include "core/experiment_loop.h"
#include "core/parameter_requests.h"
#include "core/searcher.h"
#include "core/suggested_distribution.h"
#include "node_builders.h"

using namespace tunedeck;

namespace {

QJsonObject floatDist(double low, double high, bool log = false) {
    return {{"type", "float"}, {"low", low}, {"high", high}, {"log", log}, {"step", QJsonValue()}};
}

QJsonObject intDist(int low, int high, int step = 1) {
    return {{"type", "int"}, {"low", low}, {"high", high}, {"log", false}, {"step", step}};
}

QJsonObject categorical(const QJsonArray& choices) {
    return {{"type", "categorical"}, {"choices", choices}};
}

ExperimentSpec defineByRunSpec(const QString& algorithm, int samples = 100) {
    ExperimentSpec spec;
    spec.name = QStringLiteral("dbr");
    spec.search.name = algorithm;
    spec.numSamples = samples;
    spec.seed = 3;
    spec.metric = QStringLiteral("value");
    spec.mode = MetricMode::Min;
    spec.objectives = {{QStringLiteral("value"), MetricMode::Min}};
    return spec;
}

// The loop's world for one scripted trial: trials start when asked (nothing more), answers to
// requests and saved trial rows are kept for the test to look at.
class ScriptedWorld : public LoopClock, public LoopNodes, public LoopEffects, public LoopHistory {
  public:
    ScriptedWorld() { nodes_.push_back(nodeWith(QStringLiteral("local"), 4)); }

    std::vector<QJsonObject> answers;
    std::map<QString, QJsonObject> savedConfigs;
    std::vector<std::pair<QString, int>> started;

    // LoopClock, LoopNodes
    double now() const override { return 1000; }
    std::vector<NodeCapacity>& capacities() override { return nodes_; }
    bool opened() const override { return true; }
    bool anyReady() const override { return true; }
    bool elastic() const override { return false; }
    bool allHeardFrom() const override { return true; }
    QString describeUnavailable() const override { return {}; }

    // LoopEffects
    Status startTrial(const Trial& trial, int attempt, const Placement&,
                      const GangPlacement&) override {
        started.emplace_back(trial.id, attempt);
        return Status::ok();
    }
    void answer(const Trial&, const Placement&, TrialAnswer, const QString&) override {}
    void answerRequest(const Trial&, const Placement&, const QJsonObject& answer) override {
        answers.push_back(answer);
    }
    void endProcess(const Trial&, const Placement&, const QString&) override {}
    void commitCheckpoint(const Trial&, const Placement&, const CommitOrder&) override {}
    void discardScratch(const Placement&, const QString&) override {}
    void deleteCheckpoint(const Trial&, const Placement&, const QString&) override {}
    Status copyCheckpoint(const QString&, const QString&, const QJsonObject&) override {
        return Status::ok();
    }
    void attemptEnded(const Trial&, const GangPlacement&) override {}
    void eventRecorded(const QString&, std::int64_t, double, const QJsonObject&) override {}
    void resultRecorded(const QString&, std::int64_t, double, const QJsonObject&) override {}
    void statusShown(const Trial&, const QString&) override {}
    void warningShown(const QString&) override {}
    void noticeShown(const QString&) override {}
    void wakeAt(double) override {}
    void demandChanged() override {}
    void runEnded(int, const QString&) override {}

    // LoopHistory
    void saveTrial(const Trial& trial, double, double) override {
        savedConfigs[trial.id] = trial.config;
    }
    std::int64_t appendResult(const QString&, std::int64_t, double, const QJsonObject&) override {
        return ++seq_;
    }
    void deleteResultsAfter(const QString&, std::int64_t) override {}
    std::int64_t addCheckpoint(const QString&, std::int64_t, const QString&, const QJsonObject&,
                               double) override {
        return ++seq_;
    }
    void markCheckpointDeleted(std::int64_t) override {}
    void addExploit(const ExploitRecord&) override {}
    void saveSearchState(const QJsonObject&, const QJsonObject&) override {}
    void setExperimentStatus(const QString&, double) override {}
    std::int64_t appendEvent(const QString&, const QString&, const QJsonObject&, double) override {
        return ++seq_;
    }
    Status flush() override { return Status::ok(); }
    Status lastError() const override { return Status::ok(); }

  private:
    std::vector<NodeCapacity> nodes_;
    std::int64_t seq_ = 0;
};

TrialLine suggestLine(const QString& name, const QJsonObject& distribution) {
    return decodeTrialLine(
        QJsonObject{{"type", "suggest"}, {"name", name}, {"distribution", distribution}});
}

// Runs `trials` trials of `algorithm` through the searcher alone: each asks for x (and, when
// x < 0.5, for the conditional y) and finishes with the loss the function gives.
std::vector<QJsonObject> runSearch(
    const QString& algorithm, int trials,
    const std::function<double(const QJsonObject&)>& loss = [](const QJsonObject& c) {
        return std::fabs(c.value("x").toDouble() - 0.3);
    }) {
    ExperimentSpec spec = defineByRunSpec(algorithm, trials);
    std::unique_ptr<Searcher> searcher = makeSearcher(spec);
    ParameterRequests requests(algorithm);
    std::vector<QJsonObject> configs;
    for (int i = 0; i < trials; ++i) {
        Trial trial;
        trial.index = i;
        trial.id = trialIdForIndex(i);
        const Suggestion s = searcher->suggest(trial.id);
        if (s.kind != Suggestion::Kind::Config) {
            break;
        }
        trial.config = s.config;
        bool added = false;
        const QJsonObject x =
            requests.answer(*searcher, trial, QStringLiteral("x"), floatDist(0, 1), &added);
        if (x.value("action") != QStringLiteral("value")) {
            qWarning() << x;
            return {};
        }
        if (x.value("value").toDouble() < 0.5) {
            requests.answer(*searcher, trial, QStringLiteral("y"), intDist(1, 9, 2), &added);
        }
        searcher->onComplete(trial.id, QJsonObject{{"value", loss(trial.config)}}, false);
        configs.push_back(trial.config);
    }
    return configs;
}

}  // namespace

class TestDefineByRun : public QObject {
    Q_OBJECT

  private slots:
    // ----- the loop's `suggest` input -----

    void theLoopAnswersRecordsAndRepeatsAValue() {
        ScriptedWorld world;
        LoopEnvironment env{&world, &world, &world, &world};
        ExperimentLoop loop(defineByRunSpec(QStringLiteral("random"), 1), QStringLiteral("/x"), env,
                            false);
        QVERIFY(loop.recover({}));
        loop.begin();
        loop.schedule();
        QCOMPARE(world.started.size(), std::size_t(1));
        const auto [id, attempt] = world.started.front();
        loop.processStarted(id, attempt);

        loop.trialLine(id, attempt, suggestLine(QStringLiteral("lr"), floatDist(1e-4, 1, true)));
        QCOMPARE(world.answers.size(), std::size_t(1));
        QCOMPARE(world.answers[0].value("action").toString(), QStringLiteral("value"));
        const double lr = world.answers[0].value("value").toDouble();
        QVERIFY(lr >= 1e-4 && lr <= 1);
        // Recorded: in the trial's config, and in the row saved to the history.
        QCOMPARE(loop.find(id)->trial.config.value("lr").toDouble(), lr);
        QCOMPARE(world.savedConfigs[id].value("lr").toDouble(), lr);

        // Asked again: the same value.
        loop.trialLine(id, attempt, suggestLine(QStringLiteral("lr"), floatDist(1e-4, 1, true)));
        QCOMPARE(world.answers.size(), std::size_t(2));
        QCOMPARE(world.answers[1].value("value").toDouble(), lr);

        // Another kind of distribution under the same name: refused, the trial goes on.
        loop.trialLine(id, attempt, suggestLine(QStringLiteral("lr"), categorical({"a", "b"})));
        QCOMPARE(world.answers.size(), std::size_t(3));
        QCOMPARE(world.answers[2].value("action").toString(), QStringLiteral("error"));
        QVERIFY2(world.answers[2].value("message").toString().contains(
                     QStringLiteral("Cannot set different distribution kind")),
                 qPrintable(world.answers[2].value("message").toString()));
        QCOMPARE(loop.find(id)->trial.status, TrialStatus::Running);
        QCOMPARE(loop.find(id)->trial.config.value("lr").toDouble(), lr);

        // A conditional parameter joins the config when it is asked for.
        loop.trialLine(id, attempt, suggestLine(QStringLiteral("depth"), intDist(2, 8, 2)));
        const int depth = world.answers[3].value("value").toInt();
        QVERIFY(depth >= 2 && depth <= 8 && depth % 2 == 0);
        QCOMPARE(world.savedConfigs[id].keys(), QStringList({"depth", "lr"}));
    }

    void aSearcherOfAFixedSpaceRefusesNamingItself() {
        ExperimentSpec spec = defineByRunSpec(QStringLiteral("cmaes"));
        std::unique_ptr<Searcher> searcher = makeSearcher(spec);
        ParameterRequests requests(QStringLiteral("cmaes"));
        Trial trial;
        trial.id = trialIdForIndex(0);
        bool added = true;
        const QJsonObject answer =
            requests.answer(*searcher, trial, QStringLiteral("x"), floatDist(0, 1), &added);
        QCOMPARE(answer.value("action").toString(), QStringLiteral("error"));
        const QString message = answer.value("message").toString();
        QVERIFY2(message.contains(QStringLiteral("'cmaes'")) &&
                     message.contains(QStringLiteral("tpe or random")),
                 qPrintable(message));
        QVERIFY(!added);
        QVERIFY(trial.config.isEmpty());
    }

    void badRequestsAreRefusedWithOptunasReason() {
        ExperimentSpec spec = defineByRunSpec(QStringLiteral("random"));
        std::unique_ptr<Searcher> searcher = makeSearcher(spec);
        ParameterRequests requests(QStringLiteral("random"));
        Trial trial;
        bool added = false;
        auto message = [&](const QJsonValue& name, const QJsonValue& distribution) {
            return requests.answer(*searcher, trial, name, distribution, &added)
                .value("message")
                .toString();
        };
        QVERIFY(message("a", floatDist(2, 1)).contains("smaller than or equal to the `high`"));
        QVERIFY(message("a", floatDist(0, 1, true)).contains("larger than 0 for a log"));
        QVERIFY(message("a", categorical({})).contains("one or more elements"));
        QVERIFY(message("", floatDist(0, 1)).contains("parameter name"));
        QVERIFY(message("c", categorical({"x", "y"})).isEmpty());
        Trial other;
        other.index = 1;
        QVERIFY(
            requests.answer(*searcher, other, QStringLiteral("c"), categorical({"x", "z"}), &added)
                .value("message")
                .toString()
                .contains("does not support dynamic value space"));
    }

    // ----- Optuna's distributions -----

    void valuesFollowOptunasGrids() {
        SuggestedDistribution d;
        QVERIFY(SuggestedDistribution::fromJson(
            QJsonObject{{"type", "float"}, {"low", 0.1}, {"high", 1.0}, {"step", 0.25}}, &d));
        QCOMPARE(d.high, 0.85);  // brought down onto low + k * step, as Optuna
        Rng rng(5);
        for (int i = 0; i < 200; ++i) {
            const double v = d.sample(rng).toDouble();
            const double k = (v - 0.1) / 0.25;
            QVERIFY(v >= 0.1 && v <= 0.85 + 1e-12 && std::fabs(k - std::round(k)) < 1e-9);
        }
        QCOMPARE(d.fromModel(0.7).toDouble(), 0.6);
        SuggestedDistribution i;
        QVERIFY(SuggestedDistribution::fromJson(intDist(3, 10, 3), &i));
        QCOMPARE(i.high, 9.0);
        QCOMPARE(i.fromModel(7.9).toInt(), 9);
        QCOMPARE(i.fromModel(100).toInt(), 9);
        QVERIFY(i.sample(rng).isDouble());
    }

    // ----- searchers on a space that grows -----

    void randomDrawsDependOnTheTrialAndTheNameOnly() {
        const auto first = runSearch(QStringLiteral("random"), 20);
        const auto again = runSearch(QStringLiteral("random"), 20);
        QCOMPARE(first.size(), std::size_t(20));
        QCOMPARE(first, again);
        int conditional = 0;
        for (const QJsonObject& c : first) {
            QCOMPARE(c.contains("y"), c.value("x").toDouble() < 0.5);
            conditional += c.contains("y") ? 1 : 0;
        }
        QVERIFY(conditional > 0 && conditional < 20);
    }

    void tpeLearnsAParameterThatAppearedDuringTheRun() {
        const auto tpe = runSearch(QStringLiteral("tpe"), 60);
        const auto random = runSearch(QStringLiteral("random"), 60);
        QCOMPARE(tpe.size(), std::size_t(60));
        auto lateError = [](const std::vector<QJsonObject>& configs) {
            double sum = 0;
            for (std::size_t i = 30; i < configs.size(); ++i) {
                sum += std::fabs(configs[i].value("x").toDouble() - 0.3);
            }
            return sum / double(configs.size() - 30);
        };
        QVERIFY2(
            lateError(tpe) < 0.5 * lateError(random),
            qPrintable(
                QStringLiteral("tpe %1, random %2").arg(lateError(tpe)).arg(lateError(random))));
    }

    void tpeModelsAConditionalParameterFromTheTrialsThatHaveIt() {
        // Only trials with x < 0.5 have y; the loss rewards y == 7 there.
        const auto configs = runSearch(QStringLiteral("tpe"), 80, [](const QJsonObject& c) {
            return c.contains("y") ? std::fabs(c.value("y").toInt() - 7) : 10.0;
        });
        int late = 0;
        int sevens = 0;
        for (std::size_t i = 40; i < configs.size(); ++i) {
            if (configs[i].contains("y")) {
                ++late;
                sevens += configs[i].value("y").toInt() == 7 ? 1 : 0;
            }
        }
        QVERIFY2(late > 20, qPrintable(QString::number(late)));  // x < 0.5 is the good half
        QVERIFY2(sevens * 2 > late, qPrintable(QStringLiteral("%1 of %2").arg(sevens).arg(late)));
    }
};

QTEST_APPLESS_MAIN(TestDefineByRun)
#include "test_define_by_run.moc"
