// The event schema read back (api/event_decoders.h): every event core/events.h builds decodes to
// the same values after a trip through JSON text, and a malformed event is an error that names
// the event and the field.
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

#include "api/event_decoders.h"
#include "core/events.h"

using namespace tunedeck;
using namespace tunedeck::events;

namespace {

// As a subscriber receives it: the envelope written as a line and parsed again.
QJsonObject overTheWire(const QString& type, const QJsonObject& payload, qint64 seq = 7) {
    const QByteArray line =
        QJsonDocument(envelope(type, seq, 1234.5, payload)).toJson(QJsonDocument::Compact);
    return QJsonDocument::fromJson(line).object();
}

template <typename T>
T decoded(const QJsonObject& json) {
    Event event;
    const Status status = decodeEvent(json, &event);
    if (!status) {
        qWarning().noquote() << status.message();
    }
    const T* payload = event.as<T>();
    return payload ? *payload : T{};
}

Status failureOf(const QJsonObject& json) {
    Event event;
    return decodeEvent(json, &event);
}

Trial trialOf() {
    Trial trial;
    trial.id = QStringLiteral("t00003");
    trial.index = 3;
    trial.config = QJsonObject{{"lr", 0.5}, {"model", QJsonObject{{"depth", 4}}}};
    trial.status = TrialStatus::Running;
    trial.iteration = 12;
    trial.failures = 1;
    trial.nodeId = QStringLiteral("10.0.0.2:22");
    return trial;
}

}  // namespace

class TestEventDecoders : public QObject {
    Q_OBJECT
  private slots:
    void envelopeRoundTrips();
    void trialEventsRoundTrip();
    void resultAndCheckpointRoundTrip();
    void exploitRoundTrips();
    void nodeEventsRoundTrip();
    void experimentAndLogEventsRoundTrip();
    void unknownTypesAreSkippedNotRefused();
    void malformedEventsAreErrorsNamingTheField();
};

void TestEventDecoders::envelopeRoundTrips() {
    Event event;
    QVERIFY(decodeEvent(overTheWire(type::kLog, log("t00001", "hi"), 42), &event));
    QCOMPARE(event.seq, qint64(42));
    QCOMPARE(event.time, 1234.5);
    QVERIFY(event.as<LogEvent>());
}

void TestEventDecoders::trialEventsRoundTrip() {
    const Trial trial = trialOf();
    const auto added =
        decoded<TrialAddedEvent>(overTheWire(type::kTrialAdded, trialAdded(trial, {"lr"})));
    QCOMPARE(added.trial, trial.id);
    QCOMPARE(added.index, qint64(3));
    QCOMPARE(added.config, trial.config);
    QCOMPARE(added.configFloats, FloatPaths({"lr"}));

    const auto status =
        decoded<TrialStatusEvent>(overTheWire(type::kTrialStatus, trialStatus(trial, "placed")));
    QCOMPARE(status.trial, trial.id);
    QCOMPARE(status.status, QStringLiteral("RUNNING"));
    QCOMPARE(status.reason, QStringLiteral("placed"));
    QCOMPARE(status.node, std::optional<QString>(trial.nodeId));
    QCOMPARE(status.iteration, qint64(12));
    QCOMPARE(status.failures, 1);
    QVERIFY(status.gpus.empty());  // placed on no card
    const auto onCards = decoded<TrialStatusEvent>(
        overTheWire(type::kTrialStatus, trialStatus(trial, "placed", {0, 2})));
    QCOMPARE(onCards.gpus, std::vector<int>({0, 2}));

    Trial waiting = trialOf();
    waiting.nodeId.clear();
    const auto noNode =
        decoded<TrialStatusEvent>(overTheWire(type::kTrialStatus, trialStatus(waiting, {})));
    QVERIFY(!noNode.node.has_value());  // "keeps its node", not "on node ''"
    QVERIFY(noNode.reason.isEmpty());
}

void TestEventDecoders::resultAndCheckpointRoundTrip() {
    const QJsonObject metrics{{"loss", 0.25}, {"training_iteration", 3}};
    const auto r = decoded<ResultEvent>(overTheWire(type::kResult, result("t00001", metrics)));
    QCOMPARE(r.trial, QStringLiteral("t00001"));
    QCOMPARE(r.result, metrics);
    const auto c = decoded<CheckpointEvent>(
        overTheWire(type::kCheckpoint, checkpoint("t00001", 9, "/results/x/checkpoint_9")));
    QCOMPARE(c.trial, QStringLiteral("t00001"));
    QCOMPARE(c.iteration, qint64(9));
    QCOMPARE(c.path, QStringLiteral("/results/x/checkpoint_9"));
}

void TestEventDecoders::exploitRoundTrips() {
    const QJsonObject before{{"lr", 1.0}}, after{{"lr", 1.2}};
    const auto e = decoded<ExploitEvent>(overTheWire(
        type::kExploit,
        exploit("t00002", "t00000", 20, 18, before, after, "quantile", {"lr"}, {"lr"})));
    QCOMPARE(e.trial, QStringLiteral("t00002"));
    QCOMPARE(e.source, QStringLiteral("t00000"));
    QCOMPARE(e.iteration, qint64(20));
    QCOMPARE(e.sourceIteration, qint64(18));
    QCOMPARE(e.oldConfig, QJsonObject({{"lr", 1}}));  // 1.0 crossed the wire as 1 ...
    QCOMPARE(e.oldConfigFloats, FloatPaths({"lr"}));  // ... and the paths say it is a float
    QCOMPARE(e.newConfig, after);
    QCOMPARE(e.newConfigFloats, FloatPaths({"lr"}));
    QCOMPARE(e.reason, QStringLiteral("quantile"));
}

void TestEventDecoders::nodeEventsRoundTrip() {
    const auto n = decoded<NodeEvent>(
        overTheWire(type::kNode, node("gpu-box", "gpu_sharing", QJsonObject{{"mode", "mps"}})));
    QCOMPARE(n.node, QStringLiteral("gpu-box"));
    QCOMPARE(n.state, QStringLiteral("gpu_sharing"));
    QCOMPARE(n.details.value("mode").toString(), QStringLiteral("mps"));

    const QJsonObject sample{{"cpu_percent", 37.5},
                             {"memory_used_mb", 4096},
                             {"memory_total_mb", 16384},
                             {"gpus", QJsonArray{QJsonObject{{"index", 1},
                                                             {"uuid", "GPU-1"},
                                                             {"name", "H100"},
                                                             {"utilization_percent", 80},
                                                             {"memory_used_mb", 100},
                                                             {"memory_total_mb", 80000},
                                                             {"temperature_c", QJsonValue::Null},
                                                             {"power_w", 300},
                                                             {"trials", QJsonArray{"t00001", 7}},
                                                             {"lost", false}}}}};
    const auto u = decoded<NodeUsageEvent>(overTheWire(type::kNodeUsage, nodeUsage("a", sample)));
    QCOMPARE(u.node, QStringLiteral("a"));
    QCOMPARE(u.cpuPercent, std::optional<double>(37.5));
    QCOMPARE(u.memoryUsedMb, qint64(4096));
    QCOMPARE(u.memoryTotalMb, qint64(16384));
    QCOMPARE(u.gpus.size(), std::size_t(1));
    const GpuUsage& gpu = u.gpus.front();
    QCOMPARE(gpu.index, 1);
    QCOMPARE(gpu.uuid, QStringLiteral("GPU-1"));
    QCOMPARE(gpu.name, QStringLiteral("H100"));
    QCOMPARE(gpu.utilizationPercent, std::optional<double>(80));
    QVERIFY(!gpu.temperatureC.has_value());  // null: no reading, not 0 degrees
    QCOMPARE(gpu.powerW, std::optional<double>(300));
    QCOMPARE(gpu.trials, QStringList({"t00001", "7"}));
    QVERIFY(!gpu.lost);
}

void TestEventDecoders::experimentAndLogEventsRoundTrip() {
    const auto s = decoded<ExperimentStartedEvent>(
        overTheWire(type::kExperimentStarted, experimentStarted("mnist", "/r/mnist", true)));
    QCOMPARE(s.name, QStringLiteral("mnist"));
    QCOMPARE(s.folder, QStringLiteral("/r/mnist"));
    QVERIFY(s.resumed);
    const auto f = decoded<ExperimentFinishedEvent>(
        overTheWire(type::kExperimentFinished, experimentFinished("finished", 7, 2)));
    QCOMPARE(f.status, QStringLiteral("finished"));
    QCOMPARE(f.terminated, 7);
    QCOMPARE(f.errored, 2);
    const auto l = decoded<LogEvent>(overTheWire(type::kLog, log("t00004", "epoch 3")));
    QCOMPARE(l.trial, QStringLiteral("t00004"));
    QCOMPARE(l.message, QStringLiteral("epoch 3"));
    const auto w = decoded<WarningEvent>(overTheWire(type::kWarning, warning("slow disk")));
    QCOMPARE(w.message, QStringLiteral("slow disk"));
    QVERIFY(w.trial.isEmpty());
    QCOMPARE(decoded<WarningEvent>(overTheWire(type::kWarning, warning("x", "t00001"))).trial,
             QStringLiteral("t00001"));
}

void TestEventDecoders::unknownTypesAreSkippedNotRefused() {
    Event event;
    QVERIFY(decodeEvent(overTheWire(QStringLiteral("autoscaler_plan"), {{"nodes", 3}}), &event));
    QCOMPARE(event.as<UnknownEvent>()->type, QStringLiteral("autoscaler_plan"));
}

void TestEventDecoders::malformedEventsAreErrorsNamingTheField() {
    const struct {
        QJsonObject event;
        QString message;
    } cases[] = {
        {QJsonObject{{"seq", 1}}, "event: \"type\" is missing"},
        {QJsonObject{{"type", 3}}, "event: \"type\" must be a string (got 3)"},
        {QJsonObject{{"type", "log"}, {"v", 2}, {"trial", "t"}, {"message", "m"}},
         "log event of schema v2: this reader knows v1"},
        {QJsonObject{{"type", "result"}, {"trial", "t00001"}},
         "result event: \"result\" is missing"},
        {QJsonObject{{"type", "result"}, {"trial", "t00001"}, {"result", "0.5"}},
         "result event: \"result\" must be an object (got \"0.5\")"},
        {QJsonObject{{"type", "trial_status"}, {"trial", "t00001"}, {"status", 3}},
         "trial_status event: \"status\" must be a string (got 3)"},
        {QJsonObject{
             {"type", "trial_status"}, {"trial", "t1"}, {"status", "RUNNING"}, {"iteration", 1.5}},
         "trial_status event: \"iteration\" must be a whole number (got 1.5)"},
        {QJsonObject{{"type", "trial_status"},
                     {"trial", "t1"},
                     {"status", "RUNNING"},
                     {"gpus", QJsonArray{0, "one"}}},
         "trial_status event: \"gpus\"[1] must be a card index"},
        {QJsonObject{{"type", "trial_added"},
                     {"trial", "t1"},
                     {"config", QJsonObject{}},
                     {"config_floats", QJsonArray{"lr", 2}}},
         "trial_added event: \"config_floats\"[1] must be a string (got 2)"},
        {QJsonObject{{"type", "node_usage"}, {"node", "a"}, {"gpus", QJsonArray{QJsonObject{}}}},
         "node_usage event \"gpus\"[0]: \"index\" is missing"},
        {QJsonObject{{"type", "node_usage"}, {"node", "a"}, {"cpu_percent", "high"}},
         "node_usage event: \"cpu_percent\" must be a number or null (got \"high\")"},
        {QJsonObject{{"type", "exploit"}, {"trial", "t1"}}, "exploit event: \"source\" is missing"},
        // A required field that is simply absent, for each event the app's views rely on.
        {QJsonObject{{"type", "trial_status"}, {"trial", "t00001"}},
         "trial_status event: \"status\" is missing"},
        {QJsonObject{{"type", "trial_status"}, {"status", "RUNNING"}},
         "trial_status event: \"trial\" is missing"},
        {QJsonObject{{"type", "result"}, {"result", QJsonObject{}}},
         "result event: \"trial\" is missing"},
        {QJsonObject{{"type", "trial_added"}, {"trial", "t1"}},
         "trial_added event: \"config\" is missing"},
        {QJsonObject{{"type", "experiment_finished"}},
         "experiment_finished event: \"status\" is missing"},
    };
    for (const auto& c : cases) {
        const Status status = failureOf(c.event);
        QVERIFY2(!status.isOk(), qPrintable(c.message));
        QCOMPARE(status.message(), c.message);
    }
}

QTEST_GUILESS_MAIN(TestEventDecoders)
#include "test_event_decoders.moc"
