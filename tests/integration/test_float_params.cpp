// Issue 16.4: whole-number floats reached the trial as integers (1.0 as 1): scikit-learn reads
// max_features=1.0 as "all features" and 1 as "one feature". A float domain or a number written
// as a float gives a float all the way: TUNEDECK_CONFIG, {param} arguments, the SQLite row,
// `best` in each format and `export`; integer domains still give integers.
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QtTest>

#include "engine_harness.h"

class TestFloatParams : public QObject {
    Q_OBJECT
  private slots:
    void wholeFloatsReachTheTrialAsFloats();
    void nniWholeFloatsReachTheTrialAsFloats();
};

namespace {

const char* const kFloats = R"(name: floats
trainable:
  command: [python3, "@SCRIPT@", "--max_features={max_features}", "--dropout={dropout}",
            "--momentum={momentum}", "--layers={layers}", "--sizes={sizes}"]
search_space:
  max_features: 1.0
  dropout: {quniform: [0.0, 4.0, 4.0]}
  momentum: {grid: [0.0, 0.5]}
  layers: {randint: [2, 3]}
  offset: 0
  sizes: [1.0, 2]
  model:
    ratio: {choice: [2.0]}
num_samples: 1
metric: score
mode: max
seed: 5
)";

QJsonObject received(const QString& folder, const QString& trialId) {
    QFile file(folder + "/trials/" + trialId + "/received.json");
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(file.readAll()).object();
}

QString withScript(QString yaml) {
    return yaml.replace("@SCRIPT@", EngineHarness::trialScript("report_types.py"));
}

}  // namespace

void TestFloatParams::wholeFloatsReachTheTrialAsFloats() {
    EngineHarness h;
    const EngineResult r = h.run({"run", h.writeFile("floats.yaml", withScript(kFloats))});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QString folder = h.experimentFolder("floats");

    for (const QString trialId : {"t00000", "t00001"}) {
        const QJsonObject got = received(folder, trialId);
        const QJsonObject types = got.value("types").toObject();
        QCOMPARE(types.value("max_features").toString(), QStringLiteral("float"));
        QCOMPARE(types.value("dropout").toString(), QStringLiteral("float"));
        QCOMPARE(types.value("momentum").toString(), QStringLiteral("float"));
        QCOMPARE(types.value("layers").toString(), QStringLiteral("int"));
        QCOMPARE(types.value("offset").toString(), QStringLiteral("int"));
        const QString raw = got.value("raw").toString();
        QVERIFY2(raw.contains("\"max_features\":1.0") && raw.contains("\"layers\":2") &&
                     raw.contains("\"sizes\":[1.0,2]") && raw.contains("\"ratio\":2.0") &&
                     raw.contains("\"offset\":0,"),
                 qPrintable(raw));
        const QStringList argv = got.value("argv").toVariant().toStringList();
        QVERIFY2(argv.contains("--max_features=1.0") && argv.contains("--layers=2") &&
                     argv.contains("--sizes=[1.0,2]") &&
                     (argv.contains("--dropout=0.0") || argv.contains("--dropout=4.0")),
                 qPrintable(argv.join(' ')));
    }
    QVERIFY(received(folder, "t00000")
                .value("argv")
                .toVariant()
                .toStringList()
                .contains("--momentum=0.0"));

    // The stored row, as sqlite3 shows it (and the GUI reads it).
    const QString stored =
        sqliteQuery(folder + "/experiment.sqlite", "SELECT config FROM trials WHERE id='t00000'");
    QVERIFY2(stored.contains("\"max_features\":1.0") && stored.contains("\"momentum\":0.0") &&
                 stored.contains("\"layers\":2"),
             qPrintable(stored));

    // best: t00001 (momentum 0.5) wins; its whole floats stay floats in every format.
    const EngineResult json = h.run({"best", folder, "--format", "json"});
    QVERIFY2(json.exitCode == 0 && json.out.contains("\"max_features\": 1.0") &&
                 json.out.contains("\"layers\": 2") && json.out.contains("\"ratio\": 2.0"),
             qPrintable(json.all()));
    const EngineResult yaml = h.run({"best", folder, "--format", "yaml"});
    QVERIFY2(yaml.exitCode == 0 && yaml.out.contains("max_features: 1.0") &&
                 yaml.out.contains("layers: 2\n"),
             qPrintable(yaml.all()));
    const EngineResult flags = h.run({"best", folder, "--format", "flags"});
    QVERIFY2(flags.exitCode == 0 && flags.out.contains("--max_features=1.0") &&
                 flags.out.contains("--layers=2 ") && flags.out.contains("--model.ratio=2.0"),
             qPrintable(flags.all()));

    const EngineResult csv = h.run({"export", folder, "--format", "csv"});
    QVERIFY2(csv.exitCode == 0, qPrintable(csv.all()));
    const QStringList lines = csv.out.split('\n', Qt::SkipEmptyParts);
    const QStringList header = lines.value(0).split(',');
    // One row per result, in the order they arrived: the two trials run at once, so t00000's
    // row is found by its trial_id, not by its place.
    QStringList row;
    for (const QString& line : lines.mid(1)) {
        if (line.startsWith(QStringLiteral("t00000,"))) {
            row = line.split(',');
        }
    }
    QCOMPARE(row.value(header.indexOf("config/max_features")), QStringLiteral("1.0"));
    QCOMPARE(row.value(header.indexOf("config/momentum")), QStringLiteral("0.0"));
    QCOMPARE(row.value(header.indexOf("config/layers")), QStringLiteral("2"));
    const EngineResult exported = h.run({"export", folder, "--format", "json"});
    QVERIFY2(exported.exitCode == 0 && exported.out.contains("\"max_features\": 1.0") &&
                 exported.out.contains("\"momentum\": 0.0"),
             qPrintable(exported.all()));
}

void TestFloatParams::nniWholeFloatsReachTheTrialAsFloats() {
    EngineHarness h;
    h.writeFile("space.json", R"({
    "alpha": {"_type": "choice", "_value": [2.0]},
    "depth": {"_type": "choice", "_value": [3]},
    "scale": {"_type": "quniform", "_value": [2.0, 3.0, 1.0]}
})");
    const EngineResult r = h.run({"run", h.writeFile("nni.yaml", withScript(R"(name: nni
trainable:
  command: [python3, "@SCRIPT@", "--alpha={alpha}"]
search_space: space.json
num_samples: 1
metric: score
mode: max
)"))});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QJsonObject got = received(h.experimentFolder("nni"), "t00000");
    const QJsonObject types = got.value("types").toObject();
    QCOMPARE(types.value("alpha").toString(), QStringLiteral("float"));
    QCOMPARE(types.value("depth").toString(), QStringLiteral("int"));
    QCOMPARE(types.value("scale").toString(), QStringLiteral("float"));
    QCOMPARE(got.value("argv").toVariant().toStringList(), QStringList{"--alpha=2.0"});
}

QTEST_GUILESS_MAIN(TestFloatParams)
#include "test_float_params.moc"
