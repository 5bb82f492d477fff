// Every searcher and scheduler of issue 3 through the real tunedeck-engine, on the examples a
// user would run first (resources/examples): each run ends well, and what the algorithm is
// for is visible in the history (a good optimum, trials paused and stopped at rungs, exploits
// recorded, a Pareto front printed, a replay that reproduces the winner).
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSet>
#include <QtTest>
#include <algorithm>
#include <limits>

#include "engine_harness.h"

class TestSearchExamples : public QObject {
    Q_OBJECT
  private slots:
    void tpeFindsBraninsMinimum();
    void bayesoptStartsWithTheKnownPointAndFindsTheMinimum();
    void cmaesFindsBraninsMinimum();
    void multiObjectiveBestPrintsTheParetoFront();
    void hyperbandPausesAtRungsAndStopsTheLosers();
    void gridRunsEveryCombinationOnce();
    void medianStopsTrialsBelowTheMedianAfterTheGracePeriod();
    void bohbRunsInsideHyperbandBrackets();
    void pbtExploitsAreRecordedAndReplayReproducesTheWinner();
    void pb2Runs();
    void repeatRunsEachConfigSeveralTimes();
    void hyperbandDoesNotWaitForTrialsTheSearcherHoldsBack();
    void aTimeAttrNoTrialReportsEndsTheRunWithExit2();
};

namespace {

QString example(const QString& relative) {
    return QStringLiteral(TUNEDECK_SOURCE_DIR "/resources/examples/") + relative;
}

// The finite values of `metric` in each trial's last result, by trial id.
QMap<QString, double> lastValues(const QJsonArray& exported, const QString& metric) {
    QMap<QString, double> values;
    for (const QJsonValue& t : exported) {
        const QJsonArray results = t.toObject().value("results").toArray();
        if (!results.isEmpty()) {
            const QJsonValue v = results.last().toObject().value(metric);
            if (v.isDouble()) {
                values[t.toObject().value("trial_id").toString()] = v.toDouble();
            }
        }
    }
    return values;
}

double bestOf(const QMap<QString, double>& values, bool minimise) {
    double best = minimise ? std::numeric_limits<double>::infinity()
                           : -std::numeric_limits<double>::infinity();
    for (double v : values) {
        best = minimise ? std::min(best, v) : std::max(best, v);
    }
    return best;
}

// Median loss of trials [from, to) in creation order: a model-based searcher's later proposals
// must be better than its first (random) ones. The best value found is the bench's business.
double medianLoss(const QJsonArray& exported, int from, int to) {
    std::vector<double> values;
    for (int i = from; i < to && i < exported.size(); ++i) {
        const QJsonArray results = exported[i].toObject().value("results").toArray();
        if (!results.isEmpty()) {
            values.push_back(results.last().toObject().value("loss").toDouble());
        }
    }
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

int totalResults(const QJsonArray& exported) {
    int total = 0;
    for (const QJsonValue& t : exported) {
        total += int(t.toObject().value("results").toArray().size());
    }
    return total;
}

EngineResult runExample(const EngineHarness& h, const QString& relative) {
    return h.run({"run", example(relative), "--quiet"}, 400000);
}

}  // namespace

void TestSearchExamples::tpeFindsBraninsMinimum() {
    EngineHarness h;
    const EngineResult r = runExample(h, "branin/tpe.yaml");
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QJsonArray exported = h.exportJson(h.experimentFolder("branin-tpe"));
    QCOMPARE(exported.size(), 40);
    // The first 10 are TPE's random start; the model's last 10 sit much lower.
    const double early = medianLoss(exported, 0, 10);
    const double late = medianLoss(exported, 30, 40);
    QVERIFY2(late < early / 2, qPrintable(QStringLiteral("%1 -> %2").arg(early).arg(late)));
    const double best = bestOf(lastValues(exported, "loss"), true);
    QVERIFY2(best < 2.0, qPrintable(QString::number(best)));
}

void TestSearchExamples::bayesoptStartsWithTheKnownPointAndFindsTheMinimum() {
    EngineHarness h;
    const EngineResult r = runExample(h, "branin/bayesopt.yaml");
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QJsonArray exported = h.exportJson(h.experimentFolder("branin-bayesopt"));
    QCOMPARE(exported.size(), 30);
    const QJsonObject first = exported.first().toObject().value("config").toObject();
    QCOMPARE(first.value("x").toDouble(), 2.5);
    QCOMPARE(first.value("y").toDouble(), 7.5);
    const double best = bestOf(lastValues(exported, "loss"), true);
    QVERIFY2(best < 0.6, qPrintable(QString::number(best)));
}

void TestSearchExamples::cmaesFindsBraninsMinimum() {
    EngineHarness h;
    const EngineResult r = runExample(h, "branin/cmaes.yaml");
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QJsonArray exported = h.exportJson(h.experimentFolder("branin-cmaes"));
    QCOMPARE(exported.size(), 36);
    // Six generations of six: the distribution contracts toward a minimum.
    const double early = medianLoss(exported, 0, 6);
    const double late = medianLoss(exported, 30, 36);
    QVERIFY2(late < early / 2, qPrintable(QStringLiteral("%1 -> %2").arg(early).arg(late)));
}

void TestSearchExamples::multiObjectiveBestPrintsTheParetoFront() {
    EngineHarness h;
    const EngineResult r = runExample(h, "branin/multi-objective.yaml");
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QString folder = h.experimentFolder("branin-pareto");
    const EngineResult best = h.run({"best", folder, "--format", "json"});
    QVERIFY2(best.exitCode == 0, qPrintable(best.all()));
    const QJsonObject printed = QJsonDocument::fromJson(best.out.toUtf8()).object();
    const QJsonArray front = printed.value("pareto_front").toArray();
    QVERIFY2(front.size() >= 2, qPrintable(best.out));
    // No member of the front is beaten on both objectives by any trial.
    const QJsonArray exported = h.exportJson(folder);
    const auto loss = lastValues(exported, "loss");
    const auto cost = lastValues(exported, "cost");
    for (const QJsonValue& member : front) {
        const QString id = member.toObject().value("trial_id").toString();
        QVERIFY2(loss.contains(id), qPrintable(best.out));
        for (auto it = loss.begin(); it != loss.end(); ++it) {
            const bool dominated = it.value() <= loss[id] && cost[it.key()] <= cost[id] &&
                                   (it.value() < loss[id] || cost[it.key()] < cost[id]);
            QVERIFY2(!dominated, qPrintable(id + " is dominated by " + it.key()));
        }
    }
    // The run's own summary names the same front, not a "best" by the first objective alone.
    const QString summary =
        QStringLiteral("Pareto front (loss min, cost min): %1 trials: ").arg(front.size());
    QVERIFY2(r.out.contains(summary), qPrintable(r.out));
    QVERIFY2(!r.out.contains(QStringLiteral("Best trial")), qPrintable(r.out));
    // It names up to eight members.
    qsizetype named = 0;
    for (const QJsonValue& member : front) {
        named += r.out.contains(member.toObject().value("trial_id").toString()) ? 1 : 0;
    }
    QVERIFY2(named == std::min<qsizetype>(front.size(), 8), qPrintable(r.out));
}

void TestSearchExamples::hyperbandPausesAtRungsAndStopsTheLosers() {
    EngineHarness h;
    const EngineResult r = runExample(h, "hyperband/experiment.yaml");
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QString folder = h.experimentFolder("hyperband");
    const QJsonArray exported = h.exportJson(folder);
    QCOMPARE(exported.size(), 12);
    int early = 0;
    int full = 0;
    for (const QJsonValue& t : exported) {
        QCOMPARE(t.toObject().value("status").toString(), QStringLiteral("TERMINATED"));
        const qsizetype n = t.toObject().value("results").toArray().size();
        early += n < 9 ? 1 : 0;
        full += n == 9 ? 1 : 0;
    }
    QVERIFY2(early >= 4 && full >= 1, qPrintable(QStringLiteral("%1 %2").arg(early).arg(full)));
    // Trials waited at rungs (PAUSED) and came back from their checkpoints.
    const QString paused = sqliteQuery(folder + "/experiment.sqlite",
                                       "SELECT count(*) FROM events WHERE type = 'trial_status' "
                                       "AND payload LIKE '%\"PAUSED\"%'");
    QVERIFY2(paused.toInt() >= 2, qPrintable(paused));
}

void TestSearchExamples::gridRunsEveryCombinationOnce() {
    EngineHarness h;
    const EngineResult r = runExample(h, "grid/experiment.yaml");
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QJsonArray exported = h.exportJson(h.experimentFolder("grid"));
    QCOMPARE(exported.size(), 12);
    QSet<QString> seen;
    for (const QJsonValue& t : exported) {
        const QJsonObject config = t.toObject().value("config").toObject();
        seen.insert(QStringLiteral("%1/%2/%3")
                        .arg(config.value("lr").toDouble())
                        .arg(config.value("batch_size").toInt())
                        .arg(config.value("momentum").toDouble()));
        QCOMPARE(config.value("l2").toDouble(), 1e-4);
    }
    QCOMPARE(seen.size(), 12);
}

void TestSearchExamples::medianStopsTrialsBelowTheMedianAfterTheGracePeriod() {
    EngineHarness h;
    const EngineResult r = runExample(h, "median/experiment.yaml");
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QJsonArray exported = h.exportJson(h.experimentFolder("median"));
    QCOMPARE(exported.size(), 10);
    int early = 0;
    int full = 0;
    for (const QJsonValue& t : exported) {
        const qsizetype n = t.toObject().value("results").toArray().size();
        QVERIFY2(n >= 3, qPrintable(QString::number(n)));  // nobody is judged in its grace period
        early += n < 12 ? 1 : 0;
        full += n == 12 ? 1 : 0;
    }
    QVERIFY2(early >= 3 && full >= 2, qPrintable(QStringLiteral("%1 %2").arg(early).arg(full)));
}

void TestSearchExamples::bohbRunsInsideHyperbandBrackets() {
    EngineHarness h;
    const EngineResult r = runExample(h, "hyperband/bohb.yaml");
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QJsonArray exported = h.exportJson(h.experimentFolder("bohb"));
    QCOMPARE(exported.size(), 16);
    QVERIFY(totalResults(exported) < 16 * 9);  // the brackets stopped some trials early
}

void TestSearchExamples::pbtExploitsAreRecordedAndReplayReproducesTheWinner() {
    EngineHarness h;
    const EngineResult r = runExample(h, "pbt/experiment.yaml");
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QString folder = h.experimentFolder("pbt-toy");
    // Synchronous PBT: at each of the 9 sync points (iterations 4, 8, ..., 36) the bottom trial
    // copies the top one's checkpoint of that very sync point, whichever of the two arrived
    // last (the copy waits for a checkpoint still being written), so a busy machine does not
    // change the run: the same seed gives the same exploits and the same outcome.
    const QString exploits = sqliteQuery(folder + "/experiment.sqlite",
                                         "SELECT group_concat(iteration || '<-' || "
                                         "source_iteration, ' ') FROM exploits ORDER BY id");
    QCOMPARE(exploits,
             QStringLiteral("4<-4 8<-8 12<-12 16<-16 20<-20 24<-24 28<-28 32<-32 36<-36"));
    const auto q = lastValues(h.exportJson(folder), "Q");
    // Alone, h = (1, 0) or (0, 1) stalls at Q = 1.2 - 0.81 = 0.39; the synchronised pair gets
    // close to the optimum 1.2.
    const double best = bestOf(q, false);
    qInfo("best Q %.6f", best);
    QVERIFY2(best > 1.1, qPrintable(QString::number(best)));
    const QString winner = std::max_element(q.begin(), q.end()).key();

    const EngineResult replay = h.run({"pbt-replay", folder, winner, "--quiet"}, 400000);
    QVERIFY2(replay.exitCode == 0, qPrintable(replay.all()));
    const QString replayFolder = h.experimentFolder("pbt-toy-replay-" + winner);
    const auto replayed = lastValues(h.exportJson(replayFolder), "Q");
    QCOMPARE(replayed.size(), 1);
    QVERIFY(replayed.first() > 1.1);  // the lineage's schedule, not a stalled corner
    QVERIFY2(std::abs(replayed.first() - q[winner]) < 1e-9,
             qPrintable(QStringLiteral("%1 vs %2").arg(replayed.first()).arg(q[winner])));
}

void TestSearchExamples::pb2Runs() {
    EngineHarness h;
    const EngineResult r = runExample(h, "pbt/pb2.yaml");
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QString folder = h.experimentFolder("pb2-toy");
    const QString exploits =
        sqliteQuery(folder + "/experiment.sqlite", "SELECT count(*) FROM exploits");
    QVERIFY2(exploits.toInt() >= 1, qPrintable(exploits));
    for (const QJsonValue& t : h.exportJson(folder)) {
        const QJsonObject config = t.toObject().value("config").toObject();
        QVERIFY(config.value("h0").toDouble() >= 0 && config.value("h0").toDouble() <= 1);
    }
}

void TestSearchExamples::repeatRunsEachConfigSeveralTimes() {
    EngineHarness h;
    const EngineResult r = h.run({"run", h.writeFile("repeat.yaml", R"(name: repeat
trainable:
  command: python3 @TRIAL@
search_space:
  x: {uniform: [0, 1]}
  iterations: 2
num_samples: 6
metric: score
mode: max
search: {algorithm: tpe, repeat: 3}
max_concurrent_trials: 3
seed: 4
)"),
                                  "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QJsonArray exported = h.exportJson(h.experimentFolder("repeat"));
    QCOMPARE(exported.size(), 6);
    for (int group = 0; group < 2; ++group) {
        const QJsonObject first = exported[group * 3].toObject().value("config").toObject();
        for (int member = 0; member < 3; ++member) {
            const QJsonObject config =
                exported[group * 3 + member].toObject().value("config").toObject();
            QCOMPARE(config.value("__trial_index__").toInt(), member);
            QCOMPARE(config.value("x").toDouble(), first.value("x").toDouble());
        }
    }
}

void TestSearchExamples::hyperbandDoesNotWaitForTrialsTheSearcherHoldsBack() {
    // max_concurrent 2: the two trials paused at bracket 1's first rung are all the searcher
    // lets run, so the bracket (room for 5) is judged with them instead of waiting for ever.
    EngineHarness h;
    const QString file = h.writeFile("limited.yaml", R"(name: limited
trainable:
  command: python3 @TRIAL@
search_space:
  x: {uniform: [0, 1]}
  iterations: 9
num_samples: 6
metric: score
mode: max
search: {algorithm: random, max_concurrent: 2}
scheduler: {type: hyperband, max_t: 9, reduction_factor: 3}
)");
    const EngineResult r = h.run({"run", file, "--quiet"}, 120000);
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.all()));
    QCOMPARE(h.exportJson(h.experimentFolder("limited")).size(), 6);
}

void TestSearchExamples::aTimeAttrNoTrialReportsEndsTheRunWithExit2() {
    EngineHarness h;
    const QString file = h.writeFile("hb.yaml", R"(name: hb
trainable:
  command: python3 @TRIAL@
search_space:
  x: {uniform: [0, 1]}
  iterations: 3
num_samples: 2
metric: score
mode: max
scheduler:
  type: hyperband
  time_attr: epochs_done
  max_t: 9
)");
    const EngineResult r = h.run({"run", file, "--quiet"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.all().contains("hb.yaml:12:3: scheduler.time_attr: 'epochs_done'"),
             qPrintable(r.all()));
}

QTEST_GUILESS_MAIN(TestSearchExamples)
#include "test_search_examples.moc"
