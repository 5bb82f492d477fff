// The window attached to an engine on a "server" through the SSH tunnel: a real OpenSSH server
// on loopback with keys the test makes, a real `tunedeck-engine serve` behind it (on the SSH
// user's default socket, on an explicit socket, or on TCP with a token), and the real window
// offscreen. Results stream through the tunnel's forwards; SSH dropped twice mid-run loses and
// repeats nothing; the server runs no program for the tunnel but one `id`/`printenv` per session
// (none for an explicit address); an engine not running yet is reported, then reached; a wrong
// token is refused; a server whose sshd forwards nothing says so; an unknown host key attaches
// nothing until the user trusts its fingerprint, and a changed key is refused.
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTcpServer>
#include <QTreeWidget>
#include <QtTest>
#include <algorithm>
#include <csignal>
#include <set>

#include "client/engine_client.h"
#include "client/ssh_tunnel.h"
#include "engine_harness.h"
#include "sshd_fixture.h"
#include "views/attach_dialog.h"
#include "views/main_window.h"
#include "wait_for.h"

using tunedeck::app::MainWindow;
using tunedeck::client::EngineClient;
using tunedeck::client::SshTarget;
using tunedeck::client::SshTunnel;

namespace {

// A `tunedeck-engine serve` stopped with SIGTERM at the end of the test.
struct Serve {
    std::unique_ptr<QProcess> process;
    ~Serve() {
        if (process && process->state() == QProcess::Running) {
            ::kill(pid_t(process->processId()), SIGTERM);
            process->waitForFinished(30000);
        }
    }
};

bool startServe(const EngineHarness& harness, const QStringList& args, const QString& runtimeDir,
                Serve* serve) {
    serve->process = std::make_unique<QProcess>();
    QProcessEnvironment env = harness.environment();
    env.insert("XDG_RUNTIME_DIR", runtimeDir);
    serve->process->setProcessEnvironment(env);
    serve->process->setWorkingDirectory(harness.root());
    serve->process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    serve->process->start(EngineHarness::enginePath(),
                          QStringList{"serve", "--results", harness.resultsRoot()} + args);
    // It prints "Listening on ..." once it accepts connections.
    bool listening = false;
    return waitFor(
        [&] {
            while (!listening && serve->process->canReadLine()) {
                listening = serve->process->readLine().startsWith("Listening on");
            }
            return listening;
        },
        20000);
}

QString experimentFile(const EngineHarness& harness, int trials, int iterations, double sleep,
                       const QString& folder = QString()) {
    QStringList xs;
    for (int x = 1; x <= trials; ++x) {
        xs << QString::number(x);
    }
    return harness.writeFile(folder.isEmpty() ? QStringLiteral("race.yaml") : folder + "/race.yaml",
                             QStringLiteral("name: race\n"
                                            "trainable: {command: [python3, \"@TRIAL@\"]}\n"
                                            "search_space:\n"
                                            "  x: {grid: [%1]}\n"
                                            "  iterations: %2\n"
                                            "  sleep: %3\n"
                                            "metric: score\n"
                                            "mode: max\n"
                                            "max_concurrent_trials: 2\n")
                                 .arg(xs.join(", "))
                                 .arg(iterations)
                                 .arg(sleep));
}

SshTarget targetOf(const SshdFixture& sshd, const QString& knownHosts) {
    SshTarget target;
    target.user = sshd.user();
    target.host = sshd.host();
    target.port = sshd.port();
    target.privateKeyFile = sshd.userKeyPath();
    target.knownHostsFile = knownHosts;
    return target;
}

// Commands sshd ran for its clients so far (it logs each at LogLevel VERBOSE; sshd_fixture.h).
int commandsRun(const SshdFixture& sshd) {
    return int(sshd.log().count(QStringLiteral("Starting session: command")));
}

// The programs running under sshd: its own session processes only, when the tunnel carries
// connections through forwards and runs nothing there.
QStringList programsUnder(const SshdFixture& sshd) {
    QStringList programs;
    for (const qint64 pid : sshd.sessionPids()) {
        QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
        if (comm.open(QIODevice::ReadOnly)) {
            programs << QString::fromUtf8(comm.readAll()).trimmed();
        }
    }
    return programs;
}

int resultCount(const MainWindow& window) {
    int count = 0;
    for (const auto& trial : window.data().trials()) {
        count += int(trial.values.size());
    }
    return count;
}

QStringList listedExperiments(MainWindow& window) {
    QStringList names;
    auto* dock = window.findChild<QDockWidget*>("experiments");
    auto* list = dock ? dock->findChild<QTreeWidget*>() : nullptr;
    for (int i = 0; list && i < list->topLevelItemCount(); ++i) {
        names << list->topLevelItem(i)->text(0);
    }
    return names;
}

// Every sequence number of `experiment` as a fresh subscription from 0 replays it.
std::vector<qint64> freshReplay(const QString& socket, const QString& experiment) {
    EngineClient client;
    std::vector<qint64> seqs;
    bool caughtUp = false;
    QObject::connect(&client, &EngineClient::event, [&](const QString&, const QJsonObject& e) {
        seqs.push_back(qint64(e.value("seq").toDouble()));
    });
    QObject::connect(&client, &EngineClient::caughtUp, [&] { caughtUp = true; });
    client.setLocalServer(socket);
    client.subscribe(experiment, 0);
    client.open(200);
    waitFor([&] { return caughtUp; }, 30000);
    return seqs;
}

}  // namespace

class TestAppRemote : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // recent servers go to a test settings file
        QSettings().remove("attach");
    }
    void theDefaultSocketIsTriedWhereServePutsIt();
    void resultsStreamThroughTheTunnelAndSurviveSshDrops();
    void aDefaultSocketWithNoEngineSaysWhereItLooked();
    void anEngineOnTcpNeedsTheRightToken();
    void aServerThatForwardsNothingSaysSo();
    void anUnknownHostKeyAttachesNothingUntilTrusted();
};

void TestAppRemote::theDefaultSocketIsTriedWhereServePutsIt() {
    using tunedeck::client::RemoteAccount;
    using tunedeck::client::RemoteEngine;
    const auto described = [](const RemoteEngine& engine, const RemoteAccount& account) {
        QStringList targets;
        for (const auto& target : tunedeck::client::forwardTargets(engine, account)) {
            targets << target.describe();
        }
        return targets;
    };
    // A login script that talks does not confuse the answer.
    RemoteAccount account;
    QString error;
    QVERIFY2(RemoteAccount::parse("Welcome to gpu1!\n1001\n/run/user/1001\n/home/alice\n", &account,
                                  &error),
             qPrintable(error));
    QCOMPARE(account.uid, "1001");
    QCOMPARE(described(RemoteEngine{}, account),
             QStringList({"unix:/run/user/1001/tunedeck/engine.sock",
                          "unix:/tmp/tunedeck-1001/engine.sock"}));
    // No runtime folder in the SSH session (no pam_systemd): serve's other places.
    QVERIFY(RemoteAccount::parse("1001\n\n/home/alice\n", &account, &error));
    QCOMPARE(account.runtimeDir, QString());
    QCOMPARE(described(RemoteEngine{}, account),
             QStringList({"unix:/run/user/1001/tunedeck/engine.sock",
                          "unix:/tmp/tunedeck-1001/engine.sock"}));
    QVERIFY(RemoteAccount::parse("1001\n/srv/run\n/home/alice\n", &account, &error));
    QCOMPARE(described(RemoteEngine{}, account),
             QStringList({"unix:/srv/run/tunedeck/engine.sock",
                          "unix:/run/user/1001/tunedeck/engine.sock",
                          "unix:/tmp/tunedeck-1001/engine.sock"}));
    // A path from the user's home, as the shell there would read it; an absolute path as is.
    RemoteEngine engine;
    QVERIFY(RemoteEngine::parse("unix:~/e.sock", &engine, &error));
    QVERIFY(engine.needsAccount());
    QCOMPARE(described(engine, account), QStringList({"unix:/home/alice/e.sock"}));
    QVERIFY(RemoteEngine::parse("unix:/srv/e.sock", &engine, &error));
    QVERIFY(!engine.needsAccount());
    QCOMPARE(described(engine, {}), QStringList({"unix:/srv/e.sock"}));
    QVERIFY(RemoteEngine::parse("tcp:[::1]:7788", &engine, &error));
    QVERIFY(!engine.needsAccount());
    QCOMPARE(described(engine, {}), QStringList({"tcp:[::1]:7788"}));
    QVERIFY(!RemoteAccount::parse("sh: id: not found\n", &account, &error));
    QVERIFY2(error.contains("unexpected answer"), qPrintable(error));
}

void TestAppRemote::resultsStreamThroughTheTunnelAndSurviveSshDrops() {
    if (QString why; !sshdAvailable(&why)) {
        QSKIP(qPrintable(why));
    }
    EngineHarness harness;
    // The server's runtime folder: where `serve` puts its default socket, and what the SSH
    // session's environment names, as pam_systemd would.
    const QString runtime = harness.root() + "/run";
    QVERIFY(QDir().mkpath(runtime));
    SshdFixture sshd;
    sshd.extraConfig =
        QStringLiteral("SetEnv XDG_RUNTIME_DIR=%1 HOME=%2").arg(runtime, sshd.homeDir());
    QString error;
    QVERIFY2(sshd.start(&error), qPrintable(error));
    const QString knownHosts = harness.root() + "/known_hosts";
    QVERIFY(sshd.writeKnownHosts(knownHosts));
    Serve serve;
    QVERIFY(startServe(harness, {}, runtime, &serve));

    MainWindow window;
    window.resize(1280, 800);
    window.show();
    SshTunnel* tunnel = tunedeck::app::attachOverSsh(window, targetOf(sshd, knownHosts), &error);
    QVERIFY2(tunnel, qPrintable(error));
    // The socket's folder: nobody else gets in.
    QCOMPARE(int(QFileInfo(QFileInfo(tunnel->localSocketPath()).path()).permissions() & 0x0077), 0);
    QVERIFY2(waitFor([&] { return window.client().isReady(); }, 20000),
             qPrintable(tunnel->statusText()));
    int lost = 0;
    connect(&window.client(), &EngineClient::connectionLost, this, [&] { ++lost; });

    // The file is in a folder of this machine that the server does not have (it is gone as soon
    // as the window has read the file): its text goes, and it runs on the server all the same.
    QVERIFY(QDir(harness.root()).mkdir("laptop"));
    window.runExperimentFile(experimentFile(harness, 4, 70, 0.05, "laptop"));
    QVERIFY(QDir(harness.root()).rename("laptop", "laptop-elsewhere"));
    QVERIFY(waitFor([&] { return !window.currentExperiment().isEmpty(); }, 20000));
    // A second client through the same tunnel sees every event by its sequence number.
    EngineClient watcher;
    std::vector<qint64> watched;
    connect(&watcher, &EngineClient::event, this, [&](const QString&, const QJsonObject& e) {
        watched.push_back(qint64(e.value("seq").toDouble()));
    });
    watcher.setLocalServer(tunnel->localSocketPath());
    watcher.subscribe(window.currentExperiment(), 0);
    watcher.open(200);

    // The session's processes die (the connection resets), mid-run.
    QVERIFY(waitFor([&] { return resultCount(window) >= 20; }, 60000));
    // Two connections are carried, and nothing runs on the server for them: the uid and runtime
    // folder were asked once, then sshd connects to the socket itself.
    QVERIFY(!watched.empty());
    const QStringList programs = programsUnder(sshd);
    QVERIFY2(!programs.isEmpty() &&
                 std::all_of(programs.begin(), programs.end(),
                             [](const QString& program) { return program == "sshd"; }),
             qPrintable(programs.join(", ")));
    QCOMPARE(commandsRun(sshd), 1);
    sshd.dropConnections();
    QVERIFY(waitFor([&] { return lost == 1 && window.client().isReady(); }, 20000));
    const int beforeRestart = resultCount(window);
    QVERIFY(waitFor([&] { return resultCount(window) > beforeRestart + 10; }, 30000));
    // One question per SSH session (sshd starts a new log on its restart below).
    QCOMPARE(commandsRun(sshd), tunnel->sessionsOpened());
    const int sessionsBeforeRestart = tunnel->sessionsOpened();
    // The whole server goes away, and comes back a second later on the same port.
    sshd.stop();
    QTest::qWait(1000);
    QVERIFY(tunnel->state() == SshTunnel::State::WaitingToRetry ||
            tunnel->state() == SshTunnel::State::Connecting);
    QVERIFY(window.data().experimentStatus() != "finished");  // the drops hit a live run
    QVERIFY2(sshd.start(&error), qPrintable(error));
    QVERIFY2(waitFor([&] { return lost == 2 && window.client().isReady(); }, 20000),
             qPrintable(tunnel->statusText()));
    QVERIFY(tunnel->sessionsOpened() >= 3);
    QCOMPARE(commandsRun(sshd), tunnel->sessionsOpened() - sessionsBeforeRestart);

    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 120000));
    QVERIFY(waitFor([&] { return listedExperiments(window).contains("race"); }, 10000));
    QCOMPARE(window.data().trials().size(), std::size_t(4));
    for (const auto& trial : window.data().trials()) {
        QCOMPARE(trial.status, QStringLiteral("TERMINATED"));
        QCOMPARE(trial.values.size(), std::size_t(70));  // none lost, none twice
    }
    // The status bar's counts show over SSH too: the tunnel's "Connected to ..." once hid them
    // for the whole session.
    auto* counts = window.findChild<QLabel*>("trialCounts");
    QVERIFY(counts);
    QVERIFY2(waitFor([&] { return counts->isVisible(); }, 15000),
             qPrintable(window.statusBar()->currentMessage()));
    QVERIFY2(counts->text().contains("0 paused, 4 done, 0 errored"), qPrintable(counts->text()));
    // Beside them, for as long as it is attached: which server's engine, and its folder there.
    const QString connection = window.findChild<QLabel*>("engineConnection")->text();
    QVERIFY2(
        connection.contains(QStringLiteral(" on %1, results in %2 there")
                                .arg(targetOf(sshd, knownHosts).toString(), harness.resultsRoot())),
        qPrintable(connection));
    const std::vector<qint64> replay =
        freshReplay(runtime + "/tunedeck/engine.sock", window.currentExperiment());
    QVERIFY(replay.size() > 280);
    QVERIFY(waitFor([&] { return watched.size() >= replay.size(); }, 10000));
    QCOMPARE(std::set<qint64>(watched.begin(), watched.end()).size(), watched.size());
    QVERIFY2(watched == replay, qPrintable(QStringLiteral("%1 events through the tunnel, %2 "
                                                          "in a fresh replay")
                                               .arg(watched.size())
                                               .arg(replay.size())));
}

void TestAppRemote::aDefaultSocketWithNoEngineSaysWhereItLooked() {
    if (QString why; !sshdAvailable(&why)) {
        QSKIP(qPrintable(why));
    }
    const QString uid = QString::number(::getuid());
    const QStringList systemPlaces = {"/run/user/" + uid + "/tunedeck/engine.sock",
                                      "/tmp/tunedeck-" + uid + "/engine.sock"};
    for (const QString& place : systemPlaces) {
        if (QFileInfo::exists(place)) {
            QSKIP(qPrintable(place + " exists: an engine of this machine's user might answer"));
        }
    }
    EngineHarness harness;
    const QString runtime = harness.root() + "/run";
    QVERIFY(QDir().mkpath(runtime));
    SshdFixture sshd;
    sshd.extraConfig = QStringLiteral("SetEnv XDG_RUNTIME_DIR=%1").arg(runtime);
    QString error;
    QVERIFY2(sshd.start(&error), qPrintable(error));
    const QString knownHosts = harness.root() + "/known_hosts";
    QVERIFY(sshd.writeKnownHosts(knownHosts));

    MainWindow window;
    window.resize(1280, 800);
    window.show();
    SshTunnel* tunnel = tunedeck::app::attachOverSsh(window, targetOf(sshd, knownHosts), &error);
    QVERIFY2(tunnel, qPrintable(error));
    // Every place serve may have put its socket is tried, in order, and named.
    QSignalSpy unreachable(tunnel, &SshTunnel::engineUnreachable);
    QVERIFY(unreachable.wait(20000));
    const QString message = unreachable.first().first().toString();
    QVERIFY2(message.startsWith(QStringLiteral("no engine answers at unix:%1/tunedeck/engine.sock "
                                               "or unix:%2 or unix:%3 on the server")
                                    .arg(runtime, systemPlaces.at(0), systemPlaces.at(1))),
             qPrintable(message));
    QVERIFY(!window.client().isReady());

    // Once serve runs there, the window attaches.
    Serve serve;
    QVERIFY(startServe(harness, {}, runtime, &serve));
    QVERIFY2(waitFor([&] { return window.client().isReady(); }, 20000),
             qPrintable(tunnel->statusText()));
    QCOMPARE(commandsRun(sshd), 1);
}

void TestAppRemote::anEngineOnTcpNeedsTheRightToken() {
    if (QString why; !sshdAvailable(&why)) {
        QSKIP(qPrintable(why));
    }
    EngineHarness harness;
    SshdFixture sshd;
    QString error;
    QVERIFY2(sshd.start(&error), qPrintable(error));
    const QString knownHosts = harness.root() + "/known_hosts";
    QVERIFY(sshd.writeKnownHosts(knownHosts));
    QFile tokenFile(harness.root() + "/token");
    QVERIFY(tokenFile.open(QIODevice::WriteOnly));
    tokenFile.write("s3cret-token\n");
    tokenFile.close();
    QVERIFY(tokenFile.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    }
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    SshTarget target = targetOf(sshd, knownHosts);
    QVERIFY(tunedeck::client::RemoteEngine::parse(QStringLiteral("tcp:127.0.0.1:%1").arg(port),
                                                  &target.engine, &error));
    QVERIFY(tunedeck::app::readTokenFile(tokenFile.fileName(), &target.token, &error));
    SshTunnel* tunnel = tunedeck::app::attachOverSsh(window, target, &error);
    QVERIFY2(tunnel, qPrintable(error));
    // No engine there yet: the server side says so, and the window attaches once it runs.
    QSignalSpy unreachable(tunnel, &SshTunnel::engineUnreachable);
    QVERIFY(unreachable.wait(20000));
    QVERIFY2(unreachable.first().first().toString().contains(
                 QStringLiteral("no engine answers at tcp:127.0.0.1:%1").arg(port)),
             qPrintable(unreachable.first().first().toString()));
    Serve serve;
    QVERIFY(startServe(harness,
                       {"--listen", QStringLiteral("tcp:127.0.0.1:%1").arg(port), "--token-file",
                        tokenFile.fileName()},
                       harness.root(), &serve));
    QVERIFY(waitFor([&] { return window.client().isReady(); }, 20000));
    window.runExperimentFile(experimentFile(harness, 2, 5, 0));
    QVERIFY(waitFor([&] { return window.data().experimentStatus() == "finished"; }, 60000));
    QCOMPARE(resultCount(window), 10);
    QVERIFY(waitFor([&] { return listedExperiments(window).contains("race"); }, 10000));
    // An explicit address needs no question: the server ran nothing for the tunnel.
    QCOMPARE(commandsRun(sshd), 0);

    // Attaching again with a wrong token replaces the tunnel and is refused by the engine.
    SshTunnel* first = tunedeck::app::sshTunnelOf(window);
    QSignalSpy failed(&window, &MainWindow::requestFailed);
    target.token = "not-the-token";
    SshTunnel* second = tunedeck::app::attachOverSsh(window, target, &error);
    QVERIFY2(second, qPrintable(error));
    QVERIFY(first != second);
    QCOMPARE(window.findChildren<SshTunnel*>().size(), 1);
    QVERIFY(waitFor(
        [&] {
            return !failed.isEmpty() &&
                   failed.last().first().toString().contains("wrong or missing token");
        },
        20000));
    QTest::qWait(500);
    QVERIFY(!window.client().isReady());
}

void TestAppRemote::aServerThatForwardsNothingSaysSo() {
    if (QString why; !sshdAvailable(&why)) {
        QSKIP(qPrintable(why));
    }
    EngineHarness harness;
    SshdFixture sshd;
    sshd.extraConfig = "AllowTcpForwarding no\nAllowStreamLocalForwarding no";
    QString error;
    QVERIFY2(sshd.start(&error), qPrintable(error));
    const QString knownHosts = harness.root() + "/known_hosts";
    QVERIFY(sshd.writeKnownHosts(knownHosts));
    // An engine runs, on TCP: only the server's policy stands in the way.
    Serve serve;
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const quint16 port = probe.serverPort();
    probe.close();
    const QString tokenFile = harness.writeFile("token", "s3cret-token\n");
    QVERIFY(QFile::setPermissions(tokenFile, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    QVERIFY(startServe(
        harness,
        {"--listen", QStringLiteral("tcp:127.0.0.1:%1").arg(port), "--token-file", tokenFile},
        harness.root(), &serve));

    MainWindow window;
    window.resize(1280, 800);
    window.show();
    SshTarget target = targetOf(sshd, knownHosts);
    QVERIFY(tunedeck::client::RemoteEngine::parse(QStringLiteral("tcp:127.0.0.1:%1").arg(port),
                                                  &target.engine, &error));
    target.token = "s3cret-token";
    SshTunnel* tunnel = tunedeck::app::attachOverSsh(window, target, &error);
    QVERIFY2(tunnel, qPrintable(error));
    QSignalSpy unreachable(tunnel, &SshTunnel::engineUnreachable);
    QVERIFY(unreachable.wait(20000));
    const QString message = unreachable.first().first().toString();
    QVERIFY2(message.contains(
                 QStringLiteral("does not allow forwarding to tcp:127.0.0.1:%1").arg(port)) &&
                 message.contains("AllowTcpForwarding no"),
             qPrintable(message));
    QCOMPARE(tunnel->statusText(), message);
    QCOMPARE(tunnel->state(), SshTunnel::State::Connected);  // the session itself is fine
    QVERIFY(!window.client().isReady());
}

void TestAppRemote::anUnknownHostKeyAttachesNothingUntilTrusted() {
    if (QString why; !sshdAvailable(&why)) {
        QSKIP(qPrintable(why));
    }
    EngineHarness harness;
    SshdFixture sshd;
    QString error;
    QVERIFY2(sshd.start(&error), qPrintable(error));
    const QString knownHosts = harness.root() + "/known_hosts";  // none yet
    const QString socket = harness.root() + "/engine.sock";
    Serve serve;
    QVERIFY(startServe(harness, {"--listen", "unix:" + socket}, harness.root(), &serve));

    MainWindow window;
    window.resize(1280, 800);
    window.show();
    // The dialog deletes itself once it has attached.
    QPointer<tunedeck::app::AttachDialog> dialog = tunedeck::app::showAttachDialog(window);
    QVERIFY(dialog);
    dialog->findChild<QComboBox*>("server")->setEditText(sshd.user() + "@" + sshd.host());
    dialog->findChild<QSpinBox*>("port")->setValue(sshd.port());
    QTest::keyClicks(dialog->findChild<QLineEdit*>("keyFile"), sshd.userKeyPath());
    dialog->findChild<QComboBox*>("remote")->setEditText("unix:" + socket);
    dialog->findChild<QLineEdit*>("knownHosts")->setText(knownHosts);
    dialog->findChild<QPushButton*>("attach")->click();

    QPointer<QLabel> hostKey = dialog->findChild<QLabel*>("hostKey");
    QVERIFY(waitFor([&] { return hostKey && hostKey->isVisible(); }, 20000));
    QVERIFY2(hostKey->text().contains(sshd.hostKeyFingerprint()), qPrintable(hostKey->text()));
    QVERIFY(hostKey->text().contains("not known"));
    // The tour's screenshot at 1280x800: the dialog kept its height, so the key file's row was
    // squeezed under the agent's and the fingerprint's line was cut off. Every row is whole.
    QTest::qWait(100);
    QVERIFY2(hostKey->height() >= hostKey->heightForWidth(hostKey->width()),
             qPrintable(QStringLiteral("the host key's text has %1 of %2 px")
                            .arg(hostKey->height())
                            .arg(hostKey->heightForWidth(hostKey->width()))));
    auto* keyFile = dialog->findChild<QLineEdit*>("keyFile");
    QVERIFY2(keyFile->height() >= keyFile->sizeHint().height(),
             qPrintable(QStringLiteral("the key file's row has %1 of %2 px")
                            .arg(keyFile->height())
                            .arg(keyFile->sizeHint().height())));
    SshTunnel* tunnel = tunedeck::app::sshTunnelOf(window);
    QVERIFY(tunnel);
    QCOMPARE(tunnel->state(), SshTunnel::State::HostKeyUnknown);
    QTest::qWait(1500);  // the client keeps knocking; nothing gets through
    QVERIFY(!window.client().isReady());
    QVERIFY(!QFile::exists(knownHosts));

    // Trusted, the key's words go and the dialog is as tall as its rows again (it kept the
    // panel's height as a blank band).
    const int withKey = dialog->height();
    dialog->findChild<QPushButton*>("trustHostKey")->click();
    QVERIFY2(dialog->height() == dialog->layout()->totalHeightForWidth(dialog->width()) &&
                 dialog->height() < withKey,
             qPrintable(QStringLiteral("%1 px high, %2 with the key, its rows need %3")
                            .arg(dialog->height())
                            .arg(withKey)
                            .arg(dialog->layout()->totalHeightForWidth(dialog->width()))));
    QVERIFY2(waitFor([&] { return window.client().isReady(); }, 20000),
             qPrintable(tunnel->statusText()));
    QFile recorded(knownHosts);
    QVERIFY(recorded.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(recorded.readAll()).trimmed(), sshd.knownHostsLine().trimmed());
    QVERIFY(waitFor([&] { return !dialog || dialog->isHidden(); }, 5000));
    QCOMPARE(commandsRun(sshd), 0);
    QCOMPARE(tunedeck::app::AttachDialog::recentServers().value(0),
             QStringLiteral("ssh://%1@%2:%3").arg(sshd.user(), sshd.host()).arg(sshd.port()));

    // The server now shows another key: refused, even when new keys would be accepted.
    QVERIFY2(sshd.regenerateHostKey(&error), qPrintable(error));
    SshTarget target = targetOf(sshd, knownHosts);
    target.acceptNewHostKey = true;
    QVERIFY(tunedeck::client::RemoteEngine::parse("unix:" + socket, &target.engine, &error));
    tunnel = tunedeck::app::attachOverSsh(window, target, &error);
    QVERIFY2(tunnel, qPrintable(error));
    QSignalSpy unknown(tunnel, &SshTunnel::hostKeyUnknown);
    QVERIFY(waitFor([&] { return tunnel->state() == SshTunnel::State::Failed; }, 20000));
    QVERIFY2(tunnel->statusText().contains("HAS CHANGED") &&
                 tunnel->statusText().contains(sshd.hostKeyFingerprint()),
             qPrintable(tunnel->statusText()));
    QVERIFY(unknown.isEmpty());
    QTest::qWait(1000);
    QVERIFY(!window.client().isReady());
}

QTEST_MAIN(TestAppRemote)
#include "test_app_remote.moc"
