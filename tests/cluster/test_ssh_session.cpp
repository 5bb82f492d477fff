// SshSession and ExecChannel against a real OpenSSH server on 127.0.0.1: connecting, commands
// with their output and exit status, stdin streamed both ways, channels side by side, and a
// node that goes away and comes back.
#include <sys/resource.h>

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "cluster/ssh/sftp_client.h"
#include "ssh_test_support.h"

using namespace tunedeck::ssh;
using namespace tunedeck::ssh::testing;

class TestSshSession : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void cleanupTestCase();

    void connectsAndRunsEcho();
    void reportsExitStatusAndStandardError();
    void reportsTheSignalThatEndedACommand();
    void streamsStdinThroughCatInOrder();
    void runsTwoChannelsAtOnce();
    void closesFinishedChannelsOnTheServer();
    void reportsAChannelTheHostRefuses();
    void echoesSmallMessagesWithoutAddedLatency();
    void staysQuietWhenIdle();
    void execNeedsAConnectedSession();
    void closingTheSessionFinishesItsChannels();
    void destroyingTheSessionWithOpenChannelsIsSafe();
    void reportsANodeThatGoesAwayAndConnectsWhenItIsBack();
    void reportsANodeThatGoesAwayWhileNoChannelIsOpen();
    void reportsANodeThatHangsAndGoesAwayWhileWritesAreBlocked();

  private:
    SshEndpoint endpoint() const { return endpointFor(*sshd_, knownHosts_); }
    std::unique_ptr<SshSession> connected();

    std::unique_ptr<SshdFixture> sshd_;
    QTemporaryDir dir_;
    QString knownHosts_;
};

void TestSshSession::initTestCase() {
    QString why;
    if (!sshdAvailable(&why)) {
        QSKIP(qPrintable(why));
    }
    sshd_ = std::make_unique<SshdFixture>();
    QString error;
    QVERIFY2(sshd_->start(&error), qPrintable(error));
    knownHosts_ = dir_.filePath("known_hosts");
    QVERIFY(sshd_->writeKnownHosts(knownHosts_));
}

void TestSshSession::cleanupTestCase() {
    sshd_.reset();
}

std::unique_ptr<SshSession> TestSshSession::connected() {
    OpenResult result = openSession(endpoint());
    if (!result.connected) {
        qWarning() << "open failed:" << (result.failure ? result.failure->message : "timeout")
                   << sshd_->log().right(2000);
        return nullptr;
    }
    return std::move(result.session);
}

void TestSshSession::connectsAndRunsEcho() {
    OpenResult opened = openSession(endpoint());
    QVERIFY2(opened.connected, qPrintable(opened.failure ? opened.failure->message : "timeout"));
    QVERIFY(opened.session->isConnected());
    QCOMPARE(opened.session->hostKeyFingerprint(), sshd_->hostKeyFingerprint());
    QVERIFY(!opened.session->addedHostKey());

    const CommandResult echo = runCommand(*opened.session, "echo hello from the node");
    QVERIFY2(echo.finished, qPrintable(echo.error));
    QVERIFY(echo.started);
    QCOMPARE(echo.standardOutput, QByteArray("hello from the node\n"));
    QCOMPARE(echo.standardError, QByteArray());
    QCOMPARE(echo.exitStatus, 0);
    QCOMPARE(echo.exitSignal, QString());
}

void TestSshSession::reportsExitStatusAndStandardError() {
    auto session = connected();
    QVERIFY(session);
    const CommandResult failing =
        runCommand(*session, "echo partial; echo 'no such thing' >&2; exit 3");
    QVERIFY(failing.finished);
    QCOMPARE(failing.exitStatus, 3);
    QCOMPARE(failing.standardOutput, QByteArray("partial\n"));
    QCOMPARE(failing.standardError, QByteArray("no such thing\n"));

    const CommandResult missing = runCommand(*session, "/nonexistent/tool --flag");
    QVERIFY(missing.finished);
    QCOMPARE(missing.exitStatus, 127);
    QVERIFY(missing.standardError.contains("No such file or directory"));
}

void TestSshSession::reportsTheSignalThatEndedACommand() {
    auto session = connected();
    QVERIFY(session);
    const CommandResult killed = runCommand(*session, "echo before; kill -TERM $$; echo after");
    QVERIFY(killed.finished);
    QCOMPARE(killed.standardOutput, QByteArray("before\n"));
    QCOMPARE(killed.exitSignal, QString("TERM"));
    QCOMPARE(killed.exitStatus, -1);
}

void TestSshSession::streamsStdinThroughCatInOrder() {
    auto session = connected();
    QVERIFY(session);
    CommandResult result;
    std::unique_ptr<ExecChannel> cat = session->exec("cat");
    QVERIFY(cat);
    record(cat.get(), &result);
    // 40,000 numbered lines (about 2.4 MB), written in bursts of varied sizes while the output
    // comes back: the window fills both ways, and nothing may be lost or reordered.
    QByteArray expected;
    for (int line = 0; line < 40000;) {
        QByteArray burst;
        const int count = 1 + (line * 7919) % 300;
        for (int i = 0; i < count && line < 40000; ++i, ++line) {
            burst += QByteArray::number(line) + ": the quick brown fox jumps over the lazy dog\n";
        }
        expected += burst;
        cat->write(burst);
        if (line % 5000 < 300) {
            QCoreApplication::processEvents();
        }
    }
    QVERIFY(expected.size() > 1024 * 1024);
    cat->closeStdin();
    QVERIFY(waitUntil([&] { return result.finished; }, 30000));
    QCOMPARE(result.exitStatus, 0);
    QCOMPARE(result.standardOutput.size(), expected.size());
    QVERIFY(result.standardOutput == expected);
}

void TestSshSession::runsTwoChannelsAtOnce() {
    auto session = connected();
    QVERIFY(session);
    CommandResult slow;
    CommandResult upper;
    std::unique_ptr<ExecChannel> first = session->exec("sleep 0.3; echo slow done");
    std::unique_ptr<ExecChannel> second = session->exec("tr a-z A-Z");
    QVERIFY(first && second);
    record(first.get(), &slow);
    record(second.get(), &upper);
    first->closeStdin();
    for (int i = 0; i < 100; ++i) {
        second->write("line " + QByteArray::number(i) + " of the second channel\n");
    }
    second->closeStdin();
    QVERIFY(waitUntil([&] { return slow.finished && upper.finished; }, 20000));
    // The quick one is not held behind the slow one.
    QCOMPARE(slow.standardOutput, QByteArray("slow done\n"));
    QCOMPARE(upper.exitStatus, 0);
    QCOMPARE(upper.standardOutput.count('\n'), 100);
    QVERIFY(upper.standardOutput.startsWith("LINE 0 OF THE SECOND CHANNEL\n"));
    QVERIFY(upper.standardOutput.endsWith("LINE 99 OF THE SECOND CHANNEL\n"));
}

void TestSshSession::closesFinishedChannelsOnTheServer() {
    // The server allows 3 channels per connection: 20 commands in a row only work if each
    // channel is really closed once its command is done.
    SshdFixture limited;
    limited.extraConfig = "MaxSessions 3";
    QString error;
    QVERIFY2(limited.start(&error), qPrintable(error));
    const QString knownHosts = dir_.filePath("known_hosts_limited");
    QVERIFY(limited.writeKnownHosts(knownHosts));
    OpenResult opened = openSession(endpointFor(limited, knownHosts));
    QVERIFY(opened.connected);
    for (int i = 0; i < 20; ++i) {
        const CommandResult result = runCommand(*opened.session, QString("echo %1").arg(i));
        QVERIFY2(result.finished && result.exitStatus == 0,
                 qPrintable(QString("command %1: %2").arg(i).arg(result.error)));
        QCOMPARE(result.standardOutput, QByteArray::number(i) + '\n');
    }
    // Channels dropped by the caller mid-command are closed too (cat then sees the end of its
    // input and exits; the server keeps a session while its command runs).
    for (int i = 0; i < 6; ++i) {
        std::unique_ptr<ExecChannel> dropped = opened.session->exec("cat");
        QVERIFY(dropped);
        waitUntil([] { return false; }, 50);
    }
    const CommandResult after = runCommand(*opened.session, "echo still room");
    QVERIFY2(after.finished && after.exitStatus == 0, qPrintable(after.error));
}

void TestSshSession::reportsAChannelTheHostRefuses() {
    SshdFixture single;
    single.extraConfig = "MaxSessions 1";
    QString error;
    QVERIFY2(single.start(&error), qPrintable(error));
    const QString knownHosts = dir_.filePath("known_hosts_single");
    QVERIFY(single.writeKnownHosts(knownHosts));
    OpenResult opened = openSession(endpointFor(single, knownHosts));
    QVERIFY(opened.connected);
    CommandResult first;
    CommandResult second;
    std::unique_ptr<ExecChannel> running = opened.session->exec("cat");
    record(running.get(), &first);
    QVERIFY(waitUntil([&] { return first.started; }, 10000));
    std::unique_ptr<ExecChannel> refused = opened.session->exec("echo never");
    record(refused.get(), &second);
    QVERIFY(waitUntil([&] { return second.finished; }, 10000));
    QCOMPARE(second.exitStatus, -1);
    QVERIFY(!second.started);
    QVERIFY2(
        second.error.contains(QString("127.0.0.1:%1 refused to open a channel").arg(single.port())),
        qPrintable(second.error));
    // The session and its other channel carry on.
    running->write("still here\n");
    running->closeStdin();
    QVERIFY(waitUntil([&] { return first.finished; }, 10000));
    QCOMPARE(first.standardOutput, QByteArray("still here\n"));
    QVERIFY(opened.session->isConnected());
}

void TestSshSession::echoesSmallMessagesWithoutAddedLatency() {
    // The agent relays every trial result over one channel: a line written must come back
    // through `cat` in well under the time any polling timer would add.
    auto session = connected();
    QVERIFY(session);
    CommandResult result;
    std::unique_ptr<ExecChannel> cat = session->exec("cat");
    record(cat.get(), &result);
    QVERIFY(waitUntil([&] { return result.started; }, 10000));
    QList<qint64> roundTripsUs;
    QElapsedTimer clock;
    for (int i = 0; i < 200; ++i) {
        const QByteArray line = "{\"type\":\"report\",\"trial\":" + QByteArray::number(i) + "}\n";
        result.standardOutput.clear();
        clock.start();
        cat->write(line);
        QVERIFY(waitUntil([&] { return result.standardOutput.endsWith('\n'); }, 5000));
        roundTripsUs.append(clock.nsecsElapsed() / 1000);
        QCOMPARE(result.standardOutput, line);
    }
    std::sort(roundTripsUs.begin(), roundTripsUs.end());
    const qint64 median = roundTripsUs.at(roundTripsUs.size() / 2);
    qInfo("round trip through cat over SSH: median %lld us, 90th percentile %lld us", median,
          roundTripsUs.at(roundTripsUs.size() * 9 / 10));
    QVERIFY2(median < 20000, qPrintable(QString("median round trip %1 us").arg(median)));
    cat->closeStdin();
    QVERIFY(waitUntil([&] { return result.finished; }, 10000));
}

void TestSshSession::staysQuietWhenIdle() {
    // An idle session (an open channel, the SFTP subsystem up, and one without any channel)
    // must not spin: no CPU but the keepalive ticks.
    auto busy = connected();
    auto bare = connected();
    QVERIFY(busy && bare);
    CommandResult idle;
    std::unique_ptr<ExecChannel> cat = busy->exec("cat");
    record(cat.get(), &idle);
    bool sftpReady = false;
    busy->sftp()->makePath("~", [&](bool ok, const QString&) { sftpReady = ok; });
    QVERIFY(waitUntil([&] { return idle.started && sftpReady; }, 10000));
    const auto cpuMs = [] {
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000 +
               (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000;
    };
    const long before = cpuMs();
    waitUntil([] { return false; }, 2500);
    const long used = cpuMs() - before;
    qInfo("CPU used in 2.5 s of idle: %ld ms", used);
    QVERIFY2(used < 100, qPrintable(QString("%1 ms").arg(used)));
    QVERIFY(busy->isConnected() && bare->isConnected());
}

void TestSshSession::execNeedsAConnectedSession() {
    SshSession session(endpoint());
    QVERIFY(!session.exec("true"));
    QVERIFY(!session.sftp());
}

void TestSshSession::closingTheSessionFinishesItsChannels() {
    auto session = connected();
    QVERIFY(session);
    CommandResult result;
    std::unique_ptr<ExecChannel> sleeper = session->exec("sleep 30");
    record(sleeper.get(), &result);
    QVERIFY(waitUntil([&] { return result.started; }, 10000));
    QSignalSpy disconnected(session.get(), &SshSession::disconnected);
    session->close();
    QVERIFY(!session->isConnected());
    QVERIFY(waitUntil([&] { return result.finished; }, 5000));
    QCOMPARE(result.exitStatus, -1);
    QCOMPARE(result.exitSignal, QString());
    QVERIFY(!sleeper->isOpen());
    QCOMPARE(disconnected.count(), 0);  // closing on purpose is not a lost connection
    sleeper->write("ignored once closed\n");
}

void TestSshSession::destroyingTheSessionWithOpenChannelsIsSafe() {
    auto session = connected();
    QVERIFY(session);
    std::unique_ptr<ExecChannel> running = session->exec("cat");
    std::unique_ptr<ExecChannel> opening = session->exec("sleep 5");
    running->write("data that may or may not go out\n");
    session.reset();
    QVERIFY(!running->isOpen());
    running->write("after the session\n");
    running->closeStdin();
    waitUntil([] { return false; }, 100);
    running.reset();
    opening.reset();
}

void TestSshSession::reportsANodeThatGoesAwayAndConnectsWhenItIsBack() {
    auto session = connected();
    QVERIFY(session);
    CommandResult idle;
    std::unique_ptr<ExecChannel> agent = session->exec("cat");
    record(agent.get(), &idle);
    QVERIFY(waitUntil([&] { return idle.started; }, 10000));
    bool channelFinishedFirst = false;
    QString reason;
    connect(session.get(), &SshSession::disconnected, this, [&](const QString& why) {
        reason = why;
        channelFinishedFirst = idle.finished;
    });

    QElapsedTimer clock;
    clock.start();
    sshd_->stop();
    const int allowedMs = endpoint().keepaliveIntervalS * 1000 + 3000;
    QVERIFY2(waitUntil([&] { return !reason.isEmpty(); }, allowedMs),
             "the session did not notice that the node went away");
    qInfo("node loss noticed after %lld ms: %s", clock.elapsed(), qPrintable(reason));
    QVERIFY(reason.contains(QString("%1:%2").arg(sshd_->host()).arg(sshd_->port())));
    QVERIFY(reason.contains("lost"));
    QVERIFY(channelFinishedFirst);
    QCOMPARE(idle.exitStatus, -1);
    QVERIFY(!session->isConnected());
    QVERIFY(!session->exec("true"));

    QString error;
    QVERIFY2(sshd_->start(&error), qPrintable(error));
    auto again = connected();
    QVERIFY2(again, "no new session once the node is back (same port, same host key)");
    const CommandResult echo = runCommand(*again, "echo back");
    QCOMPARE(echo.standardOutput, QByteArray("back\n"));
}

void TestSshSession::reportsANodeThatGoesAwayWhileNoChannelIsOpen() {
    SshEndpoint quick = endpoint();
    quick.keepaliveIntervalS = 1;
    OpenResult opened = openSession(quick);
    QVERIFY(opened.connected);
    QSignalSpy disconnected(opened.session.get(), &SshSession::disconnected);
    sshd_->dropConnections();
    QVERIFY(disconnected.wait(quick.keepaliveIntervalS * 1000 + 3000));
    QVERIFY(disconnected.first().first().toString().contains("lost"));
}

void TestSshSession::reportsANodeThatHangsAndGoesAwayWhileWritesAreBlocked() {
    if (!sshd_->isRunning()) {
        QString error;
        QVERIFY2(sshd_->start(&error), qPrintable(error));
    }
    auto session = connected();
    QVERIFY(session);
    // Twelve channels can have more bytes in flight (2 MB window each) than the loopback
    // connection buffers: once the node hangs, the socket fills up mid-packet.
    std::vector<std::unique_ptr<ExecChannel>> channels;
    std::vector<CommandResult> sinks(12);
    for (CommandResult& sink : sinks) {
        channels.push_back(session->exec("cat > /dev/null"));
        record(channels.back().get(), &sink);
    }
    QVERIFY(waitUntil(
        [&] {
            return std::all_of(sinks.begin(), sinks.end(), [](const auto& s) { return s.started; });
        },
        10000));
    sshd_->freezeSessions();
    const QByteArray block(1024 * 1024, 'x');
    for (int i = 0; i < 4; ++i) {
        for (auto& channel : channels) {
            channel->write(block);
        }
    }
    waitUntil([] { return false; }, 500);
    qint64 unsent = 0;
    for (auto& channel : channels) {
        unsent += channel->bytesToWrite();
    }
    QVERIFY(unsent > 0);
    QSignalSpy disconnected(session.get(), &SshSession::disconnected);
    sshd_->stop();
    QVERIFY(disconnected.wait(endpoint().keepaliveIntervalS * 1000 + 3000));
    for (const CommandResult& sink : sinks) {
        QVERIFY(sink.finished);
        QCOMPARE(sink.exitStatus, -1);
    }
    // Tearing down with packets half-sent must neither hang nor leak (checked under ASan).
    session.reset();
    channels.clear();
    QString error;
    QVERIFY2(sshd_->start(&error), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestSshSession)
#include "test_ssh_session.moc"
