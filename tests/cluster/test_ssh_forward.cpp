// ForwardChannel against a real OpenSSH server on 127.0.0.1: the server connects to an echo
// service of the test's own, on a TCP port (direct-tcpip) or a unix socket
// (direct-streamlocal@openssh.com), and bytes go both ways in order, with EOF each way. A
// forward sshd does not allow, or a target where nothing listens, is refused with a message
// that names the target and says why; the session carries on.
#include <QLocalServer>
#include <QLocalSocket>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include "cluster/ssh/forward_channel.h"
#include "ssh_test_support.h"

using namespace tunedeck::ssh;
using namespace tunedeck::ssh::testing;

namespace {

// Qt names the same thing differently for the two socket kinds.
void hangUp(QTcpSocket* socket) {
    socket->disconnectFromHost();
}
void hangUp(QLocalSocket* socket) {
    socket->disconnectFromServer();
}

// Echoes every byte back. Once the client has sent EOF it closes; on "quit\n" it answers
// "bye\n" and closes first. Counts what it saw.
template <typename Server>
class Echo {
  public:
    explicit Echo(Server* server) {
        QObject::connect(server, &Server::newConnection, [this, server] {
            while (auto* socket = server->nextPendingConnection()) {
                using Socket = std::remove_pointer_t<decltype(socket)>;
                ++connections;
                QObject::connect(socket, &Socket::readyRead, [this, socket] {
                    const QByteArray data = socket->readAll();
                    received += data.size();
                    if (data.endsWith("quit\n")) {
                        socket->write("bye\n");
                        hangUp(socket);
                        return;
                    }
                    socket->write(data);
                });
                QObject::connect(socket, &Socket::disconnected, [this, socket] {
                    ++ended;
                    socket->deleteLater();
                });
            }
        });
    }
    int connections = 0;
    int ended = 0;
    qint64 received = 0;
};

// What a forward did.
struct ForwardResult {
    bool opened = false;
    bool endOfData = false;
    bool closed = false;
    QString failed;
    QByteArray received;
    bool closedAfterEndOfData = false;
};

void record(ForwardChannel* channel, ForwardResult* result) {
    QObject::connect(channel, &ForwardChannel::opened, [result] { result->opened = true; });
    QObject::connect(channel, &ForwardChannel::received,
                     [result](const QByteArray& data) { result->received += data; });
    QObject::connect(channel, &ForwardChannel::endOfData, [result] { result->endOfData = true; });
    QObject::connect(channel, &ForwardChannel::closed, [result] {
        result->closed = true;
        result->closedAfterEndOfData = result->endOfData;
    });
    QObject::connect(channel, &ForwardChannel::failed,
                     [result](const QString& message) { result->failed = message; });
}

// 3 MB of numbered lines: more than a channel window (2 MB) each way.
QByteArray numberedLines() {
    QByteArray data;
    for (int line = 0; data.size() < 3 * 1024 * 1024; ++line) {
        data += QByteArray::number(line) + ": through the forward and back again\n";
    }
    return data;
}

}  // namespace

class TestSshForward : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void cleanupTestCase();

    void carriesBytesBothWaysToATcpPort();
    void carriesBytesBothWaysToAUnixSocket();
    void reportsATargetWhereNothingListens();
    void reportsAForwardTheServerDoesNotAllow();
    void endsForwardsWhenTheSessionCloses();

  private:
    std::unique_ptr<SshSession> connected(const SshdFixture& sshd);

    std::unique_ptr<SshdFixture> sshd_;
    QTemporaryDir dir_;
};

void TestSshForward::initTestCase() {
    QString why;
    if (!sshdAvailable(&why)) {
        QSKIP(qPrintable(why));
    }
    sshd_ = std::make_unique<SshdFixture>();
    QString error;
    QVERIFY2(sshd_->start(&error), qPrintable(error));
}

void TestSshForward::cleanupTestCase() {
    sshd_.reset();
}

std::unique_ptr<SshSession> TestSshForward::connected(const SshdFixture& sshd) {
    const QString knownHosts = dir_.filePath(QStringLiteral("known_hosts_%1").arg(sshd.port()));
    if (!sshd.writeKnownHosts(knownHosts)) {
        return nullptr;
    }
    OpenResult result = openSession(endpointFor(sshd, knownHosts));
    if (!result.connected) {
        qWarning() << "open failed:" << (result.failure ? result.failure->message : "timeout")
                   << sshd.log().right(2000);
        return nullptr;
    }
    return std::move(result.session);
}

void TestSshForward::carriesBytesBothWaysToATcpPort() {
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost));
    Echo<QTcpServer> echo(&server);
    auto session = connected(*sshd_);
    QVERIFY(session);

    const ForwardTarget target = ForwardTarget::tcp("127.0.0.1", server.serverPort());
    QCOMPARE(target.describe(), QStringLiteral("tcp:127.0.0.1:%1").arg(server.serverPort()));
    std::unique_ptr<ForwardChannel> forward = session->forward(target);
    QVERIFY(forward);
    ForwardResult result;
    record(forward.get(), &result);
    // Written before the host has even answered: queued, then sent in order.
    const QByteArray data = numberedLines();
    for (qsizetype at = 0; at < data.size(); at += 100'000) {
        forward->write(data.mid(at, 100'000));
    }
    QVERIFY2(
        waitUntil(
            [&] {
                return result.received.size() >= data.size() || result.closed ||
                       !result.failed.isEmpty();
            },
            30000),
        qPrintable(
            QStringLiteral("%1 of %2 bytes back").arg(result.received.size()).arg(data.size())));
    QVERIFY2(result.opened, qPrintable(result.failed));
    QCOMPARE(echo.connections, 1);
    QCOMPARE(echo.received, data.size());
    QVERIFY(result.received == data);
    QVERIFY(!result.endOfData && forward->isOpen());

    // Our EOF reaches the service, which then closes: EOF comes back, then the channel ends.
    forward->closeWrite();
    QVERIFY(waitUntil([&] { return result.closed; }, 10000));
    QCOMPARE(echo.ended, 1);
    QVERIFY(result.closedAfterEndOfData);
    QVERIFY(result.failed.isEmpty());
    QCOMPARE(forward->errorString(), QString());
    QVERIFY(!forward->isOpen());
    QVERIFY(session->isConnected());
}

void TestSshForward::carriesBytesBothWaysToAUnixSocket() {
    QLocalServer server;
    const QString path = dir_.filePath("echo.sock");
    QVERIFY(server.listen(path));
    Echo<QLocalServer> echo(&server);
    auto session = connected(*sshd_);
    QVERIFY(session);

    std::unique_ptr<ForwardChannel> forward = session->forward(ForwardTarget::unixSocket(path));
    QVERIFY(forward);
    QCOMPARE(forward->target().describe(), "unix:" + path);
    ForwardResult result;
    record(forward.get(), &result);
    const QByteArray data = numberedLines();
    forward->write(data);
    QVERIFY(waitUntil(
        [&] {
            return result.received.size() >= data.size() || result.closed ||
                   !result.failed.isEmpty();
        },
        30000));
    QVERIFY2(result.opened, qPrintable(result.failed));
    QVERIFY(result.received == data);

    // The service closes first: EOF arrives while our side may still write.
    result.received.clear();
    forward->write("quit\n");
    QVERIFY(waitUntil([&] { return result.endOfData; }, 10000));
    QCOMPARE(result.received, QByteArray("bye\n"));
    QVERIFY(!result.closed);
    QVERIFY(forward->isOpen());
    forward->closeWrite();
    QVERIFY(waitUntil([&] { return result.closed; }, 10000));
    QCOMPARE(echo.connections, 1);
    QVERIFY(result.failed.isEmpty());

    // A second forward on the same session, and one dropped mid-way, leave no trace.
    std::unique_ptr<ForwardChannel> dropped = session->forward(ForwardTarget::unixSocket(path));
    dropped->write("never echoed\n");
    dropped.reset();
    std::unique_ptr<ForwardChannel> again = session->forward(ForwardTarget::unixSocket(path));
    ForwardResult second;
    record(again.get(), &second);
    again->write("again\n");
    QVERIFY(waitUntil([&] { return second.received == "again\n"; }, 10000));
    QVERIFY(waitUntil([&] { return echo.connections == 3 && echo.ended >= 2; }, 10000));
    again->close();
}

void TestSshForward::reportsATargetWhereNothingListens() {
    auto session = connected(*sshd_);
    QVERIFY(session);
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    }
    std::unique_ptr<ForwardChannel> tcp = session->forward(ForwardTarget::tcp("127.0.0.1", port));
    ForwardResult tcpResult;
    record(tcp.get(), &tcpResult);
    const QString missing = dir_.filePath("nobody-here.sock");
    std::unique_ptr<ForwardChannel> unix = session->forward(ForwardTarget::unixSocket(missing));
    ForwardResult unixResult;
    record(unix.get(), &unixResult);
    QVERIFY(waitUntil([&] { return !tcpResult.failed.isEmpty() && !unixResult.failed.isEmpty(); },
                      10000));

    const QString host = QStringLiteral("127.0.0.1:%1").arg(sshd_->port());
    QVERIFY(!tcpResult.opened && !tcpResult.closed);
    QCOMPARE(tcp->failure(), ForwardChannel::Failure::NotReached);
    QCOMPARE(tcpResult.failed,
             QStringLiteral("%1 could not connect to tcp:127.0.0.1:%2: nothing accepts "
                            "connections there")
                 .arg(host)
                 .arg(port));
    QCOMPARE(tcp->errorString(), tcpResult.failed);
    QCOMPARE(unix->failure(), ForwardChannel::Failure::NotReached);
    QVERIFY2(unixResult.failed.startsWith(
                 QStringLiteral("%1 could not connect to unix:%2: nothing accepts connections "
                                "there")
                     .arg(host, missing)),
             qPrintable(unixResult.failed));
    QVERIFY(!tcp->isOpen() && !unix->isOpen());

    // The session carries on.
    const CommandResult echo = runCommand(*session, "echo still here");
    QCOMPARE(echo.standardOutput, QByteArray("still here\n"));
}

void TestSshForward::reportsAForwardTheServerDoesNotAllow() {
    QTcpServer tcpServer;
    QVERIFY(tcpServer.listen(QHostAddress::LocalHost));
    Echo<QTcpServer> tcpEcho(&tcpServer);
    QLocalServer localServer;
    const QString path = dir_.filePath("refused.sock");
    QVERIFY(localServer.listen(path));
    Echo<QLocalServer> localEcho(&localServer);

    SshdFixture hardened;
    hardened.extraConfig = "AllowTcpForwarding no\nAllowStreamLocalForwarding no";
    QString error;
    QVERIFY2(hardened.start(&error), qPrintable(error));
    auto session = connected(hardened);
    QVERIFY(session);

    std::unique_ptr<ForwardChannel> tcp =
        session->forward(ForwardTarget::tcp("127.0.0.1", tcpServer.serverPort()));
    ForwardResult tcpResult;
    record(tcp.get(), &tcpResult);
    std::unique_ptr<ForwardChannel> unix = session->forward(ForwardTarget::unixSocket(path));
    ForwardResult unixResult;
    record(unix.get(), &unixResult);
    tcp->write("not for you\n");
    QVERIFY(waitUntil([&] { return !tcpResult.failed.isEmpty() && !unixResult.failed.isEmpty(); },
                      10000));

    qInfo("refused: %s", qPrintable(tcpResult.failed));
    qInfo("refused: %s", qPrintable(unixResult.failed));
    const QString host = QStringLiteral("127.0.0.1:%1").arg(hardened.port());
    QCOMPARE(tcp->failure(), ForwardChannel::Failure::NotAllowed);
    QVERIFY2(tcpResult.failed.startsWith(
                 QStringLiteral("%1 does not allow forwarding to tcp:127.0.0.1:%2: its "
                                "sshd_config sets AllowTcpForwarding no")
                     .arg(host)
                     .arg(tcpServer.serverPort())),
             qPrintable(tcpResult.failed));
    // OpenSSH answers a refused unix socket forward as if nothing listened there.
    QVERIFY2(unixResult.failed.startsWith(
                 QStringLiteral("%1 could not connect to unix:%2").arg(host, path)) &&
                 unixResult.failed.contains("AllowStreamLocalForwarding no"),
             qPrintable(unixResult.failed));
    QVERIFY(!tcpResult.opened && !unixResult.opened);
    QCOMPARE(tcpEcho.connections + localEcho.connections, 0);
    QVERIFY(hardened.log().contains("refused local port forward"));
    QVERIFY(hardened.log().contains("refused streamlocal port forward"));

    const CommandResult echo = runCommand(*session, "echo still here");
    QCOMPARE(echo.standardOutput, QByteArray("still here\n"));
}

void TestSshForward::endsForwardsWhenTheSessionCloses() {
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost));
    Echo<QTcpServer> echo(&server);
    auto session = connected(*sshd_);
    QVERIFY(session);
    std::unique_ptr<ForwardChannel> open =
        session->forward(ForwardTarget::tcp("127.0.0.1", server.serverPort()));
    ForwardResult openResult;
    record(open.get(), &openResult);
    QVERIFY2(waitUntil([&] { return openResult.opened || !openResult.failed.isEmpty(); }, 10000) &&
                 openResult.opened,
             qPrintable(openResult.failed));
    session->close();
    QVERIFY(waitUntil([&] { return openResult.closed; }, 5000));
    QVERIFY(!open->errorString().isEmpty());
    QVERIFY(!open->isOpen());
    QVERIFY(!session->forward(ForwardTarget::tcp("127.0.0.1", server.serverPort())));
    open->write("ignored once closed\n");
    QVERIFY(waitUntil([&] { return echo.ended == 1; }, 10000));
}

QTEST_GUILESS_MAIN(TestSshForward)
#include "test_ssh_forward.moc"
