// A whole experiment through the real tunedeck-engine: run, then ls / show / best / export, the
// events file, {param} placeholders, the SDK found with nothing installed, queued trials.
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSet>
#include <QtTest>

#include "engine_harness.h"

class TestEngineRun : public QObject {
    Q_OBJECT
  private slots:
    void runsAnExperimentAndShowsItsHistory();
    void bestPrintsTheWinningConfigInEachFormat();
    void exportWritesEveryResult();
    void eventsFileHasEveryEventInOrder();
    void placeholdersCarryConfigValuesAsSingleArguments();
    void trialsWaitWithAVisibleReasonWhenResourcesAreShort();
    void gridIsRepeatedNumSamplesTimes();
    void quickstartExampleRuns();
    void sklearnExampleTrainsARealModel();
    void ashaExampleStopsWeakTrialsEarly();
    void anInstalledTreeFindsItsWorkerAndSdk();
};

namespace {

const char* const kBasic = R"(name: basic
trainable:
  command: python3 @TRIAL@
search_space:
  x: {grid: [1, 2, 3]}
  iterations: 5
num_samples: 1
metric: score
mode: max
checkpoint: {frequency: 2, keep: 1}
max_concurrent_trials: 2
seed: 3
)";

}  // namespace

void TestEngineRun::runsAnExperimentAndShowsItsHistory() {
    EngineHarness h;
    const EngineResult r = h.run({"run", h.writeFile("basic.yaml", kBasic)});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QString folder = h.experimentFolder("basic");
    QVERIFY(QFile::exists(folder + "/experiment.sqlite"));

    const QJsonObject statuses = EngineHarness::statuses(h.exportJson(folder));
    QCOMPARE(statuses.size(), 3);
    for (const QJsonValue& s : statuses) {
        QCOMPARE(s.toString(), QStringLiteral("TERMINATED"));
    }
    const EngineResult ls = h.run({"ls"});
    QCOMPARE(ls.exitCode, 0);
    QVERIFY2(ls.out.contains("basic") && ls.out.contains("finished"), qPrintable(ls.out));

    const EngineResult show = h.run({"show", folder});
    QCOMPARE(show.exitCode, 0);
    QVERIFY2(show.out.contains("t00002") && show.out.contains("TERMINATED"), qPrintable(show.out));
    // keep: 1 leaves one checkpoint per trial on disk.
    const QStringList checkpoints =
        QDir(folder + "/trials/t00000/checkpoints").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(checkpoints, QStringList{"checkpoint_000004"});
    QCOMPARE(sqliteQuery(folder + "/experiment.sqlite", "PRAGMA integrity_check"),
             QStringLiteral("ok"));
}

void TestEngineRun::bestPrintsTheWinningConfigInEachFormat() {
    EngineHarness h;
    QCOMPARE(h.run({"run", h.writeFile("basic.yaml", kBasic)}).exitCode, 0);
    const QString folder = h.experimentFolder("basic");

    const EngineResult json = h.run({"best", folder, "--format", "json"});
    QCOMPARE(json.exitCode, 0);
    const QJsonObject config = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(config.value("x").toInt(), 3);  // score = x * iteration: x = 3 wins
    QVERIFY2(json.err.contains("t00002"), qPrintable(json.err));

    const EngineResult yaml = h.run({"best", folder});
    QCOMPARE(yaml.exitCode, 0);
    QVERIFY2(yaml.out.contains("x: 3"), qPrintable(yaml.out));

    const QString file = h.root() + "/best.yaml";
    QCOMPARE(h.run({"best", folder, "-o", file, "--scope", "avg"}).exitCode, 0);
    QFile written(file);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QVERIFY(written.readAll().contains("x: 3"));

    const EngineResult flags = h.run({"best", folder, "--format", "flags"});
    QVERIFY2(flags.out.contains("--x=3"), qPrintable(flags.out));
    QCOMPARE(h.run({"best", folder, "--scope", "median"}).exitCode, 2);
}

void TestEngineRun::exportWritesEveryResult() {
    EngineHarness h;
    QCOMPARE(h.run({"run", h.writeFile("basic.yaml", kBasic)}).exitCode, 0);
    const QString folder = h.experimentFolder("basic");
    const QString csvPath = h.root() + "/results.csv";
    QCOMPARE(h.run({"export", folder, "--format", "csv", "-o", csvPath}).exitCode, 0);
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + 3 * 5);  // header + 3 trials x 5 iterations
    QVERIFY2(lines.first().startsWith("trial_id,config/iterations,config/x"),
             qPrintable(lines.first()));
    QVERIFY(lines.first().contains("training_iteration"));

    const QJsonArray exported = h.exportJson(folder);
    int results = 0;
    for (const QJsonValue& trial : exported) {
        results += int(trial.toObject().value("results").toArray().size());
    }
    QCOMPARE(results, 15);
    QCOMPARE(h.run({"export", folder}).exitCode, 2);  // --format is required
}

void TestEngineRun::eventsFileHasEveryEventInOrder() {
    EngineHarness h;
    const QString events = h.root() + "/events.jsonl";
    QCOMPARE(
        h.run({"run", h.writeFile("basic.yaml", kBasic), "--events", events, "--quiet"}).exitCode,
        0);
    QFile file(events);
    QVERIFY(file.open(QIODevice::ReadOnly));
    qint64 lastSeq = -1;
    QMap<QString, int> types;
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (line.isEmpty()) {
            continue;
        }
        const QJsonObject event = QJsonDocument::fromJson(line).object();
        QVERIFY2(!event.isEmpty(), line.constData());
        QVERIFY(event.value("seq").toInteger() > lastSeq);
        lastSeq = event.value("seq").toInteger();
        types[event.value("type").toString()]++;
    }
    QCOMPARE(types.value("result"), 15);
    QCOMPARE(types.value("trial_added"), 3);
    QCOMPARE(types.value("experiment_started"), 1);
    QCOMPARE(types.value("experiment_finished"), 1);
    QVERIFY(types.value("checkpoint") >= 3);
}

void TestEngineRun::placeholdersCarryConfigValuesAsSingleArguments() {
    EngineHarness h;
    const QString yaml = R"yaml(name: argv
trainable:
  command: ["python3", "@TRIAL@", "{word}"]
search_space:
  word: {choice: ["two words", "$(touch @ROOT@/injected)", "a;b"]}
  argv_value: 1
  iterations: 1
num_samples: 6
metric: score
mode: max
)yaml";
    QCOMPARE(h.run({"run", h.writeFile("argv.yaml", yaml)}).exitCode, 0);
    const QJsonArray exported = h.exportJson(h.experimentFolder("argv"));
    QCOMPARE(exported.size(), 6);
    for (const QJsonValue& trial : exported) {
        const QJsonObject t = trial.toObject();
        const QString word = t.value("config").toObject().value("word").toString();
        QCOMPARE(t.value("results").toArray().first().toObject().value("argv").toString(), word);
    }
    QVERIFY(!QFile::exists(h.root() + "/injected"));
}

void TestEngineRun::trialsWaitWithAVisibleReasonWhenResourcesAreShort() {
    EngineHarness h;
    const QString yaml = R"(name: queued
trainable:
  command: python3 @TRIAL@
resources_per_trial: {cpu: 64}
search_space:
  iterations: 1
)";
    // No node has 64 CPUs: refused with the largest node named, before anything runs.
    EngineResult r = h.run({"run", h.writeFile("big.yaml", yaml)});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.all().contains("local"), qPrintable(r.all()));

    const QString events = h.root() + "/events.jsonl";
    QString fits =
        QString(yaml).replace("cpu: 64", "cpu: 0.01").replace("name: queued", "name: queued2");
    fits.replace("iterations: 1", "iterations: 3\n  sleep: 0.2");
    fits += "num_samples: 3\nmax_concurrent_trials: 1\n";
    r = h.run({"run", h.writeFile("queued.yaml", fits), "--events", events});
    QCOMPARE(r.exitCode, 0);
    QFile file(events);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("max_concurrent_trials (1) reached"));
}

void TestEngineRun::gridIsRepeatedNumSamplesTimes() {
    EngineHarness h;
    const QString yaml = R"(name: grid
trainable:
  command: python3 @TRIAL@
search_space:
  x: {grid: [1, 2]}
  y: {uniform: [0, 1]}
  iterations: 1
num_samples: 3
seed: 5
)";
    QCOMPARE(h.run({"run", h.writeFile("grid.yaml", yaml), "--quiet"}).exitCode, 0);
    const QJsonArray exported = h.exportJson(h.experimentFolder("grid"));
    QCOMPARE(exported.size(), 6);
    QMap<int, int> perX;
    QSet<double> ys;
    for (const QJsonValue& t : exported) {
        const QJsonObject config = t.toObject().value("config").toObject();
        perX[config.value("x").toInt()]++;
        ys.insert(config.value("y").toDouble());
    }
    QCOMPARE(perX.value(1), 3);
    QCOMPARE(perX.value(2), 3);
    QCOMPARE(ys.size(), 6);  // y is drawn anew for every trial
}

void TestEngineRun::quickstartExampleRuns() {
    EngineHarness h;
    const EngineResult r =
        h.run({"run", QStringLiteral(TUNEDECK_SOURCE_DIR "/resources/examples/quickstart/"
                                                         "experiment.yaml")},
              300000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("Best trial"), qPrintable(r.out));
    const EngineResult best = h.run({"best", h.experimentFolder("quickstart")});
    QCOMPARE(best.exitCode, 0);
    QVERIFY2(best.out.contains("lr:") && best.out.contains("batch_size:"), qPrintable(best.out));
}

void TestEngineRun::sklearnExampleTrainsARealModel() {
    if (QProcess::execute("/usr/bin/python3", {"-c", "import sklearn"}) != 0) {
        QSKIP("needs Debian's python3-sklearn (scripts/test installs it)");
    }
    EngineHarness h;
    // The example's own trainable, with a smaller budget.
    const QString yaml = QStringLiteral(R"(name: digits
trainable:
  command: python3 train.py
  working_dir: %1
search_space:
  hidden: {qrandint: [16, 64, 16]}
  learning_rate_init: {loguniform: [1.0e-3, 1.0e-2]}
num_samples: 2
metric: val_accuracy
mode: max
stop: {training_iteration: 3}
checkpoint: {frequency: 2, at_end: true}
)")
                             .arg(TUNEDECK_SOURCE_DIR "/resources/examples/sklearn-digits");
    const EngineResult r = h.run({"run", h.writeFile("digits.yaml", yaml), "--quiet"}, 300000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QJsonArray exported = h.exportJson(h.experimentFolder("digits"));
    QCOMPARE(exported.size(), 2);
    for (const QJsonValue& t : exported) {
        const QJsonArray results = t.toObject().value("results").toArray();
        QCOMPARE(results.size(), 3);
        // A real model on real data learns: accuracy well above chance (10 classes).
        QVERIFY(results.last().toObject().value("val_accuracy").toDouble() > 0.5);
    }
    // at_end: a checkpoint of the last iteration, holding the pickled model.
    QVERIFY(QFile::exists(h.experimentFolder("digits") +
                          "/trials/t00000/checkpoints/checkpoint_000003/model.pkl"));
}

void TestEngineRun::ashaExampleStopsWeakTrialsEarly() {
    EngineHarness h;
    const EngineResult r = h.run(
        {"run", TUNEDECK_SOURCE_DIR "/resources/examples/asha/experiment.yaml", "--quiet"}, 300000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    int early = 0;
    int full = 0;
    for (const QJsonValue& t : h.exportJson(h.experimentFolder("asha"))) {
        const qsizetype iterations = t.toObject().value("results").toArray().size();
        early += iterations < 30 ? 1 : 0;
        full += iterations == 30 ? 1 : 0;
    }
    QVERIFY2(early >= 8, qPrintable(QString::number(early)));  // most stop at a rung
    QVERIFY(full >= 1);                                        // the best run to max_t
}

void TestEngineRun::anInstalledTreeFindsItsWorkerAndSdk() {
    EngineHarness h;
    const QString prefix = h.root() + "/prefix";
    QCOMPARE(QProcess::execute("cmake", {"--install", TUNEDECK_BUILD_DIR, "--prefix", prefix}), 0);
    QVERIFY(QFile::exists(prefix + "/share/tunedeck/sdk/python/tunedeck.py"));
    QProcess engine;
    QProcessEnvironment env = h.environment();
    engine.setProcessEnvironment(env);
    engine.start(prefix + "/bin/tunedeck-engine",
                 {"run", h.writeFile("basic.yaml", kBasic), "--quiet"});
    QVERIFY(engine.waitForFinished(120000));
    QVERIFY2(engine.exitCode() == 0, engine.readAllStandardOutput().constData());
    QCOMPARE(EngineHarness::statuses(h.exportJson(h.experimentFolder("basic"))).size(), 3);
}

QTEST_GUILESS_MAIN(TestEngineRun)
#include "test_engine_run.moc"
