// The control API with real parts: `tunedeck-engine serve` on a private local socket or on TCP
// with a token, the app's EngineClient, experiments run by the server as real engine processes
// with real trials, and their SQLite histories replayed to subscribers.
#include <sys/stat.h>

#include <QFile>
#include <QJsonDocument>
#include <QtTest>
#include <csignal>
#include <set>

#include "client/engine_client.h"
#include "engine_harness.h"
#include "serve_session.h"

using tunedeck::client::EngineClient;

namespace {

// What a subscriber saw of an experiment.
struct Watched {
    QMap<QString, int> results;
    QMap<QString, QString> status;
    QMap<QString, QString> reason;
    bool finished = false;

    void take(const QJsonObject& e) {
        const QString type = e.value("type").toString();
        const QString trial = e.value("trial").toString();
        if (type == QLatin1String("result")) {
            ++results[trial];
        } else if (type == QLatin1String("trial_status")) {
            status[trial] = e.value("status").toString();
            reason[trial] = e.value("reason").toString();
        } else if (type == QLatin1String("experiment_finished")) {
            finished = true;
        }
    }
};

class TestServe : public QObject {
    Q_OBJECT

  private:
    static QString socketPath(const EngineHarness& harness) {
        return ServeProcess::localSocketPath(harness);
    }

    // serve on a socket of the harness, and `client` connected to it.
    static bool startLocal(const EngineHarness& harness, ServeProcess* server, EngineClient* client,
                           int retryMs = 1000) {
        if (!server->startOnLocalSocket(harness)) {
            return false;
        }
        client->setLocalServer(socketPath(harness));
        client->open(retryMs);
        return true;
    }

    // Sends raw lines on a local socket and returns the answers, one per line sent.
    static QList<QJsonObject> exchange(const QString& path, const QList<QByteArray>& lines) {
        ServeClient client("unix:" + path);
        if (!client.connected()) {
            return {};
        }
        for (const QByteArray& line : lines) {
            client.send(line);
        }
        QList<QJsonObject> answers;
        QElapsedTimer clock;
        clock.start();
        while (answers.size() < lines.size()) {
            const QJsonObject answer = client.nextAnswer(int(20000 - clock.elapsed()));
            if (answer.isEmpty()) {
                break;
            }
            answers << answer;
        }
        return answers;
    }

    // Waits until `done` holds, running the event loop.
    template <typename Condition>
    static bool waitFor(Condition done, int timeoutMs) {
        QElapsedTimer clock;
        clock.start();
        while (!done() && clock.elapsed() < timeoutMs) {
            QTest::qWait(50);
        }
        return done();
    }

    // One request through the client, waited for.
    static QJsonObject ask(EngineClient& client, const QString& op, const QJsonObject& arguments) {
        QJsonObject answer;
        bool answered = false;
        client.request(op, arguments, [&](const QJsonObject& a) {
            answer = a;
            answered = true;
        });
        waitFor([&] { return answered; }, 30000);
        return answer;
    }

    static QString writeExperiment(const EngineHarness& harness, const QString& name,
                                   int iterations, double sleep, int samples) {
        return harness.writeFile(name + QStringLiteral(".yaml"),
                                 QStringLiteral("name: %1\n"
                                                "trainable: {command: [python3, \"@TRIAL@\"]}\n"
                                                "search_space:\n"
                                                "  x: {grid: [%2]}\n"
                                                "  iterations: %3\n"
                                                "  sleep: %4\n"
                                                "metric: score\n"
                                                "mode: max\n"
                                                "max_concurrent_trials: 2\n"
                                                "checkpoint: {frequency: 2}\n")
                                     .arg(name)
                                     .arg([samples] {
                                         QStringList values;
                                         for (int i = 1; i <= samples; ++i) {
                                             values << QString::number(i);
                                         }
                                         return values.join(", ");
                                     }())
                                     .arg(iterations)
                                     .arg(sleep));
    }

    // Starts a run of writeExperiment(...) through the client; its experiment name, or empty
    // (with the answer printed) when the server refused.
    static QString startRun(EngineClient& client, const EngineHarness& harness, const QString& name,
                            int iterations, double sleep, int samples) {
        const QJsonObject started =
            ask(client, "start",
                {{"path", writeExperiment(harness, name, iterations, sleep, samples)}});
        if (!started.value("ok").toBool()) {
            qWarning("start refused: %s", QJsonDocument(started).toJson().constData());
            return {};
        }
        return started.value("experiment").toString();
    }

  private slots:
    void malformedRequestsGetClearErrorsAndTheServerGoesOn();
    void localSocketIsPrivateToItsUser();
    void tcpNeedsTheToken();
    void validateNamesTheLineOfEachProblem();
    void clientRunsAnExperimentAndStopsOneTrial();
    void pausedTrialWaitsUntilResumed();
    void reconnectReplaysWhatWasMissed();
    void stoppingTheServerPausesItsExperiments();
};

void TestServe::malformedRequestsGetClearErrorsAndTheServerGoesOn() {
    EngineHarness harness;
    ServeProcess server;
    QVERIFY(server.startOnLocalSocket(harness));
    const QByteArray overlong(5 * 1024 * 1024, 'x');
    const QList<QJsonObject> answers = exchange(
        socketPath(harness),
        {"{\"id\": 1, \"op\": ", "[1, 2]", "{\"id\": 3}", "{\"id\": 4, \"op\": \"launch_rockets\"}",
         overlong, "{\"id\": 6, \"op\": \"subscribe\", \"experiment\": \"../x\"}",
         "{\"id\": 7, \"op\": \"hello\"}"});
    QCOMPARE(answers.size(), 7);
    auto message = [&](int i) {
        return answers[i].value("error").toObject().value("message").toString();
    };
    QVERIFY2(message(0).contains("request line 1, byte"), qPrintable(message(0)));
    QVERIFY2(message(1).contains("request line 2: not a JSON object"), qPrintable(message(1)));
    QVERIFY2(message(2).contains("\"op\""), qPrintable(message(2)));
    QCOMPARE(answers[2].value("id").toInt(), 3);
    QVERIFY2(message(3).contains("launch_rockets"), qPrintable(message(3)));
    QVERIFY2(message(4).contains("request line 5: longer than"), qPrintable(message(4)));
    QVERIFY2(message(5).contains("results root"), qPrintable(message(5)));
    QVERIFY(answers[6].value("ok").toBool());  // the same connection still works
    QCOMPARE(server.process().state(), QProcess::Running);
}

void TestServe::localSocketIsPrivateToItsUser() {
    EngineHarness harness;
    ServeProcess server;
    QVERIFY(server.startOnLocalSocket(harness));
    struct stat folder {};
    struct stat socket {};
    QCOMPARE(::stat(QFile::encodeName(harness.root() + "/run").constData(), &folder), 0);
    QCOMPARE(::stat(QFile::encodeName(socketPath(harness)).constData(), &socket), 0);
    QCOMPARE(folder.st_mode & 0777, 0700u);
    QCOMPARE(socket.st_mode & 0077, 0u);
    // A second server on the same socket is refused, and the first keeps it.
    const EngineResult second =
        harness.run({"serve", "--listen", "unix:" + socketPath(harness)}, 20000);
    QCOMPARE(second.exitCode, 2);
    QVERIFY2(second.err.contains("already listens"), qPrintable(second.err));
    QCOMPARE(exchange(socketPath(harness), {"{\"op\": \"hello\"}"}).value(0).value("ok"),
             QJsonValue(true));
}

void TestServe::tcpNeedsTheToken() {
    EngineHarness harness;
    // No token file: refused before listening.
    const EngineResult noToken = harness.run({"serve", "--listen", "tcp:127.0.0.1:0"}, 20000);
    QCOMPARE(noToken.exitCode, 2);
    QVERIFY2(noToken.err.contains("--token-file"), qPrintable(noToken.err));
    // A token file others can read: refused.
    const QString tokenFile = harness.writeFile("token", "s3cret-token\n");
    QFile::setPermissions(tokenFile, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther);
    const EngineResult readable =
        harness.run({"serve", "--listen", "tcp:127.0.0.1:0", "--token-file", tokenFile}, 20000);
    QCOMPARE(readable.exitCode, 2);
    QVERIFY2(readable.err.contains("chmod 600"), qPrintable(readable.err));
    QFile::setPermissions(tokenFile, QFile::ReadOwner | QFile::WriteOwner);

    ServeProcess server;
    QVERIFY(server.start(harness, {"--listen", "tcp:127.0.0.1:0", "--token-file", tokenFile}));
    const quint16 port = server.port();
    QVERIFY(port != 0);
    ServeClient raw(server.address());
    QVERIFY(raw.connected());
    const QJsonObject early = raw.askLine("{\"id\": 1, \"op\": \"list\"}");
    QCOMPARE(early.value("error").toObject().value("code").toString(),
             QStringLiteral("unauthorized"));
    const QJsonObject wrong = raw.askLine("{\"id\": 2, \"op\": \"hello\", \"token\": \"guess\"}");
    QCOMPARE(wrong.value("error").toObject().value("code").toString(),
             QStringLiteral("unauthorized"));
    const QJsonObject right =
        raw.askLine("{\"id\": 3, \"op\": \"hello\", \"token\": \"s3cret-token\"}");
    QVERIFY(right.value("ok").toBool());
    QVERIFY(raw.askLine("{\"id\": 4, \"op\": \"list\"}").value("ok").toBool());

    // The client does the same with its token.
    EngineClient client;
    client.setTcpServer(QStringLiteral("127.0.0.1"), port, QStringLiteral("s3cret-token"));
    client.open();
    QVERIFY(waitFor([&] { return client.isReady(); }, 10000));
}

void TestServe::validateNamesTheLineOfEachProblem() {
    EngineHarness harness;
    ServeProcess server;
    EngineClient client;
    QVERIFY(startLocal(harness, &server, &client));
    const QJsonObject bad = ask(client, "validate",
                                {{"yaml",
                                  "name: x\ntrainable: {command: [python3, t.py]}\nsearch_space:\n"
                                  "  lr: {loguniform: [0.1]}\n"},
                                 {"file_name", harness.root() + "/x.yaml"}});
    QVERIFY(bad.value("ok").toBool());
    QCOMPARE(bad.value("valid").toBool(), false);
    const QJsonObject problem = bad.value("errors").toArray().first().toObject();
    QCOMPARE(problem.value("line").toInt(), 4);
    QVERIFY2(problem.value("message").toString().contains("search_space.lr"),
             qPrintable(QJsonDocument(bad).toJson()));
    // The same problem as structure: its key apart from what is wrong, and that it is an error.
    QCOMPARE(problem.value("key").toString(), QStringLiteral("search_space.lr"));
    QCOMPARE(problem.value("severity").toString(), QStringLiteral("error"));
    QCOMPARE(problem.value("file").toString(), harness.root() + "/x.yaml");
    QVERIFY(!problem.value("problem").toString().isEmpty());
    const QJsonObject good =
        ask(client, "validate", {{"path", writeExperiment(harness, "ok", 3, 0, 2)}});
    QVERIFY2(good.value("valid").toBool(), qPrintable(QJsonDocument(good).toJson()));
    QCOMPARE(good.value("trials").toInt(), 2);
    // The editor's preview: the configs the run would start with, here the grid's two.
    const QJsonArray preview = good.value("preview").toArray();
    QCOMPARE(preview.size(), 2);
    QCOMPARE(preview.at(0).toObject().value("x").toInt(), 1);
    QCOMPARE(preview.at(1).toObject().value("x").toInt(), 2);
    // More GPUs than this machine has: refused before anything runs, naming the largest node.
    const QJsonObject greedy =
        ask(client, "validate",
            {{"yaml",
              "name: g\ntrainable: {command: [python3, t.py]}\nsearch_space:\n"
              "  lr: {uniform: [0, 1]}\nresources_per_trial: {cpu: 1, gpu: 64}\n"},
             {"file_name", harness.root() + "/g.yaml"}});
    QCOMPARE(greedy.value("valid").toBool(), false);
    QVERIFY2(
        greedy.value("errors").toArray().first().toObject().value("message").toString().contains(
            "the largest, 'local'"),
        qPrintable(QJsonDocument(greedy).toJson()));
    // Starting an invalid experiment is refused with the same message, and nothing runs.
    const QJsonObject refused = ask(client, "start", {{"yaml", "name: [\n"}});
    QCOMPARE(refused.value("error").toObject().value("code").toString(),
             QStringLiteral("invalid_spec"));
    const QJsonArray refusedProblems =
        refused.value("error").toObject().value("problems").toArray();
    QVERIFY2(!refusedProblems.isEmpty(), qPrintable(QJsonDocument(refused).toJson()));
    QVERIFY(refusedProblems.first().toObject().value("line").toInt() > 0);
}

void TestServe::clientRunsAnExperimentAndStopsOneTrial() {
    EngineHarness harness;
    ServeProcess server;
    EngineClient client;
    QVERIFY(startLocal(harness, &server, &client));
    const QString experiment = startRun(client, harness, "race", 40, 0.05, 3);
    QVERIFY(!experiment.isEmpty());
    QCOMPARE(experiment, QStringLiteral("race"));

    Watched watched;
    QString victim;
    connect(&client, &EngineClient::event, this, [&](const QString&, const QJsonObject& e) {
        watched.take(e);
        const QString trial = e.value("trial").toString();
        if (victim.isEmpty() && watched.results.value(trial) == 3) {
            victim = trial;
            client.request("stop_trial", {{"experiment", experiment}, {"trial", trial}});
        }
    });
    client.subscribe(experiment);
    QVERIFY(waitFor([&] { return watched.finished; }, 120000));
    QCOMPARE(watched.status.size(), 3);
    QVERIFY(!victim.isEmpty());
    QCOMPARE(watched.status[victim], QStringLiteral("TERMINATED"));
    QVERIFY2(watched.reason[victim].contains("stopped by the user"),
             qPrintable(watched.reason[victim]));
    QVERIFY2(watched.results[victim] < 10, qPrintable(QString::number(watched.results[victim])));
    for (const QString& trial : watched.status.keys()) {
        QCOMPARE(watched.status[trial], QStringLiteral("TERMINATED"));
        if (trial != victim) {
            QCOMPARE(watched.results[trial], 40);
        }
    }
    // The trial's own log (what it printed), in pieces from an offset, as the app follows it.
    const QJsonObject log =
        ask(client, "trial_log", {{"experiment", experiment}, {"trial", victim}});
    QVERIFY2(log.value("text").toString().contains("start iteration=0"),
             qPrintable(QJsonDocument(log).toJson()));
    QCOMPARE(log.value("offset").toInteger(), log.value("size").toInteger());
    const QJsonObject rest = ask(client, "trial_log",
                                 {{"experiment", experiment},
                                  {"trial", victim},
                                  {"offset", log.value("offset").toInteger()}});
    QVERIFY(rest.value("ok").toBool());
    QCOMPARE(rest.value("text").toString(), QString());
    const QJsonObject escape =
        ask(client, "trial_log", {{"experiment", experiment}, {"trial", "../../etc"}});
    QCOMPARE(escape.value("error").toObject().value("code").toString(),
             QStringLiteral("bad_request"));
    // Orders for unknown trials and experiments are answered, not dropped.
    const QJsonObject unknown =
        ask(client, "stop_trial", {{"experiment", "nothing-here"}, {"trial", "t00000"}});
    QCOMPARE(unknown.value("error").toObject().value("code").toString(),
             QStringLiteral("not_found"));
}

void TestServe::pausedTrialWaitsUntilResumed() {
    EngineHarness harness;
    ServeProcess server;
    EngineClient client;
    QVERIFY(startLocal(harness, &server, &client));
    const QString experiment = startRun(client, harness, "hold", 30, 0.05, 2);
    QVERIFY(!experiment.isEmpty());
    Watched watched;
    connect(&client, &EngineClient::event, this,
            [&](const QString&, const QJsonObject& e) { watched.take(e); });
    const auto& results = watched.results;
    const auto& status = watched.status;
    const bool& finished = watched.finished;
    client.subscribe(experiment);
    QVERIFY(waitFor([&] { return results.value("t00000") >= 3; }, 60000));
    QVERIFY(ask(client, "pause_trial", {{"experiment", experiment}, {"trial", "t00000"}})
                .value("ok")
                .toBool());
    QVERIFY(waitFor([&] { return status.value("t00000") == QLatin1String("PAUSED"); }, 30000));
    // The other trial finishes; the paused one stays paused and the experiment waits for it.
    QVERIFY(waitFor([&] { return status.value("t00001") == QLatin1String("TERMINATED"); }, 60000));
    const int heldAt = results.value("t00000");
    QTest::qWait(1500);
    QCOMPARE(status.value("t00000"), QStringLiteral("PAUSED"));
    QCOMPARE(results.value("t00000"), heldAt);
    QVERIFY(!finished);
    QVERIFY(ask(client, "resume_trial", {{"experiment", experiment}, {"trial", "t00000"}})
                .value("ok")
                .toBool());
    QVERIFY(waitFor([&] { return finished; }, 60000));
    QCOMPARE(status.value("t00000"), QStringLiteral("TERMINATED"));
    // It went on from its checkpoint: at most the iterations since it were reported twice.
    QVERIFY2(results.value("t00000") >= 30 && results.value("t00000") <= 32,
             qPrintable(QString::number(results.value("t00000"))));
}

void TestServe::reconnectReplaysWhatWasMissed() {
    EngineHarness harness;
    ServeProcess server;
    EngineClient client;
    QVERIFY(startLocal(harness, &server, &client, 200));
    const QString experiment = startRun(client, harness, "replay", 25, 0.04, 4);
    QVERIFY(!experiment.isEmpty());
    std::set<qint64> seen;
    int duplicates = 0;
    bool finished = false;
    connect(&client, &EngineClient::event, this, [&](const QString&, const QJsonObject& e) {
        const qint64 seq = qint64(e.value("seq").toDouble());
        duplicates += seen.count(seq) ? 1 : 0;
        seen.insert(seq);
        finished = finished || e.value("type").toString() == QLatin1String("experiment_finished");
    });
    client.subscribe(experiment);
    // Drop the connection twice while results stream; the client reconnects on its own.
    for (int i = 0; i < 2; ++i) {
        QVERIFY(waitFor([&] { return seen.size() > std::size_t(30 * (i + 1)); }, 60000));
        client.close();
        QTest::qWait(700);  // events keep coming meanwhile
        client.open(200);
    }
    QVERIFY(waitFor([&] { return finished; }, 120000));
    QCOMPARE(duplicates, 0);
    // Every sequence number the history holds arrived, none missing.
    EngineClient fresh;
    fresh.setLocalServer(socketPath(harness));
    fresh.open();
    std::set<qint64> all;
    bool caughtUp = false;
    connect(&fresh, &EngineClient::event, this, [&](const QString&, const QJsonObject& e) {
        all.insert(qint64(e.value("seq").toDouble()));
    });
    connect(&fresh, &EngineClient::caughtUp, this, [&] { caughtUp = true; });
    fresh.subscribe(experiment);
    QVERIFY(waitFor([&] { return caughtUp; }, 30000));
    QCOMPARE(seen.size(), all.size());
    QVERIFY(seen == all);
    QVERIFY(all.size() > 100);
}

void TestServe::stoppingTheServerPausesItsExperiments() {
    EngineHarness harness;
    ServeProcess server;
    EngineClient client;
    QVERIFY(startLocal(harness, &server, &client));
    const QString experiment = startRun(client, harness, "long", 200, 0.05, 2);
    QVERIFY(!experiment.isEmpty());
    int results = 0;
    connect(&client, &EngineClient::event, this, [&](const QString&, const QJsonObject& e) {
        results += e.value("type").toString() == QLatin1String("result") ? 1 : 0;
    });
    client.subscribe(experiment);
    QVERIFY(waitFor([&] { return results > 10; }, 60000));
    ::kill(server.pid(), SIGTERM);
    const EngineResult stopped = EngineHarness::finish(server.process(), 60000);
    QCOMPARE(stopped.exitCode, 0);
    const QString db = harness.experimentFolder("long") + "/experiment.sqlite";
    QCOMPARE(sqliteQuery(db, "SELECT status FROM experiment"), QStringLiteral("paused"));
    // A new server resumes it where it was.
    ServeProcess again;
    QVERIFY(again.startOnLocalSocket(harness));
    EngineClient second;
    second.setLocalServer(socketPath(harness));
    second.open();
    const QJsonObject resumed = ask(second, "resume", {{"experiment", "long"}});
    QVERIFY2(resumed.value("ok").toBool(), qPrintable(QJsonDocument(resumed).toJson()));
    QVERIFY(ask(second, "stop", {{"experiment", "long"}}).value("ok").toBool());
    QVERIFY(waitFor(
        [&] {
            return sqliteQuery(db, "SELECT status FROM experiment") == QLatin1String("finished");
        },
        60000));
}

}  // namespace

QTEST_GUILESS_MAIN(TestServe)
#include "test_serve.moc"
