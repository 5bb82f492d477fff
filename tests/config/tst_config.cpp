// The experiment loader: golden files for every accepted shape and every reported mistake,
// and focused tests of the rules a user relies on (argv splitting, stop directions, paths).
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "config/command_line.h"
#include "config/experiment_loader.h"
#include "config/nni_search_space.h"
#include "config/spec_choices.h"
#include "golden_files.h"
#include "spec_dump.h"

using namespace tunedeck;
using namespace tunedeck::testing;

namespace {

// The result of a load as a Status (what the CLI prints), the spec it loaded and its warnings'
// lines: the shape these tests check.
Status fromResult(LoadResult<ExperimentSpec> loaded, ExperimentSpec* spec, QStringList* warnings) {
    if (warnings) {
        *warnings = loaded.warningLines();
    }
    if (loaded) {
        *spec = std::move(*loaded.spec);
    }
    return loaded.status();
}

Status loadFile(const QString& path, ExperimentSpec* spec, QStringList* warnings = nullptr) {
    return fromResult(loadExperimentFile(path), spec, warnings);
}

Status loadText(const QString& text, const QString& fileName, ExperimentSpec* spec,
                QStringList* warnings = nullptr) {
    return fromResult(loadExperimentText(text, fileName), spec, warnings);
}

// What a golden case produces: the error text, or the canonical dump of what was loaded, then
// the warnings. Paths are shown relative to the golden folder so the files do not depend on the
// checkout's place.
QString goldenOutput(const QString& input) {
    if (input.endsWith(QLatin1String(".json"))) {
        SearchSpace space;
        const Status status = loadNniSearchSpace(input, &space);
        return goldenText(status.isOk() ? toGoldenText({{"search_space", dumpSearchSpace(space)}})
                                        : status.message() + QLatin1Char('\n'),
                          {});
    }
    ExperimentSpec spec;
    QStringList warnings;
    const Status status = loadFile(input, &spec, &warnings);
    return goldenText(status.isOk() ? toGoldenText(dumpExperiment(spec, goldenDir()))
                                    : status.message() + QLatin1Char('\n'),
                      warnings);
}

// Loads `yaml` as if it were a file in the golden folder (so `data/` paths resolve).
Status loadInline(const QString& yaml, ExperimentSpec* spec, QStringList* warnings = nullptr) {
    return loadText(yaml, goldenDir() + QStringLiteral("/inline.yaml"), spec, warnings);
}

// 1-based line and column of the first occurrence of `needle` in `text`.
std::pair<int, int> positionOf(const QString& text, const QString& needle) {
    const qsizetype offset = text.indexOf(needle);
    if (offset < 0) {
        return {0, 0};
    }
    const qsizetype lineStart = text.lastIndexOf(QLatin1Char('\n'), offset) + 1;
    return {int(text.left(offset).count(QLatin1Char('\n'))) + 1, int(offset - lineStart) + 1};
}

// Loads `json` as the NNI file `space.json` of `dir`; `path` says where it was written.
Status loadNniText(const QTemporaryDir& dir, const QByteArray& json, QString* path) {
    *path = dir.filePath(QStringLiteral("space.json"));
    QFile file(*path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size()) {
        return Status::ioError(QStringLiteral("cannot write ") + *path);
    }
    file.close();
    SearchSpace space;
    return loadNniSearchSpace(*path, &space);
}

const QString kLimitsScope = QStringLiteral("experiment, cluster and search-space files");

}  // namespace

class TestConfig : public QObject {
    Q_OBJECT

  private slots:
    void golden_data();
    void golden();
    void goldenFolderCoversEveryKindOfCase();
    void schemaExampleLoads();
    void choiceParametersOfAStoredSpec();

    void fullExampleFillsEverySection();
    void locationsPointWhereKeysAreWritten();
    void columnsCountCharactersNotBytes();
    void problemsAreAllListedInFileOrder();
    void failedLoadLeavesTheSpecUntouched();
    void missingFileIsNotFound();
    void yamlSyntaxErrorIsLocatedOneBased();

    void clusterProblemsNameTheClusterFilesLine();
    void clusterWarningsReachTheCaller();
    void placementIsReadAndDefaultsToPack();
    void gpuSamplingDefaultsToTwoSecondsAndZeroTurnsItOff();

    void commandSplitting_data();
    void commandSplitting();
    void commandSplittingRejectsUnterminatedQuotes_data();
    void commandSplittingRejectsUnterminatedQuotes();
    void commandStringKeepsQuotedArgumentsWhole();

    void stopDirections_data();
    void stopDirections();
    void checkpointScoreDefaultsToTheMetric();

    void relativeWorkingDirIsResolvedFromTheFilesFolder();
    void relativeProgramIsResolvedInWorkingDir();
    void programIsLookedUpInTheTrainablesPath();

    void nniNamedChoiceOptionsBecomeGroups();
    void nniSyntaxErrorPointsAtLineAndColumn();
    void nniUnsupportedTypeNamesTheParameter();
    // The input limits (config/input_limits.h) on NNI files, issue 33.
    void nniFileOverTheSizeLimitIsRefusedUnread();
    void nniTextOverTheSizeLimitIsRefused();
    void nniNestingDeeperThanTheLimitIsRefusedAtItsPlace();
    void nniMoreValuesThanTheLimitAreRefused();
    void nniKeyLongerThanTheLimitIsRefused();
    void nniNestedLongKeysAreRefusedByTheirPaths();
    void yamlKeyLongerThanTheLimitIsRefused();
};

void TestConfig::golden_data() {
    QTest::addColumn<QString>("input");
    for (const QString& input : goldenInputs(goldenDir(), true)) {
        QTest::newRow(qPrintable(QFileInfo(input).fileName())) << input;
    }
}

void TestConfig::golden() {
    QFETCH(QString, input);
    compareWithExpected(input, goldenOutput(input));
}

void TestConfig::goldenFolderCoversEveryKindOfCase() {
    const QDir dir(goldenDir());
    const QStringList bad = dir.entryList({QStringLiteral("bad_*.yaml")}, QDir::Files);
    const QStringList valid = dir.entryList({QStringLiteral("*.yaml")}, QDir::Files);
    QVERIFY2(bad.size() >= 20, "at least 20 invalid experiment files");
    QVERIFY(valid.size() - bad.size() >= 5);
    for (const QString& name : bad) {
        QVERIFY2(!readText(dir.filePath(name.chopped(5) + ".expected")).startsWith('{'),
                 qPrintable(name + " should be rejected"));
    }
}

void TestConfig::schemaExampleLoads() {
    // The reference opens with an example users will copy; it must stay valid.
    const QString schema = readText(TUNEDECK_SOURCE_DIR "/engine/config/SCHEMA.md");
    const qsizetype start = schema.indexOf("```yaml\n");
    QVERIFY(start >= 0);
    const qsizetype end = schema.indexOf("```", start + 8);
    const QString example = schema.mid(start + 8, end - start - 8);
    if (QStandardPaths::findExecutable("python3").isEmpty()) {
        QSKIP("the example runs python3, which is not installed here");
    }
    ExperimentSpec spec;
    const Status status = loadInline(example, &spec);
    QVERIFY2(status.isOk(), qPrintable(status.message()));
    QCOMPARE(spec.name, QStringLiteral("quickstart"));
    QCOMPARE(spec.stop.thresholds.front().atLeast, false);  // loss: 0.05 with mode: min
}

void TestConfig::fullExampleFillsEverySection() {
    const QString path = goldenDir() + QStringLiteral("/full.yaml");
    ExperimentSpec spec;
    const Status status = loadFile(path, &spec);
    QVERIFY2(status.isOk(), qPrintable(status.message()));
    QCOMPARE(spec.name, QStringLiteral("full-example"));
    QCOMPARE(spec.sourceFile, path);
    QCOMPARE(spec.sourceText, readText(path));
    QCOMPARE(spec.trainable.workingDir, goldenDir() + QStringLiteral("/data"));
    QVERIFY(QDir::isAbsolutePath(spec.trainable.workingDir));
    QCOMPARE(spec.trainable.env.value("OMP_NUM_THREADS"), QStringLiteral("1"));
    QCOMPARE(spec.trainable.env.value("RATE"), QStringLiteral("1.0e-4"));  // as written
    QCOMPARE(spec.resourcesPerTrial.gpu, 0.25);
    QCOMPARE(spec.resourcesPerTrial.gpuMemoryMb, std::int64_t(2048));
    QCOMPARE(spec.gpuSampleS, 5.0);
    QCOMPARE(spec.gpuSharing, GpuSharing::Mps);
    QCOMPARE(spec.placement, PlacementStrategy::Spread);
    QCOMPARE(spec.numSamples, 10);
    QCOMPARE(spec.mode, MetricMode::Min);
    QCOMPARE(spec.seed, std::uint64_t(18446744073709551615ULL));
    QVERIFY(spec.seedGiven);
    QCOMPARE(spec.cluster, goldenDir() + QStringLiteral("/data/cluster.yaml"));
    QVERIFY(spec.clusterSpec.has_value());
    QCOMPARE(spec.clusterSpec->clusterName, QStringLiteral("golden"));
    QCOMPARE(spec.clusterSpec->sourceFile, spec.cluster);
    QCOMPARE(spec.searchSpace.parameters.size(), size_t(14));
    QCOMPARE(spec.search.options.value("points_to_evaluate").toArray().size(), 1);
    QCOMPARE(spec.stop.trainingIteration, std::optional<std::int64_t>(20));
    QCOMPARE(spec.stop.timeTotalS, std::optional<double>(600));
    QCOMPARE(spec.checkpoint.score, QStringLiteral("accuracy"));
    QCOMPARE(spec.checkpoint.scoreMode, MetricMode::Max);
    QCOMPARE(spec.failure.maxFailures, 2);
    QCOMPARE(spec.maxConcurrentTrials, 4);
}

void TestConfig::locationsPointWhereKeysAreWritten() {
    const QString path = goldenDir() + QStringLiteral("/full.yaml");
    ExperimentSpec spec;
    QVERIFY(loadFile(path, &spec).isOk());
    const QString text = spec.sourceText;
    const auto expectAt = [&](const QString& key, const QString& needle) {
        const auto [line, column] = positionOf(text, needle);
        const SourceLocation location = spec.locations.value(key);
        QVERIFY2(location.isKnown(), qPrintable(key + " has no location"));
        QCOMPARE(location.file, path);
        QCOMPARE(std::pair(location.line, location.column), std::pair(line, column));
    };
    expectAt("metric", "metric:");
    expectAt("trainable.command", "command:");
    expectAt("search_space.lr", "lr: {loguniform");
    expectAt("search_space.net.layers", "layers:");
    expectAt("search_space.model.depth", "depth: {choice");
    expectAt("search.algorithm", "algorithm:");
    expectAt("stop.loss", "loss: 0.05");
    expectAt("cluster", "cluster:");
    // Parameters carry their own location, for messages the runtime prints later.
    QCOMPARE(spec.searchSpace.parameters.front().location.line, positionOf(text, "lr: {").first);
}

void TestConfig::columnsCountCharactersNotBytes() {
    ExperimentSpec spec;
    const Status status = loadInline(
        "name: x\ntrainable: {command: sh}\nsearch_space: {\"é\": 1, lr: {uniform: [1, 0]}}\n",
        &spec);
    QVERIFY(!status.isOk());
    // "search_space: {"é": 1, " is 23 characters but 24 bytes.
    QVERIFY2(status.message().startsWith(goldenDir() + "/inline.yaml:3:24: search_space.lr: "),
             qPrintable(status.message()));
}

void TestConfig::problemsAreAllListedInFileOrder() {
    ExperimentSpec spec;
    const Status status = loadInline(
        "num_sample: 3\n"  // line 1: unknown key (found first)
        "name: ok\n"
        "trainable: {command: 'sh run {missing}'}\n"  // line 3: placeholder (found last)
        "resources_per_trial: {cpu: 0}\n"             // line 4
        "mode: up\n",                                 // line 5
        &spec);
    QCOMPARE(status.code(), Status::Code::InvalidArgument);
    const QStringList lines = status.message().split('\n');
    QCOMPARE(lines.size(), 4);
    const QRegularExpression linePrefix(QStringLiteral("^.*inline\\.yaml:(\\d+):\\d+: "));
    QList<int> numbers;
    for (const QString& line : lines) {
        const auto match = linePrefix.match(line);
        QVERIFY2(match.hasMatch(), qPrintable(line));
        numbers << match.captured(1).toInt();
    }
    QCOMPARE(numbers, (QList<int>{1, 3, 4, 5}));
    QVERIFY(lines[0].contains("num_sample: unknown key (did you mean 'num_samples'?)"));
    QVERIFY(lines[1].contains("'{missing}' names no parameter"));
}

void TestConfig::failedLoadLeavesTheSpecUntouched() {
    ExperimentSpec spec;
    spec.name = QStringLiteral("before");
    spec.numSamples = 7;
    QVERIFY(!loadInline("name: after\nnum_samples: 3\n", &spec).isOk());
    QCOMPARE(spec.name, QStringLiteral("before"));
    QCOMPARE(spec.numSamples, 7);
}

void TestConfig::missingFileIsNotFound() {
    ExperimentSpec spec;
    const Status status = loadFile(goldenDir() + "/no_such_file.yaml", &spec);
    QCOMPARE(status.code(), Status::Code::NotFound);
    QVERIFY(status.message().contains("no_such_file.yaml"));
}

void TestConfig::yamlSyntaxErrorIsLocatedOneBased() {
    ExperimentSpec spec;
    // The tab on line 3 is illegal indentation; yaml-cpp counts from 0, users from 1.
    const Status status = loadInline("name: x\ntrainable:\n\tcommand: sh\n", &spec);
    QVERIFY(!status.isOk());
    QVERIFY2(status.message().startsWith(goldenDir() + "/inline.yaml:3:"),
             qPrintable(status.message()));
    QVERIFY(status.message().contains("invalid YAML"));
}

void TestConfig::clusterProblemsNameTheClusterFilesLine() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString cluster =
        "cluster_name: lab\nprovider:\n  type: ssh\n  head_ip: 'a b'\n"
        "auth: {ssh_user: alice}\n";
    QVERIFY(writeText(dir.filePath("cluster.yaml"), cluster));
    ExperimentSpec spec;
    const Status status = loadText("name: c\ntrainable: {command: sh}\ncluster: cluster.yaml\n",
                                   dir.filePath("exp.yaml"), &spec);
    QVERIFY(!status.isOk());
    const auto [line, column] = positionOf(cluster, "'a b'");
    QCOMPARE(status.message(), QStringLiteral("%1:%2:%3: provider.head_ip: 'a b' is not a "
                                              "hostname, an IPv4 address or an IPv6 address in "
                                              "brackets")
                                   .arg(dir.filePath("cluster.yaml"))
                                   .arg(line)
                                   .arg(column));
    QVERIFY(!spec.clusterSpec.has_value());
}

void TestConfig::clusterWarningsReachTheCaller() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeText(dir.filePath("cluster.yaml"),
                      "cluster_name: lab\nprovider: {type: local}\nupscaling_speed: 1.0\n"));
    QVERIFY(writeText(dir.filePath("exp.yaml"),
                      "name: c\ntrainable: {command: sh}\ncluster: cluster.yaml\n"));
    ExperimentSpec spec;
    QStringList warnings{"stale"};
    const Status status = loadFile(dir.filePath("exp.yaml"), &spec, &warnings);
    QVERIFY2(status.isOk(), qPrintable(status.message()));
    QCOMPARE(warnings, QStringList{dir.filePath("cluster.yaml") +
                                   ":3:1: upscaling_speed: ignored by Tunedeck (no autoscaling: "
                                   "the nodes listed are used, up to max_workers)"});
    QVERIFY(spec.clusterSpec.has_value());
    QCOMPARE(spec.clusterSpec->nodes.size(), size_t(1));
    // Without the cluster, nothing is left over from the previous load.
    QVERIFY(loadInline("name: c\ntrainable: {command: sh}\n", &spec, &warnings).isOk());
    QVERIFY(warnings.isEmpty());
    QVERIFY(!spec.clusterSpec.has_value());
}

void TestConfig::gpuSamplingDefaultsToTwoSecondsAndZeroTurnsItOff() {
    ExperimentSpec spec;
    QVERIFY(loadInline("name: p\ntrainable: {command: sh}\n", &spec).isOk());
    QCOMPARE(spec.gpuSampleS, 2.0);
    QCOMPARE(spec.gpuSharing, GpuSharing::TimeSlicing);  // CUDA's own default
    QCOMPARE(spec.resourcesPerTrial.gpuMemoryMb, std::int64_t(0));
    QVERIFY(loadInline("name: p\ntrainable: {command: sh}\ngpu_sample_s: 0\n", &spec).isOk());
    QCOMPARE(spec.gpuSampleS, 0.0);
}

void TestConfig::placementIsReadAndDefaultsToPack() {
    ExperimentSpec spec;
    QVERIFY(loadInline("name: p\ntrainable: {command: sh}\n", &spec).isOk());
    QCOMPARE(spec.placement, PlacementStrategy::Pack);
    QVERIFY(loadInline("name: p\ntrainable: {command: sh}\nplacement: spread\n", &spec).isOk());
    QCOMPARE(spec.placement, PlacementStrategy::Spread);
    const Status status =
        loadInline("name: p\ntrainable: {command: sh}\nplacement: Spread\n", &spec);
    QVERIFY(status.message().endsWith(
        "inline.yaml:3:12: placement: expected 'pack' or 'spread', got 'Spread'"));
}

void TestConfig::commandSplitting_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("argv");
    QTest::newRow("plain") << "python3 train.py --lr {lr}"
                           << QStringList{"python3", "train.py", "--lr", "{lr}"};
    QTest::newRow("blanks collapse") << "  a \t b\n c  " << QStringList{"a", "b", "c"};
    QTest::newRow("single quotes keep everything")
        << R"(sh -c 'echo "$HOME" \n {x}')" << QStringList{"sh", "-c", R"(echo "$HOME" \n {x})"};
    QTest::newRow("double quotes with escapes")
        << R"(say "a \"quoted\" \\ \$x \y")" << QStringList{"say", R"(a "quoted" \ $x \y)"};
    QTest::newRow("backslash escapes a blank")
        << R"(run my\ file)" << QStringList{"run", "my file"};
    QTest::newRow("empty quotes are an argument") << "run '' \"\"" << QStringList{"run", "", ""};
    QTest::newRow("adjacent parts join") << R"(a"b"'c'd)" << QStringList{"abcd"};
    QTest::newRow("nothing is expanded")
        << "echo $HOME ~ *.py {a,b} $(id)"
        << QStringList{"echo", "$HOME", "~", "*.py", "{a,b}", "$(id)"};
    QTest::newRow("placeholder inside quotes")
        << "--tag='{name} run'" << QStringList{"--tag={name} run"};
}

void TestConfig::commandSplitting() {
    QFETCH(QString, command);
    QFETCH(QStringList, argv);
    QString error;
    const auto split = splitCommandLine(command, &error);
    QVERIFY2(split.has_value(), qPrintable(error));
    QCOMPARE(*split, argv);
}

void TestConfig::commandSplittingRejectsUnterminatedQuotes_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("problem");
    QTest::newRow("single") << "echo 'oops"
                            << "unterminated single quote";
    QTest::newRow("double") << "echo \"oops \\\""
                            << "unterminated double quote";
    QTest::newRow("trailing backslash") << "echo oops\\"
                                        << "lone backslash";
}

void TestConfig::commandSplittingRejectsUnterminatedQuotes() {
    QFETCH(QString, command);
    QFETCH(QString, problem);
    QString error;
    QVERIFY(!splitCommandLine(command, &error).has_value());
    QVERIFY2(error.contains(problem), qPrintable(error));
}

void TestConfig::commandStringKeepsQuotedArgumentsWhole() {
    ExperimentSpec spec;
    const Status status = loadInline(
        "name: q\n"
        "trainable: {command: \"sh -c 'python3 train.py --lr \\\"$0\\\"' '{lr}'\"}\n"
        "search_space: {lr: {uniform: [0, 1]}}\n",
        &spec);
    QVERIFY2(status.isOk(), qPrintable(status.message()));
    QCOMPARE(spec.trainable.command,
             (QStringList{"sh", "-c", "python3 train.py --lr \"$0\"", "{lr}"}));
}

void TestConfig::stopDirections_data() {
    QTest::addColumn<QString>("objective");
    QTest::addColumn<QString>("stop");
    QTest::addColumn<bool>("atLeast");
    QTest::newRow("own metric, min: at most") << "metric: loss\nmode: min\n"
                                              << "loss: 0.05" << false;
    QTest::newRow("own metric, max: at least") << "metric: loss\nmode: max\n"
                                               << "loss: 0.05" << true;
    QTest::newRow("other metric, min: at least") << "metric: loss\nmode: min\n"
                                                 << "acc: 0.9" << true;
    QTest::newRow("no metric: at least") << ""
                                         << "loss: 0.05" << true;
    QTest::newRow("explicit >= wins") << "metric: loss\nmode: min\n"
                                      << "loss: {\">=\": 5}" << true;
    QTest::newRow("explicit <= wins") << "metric: acc\nmode: max\n"
                                      << "acc: {\"<=\": 0.1}" << false;
}

void TestConfig::stopDirections() {
    QFETCH(QString, objective);
    QFETCH(QString, stop);
    QFETCH(bool, atLeast);
    ExperimentSpec spec;
    const Status status = loadInline(
        "name: s\ntrainable: {command: sh}\n" + objective + "stop: {" + stop + "}\n", &spec);
    QVERIFY2(status.isOk(), qPrintable(status.message()));
    QCOMPARE(spec.stop.thresholds.size(), size_t(1));
    QCOMPARE(spec.stop.thresholds.front().atLeast, atLeast);
}

void TestConfig::checkpointScoreDefaultsToTheMetric() {
    ExperimentSpec spec;
    QVERIFY(
        loadInline("name: c\ntrainable: {command: sh}\nmetric: loss\nmode: min\n", &spec).isOk());
    QCOMPARE(spec.checkpoint.score, QStringLiteral("loss"));
    QCOMPARE(spec.checkpoint.scoreMode, MetricMode::Min);

    QVERIFY(loadInline("name: c\ntrainable: {command: sh}\nmetric: loss\nmode: min\n"
                       "checkpoint: {score: accuracy}\n",
                       &spec)
                .isOk());
    QCOMPARE(spec.checkpoint.score, QStringLiteral("accuracy"));
    QCOMPARE(spec.checkpoint.scoreMode, MetricMode::Max);
}

void TestConfig::relativeWorkingDirIsResolvedFromTheFilesFolder() {
    QTemporaryDir root;
    QVERIFY(root.isValid());
    QVERIFY(QDir(root.path()).mkpath("experiments"));
    QVERIFY(QDir(root.path()).mkpath("code/src"));
    QVERIFY(writeText(root.filePath("experiments/a.yaml"),
                      "name: a\ntrainable: {command: sh, working_dir: ../code/src}\n"));
    QVERIFY(writeText(root.filePath("experiments/b.yaml"), "name: b\ntrainable: {command: sh}\n"));
    QVERIFY(writeText(root.filePath("experiments/c.yaml"),
                      "name: c\ntrainable: {command: sh, working_dir: src}\n"));

    // Loaded through a path relative to the current folder, as the CLI receives it.
    const QString previous = QDir::currentPath();
    QVERIFY(QDir::setCurrent(root.path()));
    ExperimentSpec a;
    ExperimentSpec b;
    ExperimentSpec c;
    const Status statusA = loadFile("experiments/a.yaml", &a);
    const Status statusB = loadFile("experiments/b.yaml", &b);
    const Status statusC = loadFile("experiments/c.yaml", &c);
    QVERIFY(QDir::setCurrent(previous));

    QVERIFY2(statusA.isOk(), qPrintable(statusA.message()));
    QCOMPARE(a.trainable.workingDir, QDir::cleanPath(root.path() + "/code/src"));
    QCOMPARE(a.sourceFile, QDir::cleanPath(root.path() + "/experiments/a.yaml"));
    QVERIFY2(statusB.isOk(), qPrintable(statusB.message()));
    QCOMPARE(b.trainable.workingDir, QDir::cleanPath(root.path() + "/experiments"));
    // Not relative to the current folder (where code/src... has no src/).
    QVERIFY(!statusC.isOk());
    QVERIFY2(statusC.message().startsWith("experiments/c.yaml:2:"), qPrintable(statusC.message()));
    QVERIFY(statusC.message().contains("trainable.working_dir: 'src' does not exist"));
}

void TestConfig::relativeProgramIsResolvedInWorkingDir() {
    ExperimentSpec spec;
    // data/train.sh is executable: found from working_dir, not from the YAML's folder.
    QVERIFY(
        loadInline("name: p\ntrainable: {command: ./train.sh, working_dir: data}\n", &spec).isOk());
    const Status status = loadInline("name: p\ntrainable: {command: ./train.sh}\n", &spec);
    QVERIFY(!status.isOk());
    QVERIFY2(status.message().endsWith("trainable.command: './train.sh' not found in working_dir"),
             qPrintable(status.message()));
    QVERIFY(loadInline("name: p\ntrainable: {command: data/train.sh}\n", &spec).isOk());
}

void TestConfig::programIsLookedUpInTheTrainablesPath() {
    QTemporaryDir bin;
    QVERIFY(bin.isValid());
    const QString program = bin.filePath("tunedeck-test-trainer");
    QVERIFY(writeText(program, "#!/bin/sh\nexit 0\n"));
    QVERIFY(QFile::setPermissions(program, QFile::ReadOwner | QFile::ExeOwner));
    ExperimentSpec spec;
    const Status without =
        loadInline("name: p\ntrainable: {command: tunedeck-test-trainer}\n", &spec);
    QVERIFY(without.message().endsWith("'tunedeck-test-trainer' not found in working_dir or PATH"));
    const Status with = loadInline(
        "name: p\ntrainable: {command: tunedeck-test-trainer, env: {PATH: '" + bin.path() + "'}}\n",
        &spec);
    QVERIFY2(with.isOk(), qPrintable(with.message()));
}

void TestConfig::nniNamedChoiceOptionsBecomeGroups() {
    SearchSpace space;
    const Status status = loadNniSearchSpace(goldenDir() + "/nni_valid.json", &space);
    QVERIFY2(status.isOk(), qPrintable(status.message()));
    QStringList names;
    for (const Parameter& parameter : space.parameters) {
        names << parameter.name;
    }
    QCOMPARE(names, (QStringList{"lr", "batch_size", "epochs", "dropout", "conv"}));  // as written
    const Parameter& epochs = space.parameters[2];
    QCOMPARE(epochs.domain.kind, DomainKind::RandInt);
    QCOMPARE(epochs.domain.high, 10.0);  // NNI's upper bound is exclusive, as randint's
    const Domain& conv = space.parameters[4].domain;
    QCOMPARE(conv.options.size(), size_t(3));
    QVERIFY(conv.options[0].group);
    const SearchSpace& small = *conv.options[0].group;
    QCOMPARE(small.parameters[0].name, QStringLiteral("_name"));
    QCOMPARE(small.parameters[0].constant, QJsonValue("small"));
    QCOMPARE(small.parameters[1].kind, Parameter::Kind::Sampled);
    QVERIFY(!conv.options[2].group);  // {"_name": "none"} holds nothing to sample
    QCOMPARE(epochs.location.line, 4);
}

void TestConfig::nniSyntaxErrorPointsAtLineAndColumn() {
    QTemporaryDir dir;
    const QString path = dir.filePath("space.json");
    QVERIFY(writeText(path, "{\n  \"lr\": {\"_type\": \"uniform\",\n   \"_value\": [0, 1],}\n}\n"));
    SearchSpace space;
    const Status status = loadNniSearchSpace(path, &space);
    QVERIFY(!status.isOk());
    QVERIFY2(status.message().startsWith(path + ":3:"), qPrintable(status.message()));
    QVERIFY(status.message().contains("invalid JSON"));
}

void TestConfig::nniUnsupportedTypeNamesTheParameter() {
    QTemporaryDir dir;
    const QString path = dir.filePath("space.json");
    QVERIFY(writeText(path,
                      "{\"a\": {\"_type\": \"uniform\", \"_value\": [0, 1]},\n"
                      " \"sigma\": {\"_type\": \"qlognormal\", \"_value\": [0, 1, 1]}}\n"));
    SearchSpace space;
    const Status status = loadNniSearchSpace(path, &space);
    QVERIFY(!status.isOk());
    QVERIFY2(
        status.message().startsWith(path + ":2:12: sigma: _type 'qlognormal' is not supported"),
        qPrintable(status.message()));
}

// A 200 MB file was read and parsed whole, past 240 s; its size alone refuses it now.
void TestConfig::nniFileOverTheSizeLimitIsRefusedUnread() {
    QTemporaryDir dir;
    const QString path = dir.filePath("space.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.resize(qint64(200) * 1024 * 1024));  // sparse: it costs no disk to make
    file.close();
    QElapsedTimer clock;
    clock.start();
    SearchSpace space;
    const Status status = loadNniSearchSpace(path, &space);
    QCOMPARE(status.message(), path + ": the file is 209715200 bytes; " + kLimitsScope +
                                   " may hold at most 1048576 bytes");
    QVERIFY2(clock.elapsed() < 1000, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));
}

// The fuzz targets and the corpus replay hand over bytes, not a file: the same bound applies.
void TestConfig::nniTextOverTheSizeLimitIsRefused() {
    const QByteArray space = R"({"lr": {"_type": "uniform", "_value": [0, 1]}})";
    ProblemList problems;
    SearchSpace read;
    QVERIFY(readNniSearchSpaceText(
        "space.json", space + QByteArray(1024 * 1024 - space.size(), ' '), &problems, &read));
    QVERIFY(!readNniSearchSpaceText(
        "space.json", space + QByteArray(1024 * 1024 - space.size() + 1, ' '), &problems, &read));
    QCOMPARE(problems.text(), "space.json: the file is 1048577 bytes; " + kLimitsScope +
                                  " may hold at most 1048576 bytes");
}

void TestConfig::nniNestingDeeperThanTheLimitIsRefusedAtItsPlace() {
    // One level per line: level N opens at line N, column 1.
    const auto nested = [](int levels) {
        return QByteArray("{\"a\":\n").repeated(levels) + "1" + QByteArray("}").repeated(levels);
    };
    QTemporaryDir dir;
    QString path;
    const Status deep = loadNniText(dir, nested(65), &path);
    QCOMPARE(deep.message(), path +
                                 ":65:1: nested deeper than 64 levels of objects and arrays "
                                 "(the limit for " +
                                 kLimitsScope + ")");
    const Status within = loadNniText(dir, nested(64), &path);
    QVERIFY2(!within.isOk() && !within.message().contains("nested deeper"),
             qPrintable(within.message()));  // a space it is not, but one it may read
}

void TestConfig::nniMoreValuesThanTheLimitAreRefused() {
    // The object, its parameter, "choice" and the list are 4 values; each option one more.
    const auto choice = [](int options) {
        QByteArray zeros = QByteArray("0,").repeated(options);
        zeros.chop(1);
        return "{\"x\": {\"_type\": \"choice\",\n\"_value\": [" + zeros + "]}}";
    };
    QTemporaryDir dir;
    QString path;
    const Status within = loadNniText(dir, choice(99996), &path);
    QVERIFY2(within.isOk(), qPrintable(within.message()));
    const Status over = loadNniText(dir, choice(99997), &path);
    // The 99,997th zero: after "_value": [ (11 characters) and 99,996 times "0,".
    QCOMPARE(over.message(), QStringLiteral("%1:2:%2: the file holds more than 100000 values (the "
                                            "limit for %3)")
                                 .arg(path)
                                 .arg(11 + 2 * 99996 + 1)
                                 .arg(kLimitsScope));
}

void TestConfig::nniKeyLongerThanTheLimitIsRefused() {
    const auto named = [](int length) {
        return "{\"lr\": {\"_type\": \"uniform\", \"_value\": [0, 1]},\n \"" +
               QByteArray(length, 'k') + "\": {\"_type\": \"uniform\", \"_value\": [0, 1]}}";
    };
    QTemporaryDir dir;
    QString path;
    const Status within = loadNniText(dir, named(1024), &path);
    QVERIFY2(within.isOk(), qPrintable(within.message()));
    const Status over = loadNniText(dir, named(1025), &path);
    QCOMPARE(over.message(), path +
                                 ":2:2: a key of 1025 bytes; keys may hold at most 1024 bytes "
                                 "(the limit for " +
                                 kLimitsScope + ")");
}

// Every key's full path was kept: 1 MB of nested 1,000-character keys took 2.3 GB. Within the
// depth and key bounds, an option 60 levels of such keys deep holding 400 floats still named
// each float by a 60 KB path; the paths' total refuses it.
void TestConfig::nniNestedLongKeysAreRefusedByTheirPaths() {
    QByteArray chain;
    for (int level = 0; level < 60; ++level) {
        chain += "{\"" + QByteArray(999, 'k') + QByteArray::number(level % 10) + "\":\n";
    }
    QByteArray floats = QByteArray("1.0,").repeated(400);
    floats.chop(1);
    const QByteArray json = "{\"p\": {\"_type\": \"choice\", \"_value\": [" + chain + "[" + floats +
                            "]" + QByteArray("}").repeated(60) + "]}}";
    QTemporaryDir dir;
    QString path;
    const Status status = loadNniText(dir, json, &path);
    QVERIFY(!status.isOk());
    QVERIFY2(QRegularExpression("^" + QRegularExpression::escape(path) +
                                ":61:[0-9]+: keys nested this long and this deep: the paths of "
                                "the values \\(every key from the top, as in a.b.c\\) add up to "
                                "more than 16777216 bytes \\(the limit for " +
                                QRegularExpression::escape(kLimitsScope) + "\\)$")
                 .match(status.message())
                 .hasMatch(),
             qPrintable(status.message()));
}

// One set of limits for every parser: the key bound holds in experiment files too. yaml-cpp
// refuses a plain key over 1024 characters itself ("illegal map value"); an explicit one (?) it
// takes at any length.
void TestConfig::yamlKeyLongerThanTheLimitIsRefused() {
    ExperimentSpec spec;
    const QString head = QStringLiteral("name: p\ntrainable: {command: sh}\nsearch_space:\n  ? ");
    const QString tail = QStringLiteral("\n  : {uniform: [0, 1]}\n");
    const Status over = loadInline(head + QString(1025, 'k') + tail, &spec);
    QCOMPARE(over.message(), goldenDir() +
                                 "/inline.yaml:4:5: a key of 1025 bytes; keys may hold "
                                 "at most 1024 bytes (the limit for " +
                                 kLimitsScope + ")");
    const Status within = loadInline(head + QString(1024, 'k') + tail, &spec);
    QVERIFY2(within.isOk(), qPrintable(within.message()));
}

// What the app's axes read of a stored spec (config/spec_choices.h): each choice of plain values
// by its dotted path, its options in the order written without repeats; a choice of groups left
// out; nothing when the text does not load.
void TestConfig::choiceParametersOfAStoredSpec() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("experiment.yaml"));
    const QString spec = QStringLiteral(
        "name: c\ntrainable: {command: python3 train.py}\nmetric: loss\nmode: min\n"
        "search_space:\n  lr: {loguniform: [1.0e-4, 1.0e-1]}\n"
        "  batch_size: {choice: [16, 32, 16, 64]}\n"
        "  model:\n    act: {choice: [relu, tanh]}\n"
        "  opt: {choice: [{name: sgd, momentum: {uniform: [0, 1]}}, {name: adam}]}\n");
    const QHash<QString, QJsonArray> choices = choiceParametersOfSpec(spec, file);
    QCOMPARE(choices.keys().size(), 2);
    QCOMPARE(choices.value(QStringLiteral("batch_size")), QJsonArray({16, 32, 64}));
    QCOMPARE(choices.value(QStringLiteral("model.act")), QJsonArray({"relu", "tanh"}));
    QVERIFY(choiceParametersOfSpec(QStringLiteral("name: [unclosed"), file).isEmpty());
    QVERIFY(choiceParametersOfSpec(QString(), file).isEmpty());
}

QTEST_GUILESS_MAIN(TestConfig)
#include "tst_config.moc"
