// A trial ends where its stop rule, its scheduler or the trial itself says: `done: true` from a
// Ray-style function trainable stops it, and `resume` after a kill -9 or Ctrl-C between the stop
// and the trial's exit never runs an iteration past the stop (issue 16.5, 16.6).
#include <signal.h>

#include <QDir>
#include <QFile>
#include <QtTest>

#include "engine_harness.h"

class TestStopRules : public QObject {
    Q_OBJECT
  private slots:
    void aFunctionTrialReportingDoneStops();
    void aFunctionTrialSayingDoneStops();
    void resumeAfterKillDoesNotRunPastTheStopRule();
    void resumeAfterInterruptDoesNotRunPastTheStopRule();
    void resumeAfterKillDoesNotRunPastAshaMaxT();
};

namespace {

// A Ray 2.x function trainable (trials/ray_function.py) that reports a checkpoint every epoch.
QString experiment(const QString& name, const QString& searchSpace, const QString& rest) {
    return QStringLiteral(
               "name: %1\ntrainable:\n  command: python3 %2\nsearch_space:\n%3\n"
               "num_samples: 1\nmetric: score\nmode: max\n%4")
        .arg(name, EngineHarness::trialScript("ray_function.py"), searchSpace, rest);
}

// The iterations recorded for the trial, as `export` shows them.
QList<int> iterationsOf(const EngineHarness& h, const QString& folder) {
    QList<int> seen;
    const QJsonArray exported = h.exportJson(folder);
    for (const QJsonValue& r : exported.at(0).toObject().value("results").toArray()) {
        seen << r.toObject().value("training_iteration").toInt();
    }
    return seen;
}

QList<int> oneTo(int n) {
    QList<int> list;
    for (int i = 1; i <= n; ++i) {
        list << i;
    }
    return list;
}

int startsOf(const QString& folder) {
    QFile log(folder + "/trials/t00000/trial.log");
    return log.open(QIODevice::ReadOnly) ? int(log.readAll().count("start epoch=")) : -1;
}

// Runs `yaml` until the trial has been told to stop at `iteration` and lingers on its way out,
// then kills the engine with `signal`; returns the engine's exit.
EngineResult stopWhileTheTrialExits(const EngineHarness& h, const QString& name,
                                    const QString& yaml, int iteration, int signal) {
    const QString folder = h.experimentFolder(name);
    std::unique_ptr<QProcess> engine = h.start({"run", h.writeFile(name + ".yaml", yaml)});
    const QString marker = folder + QStringLiteral("/trials/t00000/stopped-at-%1").arg(iteration);
    if (!EngineHarness::waitForFile(marker, 30000)) {
        qWarning("the trial was never stopped at %d", iteration);
    }
    QThread::msleep(400);  // the history's writer commits the checkpoint of that iteration
    ::kill(pid_t(engine->processId()), signal);
    return EngineHarness::finish(*engine, 30000);
}

}  // namespace

void TestStopRules::aFunctionTrialReportingDoneStops() {
    EngineHarness h;
    const EngineResult r = h.run(
        {"run", h.writeFile("done.yaml", experiment("done", "  done_at: 3\n  iterations: 8", {}))});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QString folder = h.experimentFolder("done");
    QCOMPARE(iterationsOf(h, folder), oneTo(3));
    QCOMPARE(EngineHarness::statuses(h.exportJson(folder)).value("t00000").toString(),
             QStringLiteral("TERMINATED"));
}

void TestStopRules::aFunctionTrialSayingDoneStops() {
    // tunedeck.done() is the protocol's `done`: a report after it is answered `stop`.
    EngineHarness h;
    const EngineResult r = h.run({"run", h.writeFile("said.yaml", experiment("said",
                                                                             "  done_call_at: 3\n"
                                                                             "  iterations: 8",
                                                                             {}))});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QCOMPARE(iterationsOf(h, h.experimentFolder("said")), oneTo(3));
}

void TestStopRules::resumeAfterKillDoesNotRunPastTheStopRule() {
    EngineHarness h;
    const QString yaml =
        experiment("stop", "  iterations: 20\n  linger_s: 20", "stop: {training_iteration: 5}\n");
    stopWhileTheTrialExits(h, "stop", yaml, 5, SIGKILL);
    const QString folder = h.experimentFolder("stop");
    const EngineResult resumed = h.run({"resume", folder, "--quiet"}, 60000);
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.all()));
    QCOMPARE(iterationsOf(h, folder), oneTo(5));
    QCOMPARE(EngineHarness::statuses(h.exportJson(folder)).value("t00000").toString(),
             QStringLiteral("TERMINATED"));
    QCOMPARE(startsOf(folder), 1);  // finished where it stood, not started again
    QCOMPARE(sqliteQuery(folder + "/experiment.sqlite", "SELECT MAX(iteration) FROM results"),
             QStringLiteral("5"));
}

void TestStopRules::resumeAfterInterruptDoesNotRunPastTheStopRule() {
    EngineHarness h;
    const QString yaml =
        experiment("stop", "  iterations: 20\n  linger_s: 3", "stop: {training_iteration: 5}\n");
    const EngineResult interrupted = stopWhileTheTrialExits(h, "stop", yaml, 5, SIGINT);
    QCOMPARE(interrupted.exitCode, 3);
    const QString folder = h.experimentFolder("stop");
    const EngineResult resumed = h.run({"resume", folder, "--quiet"}, 60000);
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.all()));
    QCOMPARE(iterationsOf(h, folder), oneTo(5));
    QCOMPARE(startsOf(folder), 1);
}

void TestStopRules::resumeAfterKillDoesNotRunPastAshaMaxT() {
    EngineHarness h;
    const QString yaml = experiment(
        "asha", "  iterations: 20\n  linger_s: 20",
        "scheduler: {type: asha, time_attr: training_iteration, max_t: 4, grace_period: 1}\n");
    stopWhileTheTrialExits(h, "asha", yaml, 4, SIGKILL);
    const QString folder = h.experimentFolder("asha");
    const EngineResult resumed = h.run({"resume", folder, "--quiet"}, 60000);
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.all()));
    QCOMPARE(iterationsOf(h, folder), oneTo(4));
    QCOMPARE(startsOf(folder), 1);
}

QTEST_GUILESS_MAIN(TestStopRules)
#include "test_stop_rules.moc"
