// How a trial's command line and environment are built from the template and its config.
#include <QtTest>

#include "core/checkpoint_policy.h"
#include "runtime/trial_command.h"

using namespace tunedeck;

class TestTrialCommand : public QObject {
    Q_OBJECT
  private slots:
    void placeholdersBecomeOneArgumentEach();
    void valuesAreWrittenAsUsersExpect();
    void aMissingParameterIsNamed();
    void theEnvironmentCarriesTheTrialAndPutsTheSdkFirst();
};

void TestTrialCommand::placeholdersBecomeOneArgumentEach() {
    const QJsonObject config{{"word", "a b; rm -rf /"}, {"model", QJsonObject{{"depth", 3}}}};
    QString out;
    QVERIFY(expandPlaceholders("--name={word}", config, &out));
    QCOMPARE(out, QStringLiteral("--name=a b; rm -rf /"));
    QVERIFY(expandPlaceholders("{model.depth}x{{literal}}", config, &out));
    QCOMPARE(out, QStringLiteral("3x{literal}"));
    QCOMPARE(placeholdersIn({"train", "--lr", "{lr}", "{model.depth}-{{x}}"}),
             (QStringList{"lr", "model.depth"}));
}

void TestTrialCommand::valuesAreWrittenAsUsersExpect() {
    QCOMPARE(formatConfigValue(QJsonValue(64)), QStringLiteral("64"));
    QCOMPARE(formatConfigValue(QJsonValue(0.1)), QStringLiteral("0.1"));
    QCOMPARE(formatConfigValue(QJsonValue(1e-5)), QStringLiteral("1e-05"));
    QCOMPARE(formatConfigValue(QJsonValue(true)), QStringLiteral("true"));
    QCOMPARE(formatConfigValue(QJsonArray{1, 2}), QStringLiteral("[1,2]"));
}

void TestTrialCommand::aMissingParameterIsNamed() {
    QString out;
    const Status s = expandPlaceholders("--lr={learning_rate}", QJsonObject{{"lr", 1}}, &out);
    QVERIFY(!s);
    QVERIFY2(s.message().contains("{learning_rate}"), qPrintable(s.message()));
    QVERIFY(!expandPlaceholders("--lr={lr", QJsonObject{{"lr", 1}}, &out));
}

void TestTrialCommand::theEnvironmentCarriesTheTrialAndPutsTheSdkFirst() {
    ExperimentSpec spec;
    spec.trainable.command = {"python3", "train.py", "--lr", "{lr}"};
    spec.trainable.workingDir = "/work";
    spec.trainable.env = {{"OMP_NUM_THREADS", "1"}};
    Trial trial;
    trial.id = "t00007";
    trial.config = QJsonObject{{"lr", 0.5}};
    TrialLaunchContext context;
    context.experimentName = "demo";
    context.trialDir = "/r/demo/trials/t00007";
    context.restoreDir = "/r/demo/trials/t00007/checkpoints/checkpoint_000005";
    context.iteration = 5;
    context.pythonSdkDir = "/opt/tunedeck/share/tunedeck/sdk/python";
    context.inheritedPythonPath = "/home/me/lib";
    TrialLaunch launch;
    QVERIFY(buildTrialLaunch(spec, trial, context, &launch));
    QCOMPARE(launch.argv, (QStringList{"python3", "train.py", "--lr", "0.5"}));
    QCOMPARE(launch.cwd, QStringLiteral("/work"));
    QCOMPARE(launch.env.value("TUNEDECK_TRIAL_ID"), QStringLiteral("t00007"));
    QCOMPARE(launch.env.value("TUNEDECK_CONFIG"), QStringLiteral("{\"lr\":0.5}"));
    QCOMPARE(launch.env.value("TUNEDECK_RESTORE"), context.restoreDir);
    QCOMPARE(launch.env.value("TUNEDECK_ITERATION"), QStringLiteral("5"));
    QCOMPARE(launch.env.value("OMP_NUM_THREADS"), QStringLiteral("1"));
    // fifo without checkpoints asked: the engine grants a report window (PROTOCOL.md).
    QCOMPARE(launch.env.value("TUNEDECK_REPORT_WINDOW"), QString::number(kMaxReportWindow));
    QCOMPARE(launch.env.value("PYTHONPATH"),
             QStringLiteral("/opt/tunedeck/share/tunedeck/sdk/python:/home/me/lib"));
}

QTEST_GUILESS_MAIN(TestTrialCommand)
#include "test_trial_command.moc"
