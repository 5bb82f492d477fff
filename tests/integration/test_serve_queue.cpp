// serve's fair queue with real parts: one `tunedeck-engine serve` sharing two CPUs between three
// experiments of three users, each a real engine process with real trials, judged from the
// experiments' SQLite histories (when each trial ran) and from `tunedeck-engine queue`.
#include <QJsonArray>
#include <QtTest>
#include <algorithm>
#include <map>

#include "engine_harness.h"
#include "serve_session.h"

namespace {

// When each trial of an experiment ran: [start, end) from its trial_status events.
struct Run {
    QString experiment;
    QString trial;
    double start = 0;
    double end = 0;
};

std::vector<Run> runsOf(const QString& folder, const QString& experiment) {
    const QString rows = sqliteQuery(
        folder + QStringLiteral("/experiment.sqlite"),
        QStringLiteral("SELECT group_concat(line, char(10)) FROM (SELECT trial_id || ' ' || "
                       "printf('%.3f', timestamp) || ' ' || json_extract(payload, '$.status') AS "
                       "line FROM events WHERE type = 'trial_status' ORDER BY seq)"));
    std::vector<Run> runs;
    std::map<QString, double> startedAt;
    for (const QString& row : rows.split('\n', Qt::SkipEmptyParts)) {
        const QStringList f = row.split(' ');
        if (f.size() != 3) {
            continue;
        }
        const double at = f[1].toDouble();
        const bool running = f[2] == QLatin1String("RUNNING");
        auto it = startedAt.find(f[0]);
        if (running && it == startedAt.end()) {
            startedAt[f[0]] = at;
        } else if (!running && it != startedAt.end()) {
            runs.push_back({experiment, f[0], it->second, at});
            startedAt.erase(it);
        }
    }
    return runs;
}

int runningAt(const std::vector<Run>& runs, double t, const QString& experiment = {}) {
    return int(std::count_if(runs.begin(), runs.end(), [&](const Run& r) {
        return r.start <= t && t < r.end && (experiment.isEmpty() || r.experiment == experiment);
    }));
}

QString experimentFile(const EngineHarness& harness, const QString& name, int samples) {
    QStringList values;
    for (int i = 1; i <= samples; ++i) {
        values << QString::number(i);
    }
    return harness.writeFile(name + QStringLiteral(".yaml"),
                             QStringLiteral("name: %1\n"
                                            "trainable: {command: [python3, \"@TRIAL@\"]}\n"
                                            "search_space:\n"
                                            "  x: {grid: [%2]}\n"
                                            "  iterations: 4\n"
                                            "  sleep: 0.15\n"
                                            "metric: score\n"
                                            "mode: max\n")
                                 .arg(name, values.join(", ")));
}

// serve on the harness's socket, its queue sharing two CPUs whatever this machine has.
bool startSharingTwoCpus(const EngineHarness& harness, ServeProcess& server) {
    return server.start(harness, {"--listen", "unix:" + ServeProcess::localSocketPath(harness),
                                  "--capacity", "cpu=2"});
}

}  // namespace

class TestServeQueue : public QObject {
    Q_OBJECT

  private slots:
    void threeUsersShareTwoCpusByPriorityAndFairShare();
    void badQueueArgumentsAreRefused();
};

// A (alice) and C (carol), priority 1, share the machine one CPU each once both run; B (bob),
// priority 3, started later, takes every slot that frees until it has nothing left to start;
// never more than two trials run at once; `queue` shows who waits and why.
void TestServeQueue::threeUsersShareTwoCpusByPriorityAndFairShare() {
    EngineHarness harness;
    ServeProcess server;
    QVERIFY(startSharingTwoCpus(harness, server));
    ServeClient client(server.address());
    QVERIFY(client.hello().value("ok").toBool());
    const auto start = [&](const QString& name, int samples, const QString& user, int priority) {
        const QJsonObject answer = client.ask({{"op", "start"},
                                               {"path", experimentFile(harness, name, samples)},
                                               {"user", user},
                                               {"priority", priority}},
                                              30000);
        return answer.value("ok").toBool() ? answer.value("folder").toString() : QString();
    };
    const auto queue = [&] { return client.ask({{"op", "queue"}}, 5000); };
    const auto rowOf = [](const QJsonObject& q, const QString& name) {
        for (const QJsonValue& v : q.value("experiments").toArray()) {
            if (v.toObject().value("experiment").toString() == name) {
                return v.toObject();
            }
        }
        return QJsonObject();
    };

    const QString folderA = start("low-a", 6, "alice", 1);
    const QString folderC = start("low-c", 6, "carol", 1);
    QVERIFY(!folderA.isEmpty() && !folderC.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(queue(), "low-a").value("running").toInt() +
                                     rowOf(queue(), "low-c").value("running").toInt() ==
                                 2,
                             20000);
    const QString folderB = start("high-b", 4, "bob", 3);
    QVERIFY(!folderB.isEmpty());

    // While B waits for its first slot or has more to start, the queue says so from outside.
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(queue(), "high-b").value("wanted").toInt() > 0, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(queue(), "low-a")
                                 .value("why")
                                 .toString()
                                 .contains("higher priority first: high-b (priority 3)"),
                             20000);
    const QJsonObject shown = queue();
    QCOMPARE(shown.value("capacity").toObject().value("cpu").toDouble(), 2.0);
    QCOMPARE(rowOf(shown, "high-b").value("user").toString(), QStringLiteral("bob"));
    QCOMPARE(rowOf(shown, "high-b").value("priority").toInt(), 3);
    QCOMPARE(rowOf(shown, "low-a").value("user").toString(), QStringLiteral("alice"));
    const EngineResult printed =
        harness.run({"queue", "--connect", "unix:" + ServeProcess::localSocketPath(harness)});
    QCOMPARE(printed.exitCode, 0);
    QVERIFY2(printed.out.contains("high-b") && printed.out.contains("bob") &&
                 printed.out.contains("In use:"),
             qPrintable(printed.out));

    QTRY_VERIFY_WITH_TIMEOUT(queue().value("experiments").toArray().isEmpty(), 60000);
    std::vector<Run> runs = runsOf(folderA, "a");
    for (const auto& more : {runsOf(folderB, "b"), runsOf(folderC, "c")}) {
        runs.insert(runs.end(), more.begin(), more.end());
    }
    QCOMPARE(runs.size(), std::size_t(16));

    // Never more than the two CPUs the queue shares.
    for (const Run& r : runs) {
        QVERIFY2(runningAt(runs, r.start) <= 2,
                 qPrintable(QStringLiteral("%1 trials ran at once when %2 of %3 started")
                                .arg(runningAt(runs, r.start))
                                .arg(r.trial, r.experiment)));
    }
    const auto startsOf = [&](const QString& experiment) {
        std::vector<double> starts;
        for (const Run& r : runs) {
            if (r.experiment == experiment) {
                starts.push_back(r.start);
            }
        }
        std::sort(starts.begin(), starts.end());
        return starts;
    };
    const std::vector<double> a = startsOf("a"), b = startsOf("b"), c = startsOf("c");
    // Priority: from B's first start to its last, no trial of A or C started.
    for (const Run& r : runs) {
        if (r.experiment != QLatin1String("b")) {
            QVERIFY2(r.start < b.front() || r.start > b.back(),
                     qPrintable(QStringLiteral("%1 of %2 started at %3, between B's first start "
                                               "(%4) and its last (%5)")
                                    .arg(r.trial, r.experiment)
                                    .arg(r.start, 0, 'f', 3)
                                    .arg(b.front(), 0, 'f', 3)
                                    .arg(b.back(), 0, 'f', 3)));
        }
    }
    // Fair share: once A and C both ran, neither started a second trial of its own beside one
    // already running while the other still had trials to start (B aside).
    const double bothRunning = std::max(a.front(), c.front());
    for (const Run& r : runs) {
        const QString other = r.experiment == QLatin1String("a") ? "c" : "a";
        const double othersLastStart = (other == QLatin1String("a") ? a : c).back();
        if (r.experiment == QLatin1String("b") || r.start <= bothRunning ||
            r.start >= othersLastStart || (r.start >= b.front() && r.start <= b.back())) {
            continue;
        }
        QVERIFY2(runningAt(runs, r.start, r.experiment) <= 1,
                 qPrintable(QStringLiteral("%1 of %2 started beside another of its own while the "
                                           "other experiment waited")
                                .arg(r.trial, r.experiment)));
    }
    double slotSecondsA = 0;
    double slotSecondsC = 0;
    for (const Run& r : runs) {
        (r.experiment == QLatin1String("a") ? slotSecondsA : slotSecondsC) +=
            r.experiment == QLatin1String("b") ? 0 : r.end - r.start;
    }
    qInfo("slot time: A %.2f s, C %.2f s; B ran from %.2f to %.2f s after A's first start",
          slotSecondsA, slotSecondsC, b.front() - a.front(), b.back() - a.front());
}

void TestServeQueue::badQueueArgumentsAreRefused() {
    EngineHarness harness;
    ServeProcess server;
    QVERIFY(startSharingTwoCpus(harness, server));
    ServeClient client(server.address());
    QVERIFY(client.hello().value("ok").toBool());
    const QString file = experimentFile(harness, "refused", 1);
    const QJsonObject tooHigh =
        client.ask({{"op", "start"}, {"path", file}, {"priority", 1e300}}, 10000);
    QVERIFY(!tooHigh.value("ok").toBool());
    QVERIFY(tooHigh.value("error").toObject().value("message").toString().contains(
        "\"priority\" must be a whole number from -1000 to 1000"));
    const QJsonObject badUser =
        client.ask({{"op", "start"}, {"path", file}, {"user", "a b\u0007"}}, 10000);
    QVERIFY(badUser.value("error").toObject().value("message").toString().contains("\"user\""));
    // The server goes on: the queue answers, empty.
    QVERIFY(client.ask({{"op", "queue"}}).value("experiments").toArray().isEmpty());
    // serve refuses a capacity or quota it cannot read, naming it.
    const EngineResult capacity = harness.run(
        {"serve", "--listen", "unix:" + harness.root() + "/other.sock", "--capacity", "cpu=two"});
    QCOMPARE(capacity.exitCode, 2);
    QVERIFY2(capacity.err.contains("--capacity 'cpu=two'"), qPrintable(capacity.err));
    const EngineResult quota = harness.run(
        {"serve", "--listen", "unix:" + harness.root() + "/other.sock", "--quota", "alice"});
    QCOMPARE(quota.exitCode, 2);
    QVERIFY2(quota.err.contains("--quota alice: expected USER=cpu:N"), qPrintable(quota.err));
}

QTEST_GUILESS_MAIN(TestServeQueue)
#include "test_serve_queue.moc"
