// num_samples and max_concurrent_trials of a running experiment (issue 18, as NNI allows):
// `tunedeck-engine set-limits` and the control API's set_limits, against a real serve, real
// trials and the real SQLite history. Raising num_samples runs more trials; lowering the
// concurrency holds new trials back until running ones end; bad requests name their field; a
// kill -9 and `resume` keep the new limits. Notes on trials (set_trial_note, `note`) are kept
// with the history of running and finished experiments, and `show` and `export` carry them.
#include <signal.h>

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>
#include <memory>

#include "engine_harness.h"
#include "serve_session.h"

class TestSetLimits : public QObject {
    Q_OBJECT
  private slots:
    void limitsOfARunningExperimentChange();
    void resumeAfterAKillKeepsTheNewLimits();
    void notesOnTrialsStayWithTheHistory();
};

namespace {

QString experimentYaml(int samples, int concurrent, int iterations, double sleep) {
    return QStringLiteral(
               "name: limits\n"
               "trainable: {command: [python3, '@TRIAL@']}\n"
               "resources_per_trial: {cpu: 0.5}\n"
               "search_space:\n"
               "  x: {uniform: [1, 2]}\n"
               "  iterations: %3\n"
               "  sleep: %4\n"
               "num_samples: %1\n"
               "max_concurrent_trials: %2\n"
               "metric: score\nmode: max\n")
        .arg(samples)
        .arg(concurrent)
        .arg(iterations)
        .arg(sleep);
}

bool waitFor(const std::function<bool()>& condition, int timeoutMs) {
    QElapsedTimer waited;
    waited.start();
    while (!condition()) {
        if (waited.elapsed() > timeoutMs) {
            return false;
        }
        QTest::qWait(100);
    }
    return true;
}

int count(const QString& db, const QString& sql) {
    return sqliteQuery(db, sql).toInt();
}

// Trials started after `since` (seconds since the epoch) that started while more than `limit`
// others ran, as "t00003 with 2 running".
QStringList startsOverLimit(const QString& db, double since, int limit) {
    const QString rows = sqliteQuery(
        db, QStringLiteral("SELECT group_concat(t.id || ':' || (SELECT COUNT(*) FROM trials o "
                           "WHERE o.id != t.id AND o.started_at > 0 AND o.started_at < "
                           "t.started_at AND (o.finished_at = 0 OR o.finished_at > t.started_at)), "
                           "' ') FROM trials t WHERE t.started_at > %1")
                .arg(since, 0, 'f', 3));
    QStringList over;
    for (const QString& row : rows.split(' ', Qt::SkipEmptyParts)) {
        const QStringList parts = row.split(':');
        if (parts.value(1).toInt() >= limit) {
            over << QStringLiteral("%1 with %2 running").arg(parts.value(0), parts.value(1));
        }
    }
    return over;
}

// The pid of the experiment serve runs (its only child).
pid_t childOf(pid_t parent) {
    QFile children(QStringLiteral("/proc/%1/task/%1/children").arg(parent));
    if (!children.open(QIODevice::ReadOnly)) {
        return 0;
    }
    return pid_t(children.readAll().trimmed().split(' ').value(0).toLongLong());
}

// serve on the harness's results root with one experiment file started there.
struct ServedExperiment {
    ServeProcess serve;
    std::unique_ptr<ServeClient> client;
    QString name;  // as serve names it
    QString folder;
    QString db;

    // Empty when the experiment runs, otherwise why not.
    QString start(const EngineHarness& h, const QString& file) {
        if (!serve.startOnLocalSocket(h)) {
            return QStringLiteral("serve did not start");
        }
        client = std::make_unique<ServeClient>(serve.address());
        if (!client->hello().value("ok").toBool()) {
            return QStringLiteral("no answer to hello");
        }
        const QJsonObject started = client->ask({{"op", "start"}, {"path", file}}, 30000);
        if (!started.value("ok").toBool()) {
            return QString::fromUtf8(QJsonDocument(started).toJson());
        }
        name = started.value("experiment").toString();
        folder = started.value("folder").toString();
        db = folder + "/experiment.sqlite";
        return {};
    }
};

}  // namespace

void TestSetLimits::limitsOfARunningExperimentChange() {
    EngineHarness h;
    const QString file = h.writeFile("limits.yaml", experimentYaml(3, 3, 4, 0.25));
    ServedExperiment run;
    const QString why = run.start(h, file);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    ServeProcess& serve = run.serve;
    ServeClient& client = *run.client;
    const QString& name = run.name;
    const QString& db = run.db;
    QVERIFY(waitFor([&] { return count(db, "SELECT COUNT(*) FROM trials") >= 2; }, 20000));

    // Each mistake is refused naming its field; the experiment runs on.
    const auto refusal = [&](QJsonObject request) {
        request.insert("op", "set_limits");
        request.insert("experiment", name);
        const QJsonObject answer = client.ask(request);
        return answer.value("ok").toBool(true)
                   ? QStringLiteral("accepted")
                   : answer.value("error").toObject().value("message").toString();
    };
    const QString neither = refusal({});
    QVERIFY2(neither.contains("num_samples") && neither.contains("max_concurrent_trials"),
             qPrintable(neither));
    for (const QJsonValue& bad :
         {QJsonValue(0), QJsonValue(-4), QJsonValue(2.5), QJsonValue("x")}) {
        const QString samples = refusal({{"num_samples", bad}});
        QVERIFY2(samples.contains("num_samples must be a whole number"), qPrintable(samples));
        const QString concurrent = refusal({{"max_concurrent_trials", bad}});
        QVERIFY2(concurrent.contains("max_concurrent_trials must be a whole number"),
                 qPrintable(concurrent));
    }
    const QString below = refusal({{"num_samples", 1}});
    QVERIFY2(below.contains("num_samples") && below.contains("trials already created"),
             qPrintable(below));

    // 5 samples, one at a time from now on: the CLI says so.
    const EngineResult changed = h.run({"set-limits", name, "--num-samples", "5",
                                        "--max-concurrent", "1", "--connect", serve.address()});
    QVERIFY2(changed.exitCode == 0, qPrintable(changed.all()));
    QCOMPARE(changed.out,
             QStringLiteral("%1: num_samples 5, max_concurrent_trials 1 from now on.\n").arg(name));
    QVERIFY(waitFor([&] { return sqliteQuery(db, "SELECT status FROM experiment") == "finished"; },
                    60000));
    QCOMPARE(count(db, "SELECT COUNT(*) FROM trials"), 5);
    QCOMPARE(count(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'"), 5);
    const double changedAt =
        sqliteQuery(db, "SELECT timestamp FROM events WHERE type = 'limits'").toDouble();
    QVERIFY(changedAt > 0);
    QVERIFY(count(db, QStringLiteral("SELECT COUNT(*) FROM trials WHERE started_at > %1")
                          .arg(changedAt, 0, 'f', 3)) >= 2);
    const QStringList over = startsOverLimit(db, changedAt, 1);
    QVERIFY2(over.isEmpty(), qPrintable(over.join(", ")));

    // An experiment that ended takes no new limits.
    const EngineResult late =
        h.run({"set-limits", name, "--num-samples", "9", "--connect", serve.address()});
    QCOMPARE(late.exitCode, 2);
    QVERIFY2(late.err.contains("is not running"), qPrintable(late.all()));
    // The CLI checks its own arguments before asking.
    const EngineResult none = h.run({"set-limits", name, "--connect", serve.address()});
    QCOMPARE(none.exitCode, 2);
    QVERIFY2(none.err.contains("--num-samples") && none.err.contains("--max-concurrent"),
             qPrintable(none.all()));
}

void TestSetLimits::resumeAfterAKillKeepsTheNewLimits() {
    EngineHarness h;
    const QString file = h.writeFile("limits.yaml", experimentYaml(2, 1, 6, 0.12));
    ServedExperiment run;
    const QString why = run.start(h, file);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    ServeProcess& serve = run.serve;
    ServeClient& client = *run.client;
    const QString& folder = run.folder;
    const QString& db = run.db;
    QVERIFY(waitFor([&] { return count(db, "SELECT COUNT(*) FROM results") > 0; }, 20000));
    const QJsonObject answer =
        client.ask({{"op", "set_limits"}, {"experiment", run.name}, {"num_samples", 4}});
    QVERIFY2(answer.value("ok").toBool(), qPrintable(QJsonDocument(answer).toJson()));
    QVERIFY(waitFor([&] { return count(db, "SELECT COUNT(*) FROM events WHERE type = 'limits'"); },
                    5000));
    const pid_t child = childOf(serve.pid());
    QVERIFY(child > 0);
    ::kill(child, SIGKILL);
    QVERIFY(waitFor([&] { return !QFile::exists(QStringLiteral("/proc/%1").arg(child)); }, 10000));

    // A note written while nothing runs it is kept through the resume.
    const EngineResult noted = h.run({"note", folder, "t00000", "killed here"});
    QVERIFY2(noted.exitCode == 0, qPrintable(noted.all()));
    const EngineResult resumed = h.run({"resume", folder, "--quiet"}, 60000);
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.all()));
    QVERIFY2(h.run({"show", folder}).out.contains("killed here"), "the note is gone");
    QVERIFY2(count(db, "SELECT COUNT(*) FROM trials") == 4, qPrintable(resumed.all()));
    QCOMPARE(count(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'"), 4);
    // max_concurrent_trials: 1 held throughout.
    const QStringList over = startsOverLimit(db, 0, 1);
    QVERIFY2(over.isEmpty(), qPrintable(over.join(", ")));
}

void TestSetLimits::notesOnTrialsStayWithTheHistory() {
    EngineHarness h;
    const QString file = h.writeFile("limits.yaml", experimentYaml(3, 3, 4, 0.3));
    ServedExperiment run;
    const QString why = run.start(h, file);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    ServeProcess& serve = run.serve;
    ServeClient& client = *run.client;
    const QString& name = run.name;
    const QString& folder = run.folder;
    const QString& db = run.db;
    QVERIFY(waitFor([&] { return count(db, "SELECT COUNT(*) FROM trials") >= 3; }, 20000));

    // While it runs: the note goes through the run, bad ones are refused saying why.
    const auto note = [&](const QString& trial, const QJsonValue& text) {
        QJsonObject request{{"op", "set_trial_note"}, {"experiment", name}, {"trial", trial}};
        if (!text.isUndefined()) {
            request.insert("note", text);
        }
        const QJsonObject answer = client.ask(request);
        return answer.value("ok").toBool(false)
                   ? QStringLiteral("ok")
                   : answer.value("error").toObject().value("message").toString();
    };
    QCOMPARE(note("t00000", "lr too high,\ndiverged at 3"), QStringLiteral("ok"));
    QVERIFY(sqliteQuery(db, "SELECT status FROM experiment") == "running");
    const QString escape = note("t00000", "\x1b[2J");
    QVERIFY2(escape.contains("character 1") && escape.contains("U+001B"), qPrintable(escape));
    const QString tooLong = note("t00000", QString(4001, 'x'));
    QVERIFY2(tooLong.contains("4001 characters") && tooLong.contains("4000"), qPrintable(tooLong));
    QVERIFY2(note("t00042", "x").contains("no trial 't00042'"), qPrintable(note("t00042", "x")));
    QVERIFY2(note("t00000", QJsonValue()).contains("\"note\""), "a note is required");
    // The folder is the running engine's: the CLI without a server says where to go.
    const EngineResult busy = h.run({"note", folder, "t00001", "x"});
    QCOMPARE(busy.exitCode, 2);
    QVERIFY2(busy.err.contains("in use") && busy.err.contains("--connect"), qPrintable(busy.all()));

    // Finished: through the server, and straight into the folder.
    QVERIFY(waitFor([&] { return sqliteQuery(db, "SELECT status FROM experiment") == "finished"; },
                    60000));
    const EngineResult served =
        h.run({"note", name, "t00001", "best so far", "--connect", serve.address()});
    QVERIFY2(served.exitCode == 0, qPrintable(served.all()));
    QCOMPARE(served.out, QStringLiteral("%1 t00001: note set.\n").arg(name));
    const EngineResult offline = h.run({"note", folder, "t00002", "rerun with seed 2"});
    QVERIFY2(offline.exitCode == 0, qPrintable(offline.all()));
    const EngineResult cleared = h.run({"note", folder, "t00000", ""});
    QVERIFY2(cleared.exitCode == 0 && cleared.out.contains("note removed"),
             qPrintable(cleared.all()));
    QCOMPARE(count(db, "SELECT COUNT(*) FROM events WHERE type = 'trial_note'"), 4);
    QVERIFY(client.ask({{"op", "list"}}).value("ok").toBool());  // serve answers on

    // What a user reads back: show's NOTE column, export's note column and field.
    const EngineResult shown = h.run({"show", folder});
    QVERIFY2(shown.exitCode == 0, qPrintable(shown.all()));
    QVERIFY2(shown.out.contains("NOTE") && shown.out.contains("best so far") &&
                 shown.out.contains("rerun with seed 2") && !shown.out.contains("lr too high"),
             qPrintable(shown.out));
    const EngineResult csv = h.run({"export", folder, "--format", "csv"});
    const QStringList lines = csv.out.split('\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.value(0).endsWith(",note"), qPrintable(lines.value(0)));
    int noted = 0;
    for (const QString& line : lines) {
        noted += line.startsWith("t00001,") && line.endsWith(",best so far") ? 1 : 0;
    }
    QCOMPARE(noted, 4);  // every result row of the trial
    const EngineResult json = h.run({"export", folder, "--format", "json"});
    const QJsonArray trials = QJsonDocument::fromJson(json.out.toUtf8()).array();
    QCOMPARE(trials.size(), 3);
    QCOMPARE(trials.at(2).toObject().value("note").toString(), QStringLiteral("rerun with seed 2"));
    QVERIFY(!trials.at(0).toObject().contains("note"));
}

QTEST_GUILESS_MAIN(TestSetLimits)
#include "test_set_limits.moc"
