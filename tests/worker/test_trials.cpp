// Trials and both SDKs through the worker: reports relayed, answers obeyed, checkpoints saved on
// request and restored, and the same scripts running by hand without any engine.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>

#include "worker_session.h"
#include "worker_test.h"

using namespace worker_test;

namespace {

QJsonObject metricsOf(const QJsonObject& event) {
    return event.value("msg").toObject().value("metrics").toObject();
}

// Like the engine: an empty scratch folder next to where the checkpoint will be committed.
QString makeScratch(const QString& target) {
    const QString scratch = target + QStringLiteral(".tmp");
    QDir().mkpath(scratch);
    return scratch;
}

}  // namespace

void WorkerTest::reportsAreRelayedAndAnswered() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t1 = QStringLiteral("t00001");
    worker.send(pythonStartOp(m_python, t1, QStringLiteral("function_trial.py"),
                              {{"steps", 10}, {"nan", true}}, path(t1)));
    const QJsonObject started = worker.waitForEvent(QStringLiteral("started"), t1);
    QVERIFY(started.value("pid").toInteger() > 0);

    const QJsonObject log = worker.waitForMessage(t1, QStringLiteral("log"));
    QCOMPARE(log.value("msg").toObject().value("message").toString(),
             QStringLiteral("starting at step 0"));

    QJsonObject report = worker.waitForMessage(t1, QStringLiteral("report"));
    QCOMPARE(metricsOf(report).value("step").toInt(), 1);
    QCOMPARE(metricsOf(report).value("loss").toDouble(), 1.0);
    QCOMPARE(metricsOf(report).value("bad").toString(), QStringLiteral("NaN"));
    QCOMPARE(metricsOf(report).value("huge").toString(), QStringLiteral("Infinity"));
    // get_iteration() counts the iterations done before this one.
    QCOMPARE(metricsOf(report).value("iteration_seen").toInt(), 0);
    // A report blocks until its answer: nothing more comes while the engine thinks.
    worker.pump(300);
    for (const QJsonObject& pending : worker.pendingEvents()) {
        QVERIFY2(pending.value("ev").toString() != QLatin1String("trial"),
                 "the trial went on without an answer");
    }
    worker.send(answerOp(t1, QStringLiteral("continue")));
    report = worker.waitForMessage(t1, QStringLiteral("report"));
    QCOMPARE(metricsOf(report).value("step").toInt(), 2);
    worker.send(answerOp(t1, QStringLiteral("continue")));
    report = worker.waitForMessage(t1, QStringLiteral("report"));
    QCOMPARE(metricsOf(report).value("step").toInt(), 3);
    worker.send(answerOp(t1, QStringLiteral("stop")));

    QVERIFY(!worker.waitForMessage(t1, QStringLiteral("done")).isEmpty());
    const QJsonObject exited = worker.waitForEvent(QStringLiteral("exited"), t1);
    QCOMPARE(exited.value("code").toInt(-1), 0);
    QVERIFY(exited.value("signal").isNull());
    // The stop applied exactly at iteration 3: no fourth report was written.
    QVERIFY(worker.waitForMessage(t1, QStringLiteral("report"), 0).isEmpty());
    QVERIFY(QFile::exists(path(t1 + QStringLiteral("/trial.log"))));
}

void WorkerTest::functionStyleSavesAndRestores() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t1 = QStringLiteral("t1");
    const QString target = path(QStringLiteral("exp/t1/checkpoint_000002"));
    const QString scratch = makeScratch(target);
    worker.send(
        pythonStartOp(m_python, t1, QStringLiteral("function_trial.py"), {{"steps", 4}}, path(t1)));
    QVERIFY(!worker.waitForMessage(t1, QStringLiteral("report")).isEmpty());
    worker.send(answerOp(t1, QStringLiteral("continue")));
    QCOMPARE(metricsOf(worker.waitForMessage(t1, QStringLiteral("report"))).value("step").toInt(),
             2);
    worker.send(answerOp(t1, QStringLiteral("save"), scratch));
    const QJsonObject saved = worker.waitForMessage(t1, QStringLiteral("checkpoint"));
    QCOMPARE(saved.value("msg").toObject().value("path").toString(), scratch);

    const QJsonObject manifest{{"experiment", "worker-test"}, {"trial", t1}, {"iteration", 2}};
    worker.send(commitOp(t1, scratch, target, manifest));
    const QJsonObject committed = worker.waitForEvent(QStringLiteral("committed"), t1);
    QVERIFY2(committed.value("ok").toBool(), qPrintable(committed.value("error").toString()));
    QCOMPARE(committed.value("to").toString(), target);
    QVERIFY(committed.value("error").isNull());
    worker.send(answerOp(t1, QStringLiteral("continue")));  // the answer to `checkpoint`
    QCOMPARE(metricsOf(worker.waitForMessage(t1, QStringLiteral("report"))).value("step").toInt(),
             3);
    worker.send(answerOp(t1, QStringLiteral("stop")));
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t1).value("code").toInt(-1), 0);

    QCOMPARE(QJsonDocument::fromJson(
                 readFile(target + QStringLiteral("/.tunedeck_checkpoint.json")).toUtf8())
                 .object(),
             manifest);
    QCOMPARE(QJsonDocument::fromJson(readFile(target + QStringLiteral("/state.json")).toUtf8())
                 .object()
                 .value("step")
                 .toInt(),
             2);
    QCOMPARE(QFileInfo(target + QStringLiteral("/weights/layer0.bin")).size(), 4096);
    QVERIFY(!QFileInfo::exists(scratch));

    // A new attempt resumes from the committed checkpoint.
    const QString t1b = QStringLiteral("t1-again");
    worker.send(pythonStartOp(m_python, t1b, QStringLiteral("function_trial.py"), {{"steps", 4}},
                              path(t1b), target, 2));
    QCOMPARE(worker.waitForMessage(t1b, QStringLiteral("log"))
                 .value("msg")
                 .toObject()
                 .value("message")
                 .toString(),
             QStringLiteral("starting at step 2"));
    QJsonObject metrics = metricsOf(worker.waitForMessage(t1b, QStringLiteral("report")));
    QCOMPARE(metrics.value("step").toInt(), 3);
    QCOMPARE(metrics.value("restored").toBool(), true);
    QCOMPARE(metrics.value("iteration_seen").toInt(), 2);  // TUNEDECK_ITERATION
    worker.send(answerOp(t1b, QStringLiteral("continue")));
    QCOMPARE(metricsOf(worker.waitForMessage(t1b, QStringLiteral("report"))).value("step").toInt(),
             4);
    worker.send(answerOp(t1b, QStringLiteral("continue")));
    // Its loop ends: the SDK says `done` for a script that returns normally.
    QVERIFY(!worker.waitForMessage(t1b, QStringLiteral("done")).isEmpty());
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t1b).value("code").toInt(-1), 0);
}

void WorkerTest::classStylePausesAndResumes() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t2 = QStringLiteral("t2");
    const QJsonObject config{{"increment", 5}, {"limit", 30}};
    const QString target = path(QStringLiteral("exp/t2/checkpoint_000002"));
    const QString scratch = makeScratch(target);
    worker.send(pythonStartOp(m_python, t2, QStringLiteral("class_trial.py"), config, path(t2)));
    QCOMPARE(metricsOf(worker.waitForMessage(t2, QStringLiteral("report"))).value("total").toInt(),
             5);
    worker.send(answerOp(t2, QStringLiteral("continue")));
    QCOMPARE(metricsOf(worker.waitForMessage(t2, QStringLiteral("report"))).value("total").toInt(),
             10);
    worker.send(answerOp(t2, QStringLiteral("pause"), scratch));
    QCOMPARE(worker.waitForMessage(t2, QStringLiteral("checkpoint"))
                 .value("msg")
                 .toObject()
                 .value("path")
                 .toString(),
             scratch);
    const QJsonObject exited = worker.waitForEvent(QStringLiteral("exited"), t2);
    QCOMPARE(exited.value("code").toInt(-1), 0);
    QVERIFY2(joinedTail(exited).contains(QStringLiteral("cleanup with total 10")),
             qPrintable(joinedTail(exited)));
    // Paused is not finished: no `done`.
    QVERIFY(worker.waitForMessage(t2, QStringLiteral("done"), 0).isEmpty());

    worker.send(commitOp(t2, scratch, target, {{"iteration", 2}}));
    QVERIFY(worker.waitForEvent(QStringLiteral("committed"), t2).value("ok").toBool());
    QCOMPARE(readFile(target + QStringLiteral("/total.txt")), QStringLiteral("10"));

    // Resumed, it counts on from 10 and finishes at its limit on its own.
    worker.send(
        pythonStartOp(m_python, t2, QStringLiteral("class_trial.py"), config, path(t2), target, 2));
    for (int expected : {15, 20, 25, 30}) {
        const QJsonObject metrics = metricsOf(worker.waitForMessage(t2, QStringLiteral("report")));
        QCOMPARE(metrics.value("total").toInt(), expected);
        QVERIFY(!metrics.contains("done"));
        worker.send(answerOp(t2, QStringLiteral("continue")));
    }
    QVERIFY(!worker.waitForMessage(t2, QStringLiteral("done")).isEmpty());
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t2).value("code").toInt(-1), 0);
}

void WorkerTest::saveWithoutSaveFunctionIsDeclined() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t3 = QStringLiteral("t3");
    const QString scratch = makeScratch(path(QStringLiteral("exp/t3/checkpoint_000001")));
    worker.send(pythonStartOp(m_python, t3, QStringLiteral("function_trial.py"),
                              {{"steps", 3}, {"save", false}}, path(t3)));
    QVERIFY(!worker.waitForMessage(t3, QStringLiteral("report")).isEmpty());
    worker.send(answerOp(t3, QStringLiteral("save"), scratch));
    const QJsonObject declined = worker.waitForMessage(t3, QStringLiteral("checkpoint"));
    QVERIFY(declined.value("msg").toObject().contains("path"));
    QVERIFY(declined.value("msg").toObject().value("path").isNull());
    worker.send(answerOp(t3, QStringLiteral("stop")));
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t3).value("code").toInt(-1), 0);
}

void WorkerTest::cppTrialRunsThroughTheWorker() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t4 = QStringLiteral("t4");
    const QJsonObject config{{"steps", 5}};
    const QString target = path(QStringLiteral("exp/t4/checkpoint_000002"));
    const QString scratch = makeScratch(target);
    worker.send(startOp(t4, {cppTrialPath()}, path(t4), trialEnv(t4, config, path(t4))));
    QCOMPARE(worker.waitForMessage(t4, QStringLiteral("log"))
                 .value("msg")
                 .toObject()
                 .value("message")
                 .toString(),
             QStringLiteral("cpp trial starts at step 0"));
    QJsonObject metrics = metricsOf(worker.waitForMessage(t4, QStringLiteral("report")));
    QCOMPARE(metrics.value("step").toInt(), 1);
    QCOMPARE(metrics.value("not_a_number").toString(), QStringLiteral("NaN"));
    QCOMPARE(metrics.value("iteration_seen").toInt(), 0);
    worker.send(answerOp(t4, QStringLiteral("continue")));
    QVERIFY(!worker.waitForMessage(t4, QStringLiteral("report")).isEmpty());
    worker.send(answerOp(t4, QStringLiteral("save"), scratch));
    QCOMPARE(worker.waitForMessage(t4, QStringLiteral("checkpoint"))
                 .value("msg")
                 .toObject()
                 .value("path")
                 .toString(),
             scratch);
    QCOMPARE(readFile(scratch + QStringLiteral("/step.txt")), QStringLiteral("2"));
    worker.send(commitOp(t4, scratch, target, {{"iteration", 2}}));
    QVERIFY(worker.waitForEvent(QStringLiteral("committed"), t4).value("ok").toBool());
    worker.send(answerOp(t4, QStringLiteral("continue")));
    QCOMPARE(metricsOf(worker.waitForMessage(t4, QStringLiteral("report"))).value("step").toInt(),
             3);
    worker.send(answerOp(t4, QStringLiteral("stop")));
    QVERIFY(!worker.waitForMessage(t4, QStringLiteral("done")).isEmpty());
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t4).value("code").toInt(-1), 0);

    // Restored from step 2, it runs to its 5 steps and says `done` from the destructor.
    worker.send(startOp(t4, {cppTrialPath()}, path(t4), trialEnv(t4, config, path(t4), target, 2)));
    for (int step : {3, 4, 5}) {
        metrics = metricsOf(worker.waitForMessage(t4, QStringLiteral("report")));
        QCOMPARE(metrics.value("step").toInt(), step);
        QCOMPARE(metrics.value("iteration_seen").toInt(), step - 1);
        worker.send(answerOp(t4, QStringLiteral("continue")));
    }
    QVERIFY(!worker.waitForMessage(t4, QStringLiteral("done")).isEmpty());
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t4).value("code").toInt(-1), 0);
}

// The C++ SDK's suggest(): the request reaches the engine's side as the trial wrote it, and the
// value answered is what the trial trains with (it asks twice and checks both agree).
void WorkerTest::cppTrialAsksForAParameterDefineByRun() {
    WorkerSession worker;
    QVERIFY(worker.waitForHello());
    const QString t5 = QStringLiteral("t5");
    const QJsonObject config{{"steps", 1}, {"ask", true}};
    worker.send(startOp(t5, {cppTrialPath()}, path(t5), trialEnv(t5, config, path(t5))));
    const QJsonObject value{{"op", "answer"},
                            {"trial", t5},
                            {"answer", QJsonObject{{"action", "value"}, {"value", 6}}}};
    for (int ask = 0; ask < 2; ++ask) {
        const QJsonObject asked =
            worker.waitForMessage(t5, QStringLiteral("suggest")).value("msg").toObject();
        QCOMPARE(asked.value("name").toString(), QStringLiteral("depth"));
        QCOMPARE(asked.value("distribution").toObject().value("type").toString(),
                 QStringLiteral("int"));
        QCOMPARE(asked.value("distribution").toObject().value("high").toInt(), 8);
        worker.send(value);
    }
    QCOMPARE(metricsOf(worker.waitForMessage(t5, QStringLiteral("report"))).value("depth").toInt(),
             6);
    worker.send(answerOp(t5, QStringLiteral("stop")));
    QCOMPARE(worker.waitForEvent(QStringLiteral("exited"), t5).value("code").toInt(-1), 0);
}

void WorkerTest::scriptsRunStandaloneWithoutTheEngine() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("TUNEDECK_CHANNEL"));
    env.insert(QStringLiteral("PYTHONPATH"),
               QStringLiteral(TUNEDECK_SOURCE_DIR "/engine/sdk/python"));

    struct Case {
        QStringList command;
        QString config;
        int reports;
    };
    const QList<Case> cases = {
        {{m_python, trialScript(QStringLiteral("function_trial.py"))}, "{\"steps\": 3}", 3},
        {{m_python, trialScript(QStringLiteral("class_trial.py"))}, "{\"limit\": 4}", 4},
        {{cppTrialPath()}, "{\"steps\": 2}", 2},
    };
    for (const Case& c : cases) {
        QProcess script;
        env.insert(QStringLiteral("TUNEDECK_CONFIG"), c.config);
        script.setProcessEnvironment(env);
        script.setWorkingDirectory(m_dir->path());
        script.start(c.command.first(), c.command.mid(1));
        QVERIFY(script.waitForFinished(30000));
        const QString output = QString::fromUtf8(script.readAllStandardOutput());
        QVERIFY2(script.exitStatus() == QProcess::NormalExit && script.exitCode() == 0,
                 qPrintable(c.command.last() + ": " + script.readAllStandardError()));
        QCOMPARE(output.count(QStringLiteral("tunedeck report: ")), c.reports);
    }
}
