// Define-by-run (Optuna's trial.suggest_*): the `suggest` line as the experiment loop takes it
// (a value answered, the parameter recorded in the trial's config and history, the same value
// when asked again, a clash refused), Optuna's distributions (core/suggested_distribution.h),
// and the random and tpe searchers on a space that grows as trials ask.
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>

#include "core/cmaes_searcher.h"
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
    void exploreConfig(const QString&, const QStringList&, const QJsonObject&) override {
    }  // no pbt
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

// An objective as Optuna writes one: it asks for its parameters through `suggest` (name,
// distribution) and returns the value to minimise.
using Suggest = std::function<QJsonValue(const QString&, const QJsonObject&)>;
using Objective = std::function<double(const Suggest&)>;

// Runs trials `first` .. `first + count - 1` one after another through `searcher`, each asking as
// `objective` does; the configs they ended with.
std::vector<QJsonObject> optimize(Searcher& searcher, const QString& algorithm, int first,
                                  int count, const Objective& objective) {
    ParameterRequests requests(algorithm);
    std::vector<QJsonObject> configs;
    for (int i = first; i < first + count; ++i) {
        Trial trial;
        trial.index = i;
        trial.id = trialIdForIndex(i);
        const Suggestion s = searcher.suggest(trial.id);
        if (s.kind != Suggestion::Kind::Config) {
            break;
        }
        trial.config = s.config;
        const double loss = objective([&](const QString& name, const QJsonObject& distribution) {
            bool added = false;
            const QJsonObject answer = requests.answer(searcher, trial, name, distribution, &added);
            if (answer.value("action") != QStringLiteral("value")) {
                qWarning() << answer;
            }
            return answer.value("value");
        });
        searcher.onComplete(trial.id, QJsonObject{{"value", loss}}, false);
        configs.push_back(trial.config);
    }
    return configs;
}

// x in [0, 1], y in 1..9 and a choice of kind every time, z only when x < 0.5: best at x = 0.3,
// y = 7, whatever the rest.
double shiftedBowl(const Suggest& suggest) {
    const double x = suggest("x", floatDist(0, 1)).toDouble();
    const int y = suggest("y", intDist(1, 9)).toInt();
    suggest("kind", categorical({"a", "b"}));
    if (x < 0.5) {
        suggest("z", floatDist(1e-3, 1, true));
    }
    return (x - 0.3) * (x - 0.3) + (y - 7) * (y - 7) / 64.0;
}

// The mean distance to the optimum of shiftedBowl of the configs from `from` on.
double bowlError(const std::vector<QJsonObject>& configs, std::size_t from) {
    double sum = 0;
    for (std::size_t i = from; i < configs.size(); ++i) {
        sum += std::fabs(configs[i].value("x").toDouble() - 0.3) +
               std::fabs(configs[i].value("y").toInt() - 7) / 8.0;
    }
    return sum / double(configs.size() - from);
}

std::unique_ptr<CmaesSearcher> defineByRunCmaes(int samples) {
    ExperimentSpec spec = defineByRunSpec(QStringLiteral("cmaes"), samples);
    QString badKey;
    if (Status s = validateSearcher(spec, &badKey); !s) {
        qWarning("%s: %s", qPrintable(badKey), qPrintable(s.message()));
        return nullptr;
    }
    std::unique_ptr<Searcher> searcher = makeSearcher(spec);
    return std::unique_ptr<CmaesSearcher>(dynamic_cast<CmaesSearcher*>(searcher.release()));
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
        ExperimentSpec spec = defineByRunSpec(QStringLiteral("bayesopt"));
        std::unique_ptr<Searcher> searcher = makeSearcher(spec);
        ParameterRequests requests(QStringLiteral("bayesopt"));
        Trial trial;
        trial.id = trialIdForIndex(0);
        bool added = true;
        const QJsonObject answer =
            requests.answer(*searcher, trial, QStringLiteral("x"), floatDist(0, 1), &added);
        QCOMPARE(answer.value("action").toString(), QStringLiteral("error"));
        const QString message = answer.value("message").toString();
        QVERIFY2(message.contains(QStringLiteral("'bayesopt'")) &&
                     message.contains(QStringLiteral("tpe, cmaes or random")),
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

    void pointsOfAnEmptySpaceAnswerTheTrialsRequests() {
        // Optuna's study that already holds trials: points with values are finished trials the
        // model learns from; points without are run first, their values answering the asks.
        ExperimentSpec spec = defineByRunSpec(QStringLiteral("tpe"), 4);
        spec.search.options.insert("points_to_evaluate",
                                   QJsonArray{QJsonObject{{"x", 0.25}, {"y", 3}}});
        QString badKey;
        QVERIFY(validateSearcher(spec, &badKey));
        std::unique_ptr<Searcher> searcher = makeSearcher(spec);
        const auto configs = optimize(*searcher, QStringLiteral("tpe"), 0, 2, shiftedBowl);
        QCOMPARE(configs.size(), std::size_t(2));
        QCOMPARE(configs[0].value("x").toDouble(), 0.25);
        QCOMPARE(configs[0].value("y").toInt(), 3);
        QVERIFY(configs[0].contains("kind"));  // what the point left out is drawn

        spec.search.options.insert("evaluated_rewards", QJsonArray{0.5});
        QVERIFY(validateSearcher(spec, &badKey));
        searcher = makeSearcher(spec);
        const auto run = optimize(*searcher, QStringLiteral("tpe"), 0, 1, shiftedBowl);
        QVERIFY(run[0].value("x").toDouble() != 0.25);  // known already: not run again
        QCOMPARE(
            static_cast<ModelSearcher&>(*searcher).saveState()["observations"].toArray().size(), 2);

        // A study holding a finished trial and an enqueued one: the reward of the enqueued point
        // is null, so it is run first, with its values, and only the finished one is learned.
        spec.search.options.insert(
            "points_to_evaluate",
            QJsonArray{QJsonObject{{"x", 0.25}, {"y", 3}}, QJsonObject{{"x", -0.5}}});
        spec.search.options.insert("evaluated_rewards", QJsonArray{0.5, QJsonValue::Null});
        QVERIFY(validateSearcher(spec, &badKey));
        searcher = makeSearcher(spec);
        const auto mixed = optimize(*searcher, QStringLiteral("tpe"), 0, 2, shiftedBowl);
        QCOMPARE(mixed[0].value("x").toDouble(), -0.5);
        QVERIFY(mixed[1].value("x").toDouble() != 0.25);
        QCOMPARE(
            static_cast<ModelSearcher&>(*searcher).saveState()["observations"].toArray().size(), 3);
    }

    void cmaesSearchesTheParametersEveryTrialAskedFor() {
        auto cmaes = defineByRunCmaes(80);
        QVERIFY(cmaes);
        const auto configs = optimize(*cmaes, QStringLiteral("cmaes"), 0, 80, shiftedBowl);
        ExperimentSpec randomSpec = defineByRunSpec(QStringLiteral("random"), 80);
        std::unique_ptr<Searcher> random = makeSearcher(randomSpec);
        const auto randomConfigs = optimize(*random, QStringLiteral("random"), 0, 80, shiftedBowl);
        QCOMPARE(configs.size(), std::size_t(80));
        // CMA-ES runs on x and y, the numeric parameters every trial asked for; the choice and
        // the conditional z are drawn at random, as Optuna's independent sampler draws them.
        QVERIFY(cmaes->distribution());
        QCOMPARE(cmaes->distribution()->dimensions(), 2);
        QVERIFY2(cmaes->distribution()->generation() > 3,
                 qPrintable(QString::number(cmaes->distribution()->generation())));
        qInfo("mean distance to the optimum over trials 40..79: cmaes %.3f, random %.3f",
              bowlError(configs, 40), bowlError(randomConfigs, 40));
        QVERIFY2(bowlError(configs, 40) < 0.5 * bowlError(randomConfigs, 40),
                 qPrintable(QStringLiteral("cmaes %1, random %2")
                                .arg(bowlError(configs, 40))
                                .arg(bowlError(randomConfigs, 40))));
        int kinds = 0;
        for (std::size_t i = 40; i < configs.size(); ++i) {
            QCOMPARE(configs[i].contains("z"), configs[i].value("x").toDouble() < 0.5);
            kinds += configs[i].value("kind") == QStringLiteral("a") ? 1 : 0;
            const int y = configs[i].value("y").toInt();
            QVERIFY(configs[i].value("y").isDouble() && y >= 1 && y <= 9);
        }
        QVERIFY2(kinds > 5 && kinds < 35, qPrintable(QString::number(kinds)));  // still random
    }

    void cmaesStartsAfreshWhenTheAskedSpaceShrinks() {
        auto cmaes = defineByRunCmaes(60);
        QVERIFY(cmaes);
        optimize(*cmaes, QStringLiteral("cmaes"), 0, 20, shiftedBowl);
        QCOMPARE(cmaes->distribution()->dimensions(), 2);
        // From now on the objective asks for x only: y leaves the space every trial asked for.
        const auto late = optimize(*cmaes, QStringLiteral("cmaes"), 20, 40, [](const Suggest& s) {
            const double x = s("x", floatDist(0, 1)).toDouble();
            return (x - 0.8) * (x - 0.8);
        });
        QCOMPARE(late.size(), std::size_t(40));
        QVERIFY(cmaes->distribution());
        QCOMPARE(cmaes->distribution()->dimensions(), 1);
        QVERIFY2(std::fabs(cmaes->distribution()->mean()[0] - 0.8) < 0.1,
                 qPrintable(QString::number(cmaes->distribution()->mean()[0])));
    }

    void aResumedCmaesDrawsWhatTheOriginalWould() {
        auto original = defineByRunCmaes(60);
        QVERIFY(original);
        optimize(*original, QStringLiteral("cmaes"), 0, 30, shiftedBowl);
        // A trial drawn before the save asks for its values after the restore.
        QVERIFY(original->suggest(trialIdForIndex(30)).kind == Suggestion::Kind::Config);
        const QJsonObject saved = original->saveState();
        auto resumed = defineByRunCmaes(60);
        QVERIFY(
            resumed->restoreState(QJsonDocument::fromJson(QJsonDocument(saved).toJson()).object()));
        std::vector<QJsonObject> asked;
        for (Searcher* searcher :
             {static_cast<Searcher*>(original.get()), static_cast<Searcher*>(resumed.get())}) {
            ParameterRequests requests(QStringLiteral("cmaes"));
            Trial trial;
            trial.index = 30;
            trial.id = trialIdForIndex(30);
            bool added = false;
            requests.answer(*searcher, trial, "x", floatDist(0, 1), &added);
            requests.answer(*searcher, trial, "y", intDist(1, 9), &added);
            searcher->onComplete(trial.id, QJsonObject{{"value", 0.5}}, false);
            asked.push_back(trial.config);
        }
        QCOMPARE(asked[0], asked[1]);
        const auto a = optimize(*original, QStringLiteral("cmaes"), 31, 20, shiftedBowl);
        const auto b = optimize(*resumed, QStringLiteral("cmaes"), 31, 20, shiftedBowl);
        QCOMPARE(a.size(), std::size_t(20));
        QCOMPARE(a, b);
        // A damaged saved space is refused, not searched.
        QJsonObject damaged = saved;
        QJsonObject model = damaged.value("model").toObject();
        model.insert("space", QJsonArray{QJsonObject{{"name", "x"}}});
        damaged.insert("model", model);
        QVERIFY(!defineByRunCmaes(60)->restoreState(damaged));
    }
};

QTEST_APPLESS_MAIN(TestDefineByRun)
#include "test_define_by_run.moc"
