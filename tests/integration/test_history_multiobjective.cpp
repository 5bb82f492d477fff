// The history commands on multi-objective and PBT experiments, through the real tunedeck-engine:
// best prints the Pareto front (or one objective's best with --metric), show marks its members,
// and pbt-replay turns a stored lineage into a replay experiment or explains why it cannot.
// Most histories here are written with the store itself, so each case is exactly the one named.
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSet>
#include <QtTest>

#include "engine_harness.h"
#include "store/experiment_store.h"

using namespace tunedeck;

namespace {

struct StoredTrial {
    QJsonObject config;
    std::vector<QJsonObject> results;  // one per iteration, in order
};

// Writes <resultsRoot>/<name>/experiment.sqlite as an engine would have left it.
QString writeHistory(const EngineHarness& h, const QString& name, const QString& specText,
                     const std::vector<StoredTrial>& trials,
                     const std::vector<ExploitRecord>& exploits = {}) {
    const QString folder = h.experimentFolder(name);
    QDir().mkpath(folder);
    std::unique_ptr<ExperimentStore> store;
    const Status opened = ExperimentStore::open(folder + "/experiment.sqlite",
                                                ExperimentStore::Mode::ReadWrite, &store);
    if (!opened) {
        qWarning("%s", qPrintable(opened.message()));
        return {};
    }
    ExperimentRecord experiment;
    experiment.name = name;
    experiment.specText = specText;
    experiment.specFile = h.root() + "/" + name + ".yaml";
    experiment.seed = 5;
    experiment.status = "finished";
    store->saveExperiment(experiment);
    for (std::size_t i = 0; i < trials.size(); ++i) {
        TrialRecord record;
        Trial& trial = record.trial;
        trial.index = std::int64_t(i);
        trial.id = trialIdForIndex(trial.index);
        trial.config = trials[i].config;
        trial.status = TrialStatus::Terminated;
        trial.iteration = std::int64_t(trials[i].results.size());
        if (!trials[i].results.empty()) {
            trial.lastResult = trials[i].results.back();
        }
        store->saveTrial(record);
        for (std::size_t k = 0; k < trials[i].results.size(); ++k) {
            QJsonObject result = trials[i].results[k];
            result.insert("training_iteration", int(k + 1));
            store->appendResult(trial.id, std::int64_t(k + 1), double(k), result);
        }
    }
    for (const ExploitRecord& exploit : exploits) {
        store->addExploit(exploit);
    }
    if (const Status flushed = store->flush(); !flushed) {
        qWarning("%s", qPrintable(flushed.message()));
        return {};
    }
    return folder;
}

QJsonObject metrics(double score, double loss) {
    return QJsonObject{{"score", score}, {"loss", loss}};
}

StoredTrial trialWith(double x, std::vector<QJsonObject> results) {
    return {QJsonObject{{"x", x}}, std::move(results)};
}

const char* const kTwoObjectives = R"(name: pareto
trainable:
  command: python3 trial.py
search_space:
  x: {uniform: [0, 10]}
metric: [score, loss]
mode: [max, min]
)";

// Last results: t00001 (3, 0.9), t00002 (2, 0.2) and t00005 (2.5, 0.4) trade score against
// loss; t00000 (1, 0.5), t00003 (2, 0.6) and t00004 (0.5, 0.5) are each beaten by one of them;
// t00006 never reported loss. t00000's first result (5, 0.1) beats everyone: it counts only
// when every result does (--scope all).
QString writeTwoObjectiveHistory(const EngineHarness& h) {
    return writeHistory(
        h, "pareto", kTwoObjectives,
        {trialWith(0, {metrics(5, 0.1), metrics(1, 0.5)}), trialWith(1, {metrics(3, 0.9)}),
         trialWith(2, {metrics(2, 0.2)}), trialWith(3, {metrics(2, 0.6)}),
         trialWith(4, {metrics(0.5, 0.5)}), trialWith(5, {metrics(2.5, 0.4)}),
         trialWith(6, {QJsonObject{{"score", 10}}})});
}

QStringList frontIds(const QJsonObject& output) {
    QStringList ids;
    for (const QJsonValue& member : output.value("pareto_front").toArray()) {
        ids << member.toObject().value("trial_id").toString();
    }
    return ids;
}

const char* const kPbt = R"(name: toy-pbt
trainable:
  command: python3 @TRIAL@
# The population starts spread over x.
search_space:
  x: {uniform: [1, 5]}
  iterations: 20
  tag: {choice: ["1e-3", "007"]}
num_samples: 4
metric: score
mode: max
scheduler:
  type: pbt
  perturbation_interval: 4
  hyperparam_mutations:
    x: {uniform: [1, 5]}
stop: {training_iteration: 20}
checkpoint: {frequency: 4}
seed: 7
)";

QJsonObject pbtConfig(double x) {
    return QJsonObject{{"x", x}, {"iterations", 20}, {"tag", "1e-3"}};
}

ExploitRecord exploit(const QString& trial, std::int64_t iteration, const QString& source,
                      std::int64_t sourceIteration, double oldX, double newX) {
    ExploitRecord record;
    record.trialId = trial;
    record.sourceTrialId = source;
    record.iteration = iteration;
    record.sourceIteration = sourceIteration;
    record.oldConfig = pbtConfig(oldX);
    record.newConfig = pbtConfig(newX);
    record.reason = "pbt: bottom quantile";
    return record;
}

// t00001 copied t00002 at 8 and went on with x 3.6; t00003 copied t00001 at 12 and went on
// with x 4.3 to its 20th iteration. t00000 never exploited.
QString writePbtHistory(const EngineHarness& h, const QString& name, const QString& specText) {
    std::vector<StoredTrial> trials;
    const double finalX[] = {1, 3.6, 3, 4.3};
    for (double x : finalX) {
        std::vector<QJsonObject> results(20, QJsonObject{{"score", x}});
        trials.push_back({pbtConfig(x), results});
    }
    return writeHistory(
        h, name, specText, trials,
        {exploit("t00001", 8, "t00002", 8, 2, 3.6), exploit("t00003", 12, "t00001", 12, 4, 4.3)});
}

// The value written after `key: ` on its own line of a pbt-replay file (flow style, so JSON).
QJsonValue replayValue(const QString& text, const QString& key) {
    for (const QString& line : text.split('\n')) {
        if (line.startsWith(key + ": ")) {
            const QByteArray json = "[" + line.mid(key.size() + 2).toUtf8() + "]";
            return QJsonDocument::fromJson(json).array().first();
        }
    }
    return {};
}

}  // namespace

class TestHistoryMultiObjective : public QObject {
    Q_OBJECT
  private slots:
    void bestPrintsTheParetoFrontInEachFormat();
    void bestScopeAppliesToEachObjective();
    void bestMetricPicksOneObjective();
    void showAndLsMarkTheFront();
    void frontOfARealRun();
    void pbtReplayWritesTheLineageSchedule();
    void pbtReplayRunsTheScheduleAsOneTrial();
    void pbtReplayKeepsAJsonExperimentJson();
    void pbtReplayRefusesWhatItCannotReplay();
};

void TestHistoryMultiObjective::bestPrintsTheParetoFrontInEachFormat() {
    EngineHarness h;
    const QString folder = writeTwoObjectiveHistory(h);
    QVERIFY(!folder.isEmpty());

    const EngineResult json = h.run({"best", folder, "--format", "json"});
    QVERIFY2(json.exitCode == 0, qPrintable(json.all()));
    const QJsonObject output = QJsonDocument::fromJson(json.out.toUtf8()).object();
    const QStringList ids = frontIds(output);
    QCOMPARE(QSet<QString>(ids.begin(), ids.end()), (QSet<QString>{"t00001", "t00002", "t00005"}));
    // The two ends of the front first (NSGA-II's order), then the one between them.
    QCOMPARE(frontIds(output), (QStringList{"t00001", "t00002", "t00005"}));
    const QJsonObject middle = output.value("pareto_front").toArray().at(2).toObject();
    QCOMPARE(middle.value("objectives").toObject(), (QJsonObject{{"score", 2.5}, {"loss", 0.4}}));
    QCOMPARE(middle.value("config").toObject(), (QJsonObject{{"x", 5}}));
    QVERIFY2(json.err.contains("Pareto front") && json.err.contains("t00005"),
             qPrintable(json.err));

    const EngineResult yaml = h.run({"best", folder});
    QVERIFY2(yaml.exitCode == 0, qPrintable(yaml.all()));
    QVERIFY2(yaml.out.contains("\npareto_front:\n  - trial_id: t00001\n"), qPrintable(yaml.out));
    QVERIFY2(yaml.out.contains("    objectives:\n      score: 2.5\n      loss: 0.4\n"),
             qPrintable(yaml.out));
    QVERIFY2(yaml.out.contains("    config:\n      x: 5\n"), qPrintable(yaml.out));
    QCOMPARE(yaml.out.count("trial_id:"), 3);
    QVERIFY2(yaml.out.startsWith("# Pareto front of pareto"), qPrintable(yaml.out));

    const EngineResult flags = h.run({"best", folder, "--format", "flags"});
    QVERIFY2(flags.exitCode == 0, qPrintable(flags.all()));
    QCOMPARE(flags.out, QString("--x=1\n--x=2\n--x=5\n"));

    const QString file = h.root() + "/front.json";
    QCOMPARE(h.run({"best", folder, "--format", "json", "-o", file}).exitCode, 0);
    QFile written(file);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(frontIds(QJsonDocument::fromJson(written.readAll()).object()).size(), 3);
}

void TestHistoryMultiObjective::bestScopeAppliesToEachObjective() {
    EngineHarness h;
    const QString folder = writeTwoObjectiveHistory(h);
    const EngineResult all = h.run({"best", folder, "--format", "json", "--scope", "all"});
    QVERIFY2(all.exitCode == 0, qPrintable(all.all()));
    // t00006's best score (10) beats t00000's 5, but it has no loss: only t00000 remains.
    QCOMPARE(frontIds(QJsonDocument::fromJson(all.out.toUtf8()).object()), QStringList{"t00000"});
}

void TestHistoryMultiObjective::bestMetricPicksOneObjective() {
    EngineHarness h;
    const QString folder = writeTwoObjectiveHistory(h);
    const EngineResult loss = h.run({"best", folder, "--format", "json", "--metric", "loss"});
    QVERIFY2(loss.exitCode == 0, qPrintable(loss.all()));
    QCOMPARE(QJsonDocument::fromJson(loss.out.toUtf8()).object(), (QJsonObject{{"x", 2}}));
    QVERIFY2(loss.err.contains("best trial t00002") && loss.err.contains("mode min"),
             qPrintable(loss.err));
    const EngineResult score = h.run({"best", folder, "--metric", "score"});
    QVERIFY2(score.out.contains("x: 6"), qPrintable(score.all()));  // t00006: 10, mode max

    const EngineResult unknown = h.run({"best", folder, "--metric", "accuracy"});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains("accuracy") && unknown.err.contains("score (max), loss (min)"),
             qPrintable(unknown.err));
}

void TestHistoryMultiObjective::showAndLsMarkTheFront() {
    EngineHarness h;
    const QString folder = writeTwoObjectiveHistory(h);
    const EngineResult show = h.run({"show", folder});
    QVERIFY2(show.exitCode == 0, qPrintable(show.all()));
    const QStringList lines = show.out.split('\n');
    QVERIFY2(lines.value(1).contains("score") && lines.value(1).contains("loss") &&
                 lines.value(1).trimmed().endsWith("FRONT"),
             qPrintable(show.out));
    QStringList marked;
    for (const QString& line : lines) {
        if (line.startsWith('t') && line.trimmed().endsWith('*')) {
            marked << line.section(' ', 0, 0);
        }
    }
    QCOMPARE(marked, (QStringList{"t00001", "t00002", "t00005"}));
    QVERIFY2(show.out.contains("Pareto front of score (max), loss (min)") &&
                 show.out.contains("3 of 7 trials"),
             qPrintable(show.out));

    const EngineResult ls = h.run({"ls"});
    QVERIFY2(ls.out.contains("Pareto front of 3"), qPrintable(ls.all()));
}

void TestHistoryMultiObjective::frontOfARealRun() {
    EngineHarness h;
    // score = x * iteration and loss = 1 / score: maximising both, every x is a trade-off.
    const EngineResult run = h.run({"run", h.writeFile("mo.yaml", R"(name: mo
trainable:
  command: python3 @TRIAL@
search_space:
  x: {grid: [1, 2, 3]}
  iterations: 3
metric: [score, loss]
mode: [max, max]
seed: 3
)"),
                                    "--quiet"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.all()));
    const QString folder = h.experimentFolder("mo");
    const EngineResult json = h.run({"best", folder, "--format", "json"});
    QVERIFY2(json.exitCode == 0, qPrintable(json.all()));
    const QJsonObject output = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(frontIds(output), (QStringList{"t00000", "t00002", "t00001"}));
    const QJsonObject first = output.value("pareto_front").toArray().first().toObject();
    QCOMPARE(first.value("objectives").toObject().value("score").toDouble(), 3.0);

    const EngineResult single = h.run({"best", folder, "--metric", "score", "--format", "json"});
    QCOMPARE(QJsonDocument::fromJson(single.out.toUtf8()).object().value("x").toInt(), 3);
}

void TestHistoryMultiObjective::pbtReplayWritesTheLineageSchedule() {
    EngineHarness h;
    QString spec = kPbt;
    spec.replace("@TRIAL@", EngineHarness::trialScript("behaviour.py"));
    const QString folder = writePbtHistory(h, "toy-pbt", spec);
    QVERIFY(!folder.isEmpty());

    const EngineResult dry = h.run({"pbt-replay", folder, "t00003", "--dry-run"});
    QVERIFY2(dry.exitCode == 0, qPrintable(dry.all()));
    const QString text = dry.out;
    // Weights: t00002 to its 8th, t00001 from its 8th to 12th, t00003 from its 12th to 20th.
    QCOMPARE(replayValue(text, "name").toString(), QString("toy-pbt-replay-t00003"));
    QCOMPARE(replayValue(text, "num_samples").toInt(), 1);
    QCOMPARE(replayValue(text, "stop").toObject(), (QJsonObject{{"training_iteration", 20}}));
    QCOMPARE(
        replayValue(text, "search").toObject(),
        (QJsonObject{{"algorithm", "random"}, {"points_to_evaluate", QJsonArray{pbtConfig(3)}}}));
    const QJsonObject scheduler = replayValue(text, "scheduler").toObject();
    QCOMPARE(scheduler.value("type").toString(), QString("pbt_replay"));
    QCOMPARE(scheduler.value("time_attr").toString(), QString("training_iteration"));
    QCOMPARE(scheduler.value("schedule").toArray(),
             (QJsonArray{QJsonObject{{"step", 8}, {"config", pbtConfig(3.6)}},
                         QJsonObject{{"step", 12}, {"config", pbtConfig(4.3)}}}));
    // Everything else is kept as written, comments included; the replaced keys appear once.
    QVERIFY2(text.startsWith("trainable:\n  command: python3 "), qPrintable(text));
    QVERIFY2(text.contains("# The population starts spread over x.\nsearch_space:\n"),
             qPrintable(text));
    QVERIFY2(text.contains("  tag: {choice: [\"1e-3\", \"007\"]}\n"), qPrintable(text));
    QVERIFY2(text.contains("checkpoint: {frequency: 4}\nseed: 7\n"), qPrintable(text));
    QVERIFY2(!text.contains("perturbation_interval") && !text.contains("num_samples: 4"),
             qPrintable(text));
    QCOMPARE(text.count("\nname: "), 1);
    QVERIFY2(dry.err.contains("t00002 (steps 1-8), then t00001 (steps 9-12), then t00003 "
                              "(steps 13-20)"),
             qPrintable(dry.err));
    QVERIFY2(dry.err.contains("steps 9-12: iterations=20, tag=1e-3, x=3.6"), qPrintable(dry.err));

    // The file is an experiment as valid as the original.
    const EngineResult validate = h.run({"validate", h.writeFile("replay.yaml", text)});
    QVERIFY2(validate.exitCode == 0, qPrintable(validate.all()));
}

void TestHistoryMultiObjective::pbtReplayRunsTheScheduleAsOneTrial() {
    EngineHarness h;
    QString spec = kPbt;
    spec.replace("@TRIAL@", EngineHarness::trialScript("behaviour.py"));
    const QString folder = writePbtHistory(h, "toy-pbt", spec);
    const EngineResult replay = h.run({"pbt-replay", folder, "t00003", "--quiet"});
    QVERIFY2(replay.exitCode == 0, qPrintable(replay.all()));
    QVERIFY2(replay.out.contains("Replaying trial t00003 of 'toy-pbt': 20 steps"),
             qPrintable(replay.out));

    // Beside the original, one trial that trained with x = 3, then 3.6 from its 9th iteration,
    // then 4.3 from its 13th, each time going on from its own checkpoint (score = x * step).
    const QString replayFolder = h.experimentFolder("toy-pbt-replay-t00003");
    const QJsonArray exported = h.exportJson(replayFolder);
    QCOMPARE(exported.size(), 1);
    const QJsonObject trial = exported.first().toObject();
    QCOMPARE(trial.value("status").toString(), QString("TERMINATED"));
    QCOMPARE(trial.value("config").toObject(), pbtConfig(4.3));
    const QJsonArray results = trial.value("results").toArray();
    QCOMPARE(results.size(), 20);
    for (const QJsonValue& value : results) {
        const QJsonObject result = value.toObject();
        const int step = result.value("training_iteration").toInt();
        const double x = step <= 8 ? 3 : step <= 12 ? 3.6 : 4.3;
        QVERIFY2(qFuzzyCompare(result.value("score").toDouble(), x * step),
                 qPrintable(QString("step %1: score %2, expected %3")
                                .arg(step)
                                .arg(result.value("score").toDouble())
                                .arg(x * step)));
    }
    const QString database = replayFolder + "/experiment.sqlite";
    QCOMPARE(sqliteQuery(database,
                         "SELECT group_concat(iteration || ':' || source_iteration || "
                         "':' || (source_trial_id = trial_id)) FROM exploits"),
             QString("8:8:1,12:12:1"));

    // Its own exploits are a lineage too: replaying the replay gives the same schedule.
    const EngineResult again = h.run({"pbt-replay", replayFolder, "t00000", "--dry-run"});
    QVERIFY2(again.exitCode == 0, qPrintable(again.all()));
    const QJsonObject scheduler = replayValue(again.out, "scheduler").toObject();
    QCOMPARE(scheduler.value("schedule").toArray(),
             (QJsonArray{QJsonObject{{"step", 8}, {"config", pbtConfig(3.6)}},
                         QJsonObject{{"step", 12}, {"config", pbtConfig(4.3)}}}));
    QCOMPARE(replayValue(again.out, "search").toObject().value("points_to_evaluate").toArray(),
             QJsonArray{pbtConfig(3)});
}

void TestHistoryMultiObjective::pbtReplayKeepsAJsonExperimentJson() {
    EngineHarness h;
    const QJsonObject spec{
        {"name", "toy-json"}, {"trainable", QJsonObject{{"command", "python3 trial.py"}}},
        {"metric", "score"},  {"mode", "max"},
        {"num_samples", 4},   {"scheduler", QJsonObject{{"type", "pb2"}}}};
    const QString folder = writePbtHistory(
        h, "toy-json", QString::fromUtf8(QJsonDocument(spec).toJson(QJsonDocument::Indented)));
    const EngineResult dry = h.run({"pbt-replay", folder, "t00001", "--dry-run"});
    QVERIFY2(dry.exitCode == 0, qPrintable(dry.all()));
    QJsonParseError error;
    const QJsonObject replay = QJsonDocument::fromJson(dry.out.toUtf8(), &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(replay.value("name").toString(), QString("toy-json-replay-t00001"));
    QCOMPARE(replay.value("trainable").toObject(), spec.value("trainable").toObject());
    QCOMPARE(replay.value("stop").toObject(), (QJsonObject{{"training_iteration", 20}}));
    QCOMPARE(replay.value("scheduler").toObject().value("schedule").toArray(),
             (QJsonArray{QJsonObject{{"step", 8}, {"config", pbtConfig(3.6)}}}));
}

void TestHistoryMultiObjective::pbtReplayRefusesWhatItCannotReplay() {
    EngineHarness h;
    QString spec = kPbt;
    spec.replace("@TRIAL@", EngineHarness::trialScript("behaviour.py"));
    const QString folder = writePbtHistory(h, "toy-pbt", spec);
    auto refused = [&](const QStringList& args, const QString& message) {
        const EngineResult r = h.run(args);
        if (r.exitCode != 2 || !r.err.contains(message)) {
            qWarning("%s -> %d: %s", qPrintable(args.join(' ')), r.exitCode, qPrintable(r.all()));
            return false;
        }
        return !QDir(h.resultsRoot()).entryList().contains("toy-pbt-replay-t00000");
    };
    QVERIFY(refused({"pbt-replay", folder}, "expected 2 arguments"));
    QVERIFY(refused({"pbt-replay", h.root() + "/nowhere", "t00003"}, "not a Tunedeck experiment"));
    QVERIFY(refused({"pbt-replay", folder, "t00042"}, "no trial t00042"));
    QVERIFY(refused({"pbt-replay", folder, "t00000"}, "trial t00000 has no exploits"));

    QString asha = kPbt;
    asha.replace("type: pbt", "type: asha");
    const QString notPbt = writePbtHistory(h, "toy-asha", asha);
    QVERIFY(refused({"pbt-replay", notPbt, "t00003"}, "is not a PBT experiment"));
    QVERIFY(refused({"pbt-replay", notPbt, "t00003"}, "its scheduler is asha"));
}

QTEST_GUILESS_MAIN(TestHistoryMultiObjective)
#include "test_history_multiobjective.moc"
