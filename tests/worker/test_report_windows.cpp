// Report windows (PROTOCOL.md): a trial that asks for one sends up to that many reports before it
// waits, within what the engine grants; a stop reaches it late and ends it; a pause for an
// iteration it has trained past is declined. Both SDKs, through the real worker.
#include <QTest>

#include "worker_session.h"
#include "worker_test.h"

using namespace worker_test;

namespace {

int stepOf(const QJsonObject& event) {
    return event.value("msg").toObject().value("metrics").toObject().value("step").toInt();
}

QJsonObject withWindow(QJsonObject env, int granted) {
    env.insert("TUNEDECK_REPORT_WINDOW", QString::number(granted));
    return env;
}

// Starts `trial` (C++ or Python) asking for `asked` reports of window, `granted` by the engine
// (0: the variable is absent, as from an older engine).
void startWindowed(WorkerSession& worker, const QString& python, const QString& trial, bool cpp,
                   const QString& trialDir, int asked, int granted) {
    const QJsonObject config{{"steps", 20}, {"window", asked}};
    QJsonObject op =
        cpp ? startOp(trial, {cppTrialPath()}, trialDir, trialEnv(trial, config, trialDir))
            : pythonStartOp(python, trial, QStringLiteral("function_trial.py"), config, trialDir);
    if (granted > 0) {
        op.insert("env", withWindow(op.value("env").toObject(), granted));
    }
    worker.send(op);
}

// The steps of the reports that arrive, the first within `firstMs`, each next one within
// `gapMs` of the previous: a trial that holds its window stays silent past the gap.
QList<int> reportsWithin(WorkerSession& worker, const QString& trial, int firstMs = 15000,
                         int gapMs = 2000) {
    QList<int> steps;
    for (int wait = firstMs;; wait = gapMs) {
        const QJsonObject report = worker.waitForMessage(trial, QStringLiteral("report"), wait);
        if (report.isEmpty()) {
            return steps;
        }
        steps.append(stepOf(report));
    }
}

void windowHoldsAndALateStopEndsTheTrial(const QString& python, const QString& dir, bool cpp) {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("w1");
    startWindowed(worker, python, t, cpp, dir, 4, 1024);
    // Four reports without a single answer, then the trial waits.
    QCOMPARE(reportsWithin(worker, t), (QList<int>{1, 2, 3, 4}));
    // Two answers bring it down to half a window: two more reports, then it waits again.
    worker.send(answerOp(t, QStringLiteral("continue")));
    worker.send(answerOp(t, QStringLiteral("continue")));
    QCOMPARE(reportsWithin(worker, t), (QList<int>{5, 6}));
    // The answer to report 3 stops it: it says done and exits 0 without another report.
    worker.send(answerOp(t, QStringLiteral("stop")));
    QVERIFY(!worker.waitForMessage(t, QStringLiteral("done")).isEmpty());
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t).value("code").toInt(-1), 0);
    QCOMPARE(reportsWithin(worker, t, 0, 0), QList<int>());
}

void noGrantMeansEveryReportWaits(const QString& python, const QString& dir, bool cpp) {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("w2");
    startWindowed(worker, python, t, cpp, dir, 4, 0);
    QCOMPARE(reportsWithin(worker, t), (QList<int>{1}));
    worker.send(answerOp(t, QStringLiteral("continue")));
    QCOMPARE(reportsWithin(worker, t), (QList<int>{2}));
    worker.send(answerOp(t, QStringLiteral("stop")));
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t).value("code").toInt(-1), 0);
}

void pauseForAPassedIterationIsDeclined(const QString& python, const QString& dir, bool cpp,
                                        const QString& scratch) {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t = QStringLiteral("w3");
    startWindowed(worker, python, t, cpp, dir, 4, 1024);
    QCOMPARE(reportsWithin(worker, t), (QList<int>{1, 2, 3, 4}));
    worker.send(answerOp(t, QStringLiteral("pause"), scratch));
    const QJsonObject declined = worker.waitForMessage(t, QStringLiteral("checkpoint"));
    QVERIFY(declined.value("msg").toObject().contains("path"));
    QVERIFY(declined.value("msg").toObject().value("path").isNull());
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t).value("code").toInt(-1), 0);
    QVERIFY(worker.waitForMessage(t, QStringLiteral("done"), 0).isEmpty());  // paused: no done
}

}  // namespace

void WorkerTest::reportWindowHoldsAndALateStopEndsTheTrial() {
    windowHoldsAndALateStopEndsTheTrial(m_python, path("cpp"), true);
    windowHoldsAndALateStopEndsTheTrial(m_python, path("py"), false);
}

void WorkerTest::reportWindowNeedsTheEnginesGrant() {
    noGrantMeansEveryReportWaits(m_python, path("cpp"), true);
    noGrantMeansEveryReportWaits(m_python, path("py"), false);
}

void WorkerTest::pauseForAnIterationTheTrialPassedIsDeclined() {
    pauseForAPassedIterationIsDeclined(m_python, path("cpp"), true,
                                       path("exp/cpp/checkpoint_000001.tmp"));
    pauseForAPassedIterationIsDeclined(m_python, path("py"), false,
                                       path("exp/py/checkpoint_000001.tmp"));
}
