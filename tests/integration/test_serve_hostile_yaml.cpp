// Hostile experiment files against the real engine: `tunedeck-engine validate` on the inputs of
// tests/config/regression_corpus (an alias that contains itself, an alias bomb, a lone ',')
// answers with file:line:column in seconds under a memory bound, and `serve` given the same text
// in `validate` and `start` requests refuses it and keeps answering. Also the control API's
// numbers beyond 2^53 and the one rule for experiment names. Local socket only; each test takes
// a few seconds.
#include <sys/resource.h>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QtTest>

#include "engine_harness.h"
#include "serve_session.h"

namespace {

// Far more than `validate` needs (tens of MB), far less than the 3 GB an alias bomb took.
constexpr rlim_t kAddressSpaceBytes = rlim_t(1) << 30;
constexpr int kQuickMs = 5000;  // what "in seconds" means here; a runaway parse took 41 s

QString corpusFile(const QString& name) {
    return QStringLiteral(TUNEDECK_SOURCE_DIR "/tests/config/regression_corpus/") + name;
}

QByteArray readCorpus(const QString& name) {
    QFile file(corpusFile(name));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString errorMessage(const QJsonObject& answer) {
    return answer.value("error").toObject().value("message").toString();
}

QString errorCode(const QJsonObject& answer) {
    return answer.value("error").toObject().value("code").toString();
}

// An experiment folder with a history file, as `run` leaves one: requests naming it get past
// "not found" to the checks of their arguments.
bool makeExperimentFolder(const EngineHarness& harness, const QString& name) {
    const QString folder = harness.experimentFolder(name);
    QFile database(folder + "/experiment.sqlite");
    return QDir().mkpath(folder) && database.open(QIODevice::WriteOnly);
}

}  // namespace

class TestServeHostileYaml : public QObject {
    Q_OBJECT

  private slots:
    void validateCommandRefusesHostileFilesQuicklyWithTheirPlace_data();
    void validateCommandRefusesHostileFilesQuicklyWithTheirPlace();
    void serveValidateRefusesSelfAliasAndKeepsAnswering();
    void serveValidateRefusesAliasBombQuicklyAndSmall();
    void serveStartRefusesLoneCommaAndKeepsAnswering();
    void serveRefusesNumbersBeyondTwoToThe53();
    void hiddenExperimentNameIsRefusedByStartAndByEveryRequest();
    void validateReadsOnlyFilesEveryUserMayRead();
    void serveAnswersOthersWhileStartLoadsALargeFile();
};

void TestServeHostileYaml::validateCommandRefusesHostileFilesQuicklyWithTheirPlace_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    QTest::newRow("self alias in points_to_evaluate")
        << "self_alias_points_to_evaluate.yaml"
        << ":8:27: alias *p refers to the list that contains it";
    QTest::newRow("self alias in a search-space group")
        << "self_alias_search_space_group.yaml"
        << ":7:12: alias *group refers to the mapping that contains it";
    QTest::newRow("self alias in search options")
        << "self_alias_search_options.yaml"
        << ":6:19: alias *o refers to the mapping that contains it";
    QTest::newRow("alias bomb") << "alias_bomb.yaml"
                                << ":13:12: alias *a4 repeats what it names until the file "
                                   "holds more than 100000 values";
    // Issue 33: every float's full key path was kept; 90 copies (through an alias) of 40 levels
    // of 1,000-byte keys asked for gigabytes.
    QTest::newRow("long key paths") << "long_key_paths.yaml"
                                    << ":6:5: keys nested this long and this deep: the paths";
    QTest::newRow("lone comma") << "lone_comma.yaml"
                                << ":1:1: invalid YAML: unexpected ','";
    QTest::newRow("comma after a flow list") << "comma_after_flow_list.yaml"
                                             << ":1:4: invalid YAML: unexpected ','";
}

void TestServeHostileYaml::validateCommandRefusesHostileFilesQuicklyWithTheirPlace() {
    QFETCH(QString, file);
    QFETCH(QString, message);
    EngineHarness harness;
    QProcess engine;
    QElapsedTimer clock;
    clock.start();
    harness.startUnderMemoryBound(engine, {"validate", corpusFile(file)}, kAddressSpaceBytes);
    QVERIFY(engine.waitForStarted(5000));
    const bool finished = engine.waitForFinished(kQuickMs);
    const qint64 elapsedMs = clock.elapsed();
    if (!finished) {
        engine.kill();
        engine.waitForFinished();
    }
    const QString output =
        QString::fromUtf8(engine.readAllStandardOutput() + engine.readAllStandardError());
    QVERIFY2(finished, qPrintable(QStringLiteral("still running after %1 ms").arg(elapsedMs)));
    QCOMPARE(engine.exitStatus(), QProcess::NormalExit);  // no SIGSEGV, no abort
    QCOMPARE(engine.exitCode(), 2);
    QVERIFY2(output.contains(corpusFile(file) + message), qPrintable(output));
}

void TestServeHostileYaml::serveValidateRefusesSelfAliasAndKeepsAnswering() {
    EngineHarness harness;
    ServeProcess server;
    QVERIFY(server.startOnLocalSocket(harness));
    ServeClient connection(server.address());
    QVERIFY(connection.hello().value("ok").toBool());

    const QJsonObject answer = connection.ask(
        {{"op", "validate"},
         {"yaml", QString::fromUtf8(readCorpus("self_alias_points_to_evaluate.yaml"))},
         {"file_name", harness.root() + "/cycle.yaml"}});
    QVERIFY2(answer.value("ok").toBool(), qPrintable(QJsonDocument(answer).toJson()));
    QCOMPARE(answer.value("valid").toBool(), false);
    const QJsonObject problem = answer.value("errors").toArray().first().toObject();
    QCOMPARE(problem.value("file").toString(), harness.root() + "/cycle.yaml");
    QCOMPARE(problem.value("line").toInt(), 8);
    QCOMPARE(problem.value("column").toInt(), 27);
    QVERIFY2(problem.value("message").toString().contains("a value cannot contain itself"),
             qPrintable(QJsonDocument(answer).toJson()));

    // The same server, the same connection and a new one still answer.
    QVERIFY(server.running());
    QVERIFY(connection.hello().value("ok").toBool());
    QVERIFY(ServeClient(server.address()).ask({{"op", "list"}}).value("ok").toBool());
}

void TestServeHostileYaml::serveValidateRefusesAliasBombQuicklyAndSmall() {
    EngineHarness harness;
    ServeProcess server;
    QVERIFY(server.startOnLocalSocket(harness));
    ServeClient connection(server.address());
    QVERIFY(connection.hello().value("ok").toBool());

    QElapsedTimer clock;
    clock.start();
    // As a file on the server's disk, and as text: both go through the same bounds.
    const QJsonObject byPath =
        connection.ask({{"op", "validate"}, {"path", corpusFile("alias_bomb.yaml")}});
    const QJsonObject byText =
        connection.ask({{"op", "validate"},
                        {"yaml", QString::fromUtf8(readCorpus("alias_bomb.yaml"))},
                        {"file_name", harness.root() + "/bomb.yaml"}});
    const qint64 elapsedMs = clock.elapsed();
    for (const QJsonObject& answer : {byPath, byText}) {
        QCOMPARE(answer.value("valid").toBool(true), false);
        const QJsonObject problem = answer.value("errors").toArray().first().toObject();
        QCOMPARE(problem.value("line").toInt(), 13);
        QVERIFY2(problem.value("message").toString().contains("more than 100000 values"),
                 qPrintable(QJsonDocument(answer).toJson()));
    }
    QVERIFY2(elapsedMs < kQuickMs, qPrintable(QStringLiteral("%1 ms").arg(elapsedMs)));
    // It took 3 GB before; a server that only parsed the bound of values stays small.
    const qint64 peakKb = peakResidentKb(server.pid());
    QVERIFY2(peakKb > 0 && peakKb < 300 * 1024, qPrintable(QStringLiteral("%1 kB").arg(peakKb)));
    QVERIFY(connection.hello().value("ok").toBool());
}

void TestServeHostileYaml::serveStartRefusesLoneCommaAndKeepsAnswering() {
    EngineHarness harness;
    ServeProcess server;
    QVERIFY(server.startOnLocalSocket(harness));
    ServeClient connection(server.address());
    for (const char* file : {"lone_comma.yaml", "comma_after_flow_list.yaml"}) {
        const QJsonObject validated =
            connection.ask({{"op", "validate"},
                            {"yaml", QString::fromUtf8(readCorpus(file))},
                            {"file_name", harness.root() + "/comma.yaml"}});
        QCOMPARE(validated.value("valid").toBool(true), false);
        QVERIFY2(validated.value("errors")
                     .toArray()
                     .first()
                     .toObject()
                     .value("message")
                     .toString()
                     .startsWith("invalid YAML: unexpected ','"),
                 qPrintable(QJsonDocument(validated).toJson()));
        const QJsonObject started = connection.ask({{"op", "start"},
                                                    {"yaml", QString::fromUtf8(readCorpus(file))},
                                                    {"file_name", harness.root() + "/comma.yaml"}});
        QCOMPARE(started.value("ok").toBool(true), false);
        QCOMPARE(errorCode(started), QStringLiteral("invalid_spec"));
        QVERIFY2(errorMessage(started).startsWith(harness.root() + "/comma.yaml:1:"),
                 qPrintable(QJsonDocument(started).toJson()));
    }
    QVERIFY(server.running());
    QVERIFY(connection.hello().value("ok").toBool());
}

void TestServeHostileYaml::serveRefusesNumbersBeyondTwoToThe53() {
    EngineHarness harness;
    // The requests below are refused before the history is read.
    QVERIFY(makeExperimentFolder(harness, "exp"));
    ServeProcess server;
    QVERIFY(server.startOnLocalSocket(harness));
    ServeClient connection(server.address());

    // 1e300 became -9223372036854775808 and was used as a file offset.
    const QJsonObject log = connection.ask(
        {{"op", "trial_log"}, {"experiment", "exp"}, {"trial", "t00000"}, {"offset", 1e300}});
    QCOMPARE(errorCode(log), QStringLiteral("bad_request"));
    QVERIFY2(errorMessage(log).contains("a whole number from 0 to 2^53"),
             qPrintable(QJsonDocument(log).toJson()));
    const QJsonObject fraction = connection.ask(
        {{"op", "trial_log"}, {"experiment", "exp"}, {"trial", "t00000"}, {"offset", 1.5}});
    QCOMPARE(errorCode(fraction), QStringLiteral("bad_request"));
    const QJsonObject since =
        connection.ask({{"op", "subscribe"}, {"experiment", "exp"}, {"since", 1e300}});
    QCOMPARE(errorCode(since), QStringLiteral("bad_request"));
    QVERIFY2(errorMessage(since).contains("a whole number from 0 to 2^53"),
             qPrintable(QJsonDocument(since).toJson()));
    // A whole offset is still taken (no log yet: nothing to show).
    const QJsonObject fine = connection.ask(
        {{"op", "trial_log"}, {"experiment", "exp"}, {"trial", "t00000"}, {"offset", 0}});
    QVERIFY2(fine.value("ok").toBool(), qPrintable(QJsonDocument(fine).toJson()));
}

void TestServeHostileYaml::hiddenExperimentNameIsRefusedByStartAndByEveryRequest() {
    EngineHarness harness;
    // A hidden folder made by hand, as `start` made one before: not listed, not named.
    QVERIFY(makeExperimentFolder(harness, ".hidden"));
    ServeProcess server;
    QVERIFY(server.startOnLocalSocket(harness));
    ServeClient connection(server.address());

    const QJsonObject started =
        connection.ask({{"op", "start"},
                        {"yaml", "name: .hidden\ntrainable: {command: sh}\n"},
                        {"file_name", harness.root() + "/hidden.yaml"}});
    QCOMPARE(errorCode(started), QStringLiteral("invalid_spec"));
    QVERIFY2(errorMessage(started).startsWith(
                 harness.root() + "/hidden.yaml:1:7: name: '.hidden' is not a valid name"),
             qPrintable(QJsonDocument(started).toJson()));
    QVERIFY2(errorMessage(started).contains("not starting with '.' or '-'"),
             qPrintable(errorMessage(started)));

    for (const char* op : {"resume", "best", "export", "subscribe"}) {
        const QJsonObject answer = connection.ask({{"op", op}, {"experiment", ".hidden"}});
        QCOMPARE(errorCode(answer), QStringLiteral("bad_request"));
        QVERIFY2(errorMessage(answer).contains("not starting with '.' or '-'"),
                 qPrintable(QJsonDocument(answer).toJson()));
    }
    const QJsonObject listed = connection.ask({{"op", "list"}});
    QVERIFY(listed.value("ok").toBool());
    QCOMPARE(listed.value("experiments").toArray().size(), 0);
    QVERIFY(QDir(harness.resultsRoot())
                .entryList({"*"}, QDir::Dirs | QDir::NoDotAndDotDot)
                .isEmpty());  // `start` made no folder
}

// Issue 33: `validate` with a `path` quoted lines of any file the server could read
// (/etc/shadow's as unknown keys).
void TestServeHostileYaml::validateReadsOnlyFilesEveryUserMayRead() {
    EngineHarness harness;
    ServeProcess server;
    QVERIFY(server.startOnLocalSocket(harness));
    ServeClient connection(server.address());
    QVERIFY(connection.hello().value("ok").toBool());
    const QString secret = harness.root() + "/secret.yaml";
    QFile file(secret);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("root-password-hash: 1\nname: x\n");
    file.close();
    QVERIFY(file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    const QJsonObject refused = connection.ask({{"op", "validate"}, {"path", secret}});
    const QByteArray text = QJsonDocument(refused).toJson();
    QCOMPARE(refused.value("valid").toBool(true), false);
    QVERIFY2(!text.contains("root-password-hash"), text.constData());
    QVERIFY2(text.contains("every user of this machine may read"), text.constData());
    // The same file readable by everyone is validated as before: its problems quote it.
    QVERIFY(file.setPermissions(file.permissions() | QFileDevice::ReadOther));
    const QJsonObject read = connection.ask({{"op", "validate"}, {"path", secret}});
    QVERIFY2(QJsonDocument(read).toJson().contains("root-password-hash"),
             QJsonDocument(read).toJson().constData());
}

// Issue 33: `start` loaded its file on serve's event loop, so every other client waited for a
// file at the input limits to load. A client asking while one loads is answered first now.
void TestServeHostileYaml::serveAnswersOthersWhileStartLoadsALargeFile() {
    EngineHarness harness;
    QStringList values;
    for (int i = 0; i < 99000; ++i) {
        values << QString::number(i);
    }
    // 99,000 values, under every bound; `mode` is wrong, so nothing is launched.
    const QString file =
        harness.writeFile("large.yaml",
                          "name: large\ntrainable: {command: sh}\nmetric: score\nmode: sideways\n"
                          "search_space:\n  c: [" +
                              values.join(", ") + "]\n");
    ServeProcess server;
    QVERIFY(server.startOnLocalSocket(harness));
    ServeClient starting(server.address());
    ServeClient other(server.address());
    QVERIFY(starting.hello().value("ok").toBool());
    QVERIFY(other.hello().value("ok").toBool());

    starting.send(QJsonDocument(QJsonObject{{"id", 7}, {"op", "start"}, {"path", file}})
                      .toJson(QJsonDocument::Compact));
    QTest::qWait(30);  // the server has read the start and is loading
    QVERIFY(other.hello({}, 10000).value("ok").toBool());
    QVERIFY2(starting.nextAnswer(1).isEmpty(),
             "the start was answered before another client's hello: it held the event loop");
    const QJsonObject refused = starting.nextAnswer(30000);
    QCOMPARE(refused.value("id").toInt(), 7);
    QCOMPARE(errorCode(refused), QStringLiteral("invalid_spec"));
    QVERIFY2(errorMessage(refused).contains("mode"), qPrintable(errorMessage(refused)));
}

QTEST_GUILESS_MAIN(TestServeHostileYaml)
#include "test_serve_hostile_yaml.moc"
