// Issue 33.5: a shared engine knows who is asking. Two users made by the test (useradd, as
// root) reach one real `serve` as the system service would run it (root, a socket shared with
// their group, and TCP with a token per user): each is known by the kernel's word for their uid
// or by their own token, neither can stop, read or delete the other's experiment, and each one's
// trials run as that user (the trial reports os.getuid()).
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>
#include <memory>

#include "engine_harness.h"
#include "serve_session.h"

namespace {

struct Account {
    QString name;
    uid_t uid = 0;
    gid_t gid = 0;
};

bool runTool(const QString& program, const QStringList& arguments) {
    QProcess tool;
    tool.start(program, arguments);
    return tool.waitForFinished(30000) && tool.exitStatus() == QProcess::NormalExit &&
           tool.exitCode() == 0;
}

// Connects to `address` as `who`: the kernel records the connecting process's effective uid for
// SO_PEERCRED, so the test takes the user's ids for the connect only.
std::unique_ptr<ServeClient> connectAs(const Account& who, const QString& address) {
    if (::setegid(who.gid) != 0 || ::seteuid(who.uid) != 0) {
        qFatal("cannot take the ids of %s", qPrintable(who.name));
    }
    auto client = std::make_unique<ServeClient>(address);
    if (::seteuid(0) != 0 || ::setegid(0) != 0) {
        qFatal("cannot become root again");
    }
    return client;
}

// A trial that reports the uid and gid it runs as, then keeps reporting for `iterations` steps.
constexpr char kTrial[] =
    "import os, time\n"
    "import tunedeck\n"
    "config = tunedeck.get_config()\n"
    "for step in range(int(config['iterations'])):\n"
    "    tunedeck.report({'uid': os.getuid(), 'gid': os.getgid(), 'step': step})\n"
    "    time.sleep(float(config['sleep']))\n";

QString experimentText(const EngineHarness& harness, const QString& name, int iterations,
                       double sleep) {
    return QStringLiteral(
               "name: %1\n"
               "trainable: {command: [python3, \"%2\"]}\n"
               "search_space:\n"
               "  iterations: %3\n"
               "  sleep: %4\n"
               "metric: step\n"
               "mode: max\n"
               "num_samples: 1\n")
        .arg(name, harness.root() + "/uid_trial.py")
        .arg(iterations)
        .arg(sleep);
}

QString errorCode(const QJsonObject& answer) {
    return answer.value("error").toObject().value("code").toString();
}

bool lists(ServeClient& client, const QString& experiment) {
    for (const QJsonValue& e : client.ask({{"op", "list"}}).value("experiments").toArray()) {
        if (e.toObject().value("experiment").toString() == experiment) {
            return true;
        }
    }
    return false;
}

bool served(ServeClient& client, const QString& experiment) {
    for (const QJsonValue& e : client.ask({{"op", "list"}}).value("experiments").toArray()) {
        if (e.toObject().value("experiment").toString() == experiment) {
            return e.toObject().value("served").toBool();
        }
    }
    return false;
}

// The uids the experiment's trials reported, from `export` as the client asked for it.
QSet<qint64> reportedUids(ServeClient& client, const QString& experiment) {
    const QJsonObject answer =
        client.ask({{"op", "export"}, {"experiment", experiment}, {"format", "json"}}, 30000);
    QSet<qint64> uids;
    for (const QJsonValue& trial :
         QJsonDocument::fromJson(answer.value("text").toString().toUtf8()).array()) {
        for (const QJsonValue& result : trial.toObject().value("results").toArray()) {
            uids.insert(qint64(result.toObject().value("uid").toDouble(-1)));
        }
    }
    return uids;
}

}  // namespace

class TestServeUsers : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void cleanupTestCase();
    void oneUserCannotStopReadOrDeleteAnothersExperimentOnASharedSocket();
    void aTokenPerUserMakesTheConnectionThatUser();
    void aPbtRunUnderARootEngineSavesAsItsOwner();

  private:
    // The harness's folder as a service's would be: other users may pass through it.
    static void openToTrials(const EngineHarness& harness);

    QString group_;
    Account alice_;
    Account bob_;
    bool made_ = false;
};

void TestServeUsers::initTestCase() {
    if (::geteuid() != 0) {
        QSKIP(
            "needs root: the test makes two users with useradd and runs serve as the system "
            "service does (run the integration tests as root to include it)");
    }
    const QString suffix = QString::number(::getpid());
    group_ = "tdlab" + suffix;
    alice_.name = "tdalice" + suffix;
    bob_.name = "tdbob" + suffix;
    QVERIFY(runTool("groupadd", {group_}));
    made_ = true;
    for (Account* a : {&alice_, &bob_}) {
        QVERIFY2(runTool("useradd", {"-M", "-g", group_, "-s", "/bin/sh", a->name}),
                 qPrintable(a->name));
        const passwd* entry = ::getpwnam(a->name.toUtf8().constData());
        QVERIFY(entry != nullptr);
        a->uid = entry->pw_uid;
        a->gid = entry->pw_gid;
    }
}

void TestServeUsers::cleanupTestCase() {
    if (made_) {
        runTool("userdel", {alice_.name});
        runTool("userdel", {bob_.name});
        runTool("groupdel", {group_});
    }
}

void TestServeUsers::openToTrials(const EngineHarness& harness) {
    QVERIFY(::chmod(harness.root().toUtf8().constData(), 0755) == 0);
    harness.writeFile("uid_trial.py", QString::fromLatin1(kTrial));
}

void TestServeUsers::oneUserCannotStopReadOrDeleteAnothersExperimentOnASharedSocket() {
    EngineHarness harness;
    openToTrials(harness);
    ServeProcess server;
    QVERIFY(server.start(harness, {"--listen", "unix:" + ServeProcess::localSocketPath(harness),
                                   "--socket-group", group_, "--capacity", "cpu=4"}));
    const std::unique_ptr<ServeClient> alice = connectAs(alice_, server.address());
    const std::unique_ptr<ServeClient> bob = connectAs(bob_, server.address());
    QVERIFY(alice->connected() && bob->connected());
    QVERIFY(alice->hello().value("ok").toBool());
    QVERIFY(bob->hello().value("ok").toBool());

    const QJsonObject startedA = alice->ask({{"op", "start"},
                                             {"yaml", experimentText(harness, "users-a", 200, 0.1)},
                                             {"file_name", harness.root() + "/a.yaml"}},
                                            60000);
    QVERIFY2(startedA.value("ok").toBool(), QJsonDocument(startedA).toJson().constData());
    const QString a = startedA.value("experiment").toString();
    const QJsonObject startedB = bob->ask({{"op", "start"},
                                           {"yaml", experimentText(harness, "users-b", 2, 0)},
                                           {"file_name", harness.root() + "/b.yaml"}},
                                          60000);
    QVERIFY2(startedB.value("ok").toBool(), QJsonDocument(startedB).toJson().constData());
    const QString b = startedB.value("experiment").toString();

    // Bob can neither steer nor read nor delete Alice's experiment, and is told why.
    for (const QJsonObject& request :
         {QJsonObject{{"op", "stop"}, {"experiment", a}},
          QJsonObject{{"op", "pause"}, {"experiment", a}},
          QJsonObject{{"op", "stop_trial"}, {"experiment", a}, {"trial", "t00000"}},
          QJsonObject{{"op", "set_trial_note"},
                      {"experiment", a},
                      {"trial", "t00000"},
                      {"note", "mine now"}},
          QJsonObject{{"op", "trial_log"}, {"experiment", a}, {"trial", "t00000"}},
          QJsonObject{{"op", "subscribe"}, {"experiment", a}},
          QJsonObject{{"op", "export"}, {"experiment", a}, {"format", "json"}},
          QJsonObject{{"op", "best"}, {"experiment", a}},
          QJsonObject{{"op", "delete"}, {"experiment", a}},
          QJsonObject{{"op", "resume"}, {"experiment", a}}}) {
        const QJsonObject refused = bob->ask(request, 10000);
        QVERIFY2(errorCode(refused) == "forbidden", QJsonDocument(refused).toJson().constData());
        QVERIFY2(
            refused.value("error").toObject().value("message").toString().contains("is not yours"),
            QJsonDocument(refused).toJson().constData());
    }
    QVERIFY(!lists(*bob, a));
    QVERIFY(lists(*alice, a));
    // Nor can he start as her: "user" is no longer his to choose.
    const QJsonObject asAlice = bob->ask({{"op", "start"},
                                          {"yaml", experimentText(harness, "fake", 1, 0)},
                                          {"file_name", harness.root() + "/f.yaml"},
                                          {"user", alice_.name}});
    QCOMPARE(errorCode(asAlice), QStringLiteral("forbidden"));
    // The queue shows both places, named by their real users, and no config.
    const QJsonObject queue = bob->ask({{"op", "queue"}});
    QVERIFY2(QJsonDocument(queue).toJson().contains(alice_.name.toUtf8()),
             QJsonDocument(queue).toJson().constData());
    QVERIFY(!QJsonDocument(queue).toJson().contains("uid_trial.py"));
    // On disk, Alice's folder is hers and closed to Bob.
    struct stat folder {};
    QVERIFY(::stat((harness.resultsRoot() + '/' + a).toUtf8().constData(), &folder) == 0);
    QCOMPARE(folder.st_uid, alice_.uid);
    QCOMPARE(int(folder.st_mode & 0777), 0700);

    // Alice's trial still runs (Bob's stop did nothing); she stops it herself.
    QVERIFY(served(*alice, a));
    const QJsonObject stopped = alice->ask({{"op", "stop"}, {"experiment", a}}, 10000);
    QVERIFY2(stopped.value("ok").toBool(), QJsonDocument(stopped).toJson().constData());
    QTRY_VERIFY_WITH_TIMEOUT(!served(*alice, a), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!served(*bob, b), 60000);

    // Each one's trials ran as that user.
    QCOMPARE(reportedUids(*alice, a), QSet<qint64>{qint64(alice_.uid)});
    QCOMPARE(reportedUids(*bob, b), QSet<qint64>{qint64(bob_.uid)});
    const QJsonObject log =
        alice->ask({{"op", "trial_log"}, {"experiment", a}, {"trial", "t00000"}});
    QVERIFY2(log.value("ok").toBool(), QJsonDocument(log).toJson().constData());

    // Bob cannot delete her stopped experiment either; she can.
    QCOMPARE(errorCode(bob->ask({{"op", "delete"}, {"experiment", a}})),
             QStringLiteral("forbidden"));
    QVERIFY(QFileInfo::exists(harness.resultsRoot() + '/' + a + "/experiment.sqlite"));
    const QJsonObject deleted = alice->ask({{"op", "delete"}, {"experiment", a}});
    QVERIFY2(deleted.value("ok").toBool(), QJsonDocument(deleted).toJson().constData());
    QVERIFY(!QFileInfo::exists(harness.resultsRoot() + '/' + a));
    QVERIFY(lists(*bob, b));
}

void TestServeUsers::aTokenPerUserMakesTheConnectionThatUser() {
    EngineHarness harness;
    openToTrials(harness);
    const QString tokens = harness.root() + "/tokens";
    QVERIFY(QDir().mkpath(tokens));
    QVERIFY(::chmod(tokens.toUtf8().constData(), 0700) == 0);
    for (const auto& [user, token] : {std::pair{alice_.name, QStringLiteral("alice-token-1")},
                                      std::pair{bob_.name, QStringLiteral("bob-token-2")}}) {
        QFile file(tokens + '/' + user);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(token.toUtf8() + '\n');
        file.close();
        QVERIFY(file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    }
    ServeProcess server;
    QVERIFY(server.start(
        harness, {"--listen", "tcp:127.0.0.1:0", "--token-dir", tokens, "--capacity", "cpu=4"}));
    ServeClient alice(server.address());
    ServeClient bob(server.address());
    ServeClient stranger(server.address());
    QVERIFY(alice.hello("alice-token-1").value("ok").toBool());
    QVERIFY(bob.hello("bob-token-2").value("ok").toBool());
    QCOMPARE(errorCode(stranger.hello("alice-token-")), QStringLiteral("unauthorized"));

    const QJsonObject started = alice.ask({{"op", "start"},
                                           {"yaml", experimentText(harness, "tok-a", 2, 0)},
                                           {"file_name", harness.root() + "/a.yaml"}},
                                          60000);
    QVERIFY2(started.value("ok").toBool(), QJsonDocument(started).toJson().constData());
    const QString a = started.value("experiment").toString();
    QTRY_VERIFY_WITH_TIMEOUT(!served(alice, a), 60000);
    QCOMPARE(errorCode(bob.ask({{"op", "export"}, {"experiment", a}})),
             QStringLiteral("forbidden"));
    QVERIFY(!lists(bob, a));
    QCOMPARE(reportedUids(alice, a), QSet<qint64>{qint64(alice_.uid)});
}

// Issue 33: under the system service (root), a save the engine asks for (PBT's perturbations,
// a pause) goes into a folder the agent makes first; the agent made it as root, so the trial,
// running as its owner, could not write there: every PBT trial died with PermissionError. The
// agent and the engine now do their checkpoint work in the owner's folders with the owner's
// file-system identity: the run finishes, exploits copy checkpoints, and every file is hers.
void TestServeUsers::aPbtRunUnderARootEngineSavesAsItsOwner() {
    EngineHarness harness;
    openToTrials(harness);
    ServeProcess server;
    QVERIFY(server.start(harness, {"--listen", "unix:" + ServeProcess::localSocketPath(harness),
                                   "--socket-group", group_, "--capacity", "cpu=4"}));
    const std::unique_ptr<ServeClient> alice = connectAs(alice_, server.address());
    QVERIFY(alice->hello().value("ok").toBool());
    const QString yaml = QStringLiteral(R"(name: pbt-owner
trainable:
  command: [python3, "%1"]
search_space:
  x: {uniform: [1, 2]}
  iterations: 100
  sleep: 0.02
num_samples: 4
metric: score
mode: max
scheduler:
  type: pbt
  time_attr: training_iteration
  perturbation_interval: 3
  hyperparam_mutations:
    x: {uniform: [1, 2]}
stop: {training_iteration: 12}
max_concurrent_trials: 2
seed: 5
)")
                             .arg(EngineHarness::trialScript("behaviour.py"));
    const QJsonObject started = alice->ask(
        {{"op", "start"}, {"yaml", yaml}, {"file_name", harness.root() + "/pbt.yaml"}}, 60000);
    QVERIFY2(started.value("ok").toBool(), QJsonDocument(started).toJson().constData());
    const QString name = started.value("experiment").toString();
    QTRY_VERIFY_WITH_TIMEOUT(served(*alice, name), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!served(*alice, name), 120000);
    const QString folder = harness.resultsRoot() + '/' + name;
    QVERIFY2(
        sqliteQuery(folder + "/experiment.sqlite", "SELECT COUNT(*) FROM exploits").toInt() > 0,
        qPrintable(
            "no exploit happened: " +
            sqliteQuery(folder + "/experiment.sqlite",
                        "SELECT substr(error_message, -700) FROM trials WHERE id = 't00000'")));

    QStringList notHers;
    int files = 0;
    QDirIterator it(folder + "/trials", QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (!path.contains("/checkpoints/")) {
            continue;
        }
        struct stat info {};
        QVERIFY(::lstat(path.toUtf8().constData(), &info) == 0);
        ++files;
        if (info.st_uid != alice_.uid) {
            notHers << QStringLiteral("%1 (uid %2)").arg(path).arg(info.st_uid);
        }
    }
    QVERIFY2(files > 0, "no checkpoint files");
    // The engine's own copies are there (their manifests name where they came from).
    int copies = 0;
    QDirIterator manifests(folder + "/trials", {".tunedeck_checkpoint.json"},
                           QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (manifests.hasNext()) {
        QFile manifest(manifests.next());
        copies += manifest.open(QIODevice::ReadOnly) && manifest.readAll().contains("copied_from");
    }
    QVERIFY2(copies > 0, "no checkpoint was copied by the engine");
    QVERIFY2(notHers.isEmpty(), qPrintable(notHers.join('\n')));
}

QTEST_GUILESS_MAIN(TestServeUsers)
#include "test_serve_users.moc"
