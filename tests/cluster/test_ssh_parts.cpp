// The SSH layer's parts that need no server: the SFTP wire format (packets built, parsed, framed
// out of a byte stream, malformed input refused) and known_hosts checking (OpenSSH's naming,
// line numbers for a changed key, hashed names, appending without rewriting the file).
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QMessageAuthenticationCode>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include "cluster/ssh/known_hosts.h"
#include "cluster/ssh/sftp_protocol.h"
#include "cluster/ssh/ssh_endpoint.h"

using namespace tunedeck::ssh;

namespace {

// Two real ed25519 public key blobs (base64, as in a .pub file).
const QByteArray kKeyA = "AAAAC3NzaC1lZDI1NTE5AAAAIIwAEWdXTtXr3qTD5Oq14LHod2pZaRn28hCyDExwKTym";
const QByteArray kKeyB = "AAAAC3NzaC1lZDI1NTE5AAAAIOPuTSvbCK4gd6/IXKjCRieOx4yyTzyZIiCfB1B/mqol";

void writeFile(const QString& path, const QByteArray& data) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(data);
}

QByteArray readFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

class TestSshParts : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void cleanupTestCase();

    void buildsAndParsesSftpPackets();
    void fillsWriteDataInPlace();
    void framesPacketsSplitAnywhereInTheStream();
    void refusesMalformedSftpInput();

    void formatsFingerprintsLikeSshKeygen();
    void matchesUnknownAndChangedKeysWithTheirLine();
    void namesHostsOnOtherPortsInBrackets();
    void matchesHashedNames();
    void listsTheKeyTypesHeldForAHost();
    void skipsLinesItCannotParse();
    void appendsWithoutRewritingTheFile();

  private:
    LIBSSH2_SESSION* session_ = nullptr;
    QTemporaryDir dir_;
};

void TestSshParts::initTestCase() {
    initialiseLibssh2();
    session_ = libssh2_session_init();
    QVERIFY(session_);
}

void TestSshParts::cleanupTestCase() {
    libssh2_session_free(session_);
}

void TestSshParts::buildsAndParsesSftpPackets() {
    sftp::Attributes attributes;
    attributes.flags =
        sftp::Attributes::kSize | sftp::Attributes::kPermissions | sftp::Attributes::kTimes;
    attributes.size = 0x123456789ull;
    attributes.permissions = 0100640;
    attributes.atime = 1600000000;
    attributes.mtime = 1700000000;
    sftp::PacketWriter writer(sftp::kOpen, 42);
    writer.string("dir/file name").u32(sftp::kOpenWrite | sftp::kOpenCreate).attributes(attributes);
    const QByteArray packet = writer.finish();
    QCOMPARE(qFromBigEndian<quint32>(packet.constData()), quint32(packet.size() - 4));

    sftp::PacketReader reader(QByteArrayView(packet).sliced(4));
    QCOMPARE(reader.u8(), quint8(sftp::kOpen));
    QCOMPARE(reader.u32(), quint32(42));
    QCOMPARE(reader.string(), QByteArrayView("dir/file name"));
    QCOMPARE(reader.u32(), quint32(sftp::kOpenWrite | sftp::kOpenCreate));
    const sftp::Attributes parsed = reader.attributes();
    QVERIFY(reader.ok());
    QVERIFY(reader.atEnd());
    QCOMPARE(parsed.size, attributes.size);
    QCOMPARE(parsed.permissions, attributes.permissions);
    QCOMPARE(parsed.atime, attributes.atime);
    QCOMPARE(parsed.mtime, attributes.mtime);
    QVERIFY(parsed.isRegularFile());
    QVERIFY(!parsed.isDirectory());

    const QByteArray init = sftp::PacketWriter::init(3).finish();
    QCOMPARE(init, QByteArray("\0\0\0\5\1\0\0\0\3", 9));
}

void TestSshParts::fillsWriteDataInPlace() {
    sftp::PacketWriter writer(sftp::kWrite, 7);
    writer.string("h1").u64(1024);
    char* data = writer.rawString(10);
    memcpy(data, "abcdefgh", 8);
    writer.truncateRaw(2);  // only 8 of the 10 bytes were available
    const QByteArray packet = writer.finish();
    sftp::PacketReader reader(QByteArrayView(packet).sliced(4));
    reader.u8();
    reader.u32();
    QCOMPARE(reader.string(), QByteArrayView("h1"));
    QCOMPARE(reader.u64(), quint64(1024));
    QCOMPARE(reader.string(), QByteArrayView("abcdefgh"));
    QVERIFY(reader.atEnd() && reader.ok());
}

void TestSshParts::framesPacketsSplitAnywhereInTheStream() {
    QByteArray stream;
    for (quint32 id = 1; id <= 5; ++id) {
        sftp::PacketWriter writer(sftp::kStatus, id);
        writer.u32(id == 5 ? sftp::kEof : sftp::kOk)
            .string(QByteArray(int(id) * 100, 'x'))
            .string("");
        stream += writer.finish();
    }
    // Fed one byte at a time, then all at once: the same five packets come out.
    for (const int step : {1, 7, int(stream.size())}) {
        sftp::PacketFramer framer;
        QByteArray buffer;
        qsizetype pos = 0;
        QList<quint32> ids;
        for (qsizetype fed = 0; fed < stream.size(); fed += step) {
            buffer += stream.mid(fed, step);
            QByteArrayView packet;
            while (framer.next(buffer, pos, &packet)) {
                sftp::PacketReader reader(packet);
                QCOMPARE(reader.u8(), quint8(sftp::kStatus));
                ids.append(reader.u32());
            }
        }
        QCOMPARE(ids, (QList<quint32>{1, 2, 3, 4, 5}));
        QVERIFY(!framer.broken());
        QCOMPARE(pos, stream.size());
    }
}

void TestSshParts::refusesMalformedSftpInput() {
    sftp::PacketFramer framer;
    QByteArrayView packet;
    qsizetype pos = 0;
    const QByteArray huge("\x7f\xff\xff\xff\x65", 5);
    QVERIFY(!framer.next(huge, pos, &packet));
    QVERIFY(framer.broken());

    // A string whose length runs past the packet.
    const QByteArray shortString(
        "\x65\0\0\0\1\0\0\0\x40"
        "abc",
        12);
    sftp::PacketReader reader(shortString);
    reader.u8();
    reader.u32();
    QVERIFY(reader.string().isEmpty());
    QVERIFY(!reader.ok());
    reader.u32();
    QVERIFY(!reader.ok());
}

void TestSshParts::formatsFingerprintsLikeSshKeygen() {
    // `ssh-keygen -l -E sha256` of kKeyA, computed independently.
    const QByteArray digest =
        QCryptographicHash::hash(QByteArray::fromBase64(kKeyA), QCryptographicHash::Sha256);
    QString expected = "SHA256:" + QString::fromLatin1(digest.toBase64());
    while (expected.endsWith('=')) {
        expected.chop(1);
    }
    QCOMPARE(sha256Fingerprint(QByteArray::fromBase64(kKeyA)), expected);
    QVERIFY(!sha256Fingerprint(QByteArray::fromBase64(kKeyA)).contains('='));
    QCOMPARE(hostKeyTypeName(LIBSSH2_HOSTKEY_TYPE_ED25519), QString("ssh-ed25519"));
}

void TestSshParts::matchesUnknownAndChangedKeysWithTheirLine() {
    const QString file = dir_.filePath("known_hosts_changed");
    writeFile(file, "# comment\n\nother.example ssh-ed25519 " + kKeyB + "\nnode7 ssh-ed25519 " +
                        kKeyA + " comment\n");
    KnownHosts hosts;
    QString error;
    QVERIFY2(hosts.load(session_, file, &error), qPrintable(error));
    const QByteArray keyA = QByteArray::fromBase64(kKeyA);
    const QByteArray keyB = QByteArray::fromBase64(kKeyB);
    QCOMPARE(hosts.check("node7", keyA, LIBSSH2_HOSTKEY_TYPE_ED25519).kind,
             HostKeyVerdict::Kind::Match);
    QCOMPARE(hosts.check("node8", keyA, LIBSSH2_HOSTKEY_TYPE_ED25519).kind,
             HostKeyVerdict::Kind::Unknown);
    const HostKeyVerdict changed = hosts.check("node7", keyB, LIBSSH2_HOSTKEY_TYPE_ED25519);
    QCOMPARE(changed.kind, HostKeyVerdict::Kind::Changed);
    QCOMPARE(changed.line, 4);
    QCOMPARE(changed.knownKeyType, QString("ssh-ed25519"));
    QCOMPARE(changed.knownFingerprint, sha256Fingerprint(keyA));
}

void TestSshParts::namesHostsOnOtherPortsInBrackets() {
    SshEndpoint endpoint;
    endpoint.host = "10.0.0.5";
    QCOMPARE(endpoint.knownHostsName(), QString("10.0.0.5"));
    QCOMPARE(endpoint.name(), QString("10.0.0.5"));
    endpoint.port = 2222;
    QCOMPARE(endpoint.knownHostsName(), QString("[10.0.0.5]:2222"));
    QCOMPARE(endpoint.name(), QString("10.0.0.5:2222"));

    const QString file = dir_.filePath("known_hosts_ports");
    writeFile(file,
              "10.0.0.5 ssh-ed25519 " + kKeyA + "\n[10.0.0.5]:2222 ssh-ed25519 " + kKeyB + "\n");
    KnownHosts hosts;
    QString error;
    QVERIFY(hosts.load(session_, file, &error));
    const QByteArray keyA = QByteArray::fromBase64(kKeyA);
    const QByteArray keyB = QByteArray::fromBase64(kKeyB);
    QCOMPARE(hosts.check("[10.0.0.5]:2222", keyB, LIBSSH2_HOSTKEY_TYPE_ED25519).kind,
             HostKeyVerdict::Kind::Match);
    // Port 22's entry neither vouches for nor conflicts with port 2222, and the other way.
    QCOMPARE(hosts.check("[10.0.0.5]:2222", keyA, LIBSSH2_HOSTKEY_TYPE_ED25519).kind,
             HostKeyVerdict::Kind::Changed);
    QCOMPARE(hosts.check("[10.0.0.5]:2223", keyA, LIBSSH2_HOSTKEY_TYPE_ED25519).kind,
             HostKeyVerdict::Kind::Unknown);
    QCOMPARE(hosts.check("10.0.0.5", keyB, LIBSSH2_HOSTKEY_TYPE_ED25519).line, 1);
}

void TestSshParts::matchesHashedNames() {
    // "|1|salt|HMAC-SHA1(salt, name)", as `ssh-keygen -H` writes it.
    const QByteArray salt = QByteArray::fromHex("0123456789abcdef0123456789abcdef01234567");
    const QByteArray name = "[node.example]:2200";
    const QByteArray hash = QMessageAuthenticationCode::hash(name, salt, QCryptographicHash::Sha1);
    const QString file = dir_.filePath("known_hosts_hashed");
    writeFile(file,
              "|1|" + salt.toBase64() + "|" + hash.toBase64() + " ssh-ed25519 " + kKeyA + "\n");
    KnownHosts hosts;
    QString error;
    QVERIFY(hosts.load(session_, file, &error));
    QCOMPARE(hosts.check(name, QByteArray::fromBase64(kKeyA), LIBSSH2_HOSTKEY_TYPE_ED25519).kind,
             HostKeyVerdict::Kind::Match);
    QCOMPARE(
        hosts.check("node.example", QByteArray::fromBase64(kKeyA), LIBSSH2_HOSTKEY_TYPE_ED25519)
            .kind,
        HostKeyVerdict::Kind::Unknown);
    QCOMPARE(hosts.knownKeyAlgorithms(name), QStringList{"ssh-ed25519"});
}

void TestSshParts::listsTheKeyTypesHeldForAHost() {
    const QString file = dir_.filePath("known_hosts_types");
    writeFile(file,
              "node1 ecdsa-sha2-nistp256 "
              "AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBPtUh3hn7F2cM2NpssnzpQdzck+1kz3P"
              "ozwKUya3WdMFXfXIyG55PZf6TDyJRGQYGXeWi8o+71zVCb2Dg7f/V0s=\nnode1 ssh-ed25519 " +
                  kKeyA + "\nnode2 ssh-ed25519 " + kKeyB + "\n");
    KnownHosts hosts;
    QString error;
    QVERIFY(hosts.load(session_, file, &error));
    QCOMPARE(hosts.knownKeyAlgorithms("node1"),
             (QStringList{"ssh-ed25519", "ecdsa-sha2-nistp256"}));
    QCOMPARE(hosts.knownKeyAlgorithms("node2"), QStringList{"ssh-ed25519"});
    QCOMPARE(hosts.knownKeyAlgorithms("node3"), QStringList());
}

void TestSshParts::skipsLinesItCannotParse() {
    const QString file = dir_.filePath("known_hosts_odd");
    writeFile(file,
              "@cert-authority *.example ssh-ed25519 " + kKeyB +
                  "\nnode1 sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t\n"
                  "garbage\nnode1 ssh-ed25519 " +
                  kKeyA + "\n");
    KnownHosts hosts;
    QString error;
    QVERIFY2(hosts.load(session_, file, &error), qPrintable(error));
    QVERIFY(hosts.skippedLines() >= 2);
    QCOMPARE(hosts.check("node1", QByteArray::fromBase64(kKeyA), LIBSSH2_HOSTKEY_TYPE_ED25519).kind,
             HostKeyVerdict::Kind::Match);
    const HostKeyVerdict changed =
        hosts.check("node1", QByteArray::fromBase64(kKeyB), LIBSSH2_HOSTKEY_TYPE_ED25519);
    QCOMPARE(changed.kind, HostKeyVerdict::Kind::Changed);
    QCOMPARE(changed.line, 4);
}

void TestSshParts::appendsWithoutRewritingTheFile() {
    // A line libssh2 cannot parse, and no final newline: both must survive the append.
    const QString file = dir_.filePath("ssh dir/known_hosts");
    QVERIFY(QDir().mkpath(dir_.filePath("ssh dir")));
    const QByteArray before = "@revoked * ssh-ed25519 " + kKeyB + "\nold ssh-ed25519 " + kKeyB;
    writeFile(file, before);
    KnownHosts hosts;
    QString error;
    QVERIFY(hosts.load(session_, file, &error));
    QVERIFY2(hosts.append("[new]:2022", QByteArray::fromBase64(kKeyA), LIBSSH2_HOSTKEY_TYPE_ED25519,
                          &error),
             qPrintable(error));
    QCOMPARE(readFile(file), before + "\n[new]:2022 ssh-ed25519 " + kKeyA + "\n");

    // A file in a folder that does not exist yet.
    const QString fresh = dir_.filePath("new home/.ssh/known_hosts");
    KnownHosts empty;
    QVERIFY(empty.load(session_, fresh, &error));
    QVERIFY2(
        empty.append("node", QByteArray::fromBase64(kKeyA), LIBSSH2_HOSTKEY_TYPE_ED25519, &error),
        qPrintable(error));
    QCOMPARE(readFile(fresh), "node ssh-ed25519 " + kKeyA + "\n");
}

QTEST_GUILESS_MAIN(TestSshParts)
#include "test_ssh_parts.moc"
