// The cluster-file loader: golden files (golden/cluster/) for every accepted shape and every
// reported mistake, and focused tests of what a user relies on: which hosts pass, how nodes get
// their port and resources, where "~" and relative paths lead, and Ray's keys being tolerated.
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include "config/cluster_loader.h"
#include "golden_files.h"
#include "spec_dump.h"

using namespace tunedeck;
using namespace tunedeck::testing;

namespace {

QString clusterGoldenDir() {
    return goldenDir() + QStringLiteral("/cluster");
}

QString goldenOutput(const QString& input) {
    const LoadResult<ClusterSpec> result = loadClusterFile(input);
    return goldenText(result.spec ? toGoldenText(dumpCluster(*result.spec, goldenDir()))
                                  : result.errorLines().join(QLatin1Char('\n')) + QLatin1Char('\n'),
                      result.warningLines());
}

// A cluster file in the golden cluster folder (so `data/` paths resolve), from its text.
LoadResult<ClusterSpec> loadInline(const QString& yaml) {
    return loadClusterText(yaml, clusterGoldenDir() + QStringLiteral("/inline.yaml"));
}

QString sshCluster(const QString& headIp, const QString& rest = QString()) {
    return QStringLiteral(
               "cluster_name: lab\nprovider:\n  type: ssh\n  head_ip: %1\n"
               "auth: {ssh_user: alice}\n%2")
        .arg(headIp, rest);
}

// Points HOME at a folder of the test's own for as long as it lives.
class FakeHome {
  public:
    FakeHome() : previous_(qgetenv("HOME")) { qputenv("HOME", dir_.path().toUtf8()); }
    ~FakeHome() { qputenv("HOME", previous_); }
    QString path() const { return dir_.path(); }

  private:
    QTemporaryDir dir_;
    QByteArray previous_;
};

}  // namespace

class TestClusterConfig : public QObject {
    Q_OBJECT

  private slots:
    void golden_data();
    void golden();
    void goldenFolderCoversEveryKindOfCase();
    void schemaExampleLoads();
    void commandClusterExampleLoads();

    void acceptedHosts_data();
    void acceptedHosts();
    void refusedHosts_data();
    void refusedHosts();

    void nodesTakeTheClustersPortAndResourcesUnlessTheyNameTheirOwn();
    void onlyTheFirstMaxWorkersWorkersAreUsed();
    void localClusterIsThisMachineOnly();
    void nodeNames();
    void homeAndRelativePathsResolveFromTheClusterFilesFolder();
    void everyRayKeyIsAWarningNamingItsPlace();
    void otherUnknownKeysAreErrors();
    void locationsPointWhereKeysAreWritten();
    void missingFileIsReported();
};

void TestClusterConfig::golden_data() {
    QTest::addColumn<QString>("input");
    for (const QString& input : goldenInputs(clusterGoldenDir(), false)) {
        QTest::newRow(qPrintable(QFileInfo(input).fileName())) << input;
    }
}

void TestClusterConfig::golden() {
    QFETCH(QString, input);
    compareWithExpected(input, goldenOutput(input));
}

void TestClusterConfig::goldenFolderCoversEveryKindOfCase() {
    const QDir dir(clusterGoldenDir());
    const QStringList bad = dir.entryList({QStringLiteral("bad_*.yaml")}, QDir::Files);
    const QStringList all = dir.entryList({QStringLiteral("*.yaml")}, QDir::Files);
    QVERIFY2(bad.size() >= 15, "at least 15 invalid cluster files");
    QVERIFY(all.size() - bad.size() >= 3);
    for (const QString& name : all) {
        const bool rejected =
            !readText(dir.filePath(name.chopped(5) + ".expected")).startsWith('{');
        QVERIFY2(rejected == name.startsWith("bad_"),
                 qPrintable(name + (rejected ? " should load" : " should be rejected")));
    }
}

void TestClusterConfig::schemaExampleLoads() {
    // The reference's full example must stay valid; it names ~/.ssh/id_ed25519 and ./src.
    const QString schema = readText(TUNEDECK_SOURCE_DIR "/engine/config/SCHEMA.md");
    const qsizetype section = schema.indexOf("## Cluster files");
    QVERIFY(section >= 0);
    const qsizetype start = schema.indexOf("```yaml\n", section);
    QVERIFY(start >= 0);
    const qsizetype end = schema.indexOf("```", start + 8);
    const QString example = schema.mid(start + 8, end - start - 8);
    FakeHome home;
    QVERIFY(QDir(home.path()).mkpath(".ssh"));
    QVERIFY(writeText(home.path() + "/.ssh/id_ed25519", "key\n"));
    QTemporaryDir project;
    QVERIFY(QDir(project.path()).mkpath("src"));
    QVERIFY(QDir(project.path()).mkpath("data"));
    const LoadResult<ClusterSpec> result =
        loadClusterText(example, project.filePath("cluster.yaml"));
    QVERIFY2(result.errorLines().isEmpty(), qPrintable(result.errorLines().join('\n')));
    QVERIFY2(result.warningLines().isEmpty(), qPrintable(result.warningLines().join('\n')));
    QCOMPARE(result.spec->provider, ClusterProvider::Ssh);
    QVERIFY(result.spec->nodes.size() >= 2);
}

void TestClusterConfig::commandClusterExampleLoads() {
    // The reference's command-provider example (Kubernetes) must stay valid.
    const QString schema = readText(TUNEDECK_SOURCE_DIR "/engine/config/SCHEMA.md");
    const qsizetype section = schema.indexOf("### Command clusters");
    QVERIFY(section >= 0);
    const qsizetype start = schema.indexOf("```yaml\n", section);
    QVERIFY(start >= 0);
    const qsizetype end = schema.indexOf("```", start + 8);
    const LoadResult<ClusterSpec> result = loadInline(schema.mid(start + 8, end - start - 8));
    QVERIFY2(result.errorLines().isEmpty(), qPrintable(result.errorLines().join('\n')));
    QVERIFY2(result.warningLines().isEmpty(), qPrintable(result.warningLines().join('\n')));
    QCOMPARE(result.spec->provider, ClusterProvider::Command);
    QVERIFY(result.spec->commands.connect.uses("id"));
    QCOMPARE(result.spec->nodeTypes.front().nodeConfig.value("image"),
             QString("registry.example.org/lab/train:latest"));
}

void TestClusterConfig::acceptedHosts_data() {
    QTest::addColumn<QString>("written");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::newRow("hostname") << "node1"
                              << "node1" << 22;
    QTest::newRow("dotted hostname") << "gpu-1.lab.example.org"
                                     << "gpu-1.lab.example.org" << 22;
    QTest::newRow("ipv4") << "10.0.0.1"
                          << "10.0.0.1" << 22;
    QTest::newRow("ipv4 with port") << "'10.0.0.1:2222'"
                                    << "10.0.0.1" << 2222;
    QTest::newRow("ipv4 with port, unquoted") << "10.0.0.1:2222"
                                              << "10.0.0.1" << 2222;
    QTest::newRow("ipv6 loopback") << "'[::1]'"
                                   << "::1" << 22;
    QTest::newRow("ipv6 with port") << "'[2001:db8::8a2e:370:7334]:2200'"
                                    << "2001:db8::8a2e:370:7334" << 2200;
    QTest::newRow("ipv6 with ipv4 tail") << "'[::ffff:10.0.0.1]'"
                                         << "::ffff:10.0.0.1" << 22;
    QTest::newRow("ipv6 link-local zone") << "'[fe80::1%eth0]'"
                                          << "fe80::1%eth0" << 22;
    QTest::newRow("mapping") << "{host: node2, port: 2022}"
                             << "node2" << 2022;
    QTest::newRow("mapping, ipv6 bare") << "{host: 'fe80::2'}"
                                        << "fe80::2" << 22;
}

void TestClusterConfig::acceptedHosts() {
    QFETCH(QString, written);
    QFETCH(QString, host);
    QFETCH(int, port);
    const LoadResult<ClusterSpec> result = loadInline(sshCluster(written));
    QVERIFY2(result.errorLines().isEmpty(), qPrintable(result.errorLines().join('\n')));
    QCOMPARE(result.spec->nodes.size(), size_t(1));
    QCOMPARE(result.spec->nodes.front().host, host);
    QCOMPARE(result.spec->nodes.front().port, port);
    QVERIFY(result.spec->nodes.front().isHead);
}

void TestClusterConfig::refusedHosts_data() {
    // Anything that is not a name or an address is refused before it could reach ssh or a shell.
    QTest::addColumn<QString>("written");
    QTest::newRow("space") << "'my host'";
    QTest::newRow("command substitution") << "'$(id)'";
    QTest::newRow("backquotes") << "'`id`'";
    QTest::newRow("semicolon") << "'node1;rm -rf ~'";
    QTest::newRow("pipe") << "'a|b'";
    QTest::newRow("ampersand") << "'a&b'";
    QTest::newRow("ssh option") << "'-oProxyCommand=sh'";
    QTest::newRow("leading dash, mapping") << "{host: -node}";
    QTest::newRow("user@host") << "alice@node1";
    QTest::newRow("trailing dash") << "node-";
    QTest::newRow("empty label") << "a..b";
    QTest::newRow("octet over 255") << "10.0.0.256";
    QTest::newRow("leading zero octet") << "010.0.0.1";
    QTest::newRow("three octets") << "10.0.1";
    QTest::newRow("ipv6 without brackets") << "'::1'";
    QTest::newRow("unclosed bracket") << "'[::1'";
    QTest::newRow("not hex") << "'[::g]'";
    QTest::newRow("two gaps") << "'[1::2::3]'";
    QTest::newRow("zone with a space") << "'[fe80::1%a b]'";
    QTest::newRow("line break") << "\"node1\\nnode2\"";
    QTest::newRow("port zero") << "'node1:0'";
    QTest::newRow("port too large") << "'node1:65536'";
    QTest::newRow("port not a number") << "'node1:ssh'";
    QTest::newRow("port in mapping") << "{host: node1, port: 70000}";
    QTest::newRow("empty") << "\"\"";
    QTest::newRow("nothing") << "";
    QTest::newRow("a list") << "[node1]";
}

void TestClusterConfig::refusedHosts() {
    QFETCH(QString, written);
    const LoadResult<ClusterSpec> result = loadInline(sshCluster(written));
    QVERIFY(!result.spec.has_value());
    QCOMPARE(result.errorLines().size(), 1);
    QVERIFY2(result.errorLines().front().startsWith(clusterGoldenDir() + "/inline.yaml:4:"),
             qPrintable(result.errorLines().front()));
    QVERIFY2(result.errorLines().front().contains(": provider.head_ip"),
             qPrintable(result.errorLines().front()));
    QVERIFY(!result.errorLines().front().contains('\n'));  // one problem, one line
}

void TestClusterConfig::nodesTakeTheClustersPortAndResourcesUnlessTheyNameTheirOwn() {
    const LoadResult<ClusterSpec> result = loadInline(
        "cluster_name: lab\n"
        "provider:\n"
        "  type: ssh\n"
        "  head_ip: {host: head, resources: {gpu: 0}}\n"
        "  worker_ips: [w1, 'w2:2022', {host: w3, port: 2023, resources: {cpu: 4}}]\n"
        "auth: {ssh_user: alice, ssh_port: 2200}\n"
        "resources: {cpu: 16, gpu: 2}\n");
    QVERIFY2(result.errorLines().isEmpty(), qPrintable(result.errorLines().join('\n')));
    const std::vector<ClusterNodeSpec>& nodes = result.spec->nodes;
    QCOMPARE(nodes.size(), size_t(4));
    QCOMPARE(nodes[0].port, 2200);
    QVERIFY(nodes[0].isHead);
    QCOMPARE(nodes[0].resources.cpu, std::optional<double>(16));
    QCOMPARE(nodes[0].resources.gpu, std::optional<double>(0));
    QCOMPARE(nodes[1].port, 2200);
    QVERIFY(!nodes[1].isHead);
    QCOMPARE(nodes[1].resources.gpu, std::optional<double>(2));
    QCOMPARE(nodes[2].port, 2022);
    QCOMPARE(nodes[3].port, 2023);
    QCOMPARE(nodes[3].resources.cpu, std::optional<double>(4));
    QCOMPARE(nodes[3].resources.gpu, std::optional<double>(2));
    QCOMPARE(result.spec->maxWorkers, 3);

    // Without a cluster-wide override, what the agent counts is used (nothing set).
    const LoadResult<ClusterSpec> plain = loadInline(sshCluster("head"));
    QVERIFY(!plain.spec->nodes.front().resources.cpu.has_value());
    QVERIFY(!plain.spec->nodes.front().resources.gpu.has_value());
}

void TestClusterConfig::onlyTheFirstMaxWorkersWorkersAreUsed() {
    const QString workers = "  worker_ips: [w1, w2, w3]\n";
    LoadResult<ClusterSpec> result =
        loadInline(sshCluster("head\n" + workers, "min_workers: 1\nmax_workers: 2\n"));
    QVERIFY2(result.errorLines().isEmpty(), qPrintable(result.errorLines().join('\n')));
    QCOMPARE(result.spec->nodes.size(), size_t(3));
    QCOMPARE(result.spec->nodes[2].host, QStringLiteral("w2"));
    QCOMPARE(result.spec->minWorkers, 1);
    QCOMPARE(result.spec->maxWorkers, 2);

    // More than listed: all of them, with a warning (as Ray does).
    result = loadInline(sshCluster("head\n" + workers, "max_workers: 5\n"));
    QVERIFY2(result.errorLines().isEmpty(), qPrintable(result.errorLines().join('\n')));
    QCOMPARE(result.spec->nodes.size(), size_t(4));
    QCOMPARE(result.spec->maxWorkers, 3);
    QCOMPARE(result.warningLines().size(), 1);
    QVERIFY2(result.warningLines().front().endsWith(
                 "inline.yaml:8:14: max_workers: 5, but provider.worker_ips lists 3; 3 are used"),
             qPrintable(result.warningLines().front()));

    // A duplicate beyond max_workers is still refused: the file says the same node twice.
    result = loadInline(sshCluster("head\n  worker_ips: [w1, head]\n", "max_workers: 1\n"));
    QCOMPARE(result.errorLines().size(), 1);
    QVERIFY2(
        result.errorLines().front().contains("provider.worker_ips[1]: 'head' is already listed at "
                                             "line 4 (provider.head_ip)"),
        qPrintable(result.errorLines().front()));
}

void TestClusterConfig::localClusterIsThisMachineOnly() {
    const LoadResult<ClusterSpec> result =
        loadInline("cluster_name: here\nprovider: {type: local}\nresources: {cpu: 2}\n");
    QVERIFY2(result.errorLines().isEmpty(), qPrintable(result.errorLines().join('\n')));
    QCOMPARE(result.spec->provider, ClusterProvider::Local);
    QCOMPARE(result.spec->nodes.size(), size_t(1));
    QCOMPARE(result.spec->nodes.front().host, QStringLiteral("localhost"));
    QVERIFY(result.spec->nodes.front().isHead);
    QCOMPARE(result.spec->nodes.front().resources.cpu, std::optional<double>(2));
    QVERIFY(result.spec->sshUser.isEmpty());  // no login needed
}

void TestClusterConfig::nodeNames() {
    ClusterNodeSpec node;
    node.host = QStringLiteral("gpu1");
    QCOMPARE(node.name(), QStringLiteral("gpu1"));
    node.port = 2222;
    QCOMPARE(node.name(), QStringLiteral("gpu1:2222"));
    node.host = QStringLiteral("fe80::1");
    QCOMPARE(node.name(), QStringLiteral("[fe80::1]:2222"));
    node.port = 22;
    QCOMPARE(node.name(), QStringLiteral("fe80::1"));
}

void TestClusterConfig::homeAndRelativePathsResolveFromTheClusterFilesFolder() {
    FakeHome home;
    QVERIFY(QDir(home.path()).mkpath(".ssh"));
    QVERIFY(writeText(home.path() + "/.ssh/lab_key", "key\n"));
    QTemporaryDir root;
    QVERIFY(QDir(root.path()).mkpath("clusters/keys"));
    QVERIFY(QDir(root.path()).mkpath("code"));
    QVERIFY(writeText(root.filePath("clusters/keys/id"), "key\n"));
    QVERIFY(writeText(
        root.filePath("clusters/a.yaml"),
        sshCluster("head", "file_mounts: {'~/code': ../code}\n")
            .replace("{ssh_user: alice}", "{ssh_user: alice, ssh_private_key: keys/id}")));
    QVERIFY(writeText(root.filePath("clusters/b.yaml"),
                      sshCluster("head", "file_mounts: {'/opt/x': code}\n")));

    // Loaded through a path relative to the current folder, as the CLI receives it.
    const QString previous = QDir::currentPath();
    QVERIFY(QDir::setCurrent(root.path()));
    const LoadResult<ClusterSpec> a = loadClusterFile("clusters/a.yaml");
    const LoadResult<ClusterSpec> b = loadClusterFile("clusters/b.yaml");
    QVERIFY(QDir::setCurrent(previous));

    QVERIFY2(a.errorLines().isEmpty(), qPrintable(a.errorLines().join('\n')));
    QCOMPARE(a.spec->sourceFile, QDir::cleanPath(root.filePath("clusters/a.yaml")));
    QCOMPARE(a.spec->sshPrivateKey, QDir::cleanPath(root.filePath("clusters/keys/id")));
    QCOMPARE(a.spec->knownHosts, home.path() + "/.ssh/known_hosts");  // need not exist yet
    QCOMPARE(a.spec->fileMounts.size(), size_t(1));
    QCOMPARE(a.spec->fileMounts.front().localPath, QDir::cleanPath(root.filePath("code")));
    QCOMPARE(a.spec->fileMounts.front().remotePath, QStringLiteral("~/code"));  // as written
    // Not relative to the current folder, where code/ exists.
    QCOMPARE(b.errorLines(),
             QStringList{"clusters/b.yaml:6:25: file_mounts./opt/x: 'code' does not "
                         "exist (relative paths start from the cluster file's "
                         "folder)"});

    const LoadResult<ClusterSpec> c = loadClusterText(
        sshCluster("head").replace("{ssh_user: alice}",
                                   "{ssh_user: alice, ssh_private_key: ~/.ssh/lab_key, "
                                   "known_hosts: ~/hosts}"),
        root.filePath("clusters/c.yaml"));
    QVERIFY2(c.errorLines().isEmpty(), qPrintable(c.errorLines().join('\n')));
    QCOMPARE(c.spec->sshPrivateKey, home.path() + "/.ssh/lab_key");
    QCOMPARE(c.spec->knownHosts, home.path() + "/hosts");
}

void TestClusterConfig::everyRayKeyIsAWarningNamingItsPlace() {
    const QStringList rayKeys = {
        "head_setup_commands",  "head_start_ray_commands",       "worker_start_ray_commands",
        "upscaling_speed",      "idle_timeout_minutes",          "docker",
        "cluster_synced_files", "file_mounts_sync_continuously", "head_node_type",
        "available_node_types"};
    QString text = sshCluster("head");
    for (const QString& key : rayKeys) {
        text += key + ": null\n";
    }
    const LoadResult<ClusterSpec> result = loadInline(text);
    QVERIFY2(result.errorLines().isEmpty(), qPrintable(result.errorLines().join('\n')));
    QCOMPARE(result.warningLines().size(), rayKeys.size());
    for (qsizetype i = 0; i < rayKeys.size(); ++i) {
        const QString prefix = QStringLiteral("%1/inline.yaml:%2:1: %3: ignored by Tunedeck (")
                                   .arg(clusterGoldenDir())
                                   .arg(6 + i)
                                   .arg(rayKeys[i]);
        QVERIFY2(result.warningLines()[i].startsWith(prefix), qPrintable(result.warningLines()[i]));
        QVERIFY(result.warningLines()[i].endsWith(')'));
    }
}

void TestClusterConfig::otherUnknownKeysAreErrors() {
    const LoadResult<ClusterSpec> result =
        loadInline(sshCluster("head", "setup_comands: [ls]\nautoscaling: true\n"));
    QVERIFY(!result.spec.has_value());
    QCOMPARE(result.errorLines().size(), 2);
    QVERIFY2(result.errorLines()[0].endsWith(
                 ":6:1: setup_comands: unknown key (did you mean 'setup_commands'?)"),
             qPrintable(result.errorLines()[0]));
    QVERIFY2(result.errorLines()[1].contains(
                 ":7:1: autoscaling: unknown key (known keys: cluster_name,"),
             qPrintable(result.errorLines()[1]));
    QVERIFY(result.warningLines().isEmpty());
}

void TestClusterConfig::locationsPointWhereKeysAreWritten() {
    const LoadResult<ClusterSpec> result =
        loadInline(sshCluster("head\n  worker_ips:\n    - w1\n    - {host: w2}\n"));
    QVERIFY2(result.errorLines().isEmpty(), qPrintable(result.errorLines().join('\n')));
    const ClusterSpec& spec = *result.spec;
    QCOMPARE(spec.locationOf("auth.ssh_user").line, 9);
    QCOMPARE(spec.locationOf("auth.ssh_user").column, 8);
    QCOMPARE(spec.nodes[2].location.line, 7);
    QCOMPARE(spec.nodes[2].location.column, 7);
    // Not written: the closest key above it.
    QCOMPARE(spec.locationOf("provider.worker_ips[1].resources.gpu").line, 7);
    QCOMPARE(spec.locationOf("node_timeout_s").line, 0);
    QCOMPARE(spec.locationOf("node_timeout_s").file, spec.sourceFile);
}

void TestClusterConfig::missingFileIsReported() {
    const LoadResult<ClusterSpec> result =
        loadClusterFile(clusterGoldenDir() + "/no_such_file.yaml");
    QVERIFY(!result.spec.has_value());
    QCOMPARE(result.errorLines(),
             QStringList{clusterGoldenDir() + "/no_such_file.yaml: no such file"});
}

QTEST_GUILESS_MAIN(TestClusterConfig)
#include "tst_cluster_config.moc"
