// Hostile NNI search-space files against the real engine (issue 33): `tunedeck-engine validate` of
// an experiment whose search_space is 1 MB of nested 1,000-character keys, or a 200 MB file,
// answers with the JSON file's name and place in seconds under a memory bound, and a well-formed
// file still loads. `serve` validates off its event loop: another client is answered while a
// validation runs, and one client's answers keep the order of its requests. Local socket only.
#include <sys/resource.h>

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

#include "engine_harness.h"
#include "serve_session.h"

namespace {

// `validate` of a file within the limits needs tens of MB; the nested keys took 2.3 GB.
constexpr rlim_t kAddressSpaceBytes = rlim_t(1) << 30;
constexpr int kQuickMs = 5000;  // "in seconds"; the nested keys took 12 s, 200 MB over 240 s

const char* const kExperiment = R"(name: nni_limits
trainable: {command: sh}
search_space: space.json
num_samples: 2
metric: score
mode: max
)";

// 1,000 levels of 1,000-character keys, one level per line: 1 MB, under the size bound, so the
// nesting is what must refuse it (level 65 opens at line 65, column 1).
QByteArray nestedLongKeys() {
    QByteArray json;
    for (int level = 0; level < 1000; ++level) {
        json += "{\"" + QByteArray(996, 'k') + QByteArray::number(level).rightJustified(4, '0') +
                "\":\n";
    }
    return json + "1" + QByteArray("}").repeated(1000) + "\n";
}

const QByteArray kWellFormed = R"({
    "lr": {"_type": "loguniform", "_value": [0.0001, 0.1]},
    "layers": {"_type": "choice", "_value": [1, 2.0, {"_name": "wide", "units": {"_type": "randint", "_value": [8, 64]}}]}
}
)";

bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QByteArray requestLine(int id, const QJsonObject& arguments) {
    QJsonObject request = arguments;
    request.insert("id", id);
    return QJsonDocument(request).toJson(QJsonDocument::Compact);
}

}  // namespace

class TestServeHostileJson : public QObject {
    Q_OBJECT

  private slots:
    void validateRefusesHostileSearchSpacesQuicklyWithTheirPlace_data();
    void validateRefusesHostileSearchSpacesQuicklyWithTheirPlace();
    void validateLoadsAWellFormedSearchSpace();
    void serveAnswersOthersWhileValidatingNestedLongKeys();
    void serveAnswersOneClientInTheOrderItAsked();
};

void TestServeHostileJson::validateRefusesHostileSearchSpacesQuicklyWithTheirPlace_data() {
    QTest::addColumn<QByteArray>("json");  // empty: a 200 MB file
    QTest::addColumn<QString>("message");
    QTest::newRow("1 MB of nested 1,000-character keys")
        << nestedLongKeys()
        << "space.json:65:1: nested deeper than 64 levels of objects and arrays (the limit for "
           "experiment, cluster and search-space files)";
    QTest::newRow("200 MB") << QByteArray()
                            << "space.json: the file is 209715200 bytes; experiment, cluster and "
                               "search-space files may hold at most 1048576 bytes";
}

void TestServeHostileJson::validateRefusesHostileSearchSpacesQuicklyWithTheirPlace() {
    QFETCH(QByteArray, json);
    QFETCH(QString, message);
    EngineHarness harness;
    const QString space = harness.root() + "/space.json";
    if (json.isEmpty()) {
        QFile file(space);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(qint64(200) * 1024 * 1024));  // sparse: costs no disk to make
    } else {
        QVERIFY(writeBytes(space, json));
    }
    const QString experiment = harness.writeFile("experiment.yaml", kExperiment);
    QProcess engine;
    QElapsedTimer clock;
    clock.start();
    harness.startUnderMemoryBound(engine, {"validate", experiment}, kAddressSpaceBytes);
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
    QCOMPARE(engine.exitStatus(), QProcess::NormalExit);
    QCOMPARE(engine.exitCode(), 2);
    QVERIFY2(output.contains(message), qPrintable(output));
}

void TestServeHostileJson::validateLoadsAWellFormedSearchSpace() {
    EngineHarness harness;
    QVERIFY(writeBytes(harness.root() + "/space.json", kWellFormed));
    const EngineResult validated =
        harness.run({"validate", harness.writeFile("experiment.yaml", kExperiment)});
    QVERIFY2(validated.exitCode == 0, qPrintable(validated.all()));
}

// One `validate` of such a file blocked every client of `serve` for 20 s.
void TestServeHostileJson::serveAnswersOthersWhileValidatingNestedLongKeys() {
    EngineHarness harness;
    QVERIFY(writeBytes(harness.root() + "/space.json", nestedLongKeys()));
    const QString experiment = harness.writeFile("experiment.yaml", kExperiment);
    ServeProcess server;
    QVERIFY(server.startOnLocalSocket(harness));
    ServeClient validating(server.address());
    ServeClient other(server.address());
    QVERIFY(other.hello().value("ok").toBool());

    validating.send(requestLine(1, {{"op", "validate"}, {"path", experiment}}));
    QElapsedTimer clock;
    clock.start();
    const QJsonObject hello = other.hello({}, 2000);
    QVERIFY2(hello.value("ok").toBool(),
             qPrintable(QStringLiteral("no hello after %1 ms").arg(clock.elapsed())));

    const QJsonObject answer = validating.nextAnswer(30000);
    QCOMPARE(answer.value("id").toInt(), 1);
    QCOMPARE(answer.value("valid").toBool(true), false);
    const QJsonObject problem = answer.value("errors").toArray().first().toObject();
    QCOMPARE(problem.value("file").toString(), harness.root() + "/space.json");
    QCOMPARE(problem.value("line").toInt(), 65);
    QCOMPARE(problem.value("column").toInt(), 1);
    QVERIFY2(problem.value("message").toString().startsWith("nested deeper than 64 levels"),
             qPrintable(QJsonDocument(answer).toJson()));
    const qint64 peakKb = peakResidentKb(server.pid());
    QVERIFY2(peakKb > 0 && peakKb < 300 * 1024, qPrintable(QStringLiteral("%1 kB").arg(peakKb)));
    QVERIFY(validating.hello().value("ok").toBool());
}

// Validations answer later, off the loop; what a client asked after one waits for its answer.
void TestServeHostileJson::serveAnswersOneClientInTheOrderItAsked() {
    EngineHarness harness;
    QVERIFY(writeBytes(harness.root() + "/space.json", kWellFormed));
    const QString experiment = harness.writeFile("experiment.yaml", kExperiment);
    ServeProcess server;
    QVERIFY(server.startOnLocalSocket(harness));
    ServeClient client(server.address());

    // In one write, so the server reads them together.
    client.send(requestLine(1, {{"op", "validate"}, {"path", experiment}}) + "\n" +
                requestLine(2, {{"op", "list"}}) + "\n" + "not json\n" +
                requestLine(3, {{"op", "validate"}, {"path", harness.root() + "/missing.yaml"}}) +
                "\n" + requestLine(4, {{"op", "hello"}}));
    const QJsonObject first = client.nextAnswer(10000);
    QCOMPARE(first.value("id").toInt(), 1);
    QVERIFY2(first.value("valid").toBool(), qPrintable(QJsonDocument(first).toJson()));
    QCOMPARE(first.value("parameters").toInt(), 2);
    QCOMPARE(first.value("preview").toArray().size(), 2);
    QCOMPARE(client.nextAnswer(10000).value("id").toInt(), 2);
    const QJsonObject malformed = client.nextAnswer(10000);
    QVERIFY2(malformed.value("error").toObject().value("message").toString().startsWith(
                 "request line 3"),
             qPrintable(QJsonDocument(malformed).toJson()));
    const QJsonObject missing = client.nextAnswer(10000);
    QCOMPARE(missing.value("id").toInt(), 3);
    QCOMPARE(missing.value("valid").toBool(true), false);
    QCOMPARE(client.nextAnswer(10000).value("id").toInt(), 4);
}

QTEST_GUILESS_MAIN(TestServeHostileJson)
#include "test_serve_hostile_json.moc"
