// The node protocol (engine/node_protocol/node_protocol.h) against its fixtures: every message
// of data/node_protocol.jsonl decodes, encodes back to the same JSON and decodes to the same
// value; every line of data/node_protocol_malformed.jsonl is refused with the error that names
// its message and field. The real tunedeck-worker then speaks to the same decoder: what it says
// decodes, and what the decoder's encoder sends it is carried out; and the engine's NodeLink drops
// a line the decoder refuses and reads the next.
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cluster/node_link.h"
#include "node_protocol/node_protocol.h"

using nlohmann::json;
namespace node = tunedeck::node;

namespace {

std::vector<std::string> fixtureLines(const QString& name) {
    QFile file(QStringLiteral(TUNEDECK_TEST_DATA_DIR "/data/") + name);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    std::vector<std::string> lines;
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (!line.trimmed().isEmpty()) {
            lines.push_back(line.toStdString());
        }
    }
    return lines;
}

bool isOp(const std::string& line) {
    return json::parse(line, nullptr, false).contains("op");
}

// The agent's event lines read from `agent` until `done` says enough, or `timeoutMs` passes.
template <class Done>
std::vector<node::Event> readEvents(QProcess& agent, QByteArray& buffer, Done done,
                                    int timeoutMs = 15000) {
    std::vector<node::Event> events;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        qsizetype newline;
        while ((newline = buffer.indexOf('\n')) >= 0) {
            const QByteArray line = buffer.left(newline);
            buffer.remove(0, newline + 1);
            node::Decoded<node::Event> event = node::decodeEvent(line.toStdString());
            if (!event) {
                qWarning("undecodable event: %s (%s)", line.constData(),
                         event.error.message.c_str());
                return events;
            }
            events.push_back(std::move(*event.value));
            if (done(events.back())) {
                return events;
            }
        }
        agent.waitForReadyRead(100);
        buffer += agent.readAllStandardOutput();
    }
    return events;
}

// A link whose agent's bytes the test writes: NodeLink's own framing and decoding, no process.
class ScriptedLink : public tunedeck::NodeLink {
  public:
    QString nodeId() const override { return QStringLiteral("scripted"); }
    void open() override {}
    void sendLine(const QByteArray& line) override { sent += line; }
    void shutdown() override {}
    void abort() override {}
    bool isOpen() const override { return true; }
    bool agentSays(const QByteArray& bytes) { return receive(bytes); }
    QByteArray sent;
};

}  // namespace

class TestNodeProtocol : public QObject {
    Q_OBJECT
  private slots:
    void everyFixtureMessageRoundTrips();
    void malformedMessagesNameTheMessageAndField();
    void relayedTrialLinesKeepTheTrialsText();
    void theWorkerSpeaksTheSameProtocol();
    void theEngineDropsAMalformedAgentLineAndReadsOn();
};

void TestNodeProtocol::everyFixtureMessageRoundTrips() {
    const std::vector<std::string> lines = fixtureLines(QStringLiteral("node_protocol.jsonl"));
    QVERIFY(!lines.empty());
    std::set<std::size_t> ops;
    std::set<std::size_t> events;
    for (const std::string& line : lines) {
        const json written = json::parse(line);
        std::string encoded;
        if (isOp(line)) {
            const node::Decoded<node::Op> decoded = node::decodeOp(line);
            QVERIFY2(decoded, decoded.error.message.c_str());
            encoded = node::encodeOp(*decoded.value);
            const node::Decoded<node::Op> again = node::decodeOp(encoded);
            QVERIFY2(again && *again.value == *decoded.value, encoded.c_str());
            QVERIFY(written.at("op").get<std::string>() == node::nameOf(*decoded.value));
            ops.insert(decoded.value->index());
        } else {
            const node::Decoded<node::Event> decoded = node::decodeEvent(line);
            QVERIFY2(decoded, decoded.error.message.c_str());
            encoded = node::encodeEvent(*decoded.value);
            const node::Decoded<node::Event> again = node::decodeEvent(encoded);
            QVERIFY2(again && *again.value == *decoded.value, encoded.c_str());
            QVERIFY(written.at("ev").get<std::string>() == node::nameOf(*decoded.value));
            events.insert(decoded.value->index());
        }
        QVERIFY2(
            !encoded.empty() && encoded.back() == '\n' && encoded.find('\n') == encoded.size() - 1,
            "an encoded message is exactly one line");
        QVERIFY2(
            json::parse(encoded) == written,
            qPrintable(QStringLiteral("fixture:  %1\nencoded: %2")
                           .arg(QString::fromStdString(line), QString::fromStdString(encoded))));
    }
    // One example of every message, so a message added without a fixture line fails here.
    QCOMPARE(ops.size(), std::variant_size_v<node::Op>);
    QCOMPARE(events.size(), std::variant_size_v<node::Event>);
}

void TestNodeProtocol::malformedMessagesNameTheMessageAndField() {
    const std::vector<std::string> cases =
        fixtureLines(QStringLiteral("node_protocol_malformed.jsonl"));
    QVERIFY(!cases.empty());
    for (const std::string& text : cases) {
        const json c = json::parse(text);
        const std::string line = c.at("line").get<std::string>();
        const std::string expected = c.at("error").get<std::string>();
        const bool op =
            line.find("\"ev\"") == std::string::npos && line.find("no_ev") == std::string::npos;
        const node::DecodeError error =
            op ? node::decodeOp(line).error : node::decodeEvent(line).error;
        const bool refused = op ? !node::decodeOp(line) : !node::decodeEvent(line);
        QVERIFY2(refused, line.c_str());
        QCOMPARE(QString::fromStdString(error.message), QString::fromStdString(expected));
        // What could be read is kept, so the agent can still answer the trial or checkpoint.
        if (c.contains("trial")) {
            QVERIFY2(error.trial && error.trial->text == c.at("trial").get<std::string>(),
                     line.c_str());
        }
        if (c.contains("to")) {
            QVERIFY2(error.to && *error.to == c.at("to").get<std::string>(), line.c_str());
        }
    }
}

void TestNodeProtocol::relayedTrialLinesKeepTheTrialsText() {
    // The agent relays a trial's line without parsing it again; the head gets the same text,
    // whether the id needs escaping or not, and an integer id comes back an integer.
    const std::string msg = R"({"type":"log","message":"caf\u00e9 \"quoted\""})";
    for (node::TrialId id : {node::TrialId("t00001"), node::TrialId("odd \"id\"")}) {
        const std::string line =
            node::trialLinePrefix(id) + msg + std::string(node::kTrialLineSuffix);
        const node::Decoded<node::Event> decoded = node::decodeEvent(line);
        QVERIFY2(decoded, decoded.error.message.c_str());
        const auto* relayed = std::get_if<node::TrialLine>(&*decoded.value);
        QVERIFY(relayed != nullptr);
        QVERIFY(relayed->trial.text == id.text);
        QVERIFY(json::parse(relayed->msg) == json::parse(msg));
    }
    node::TrialId number("42");
    number.integer = true;
    const node::Decoded<node::Event> started =
        node::decodeEvent(node::encodeEvent(node::Started{number, 7, {}}));
    QVERIFY(started);
    QVERIFY(node::trialOf(*started.value)->integer);
    QVERIFY(json::parse(node::encodeEvent(*started.value)).at("trial") == json(42));
}

void TestNodeProtocol::theWorkerSpeaksTheSameProtocol() {
    const QString workerPath = QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck-worker");
    if (!QFile::exists(workerPath)) {
        QSKIP("tunedeck-worker is not built");
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QProcess agent;
    agent.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    agent.start(workerPath, {});
    QVERIFY(agent.waitForStarted());
    QByteArray buffer;
    const auto hello = readEvents(
        agent, buffer, [](const node::Event& e) { return std::holds_alternative<node::Hello>(e); });
    QVERIFY2(!hello.empty() && std::holds_alternative<node::Hello>(hello.back()),
             "the agent's hello decodes");
    QVERIFY(std::get<node::Hello>(hello.back()).cpus >= 1);

    // A malformed op: the agent names the message and field, as the decoder does, and serves on.
    agent.write(R"({"op":"monitor","interval_s":"often"})"
                "\n");
    node::StartOp start;
    start.trial = node::TrialId("t1");
    start.argv = {"sh", "-c",
                  R"(echo '{"type":"log","message":"hello"}' >&4; echo '{"type":"done"}' >&4)"};
    start.trialDir = dir.filePath(QStringLiteral("t1")).toStdString();
    agent.write(QByteArray::fromStdString(node::encodeOp(start)));
    const auto events = readEvents(agent, buffer, [](const node::Event& e) {
        return std::holds_alternative<node::Exited>(e);
    });
    std::vector<std::string> names;
    for (const node::Event& e : events) {
        names.push_back(node::nameOf(e));
    }
    QVERIFY2(!events.empty() && std::holds_alternative<node::Exited>(events.back()),
             "the trial's events decode up to its exit");
    const auto error = std::find_if(events.begin(), events.end(), [](const node::Event& e) {
        return std::holds_alternative<node::Error>(e);
    });
    QVERIFY(error != events.end());
    QCOMPARE(QString::fromStdString(std::get<node::Error>(*error).message),
             QStringLiteral("monitor: \"interval_s\" must be a number"));
    QVERIFY(std::find(names.begin(), names.end(), "started") != names.end());
    QVERIFY(std::find(names.begin(), names.end(), "trial") != names.end());
    QVERIFY(std::get<node::Exited>(events.back()).code == 0);
    QVERIFY(std::get<node::Exited>(events.back()).trial.text == "t1");

    agent.write(QByteArray::fromStdString(node::encodeOp(node::ShutdownOp{})));
    agent.closeWriteChannel();
    QVERIFY(agent.waitForFinished(10000));
    QCOMPARE(agent.exitCode(), 0);
}

void TestNodeProtocol::theEngineDropsAMalformedAgentLineAndReadsOn() {
    ScriptedLink link;
    std::vector<node::Event> received;
    QObject::connect(&link, &tunedeck::NodeLink::messageReceived,
                     [&](const node::Event& event) { received.push_back(event); });
    QTest::ignoreMessage(QtWarningMsg,
                         "worker agent of scripted sent a malformed line: exited: \"code\" must "
                         "be an integer");
    QVERIFY(link.agentSays(R"({"ev":"exited","trial":"t1","code":"one"})"
                           "\n"
                           R"({"ev":"started","trial":"t1","pid":7})"
                           "\n"));
    QCOMPARE(received.size(), std::size_t(1));
    QVERIFY(std::holds_alternative<node::Started>(received.front()));
    // And what the engine sends is the encoder's line.
    link.send(node::KillOp{std::string("t1"), "early stopping"});
    QVERIFY(link.sent.toStdString() ==
            node::encodeOp(node::KillOp{std::string("t1"), "early stopping"}));
}

QTEST_GUILESS_MAIN(TestNodeProtocol)
#include "test_node_protocol.moc"
