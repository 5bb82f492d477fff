// Whom a session trusts and how it proves who it is: host keys against known_hosts (unknown,
// accepted, changed, hashed, other port, other key type), key files (ed25519, encrypted, RSA in
// PEM and OpenSSH format), ssh-agent, and hosts that cannot be reached.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include "ssh_test_support.h"

using namespace tunedeck::ssh;
using namespace tunedeck::ssh::testing;

namespace {

QByteArray readFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString& path, const QByteArray& data) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(data);
}

// The base64 body lines of a private key and the key of its .pub: none may appear in a message.
QList<QByteArray> secretPieces(const QString& privateKeyPath) {
    QList<QByteArray> pieces;
    for (const QByteArray& line : readFile(privateKeyPath).split('\n')) {
        if (line.size() > 20 && !line.startsWith("-----")) {
            pieces.append(line.left(24));
        }
    }
    const QList<QByteArray> publicFields = readFile(privateKeyPath + ".pub").split(' ');
    if (publicFields.size() > 1) {
        pieces.append(publicFields.at(1).left(24));
        pieces.append(publicFields.at(1).right(24));
    }
    return pieces;
}

}  // namespace

class TestSshTrust : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void init();

    void refusesAnUnknownHostKeyNamingHostAndFingerprint();
    void acceptsANewHostKeyWhenAskedAndKnowsItAfterwards();
    void refusesAChangedHostKeyLoudlyEvenWhenAcceptingNewKeys();
    void refusesAHostKnownOnlyByAnotherKeyType();
    void offersTheKeyTypeKnownHostsHolds();
    void matchesHashedKnownHostsEntries();
    void keepsPort22EntriesApartFromOtherPorts();
    void refusesAWrongUserKeyWithoutShowingIt();
    void refusesAMissingKeyFile();
    void usesAnEncryptedKeyWithItsPassphrase();
    void authenticatesWithRsaKeysWhereTheServerAcceptsThem();
    void explainsWhyAnRsaKeyIsRefused();
    void authenticatesWithSshAgent();
    void reportsAnAgentWithoutKeysOrWithoutSocket();
    void reportsAClosedPortQuickly();
    void reportsAServerThatIsNotSsh();
    void reportsAHandshakeThatNeverFinishes();

  private:
    SshEndpoint endpoint() const { return endpointFor(*sshd_, knownHosts_); }

    std::unique_ptr<SshdFixture> sshd_;
    QTemporaryDir dir_;
    QString knownHosts_;
    int counter_ = 0;
};

void TestSshTrust::initTestCase() {
    QString why;
    if (!sshdAvailable(&why)) {
        QSKIP(qPrintable(why));
    }
    sshd_ = std::make_unique<SshdFixture>();
    QString error;
    QVERIFY2(sshd_->start(&error), qPrintable(error));
}

void TestSshTrust::init() {
    // A fresh known_hosts file for every test.
    knownHosts_ = dir_.filePath(QString("known_hosts_%1").arg(++counter_));
    QVERIFY(sshd_->writeKnownHosts(knownHosts_));
}

void TestSshTrust::refusesAnUnknownHostKeyNamingHostAndFingerprint() {
    QFile::remove(knownHosts_);
    const OpenResult opened = openSession(endpoint());
    QVERIFY(!opened.connected);
    QVERIFY(opened.failure);
    QCOMPARE(opened.failure->kind, SshFailureKind::HostKeyUnknown);
    const QString& message = opened.failure->message;
    QVERIFY2(message.contains(QString("[127.0.0.1]:%1").arg(sshd_->port())), qPrintable(message));
    QVERIFY2(message.contains(sshd_->hostKeyFingerprint()), qPrintable(message));
    QVERIFY2(message.contains("ssh-ed25519"), qPrintable(message));
    QCOMPARE(opened.session->hostKeyFingerprint(), sshd_->hostKeyFingerprint());
    QVERIFY(!QFile::exists(knownHosts_));
}

void TestSshTrust::acceptsANewHostKeyWhenAskedAndKnowsItAfterwards() {
    // A known_hosts file with another host in it, and no final newline.
    writeFile(knownHosts_,
              "[10.9.8.7]:2200 ssh-ed25519 "
              "AAAAC3NzaC1lZDI1NTE5AAAAIIwAEWdXTtXr3qTD5Oq14LHod2pZaRn28hCyDExwKTym");
    SshEndpoint accepting = endpoint();
    accepting.acceptNewHostKey = true;
    const OpenResult first = openSession(accepting);
    QVERIFY2(first.connected, qPrintable(first.failure ? first.failure->message : "timeout"));
    QVERIFY(first.session->addedHostKey());
    const QList<QByteArray> lines = readFile(knownHosts_).split('\n');
    QCOMPARE(lines.size(), 3);  // the old line, ours, and the final newline
    QVERIFY(lines.at(0).startsWith("[10.9.8.7]:2200 "));
    const QStringList expected = sshd_->knownHostsLine().split(' ');
    const QList<QByteArray> added = lines.at(1).split(' ');
    QVERIFY(added.size() >= 3);
    QCOMPARE(QString(added.at(0)), expected.at(0));
    QCOMPARE(QString(added.at(1)), expected.at(1));
    QCOMPARE(QString(added.at(2)), expected.at(2));

    // OpenSSH agrees with what was written.
    QProcess ssh;
    ssh.setProcessChannelMode(QProcess::MergedChannels);
    ssh.start("ssh", {"-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes", "-o",
                      "UserKnownHostsFile=" + knownHosts_, "-i", sshd_->userKeyPath(), "-p",
                      QString::number(sshd_->port()), sshd_->user() + "@127.0.0.1", "echo ok"});
    QVERIFY(ssh.waitForFinished(20000));
    QVERIFY2(ssh.exitCode() == 0, ssh.readAll().constData());

    // A second session trusts the key without being told to accept anything.
    const OpenResult second = openSession(endpoint());
    QVERIFY2(second.connected, qPrintable(second.failure ? second.failure->message : "timeout"));
    QVERIFY(!second.session->addedHostKey());
}

void TestSshTrust::refusesAChangedHostKeyLoudlyEvenWhenAcceptingNewKeys() {
    SshdFixture reinstalled;
    QString error;
    QVERIFY2(reinstalled.start(&error), qPrintable(error));
    const QString oldFingerprint = reinstalled.hostKeyFingerprint();
    writeFile(knownHosts_, "# trusted hosts\n" + reinstalled.knownHostsLine().toUtf8() + "\n");
    const QByteArray before = readFile(knownHosts_);
    QVERIFY2(reinstalled.regenerateHostKey(&error), qPrintable(error));
    const QString newFingerprint = reinstalled.hostKeyFingerprint();
    QVERIFY(newFingerprint != oldFingerprint);

    SshEndpoint accepting = endpointFor(reinstalled, knownHosts_);
    accepting.acceptNewHostKey = true;
    const OpenResult opened = openSession(accepting);
    QVERIFY(!opened.connected);
    QVERIFY(opened.failure);
    QCOMPARE(opened.failure->kind, SshFailureKind::HostKeyChanged);
    const QString& message = opened.failure->message;
    qInfo("%s", qPrintable(message));
    QVERIFY2(message.contains("HAS CHANGED"), qPrintable(message));
    QVERIFY2(message.contains(oldFingerprint), qPrintable(message));
    QVERIFY2(message.contains(newFingerprint), qPrintable(message));
    QVERIFY2(message.contains(knownHosts_ + " line 2"), qPrintable(message));
    QVERIFY2(message.contains(QString("[127.0.0.1]:%1").arg(reinstalled.port())),
             qPrintable(message));
    QCOMPARE(readFile(knownHosts_), before);
}

void TestSshTrust::refusesAHostKnownOnlyByAnotherKeyType() {
    QString error;
    const QString ecdsa =
        sshd_->addUserKey("other_ecdsa_host", {"-t", "ecdsa", "-b", "256"}, false, &error);
    QVERIFY2(!ecdsa.isEmpty(), qPrintable(error));
    const QList<QByteArray> fields = readFile(ecdsa + ".pub").split(' ');
    writeFile(knownHosts_, QString("[127.0.0.1]:%1 ").arg(sshd_->port()).toUtf8() + fields.at(0) +
                               ' ' + fields.at(1) + '\n');
    SshEndpoint accepting = endpoint();
    accepting.acceptNewHostKey = true;
    const OpenResult opened = openSession(accepting);
    QVERIFY(opened.failure);
    QCOMPARE(opened.failure->kind, SshFailureKind::HostKeyChanged);
    QVERIFY2(opened.failure->message.contains("ecdsa-sha2-nistp256"),
             qPrintable(opened.failure->message));
}

void TestSshTrust::offersTheKeyTypeKnownHostsHolds() {
    // A host with an ed25519 and an ECDSA key, known only by the ECDSA one: a session that
    // negotiated ed25519 would report it changed.
    SshdFixture twoKeys;
    QString error;
    const QString ecdsaKey = QDir(dir_.path()).filePath("second_host_key");
    QProcess keygen;
    keygen.start("ssh-keygen", {"-q", "-t", "ecdsa", "-b", "256", "-N", "", "-f", ecdsaKey});
    QVERIFY(keygen.waitForFinished(20000) && keygen.exitCode() == 0);
    twoKeys.extraConfig = "HostKey " + ecdsaKey;
    QVERIFY2(twoKeys.start(&error), qPrintable(error));
    const QList<QByteArray> fields = readFile(ecdsaKey + ".pub").split(' ');
    writeFile(knownHosts_, QString("[127.0.0.1]:%1 ").arg(twoKeys.port()).toUtf8() + fields.at(0) +
                               ' ' + fields.at(1) + '\n');
    const OpenResult opened = openSession(endpointFor(twoKeys, knownHosts_));
    QVERIFY2(opened.connected, qPrintable(opened.failure ? opened.failure->message : "timeout"));
}

void TestSshTrust::matchesHashedKnownHostsEntries() {
    QProcess hash;
    hash.start("ssh-keygen", {"-H", "-f", knownHosts_});
    QVERIFY(hash.waitForFinished(20000) && hash.exitCode() == 0);
    QVERIFY(readFile(knownHosts_).startsWith("|1|"));
    const OpenResult opened = openSession(endpoint());
    QVERIFY2(opened.connected, qPrintable(opened.failure ? opened.failure->message : "timeout"));
}

void TestSshTrust::keepsPort22EntriesApartFromOtherPorts() {
    // OpenSSH looks a host on another port up as "[host]:port" only: a different key for plain
    // "127.0.0.1" (port 22) neither matches nor counts as a change.
    writeFile(knownHosts_,
              "127.0.0.1 ssh-ed25519 "
              "AAAAC3NzaC1lZDI1NTE5AAAAIIwAEWdXTtXr3qTD5Oq14LHod2pZaRn28hCyDExwKTym\n");
    const OpenResult refused = openSession(endpoint());
    QVERIFY(refused.failure);
    QCOMPARE(refused.failure->kind, SshFailureKind::HostKeyUnknown);
    SshEndpoint accepting = endpoint();
    accepting.acceptNewHostKey = true;
    const OpenResult accepted = openSession(accepting);
    QVERIFY2(accepted.connected,
             qPrintable(accepted.failure ? accepted.failure->message : "timeout"));
}

void TestSshTrust::refusesAWrongUserKeyWithoutShowingIt() {
    QString error;
    const QString stranger =
        sshd_->addUserKey("stranger_ed25519", {"-t", "ed25519"}, false, &error);
    QVERIFY2(!stranger.isEmpty(), qPrintable(error));
    SshEndpoint wrong = endpoint();
    wrong.privateKeyFile = stranger;
    const OpenResult opened = openSession(wrong);
    QVERIFY(opened.failure);
    QCOMPARE(opened.failure->kind, SshFailureKind::AuthFailed);
    const QString& message = opened.failure->message;
    QVERIFY2(message.contains(QString("authentication failed for %1@127.0.0.1:%2")
                                  .arg(sshd_->user())
                                  .arg(sshd_->port())),
             qPrintable(message));
    QVERIFY2(message.contains(stranger), qPrintable(message));
    for (const QByteArray& piece : secretPieces(stranger)) {
        QVERIFY2(!message.contains(QString::fromLatin1(piece)), qPrintable(message));
    }
}

void TestSshTrust::refusesAMissingKeyFile() {
    SshEndpoint missing = endpoint();
    missing.privateKeyFile = dir_.filePath("no_such_key");
    const OpenResult opened = openSession(missing);
    QVERIFY(opened.failure);
    QCOMPARE(opened.failure->kind, SshFailureKind::AuthFailed);
    QVERIFY2(
        opened.failure->message.contains("cannot read private key file " + missing.privateKeyFile),
        qPrintable(opened.failure->message));
}

void TestSshTrust::usesAnEncryptedKeyWithItsPassphrase() {
    QString error;
    const QString passphrase = "correct horse battery staple";
    const QString locked =
        sshd_->addUserKey("locked_ed25519", {"-t", "ed25519", "-N", passphrase}, true, &error);
    QVERIFY2(!locked.isEmpty(), qPrintable(error));
    SshEndpoint withPassphrase = endpoint();
    withPassphrase.privateKeyFile = locked;
    withPassphrase.privateKeyPassphrase = passphrase;
    const OpenResult opened = openSession(withPassphrase);
    QVERIFY2(opened.connected, qPrintable(opened.failure ? opened.failure->message : "timeout"));

    withPassphrase.privateKeyPassphrase = "wrong horse";
    const OpenResult wrong = openSession(withPassphrase);
    QVERIFY(wrong.failure);
    QCOMPARE(wrong.failure->kind, SshFailureKind::AuthFailed);
    QVERIFY2(wrong.failure->message.contains("passphrase"), qPrintable(wrong.failure->message));
    QVERIFY(!wrong.failure->message.contains("wrong horse"));
    QVERIFY(!wrong.failure->message.contains(passphrase));

    withPassphrase.privateKeyPassphrase.clear();
    const OpenResult none = openSession(withPassphrase);
    QVERIFY(none.failure);
    QCOMPARE(none.failure->kind, SshFailureKind::AuthFailed);
}

void TestSshTrust::authenticatesWithRsaKeysWhereTheServerAcceptsThem() {
    // libssh2 1.10 signs RSA with SHA-1 ("ssh-rsa"): a server must accept that algorithm.
    SshdFixture legacy;
    legacy.extraConfig = "PubkeyAcceptedAlgorithms +ssh-rsa";
    QString error;
    QVERIFY2(legacy.start(&error), qPrintable(error));
    const QString pem =
        legacy.addUserKey("rsa_pem", {"-t", "rsa", "-b", "2048", "-m", "PEM"}, true, &error);
    QVERIFY2(!pem.isEmpty(), qPrintable(error));
    QVERIFY(readFile(pem).startsWith("-----BEGIN RSA PRIVATE KEY-----"));
    const QString openssh =
        legacy.addUserKey("rsa_openssh", {"-t", "rsa", "-b", "2048"}, true, &error);
    QVERIFY2(!openssh.isEmpty(), qPrintable(error));
    QVERIFY(readFile(openssh).startsWith("-----BEGIN OPENSSH PRIVATE KEY-----"));
    const QString knownHosts = dir_.filePath("known_hosts_legacy");
    QVERIFY(legacy.writeKnownHosts(knownHosts));
    for (const QString& key : {pem, openssh}) {
        SshEndpoint rsa = endpointFor(legacy, knownHosts);
        rsa.privateKeyFile = key;
        OpenResult opened = openSession(rsa);
        QVERIFY2(opened.connected,
                 qPrintable(key + ": " + (opened.failure ? opened.failure->message : "timeout")));
        QCOMPARE(runCommand(*opened.session, "echo rsa").standardOutput, QByteArray("rsa\n"));
    }
}

void TestSshTrust::explainsWhyAnRsaKeyIsRefused() {
    QString error;
    const QString rsa = sshd_->addUserKey("rsa_refused", {"-t", "rsa", "-b", "2048"}, true, &error);
    QVERIFY2(!rsa.isEmpty(), qPrintable(error));
    SshEndpoint endpointWithRsa = endpoint();
    endpointWithRsa.privateKeyFile = rsa;
    const OpenResult opened = openSession(endpointWithRsa);
    if (opened.connected) {
        QSKIP("this libssh2 signs RSA keys with SHA-2: nothing to explain");
    }
    QVERIFY(opened.failure);
    QCOMPARE(opened.failure->kind, SshFailureKind::AuthFailed);
    QVERIFY2(opened.failure->message.contains("ed25519"), qPrintable(opened.failure->message));
}

void TestSshTrust::authenticatesWithSshAgent() {
    SshAgentFixture agent;
    QString error;
    QVERIFY2(agent.start(&error), qPrintable(error));
    QVERIFY2(agent.addKey(sshd_->userKeyPath(), &error), qPrintable(error));
    const QByteArray saved = qgetenv("SSH_AUTH_SOCK");
    qputenv("SSH_AUTH_SOCK", agent.socketPath().toLocal8Bit());
    SshEndpoint viaAgent = endpoint();
    viaAgent.privateKeyFile.clear();
    OpenResult opened = openSession(viaAgent);
    qputenv("SSH_AUTH_SOCK", saved);
    QVERIFY2(opened.connected, qPrintable(opened.failure ? opened.failure->message : "timeout"));
    QCOMPARE(runCommand(*opened.session, "echo via agent").standardOutput,
             QByteArray("via agent\n"));
}

void TestSshTrust::reportsAnAgentWithoutKeysOrWithoutSocket() {
    SshAgentFixture agent;
    QString error;
    QVERIFY2(agent.start(&error), qPrintable(error));
    const QByteArray saved = qgetenv("SSH_AUTH_SOCK");
    SshEndpoint viaAgent = endpoint();
    viaAgent.privateKeyFile.clear();

    qputenv("SSH_AUTH_SOCK", agent.socketPath().toLocal8Bit());
    const OpenResult empty = openSession(viaAgent);
    qunsetenv("SSH_AUTH_SOCK");
    const OpenResult noSocket = openSession(viaAgent);
    qputenv("SSH_AUTH_SOCK", saved);

    QVERIFY(empty.failure);
    QCOMPARE(empty.failure->kind, SshFailureKind::AuthFailed);
    QVERIFY2(empty.failure->message.contains("ssh-agent holds no key"),
             qPrintable(empty.failure->message));
    QVERIFY(noSocket.failure);
    QCOMPARE(noSocket.failure->kind, SshFailureKind::AuthFailed);
    QVERIFY2(noSocket.failure->message.contains("SSH_AUTH_SOCK"),
             qPrintable(noSocket.failure->message));
}

void TestSshTrust::reportsAClosedPortQuickly() {
    // A loopback port nobody listens on: refused at once, no timeout waited for.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 closedPort = probe.serverPort();
    probe.close();
    SshEndpoint closed = endpoint();
    closed.port = closedPort;
    const OpenResult opened = openSession(closed);
    QVERIFY(opened.failure);
    QCOMPARE(opened.failure->kind, SshFailureKind::Unreachable);
    QVERIFY2(opened.failure->message.contains(QString("127.0.0.1:%1").arg(closedPort)),
             qPrintable(opened.failure->message));
    QVERIFY2(opened.failure->message.contains("refused"), qPrintable(opened.failure->message));
    QVERIFY2(opened.elapsedMs < 3000, qPrintable(QString::number(opened.elapsedMs)));
}

void TestSshTrust::reportsAServerThatIsNotSsh() {
    QTcpServer web;
    QVERIFY(web.listen(QHostAddress::LocalHost, 0));
    connect(&web, &QTcpServer::newConnection, this, [&web] {
        QTcpSocket* client = web.nextPendingConnection();
        client->write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        client->disconnectFromHost();
    });
    SshEndpoint notSsh = endpoint();
    notSsh.port = web.serverPort();
    const OpenResult opened = openSession(notSsh);
    QVERIFY(opened.failure);
    QVERIFY2(opened.failure->message.contains(QString("127.0.0.1:%1").arg(web.serverPort())),
             qPrintable(opened.failure->message));
    QVERIFY(opened.elapsedMs < 5000);
}

void TestSshTrust::reportsAHandshakeThatNeverFinishes() {
    QTcpServer silent;  // accepts, then says nothing
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    SshEndpoint hanging = endpoint();
    hanging.port = silent.serverPort();
    hanging.connectTimeoutMs = 1500;
    const OpenResult opened = openSession(hanging);
    QVERIFY(opened.failure);
    QCOMPARE(opened.failure->kind, SshFailureKind::Unreachable);
    QVERIFY2(opened.failure->message.contains("1.5 s"), qPrintable(opened.failure->message));
    QVERIFY2(opened.elapsedMs >= 1400 && opened.elapsedMs < 4000,
             qPrintable(QString::number(opened.elapsedMs)));
}

QTEST_GUILESS_MAIN(TestSshTrust)
#include "test_ssh_trust.moc"
