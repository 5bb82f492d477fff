// The pbt scheduler: who exploits whom and who saves, as Ray's PopulationBasedTraining; explore's
// perturbation, resampling, list shifts and clamps; burn-in; synch; resume (options:
// test_pbt_options).
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTest>

#include "core/pbt_scheduler.h"
#include "core/rng.h"
#include "pbt_builders.h"

using namespace tunedeck;
using namespace tunedeck::testing;
using Action = SchedulerDecision::Action;

namespace {

std::unique_ptr<PbtScheduler> make(const ExperimentSpec& spec) {
    QString badKey;
    const Status status = validatePbtOptions(spec, &badKey);
    if (!status.isOk()) {
        qWarning("%s: %s", qPrintable(badKey), qPrintable(status.message()));
        return nullptr;
    }
    std::unique_ptr<Scheduler> scheduler = makePbtScheduler(spec);
    return std::unique_ptr<PbtScheduler>(dynamic_cast<PbtScheduler*>(scheduler.release()));
}

Trial trialAt(int index) {
    Trial trial;
    trial.index = index;
    trial.id = trialIdForIndex(index);
    trial.config = {{"lr", 0.001 * (index + 1)}, {"batch", 32}, {"epochs", 10}};
    return trial;
}

std::vector<Trial> population(Scheduler& scheduler, int size) {
    std::vector<Trial> trials;
    for (int i = 0; i < size; ++i) {
        trials.push_back(trialAt(i));
        scheduler.onTrialAdd(trials.back());
    }
    return trials;
}

// Reports one result; applies an exploit's config to the trial as the runtime does.
SchedulerDecision report(Scheduler& scheduler, Trial& trial, double iteration, double value,
                         const QString& metric = "acc") {
    trial.iteration = static_cast<std::int64_t>(iteration);
    const SchedulerDecision decision =
        scheduler.onResult(trial, {{"training_iteration", iteration}, {metric, value}});
    if (decision.action == Action::Exploit) {
        trial.config = decision.config;
    }
    return decision;
}

// "E:t00006" for an exploit of t00006, "S" for continue-and-save, "C", "P", "X" (stop).
QString code(const SchedulerDecision& d) {
    switch (d.action) {
        case Action::Continue:
            return d.checkpoint ? QStringLiteral("S") : QStringLiteral("C");
        case Action::Pause:
            return QStringLiteral("P");
        case Action::Stop:
            return QStringLiteral("X");
        case Action::Exploit:
            return QStringLiteral("E:") + d.source;
    }
    return {};
}

// Every trial reports `values[i]` at `iteration`, in order; the decisions' codes.
QStringList round(Scheduler& scheduler, std::vector<Trial>& trials, double iteration,
                  const std::vector<double>& values, const QString& metric = "acc") {
    QStringList codes;
    for (std::size_t i = 0; i < values.size(); ++i) {
        codes.append(code(report(scheduler, trials[i], iteration, values[i], metric)));
    }
    return codes;
}

PbtExploreOptions exploreOf(std::vector<PbtMutation> mutations, double resample,
                            std::vector<double> factors = {1.2, 0.8}) {
    PbtExploreOptions o;
    o.mutations = std::move(mutations);
    o.resampleProbability = resample;
    o.perturbationFactors = std::move(factors);
    return o;
}

// How often each explored value of `path` came out over `draws` explorations of `config`.
QMap<QString, int> tally(const QJsonObject& config, const PbtExploreOptions& options,
                         const QString& path, int draws = 2000) {
    Rng rng(5);
    QMap<QString, int> counts;
    for (int i = 0; i < draws; ++i) {
        const QJsonValue v = valueAtPath(pbtExplore(config, options, rng), path);
        counts[v.isDouble() ? QString::number(v.toDouble(), 'g', 12) : v.toString()] += 1;
    }
    return counts;
}

}  // namespace

class TestPbt : public QObject {
    Q_OBJECT

  private slots:
    void isInTheCatalogue() {
        QVERIFY(knownSchedulers().contains("pbt"));
        QVERIFY(makeValidated(pbtSpec()));
        QString key;
        QVERIFY(!validateScheduler(pbtSpec({{"eta", 3}}), &key).isOk());
        QCOMPARE(key, QString("scheduler.eta"));
    }

    void noDecisionBeforeThePerturbationInterval() {
        auto pbt = make(pbtSpec());
        QVERIFY(pbt);
        auto trials = population(*pbt, 4);
        for (int it = 1; it < 4; ++it) {
            QCOMPARE(round(*pbt, trials, it, {0.1, 0.2, 0.3, 0.4}),
                     QStringList({"C", "C", "C", "C"}));
        }
        // At 4 every newcomer to the ranking is its best, so each saves for the others.
        QCOMPARE(round(*pbt, trials, 4, {0.1, 0.2, 0.3, 0.4}), QStringList({"S", "S", "S", "S"}));
        // Not again until another interval has passed.
        QCOMPARE(round(*pbt, trials, 7, {0.1, 0.2, 0.3, 0.4}), QStringList({"C", "C", "C", "C"}));
        QVERIFY(pbt->exploits().empty());
    }

    void bottomQuarterCopiesTheTopQuarter() {
        auto pbt = make(pbtSpec());
        auto trials = population(*pbt, 8);
        const std::vector<double> acc{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};
        round(*pbt, trials, 4, acc);
        const QJsonObject t0Before = trials[0].config;
        const QStringList codes = round(*pbt, trials, 8, acc);
        // 8 trials, quantile 0.25: t0 and t1 copy t6 or t7; t6 and t7 save; the middle goes on.
        for (int i : {0, 1}) {
            QVERIFY2(codes[i] == "E:t00006" || codes[i] == "E:t00007", qPrintable(codes[i]));
        }
        QCOMPARE(codes.mid(2), QStringList({"C", "C", "C", "C", "S", "S"}));

        const auto exploits = pbt->exploits();
        QCOMPARE(exploits.size(), std::size_t(2));
        QCOMPARE(exploits[0].trialId, QString("t00000"));
        QCOMPARE(exploits[0].source, codes[0].mid(2));
        QCOMPARE(exploits[0].time, 8.0);
        QCOMPARE(exploits[0].iteration, std::int64_t(8));
        QCOMPARE(exploits[0].oldConfig, t0Before);
        QCOMPARE(exploits[0].newConfig, trials[0].config);
        const Trial& source = exploits[0].source == "t00006" ? trials[6] : trials[7];
        QCOMPARE(exploits[0].sourceConfig, source.config);
        // Only the mutated keys change; epochs is carried over from the source.
        QCOMPARE(exploits[0].newConfig.value("epochs"), QJsonValue(10));
        QVERIFY(exploits[0].newConfig != exploits[0].sourceConfig);
    }

    void theExploitReasonSaysWhoAndWhat() {
        auto pbt = make(pbtSpec());
        auto trials = population(*pbt, 2);
        round(*pbt, trials, 4, {0.9, 0.1});
        const SchedulerDecision d = report(*pbt, trials[1], 8, 0.05);
        QCOMPARE(code(d), QString("E:t00000"));
        QVERIFY2(d.reason.contains("bottom 25% of 2 trials") && d.reason.contains("t00000") &&
                     d.reason.contains("acc 0.05") && d.reason.contains("lr 0.001 -> "),
                 qPrintable(d.reason));
    }

    void theSourceIsDrawnFromTheWholeTopQuantile() {
        QSet<QString> sources;
        for (std::uint64_t seed = 0; seed < 20; ++seed) {
            ExperimentSpec spec = pbtSpec();
            spec.seed = seed;
            auto pbt = make(spec);
            auto trials = population(*pbt, 8);
            const std::vector<double> acc{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};
            round(*pbt, trials, 4, acc);
            sources.insert(round(*pbt, trials, 8, acc)[0]);
        }
        QCOMPARE(sources, QSet<QString>({"E:t00006", "E:t00007"}));
    }

    void aTopTrialWithoutAFreshCheckpointIsNotCopied() {
        // Ray keeps a trial's checkpoint only while it was in the top at its own last
        // perturbation; an exploit that draws a trial that has fallen back is skipped.
        auto pbt = make(pbtSpec({{"quantile_fraction", 0.34}}));
        auto trials = population(*pbt, 3);
        QCOMPARE(round(*pbt, trials, 4, {0.5, 0.6, 0.7}), QStringList({"S", "S", "S"}));
        // t1 is now in the middle: it continues and no longer holds a checkpoint for others.
        QCOMPARE(code(report(*pbt, trials[1], 8, 0.55)), QString("C"));
        // t2 drops to the bottom; the top is t1, which has nothing to copy.
        QCOMPARE(code(report(*pbt, trials[2], 8, 0.4)), QString("C"));
        QVERIFY(pbt->exploits().empty());
        // Once t0 reports as the best it saves, and the next bottom trial copies it.
        QCOMPARE(code(report(*pbt, trials[0], 8, 0.9)), QString("S"));
        QCOMPARE(code(report(*pbt, trials[2], 12, 0.3)), QString("E:t00000"));
    }

    void modeMinRanksLowValuesOnTop() {
        auto pbt = make(pbtSpec({}, defaultMutations(), defaultSpace(), "loss", MetricMode::Min));
        auto trials = population(*pbt, 4);
        // Each higher loss is the bottom of those ranked so far and copies t0 at once.
        QCOMPARE(round(*pbt, trials, 4, {0.1, 0.2, 0.3, 0.4}, "loss"),
                 QStringList({"S", "E:t00000", "E:t00000", "E:t00000"}));
        // Quantile of 4 at 0.25 is one trial: the highest loss copies the lowest.
        QCOMPARE(round(*pbt, trials, 8, {0.1, 0.2, 0.3, 0.4}, "loss"),
                 QStringList({"S", "C", "C", "E:t00000"}));
    }

    void finishedTrialsLeaveTheRanking() {
        auto pbt = make(pbtSpec());
        auto trials = population(*pbt, 4);
        round(*pbt, trials, 4, {0.1, 0.2, 0.3, 0.9});
        pbt->onComplete(trials[3], {});
        // Without t3, t2 is the top: it saves, and t0 copies it.
        QCOMPARE(round(*pbt, trials, 8, {0.1, 0.2, 0.3}), QStringList({"E:t00002", "C", "S"}));
    }

    void burnInDelaysTheFirstPerturbation() {
        auto pbt = make(pbtSpec({{"burn_in_period", 10}}));
        auto trials = population(*pbt, 2);
        QCOMPARE(round(*pbt, trials, 4, {0.9, 0.1}), QStringList({"C", "C"}));
        QCOMPARE(round(*pbt, trials, 8, {0.9, 0.1}), QStringList({"C", "C"}));
        QCOMPARE(round(*pbt, trials, 10, {0.9, 0.1}), QStringList({"S", "E:t00000"}));
    }

    void theExploitedTrialKeepsItsOwnClock() {
        auto pbt = make(pbtSpec());
        auto trials = population(*pbt, 2);
        round(*pbt, trials, 4, {0.9, 0.1});
        QCOMPARE(code(report(*pbt, trials[1], 6, 0.1)), QString("C"));
        QCOMPARE(code(report(*pbt, trials[1], 8, 0.1)), QString("E:t00000"));
        // Its next perturbation is an interval after 8, not after the source's 4.
        QCOMPARE(code(report(*pbt, trials[1], 11, 0.05)), QString("C"));
        QCOMPARE(code(report(*pbt, trials[1], 12, 0.05)), QString("E:t00000"));
    }

    void perturbationMultipliesByAFactor() {
        const auto options = exploreOf({{"lr", loguniform(0.0001, 1), false}}, 0);
        const auto counts = tally({{"lr", 0.1}}, options, "lr");
        QCOMPARE(counts.keys(), QStringList({"0.08", "0.12"}));
        QVERIFY2(std::abs(counts["0.12"] - 1000) < 120,
                 qPrintable(QString::number(counts["0.12"])));
        // The user's own factors.
        const auto doubled =
            tally({{"lr", 0.1}}, exploreOf({{"lr", loguniform(0.0001, 1), false}}, 0, {2}), "lr");
        QCOMPARE(doubled.keys(), QStringList({"0.2"}));
    }

    void resampleDrawsFromTheDomain() {
        const auto always =
            tally({{"lr", 0.1}}, exploreOf({{"lr", uniform(0.5, 0.6), false}}, 1), "lr");
        QVERIFY(always.size() > 1000);
        for (const QString& v : always.keys()) {
            QVERIFY2(v.toDouble() >= 0.5 && v.toDouble() < 0.6, qPrintable(v));
        }
        // With probability 0.25 a value is resampled, otherwise perturbed.
        const auto some =
            tally({{"lr", 0.1}}, exploreOf({{"lr", uniform(0.5, 0.6), false}}, 0.25), "lr", 4000);
        // 0.12 and 0.08 would be clamped into [0.5, 0.6]: perturbed values land on 0.5.
        const int perturbed = some.value("0.5");
        QVERIFY2(std::abs(perturbed - 3000) < 150, qPrintable(QString::number(perturbed)));
    }

    void aListMovesToAnAdjacentValue() {
        const PbtMutation batch{"batch", choice({16, 32, 64, 128}), false};
        const auto options = exploreOf({batch}, 0);
        QCOMPARE(tally({{"batch", 32}}, options, "batch").keys(), QStringList({"16", "64"}));
        // At an end the shift that would leave the list keeps the value (Ray clamps the index).
        QCOMPARE(tally({{"batch", 16}}, options, "batch").keys(), QStringList({"16", "32"}));
        QCOMPARE(tally({{"batch", 128}}, options, "batch").keys(), QStringList({"128", "64"}));
        // A value not in the list is resampled from it.
        QCOMPARE(tally({{"batch", 48}}, options, "batch").keys(),
                 QStringList({"128", "16", "32", "64"}));
        // Strings shift the same way.
        const PbtMutation opt{"opt", choice({"sgd", "adam", "rmsprop"}), false};
        QCOMPARE(tally({{"opt", "adam"}}, exploreOf({opt}, 0), "opt").keys(),
                 QStringList({"rmsprop", "sgd"}));
    }

    void perturbedNumbersStayInTheMutationDomain() {
        const auto high = tally({{"x", 0.9}}, exploreOf({{"x", uniform(0, 1), false}}, 0), "x");
        QCOMPARE(high.keys(), QStringList({"0.72", "1"}));
        // Integers truncate as Ray's int() and stay below randint's exclusive upper bound; 9 *
        // 1.2 would stay 9 there, so 0.8 is taken: a perturbation always moves (Ray's does).
        Rng rng(1);
        const auto ints = tally({{"n", 9}}, exploreOf({{"n", randint(1, 10), true}}, 0), "n");
        QCOMPARE(ints.keys(), QStringList({"7"}));
        const auto low =
            tally({{"lr", 0.0001}}, exploreOf({{"lr", uniform(0.0001, 0.02), false}}, 0), "lr");
        QCOMPARE(low.keys(), QStringList({"0.00012"}));
        const QJsonObject explored =
            pbtExplore({{"n", 3}}, exploreOf({{"n", randint(1, 10), true}}, 0, {0.8}), rng);
        QCOMPARE(explored.value("n").toInteger(), qint64(2));
        QCOMPARE(QJsonDocument(explored).toJson(QJsonDocument::Compact), QByteArray("{\"n\":2}"));
        // A quantised domain stays on its grid.
        const auto q = tally({{"q", 0.5}}, exploreOf({{"q", quniform(0, 1, 0.25), false}}, 0), "q");
        QCOMPARE(q.keys(), QStringList({"0.5"}));
    }

    void customExploreClampsTheExploredValue() {
        PbtExploreOptions options = exploreOf({{"lr", loguniform(0.0001, 1), false}}, 0, {2});
        options.customExplore = {{"lr", 0.05, 0.15, false}};
        QCOMPARE(tally({{"lr", 0.1}}, options, "lr").keys(), QStringList({"0.15"}));
        // Through the options, alone: the config is copied and clamped.
        auto pbt = make(pbtSpec({{"custom_explore", QJsonObject{{"lr", QJsonArray{0.05, 0.1}}}}},
                                SearchSpace{}));
        QVERIFY(pbt);
        auto trials = population(*pbt, 2);
        trials[0].config["lr"] = 0.5;
        round(*pbt, trials, 4, {0.9, 0.1});
        const SchedulerDecision d = report(*pbt, trials[1], 8, 0.1);
        QCOMPARE(code(d), QString("E:t00000"));
        QCOMPARE(d.config.value("lr").toDouble(), 0.1);
        QCOMPARE(d.config.value("batch"), QJsonValue(32));
    }

    void nestedParametersAreMutatedInPlace() {
        const SearchSpace nested = space({group("optim", space({param("lr", uniform(0, 1))}))});
        auto pbt =
            make(pbtSpec({{"resample_probability", 0}, {"perturbation_factors", QJsonArray{2}}},
                         nested, nested));
        QVERIFY(pbt);
        auto trials = population(*pbt, 2);
        trials[0].config = {{"optim", QJsonObject{{"lr", 0.25}, {"momentum", 0.9}}}};
        round(*pbt, trials, 4, {0.9, 0.1});
        const SchedulerDecision d = report(*pbt, trials[1], 8, 0.1);
        QCOMPARE(d.config, (QJsonObject{{"optim", QJsonObject{{"lr", 0.5}, {"momentum", 0.9}}}}));
    }

    void synchWaitsForThePopulation() {
        auto pbt = make(pbtSpec({{"synch", true}}));
        auto trials = population(*pbt, 4);
        // Each arrival at the sync point pauses until the last one ranks everybody.
        QCOMPARE(round(*pbt, trials, 4, {0.1, 0.2, 0.3}), QStringList({"P", "P", "P"}));
        std::vector<const Trial*> waiting{&trials[0], &trials[1], &trials[2]};
        QCOMPARE(pbt->chooseTrialToRun(waiting), std::nullopt);
        // The last arrival is the top: it saves; t0 (bottom, paused) gets its exploit later.
        QCOMPARE(code(report(*pbt, trials[3], 4, 0.4)), QString("S"));
        QCOMPARE(pbt->exploits().size(), std::size_t(1));
        QCOMPARE(pbt->exploits()[0].source, QString("t00003"));
        QCOMPARE(pbt->chooseTrialToRun(waiting), std::optional<QString>("t00000"));
        QCOMPARE(code(report(*pbt, trials[0], 5, 0.1)), QString("E:t00003"));
        QCOMPARE(trials[0].config, pbt->exploits()[0].newConfig);
        QCOMPARE(code(report(*pbt, trials[1], 5, 0.2)), QString("C"));
    }

    void synchDoesNotWaitForAFinishedTrial() {
        auto pbt = make(pbtSpec({{"synch", true}}));
        auto trials = population(*pbt, 3);
        QCOMPARE(round(*pbt, trials, 4, {0.1, 0.2}), QStringList({"P", "P"}));
        std::vector<const Trial*> waiting{&trials[0], &trials[1]};
        QCOMPARE(pbt->chooseTrialToRun(waiting), std::nullopt);
        pbt->onComplete(trials[2], {});
        QCOMPARE(pbt->chooseTrialToRun(waiting), std::optional<QString>("t00000"));
        QCOMPARE(code(report(*pbt, trials[0], 5, 0.1)), QString("E:t00001"));
    }

    void theLeastTrainedWaitingTrialRunsFirst() {
        auto pbt = make(pbtSpec());
        auto trials = population(*pbt, 3);
        report(*pbt, trials[0], 8, 0.1);
        report(*pbt, trials[1], 4, 0.1);
        std::vector<const Trial*> waiting{&trials[0], &trials[1], &trials[2]};
        QCOMPARE(pbt->chooseTrialToRun(waiting), std::optional<QString>("t00002"));
        waiting.pop_back();
        QCOMPARE(pbt->chooseTrialToRun(waiting), std::optional<QString>("t00001"));
    }

    void aTrialYieldsItsSlotAtAPerturbationWhileOthersWait() {
        // Ray's "yield time to other trials": 4 members on 2 slots, 2 waiting.
        auto pbt = make(pbtSpec());
        auto trials = population(*pbt, 4);
        pbt->onTrialsWaiting(2);
        QCOMPARE(round(*pbt, trials, 3, {0.1, 0.2}), QStringList({"C", "C"}));
        // At the perturbation each gives its slot back; pausing saves, as the top must.
        const SchedulerDecision first = report(*pbt, trials[0], 4, 0.1);
        QCOMPARE(code(first), QString("P"));
        QVERIFY2(first.reason.contains("2 waiting trials") &&
                     first.reason.contains("training_iteration 4"),
                 qPrintable(first.reason));
        QCOMPARE(code(report(*pbt, trials[1], 4, 0.2)), QString("P"));
        // The newcomers run before the paused members, the least trained first.
        std::vector<const Trial*> waiting{&trials[0], &trials[1], &trials[2], &trials[3]};
        QCOMPARE(pbt->chooseTrialToRun(waiting), std::optional<QString>("t00002"));
        QVERIFY(pbt->sharesSlots());
        // The bottom of the population still exploits (its attempt ends in any case).
        QCOMPARE(round(*pbt, trials, 4, {0.1, 0.2, 0.3, 0.4}).mid(2), QStringList({"P", "P"}));
        const SchedulerDecision bottom = report(*pbt, trials[0], 8, 0.05);
        QVERIFY2(code(bottom).startsWith("E:"), qPrintable(code(bottom)));
        // With nobody waiting, the others continue as before.
        pbt->onTrialsWaiting(0);
        QCOMPARE(code(report(*pbt, trials[3], 8, 0.9)), QString("S"));
        QCOMPARE(code(report(*pbt, trials[2], 8, 0.5)), QString("C"));
    }

    void requiredResultKeysPointAtTheFile() {
        auto pbt = make(pbtSpec());
        using Keys = std::vector<std::pair<QString, QString>>;
        QCOMPARE(pbt->requiredResultKeys(),
                 (Keys{{"training_iteration", "scheduler.time_attr"}, {"acc", "metric"}}));
        auto own = make(pbtSpec({{"metric", "reward"}}));
        QCOMPARE(own->requiredResultKeys()[1],
                 (std::pair<QString, QString>("reward", "scheduler.metric")));
        QVERIFY(make(pbtSpec({{"require_attrs", false}}))->requiredResultKeys().empty());
        // Ray's default clock.
        ExperimentSpec spec = pbtSpec();
        spec.scheduler.options.remove("time_attr");
        QCOMPARE(make(spec)->requiredResultKeys()[0].first, QString("time_total_s"));
    }

    void restoredStateGivesTheSameLaterDecisions() {
        const ExperimentSpec spec = pbtSpec({{"perturbation_interval", 2}});
        auto valueOf = [](int trial, int iteration) {
            return Rng::forStream(static_cast<std::uint64_t>(trial) + 100,
                                  static_cast<std::uint64_t>(iteration))
                .uniform01();
        };
        auto original = make(spec);
        std::vector<Trial> trials = population(*original, 6);
        auto run = [&](Scheduler& scheduler, std::vector<Trial>& ts, int from, int to) {
            QStringList out;
            for (int event = from; event < to; ++event) {
                const int it = event / 6 + 1;
                Trial& t = ts[static_cast<std::size_t>(event % 6)];
                const SchedulerDecision d = report(scheduler, t, it, valueOf(event % 6, it));
                out.append(code(d) + QString::fromUtf8(
                                         QJsonDocument(d.config).toJson(QJsonDocument::Compact)));
            }
            return out;
        };
        const int split = 6 * 7 + 3, end = 6 * 20;
        const QStringList before = run(*original, trials, 0, split);
        QVERIFY(std::any_of(before.begin(), before.end(),
                            [](const QString& c) { return c.startsWith("E:"); }));
        const QByteArray saved = QJsonDocument(original->saveState()).toJson();

        auto resumed = make(spec);
        QVERIFY(resumed->restoreState(QJsonDocument::fromJson(saved).object()).isOk());
        auto fresh = make(spec);
        for (const Trial& t : trials) {
            fresh->onTrialAdd(t);
        }
        std::vector<Trial> a = trials, b = trials, c = trials;
        const QStringList expected = run(*original, a, split, end);
        QVERIFY(std::count_if(expected.begin(), expected.end(),
                              [](const QString& c) { return c.startsWith("E:"); }) > 3);
        QCOMPARE(run(*resumed, b, split, end), expected);
        QCOMPARE(resumed->saveState(), original->saveState());
        QCOMPARE(resumed->exploits().size(), original->exploits().size());
        // Without the saved population the decisions differ, so the comparison means something.
        QVERIFY(run(*fresh, c, split, end) != expected);
    }

    void aStateOfAnotherAlgorithmIsRefused() {
        auto pbt = make(pbtSpec());
        QJsonObject state = pbt->saveState();
        state["algorithm"] = "pb2";
        QCOMPARE(pbt->restoreState(state).code(), Status::Code::Corruption);
    }

    void multiObjectiveRanksByTheSchedulersMetric() {
        ExperimentSpec spec = pbtSpec();
        spec.objectives = {{"acc", MetricMode::Max}, {"latency", MetricMode::Min}};
        QString key;
        const Status status = validatePbtOptions(spec, &key);
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QCOMPARE(key, QString("metric"));
        QVERIFY2(status.message().contains("scheduler.metric"), qPrintable(status.message()));

        spec.scheduler.options.insert("metric", "latency");
        spec.scheduler.options.insert("mode", "min");
        auto pbt = make(spec);
        QVERIFY(pbt);
        auto trials = population(*pbt, 4);
        // By latency, lower is better: the slowest copies the fastest, whatever acc says.
        QCOMPARE(round(*pbt, trials, 4, {0.1, 0.2, 0.3, 0.4}, "latency"),
                 QStringList({"S", "E:t00000", "E:t00000", "E:t00000"}));
    }
};

QTEST_GUILESS_MAIN(TestPbt)
#include "test_pbt.moc"
