// The cluster editor's nodes (offscreen), against a real OpenSSH server on loopback
// (tests/common): "Test connection" shows an unknown host key and trusts it only on Accept,
// refuses a changed key and a wrong login, and `up` streams the engine's `[node]` lines into the
// output pane while it runs. The Nodes and GPUs tab shows what the autoscaler of an elastic
// cluster did to its nodes, from scripted `node` events (no sshd). With TUNEDECK_SCREENSHOT_DIR
// set it saves the editor and that tab.
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTextBlock>
#include <QToolButton>
#include <QtTest>
#include <memory>

#include "app_test_support.h"
#include "charts/node_usage_view.h"
#include "editors/cluster_command_runner.h"
#include "editors/cluster_connection_check.h"
#include "editors/cluster_editor.h"
#include "models/node_usage.h"
#include "scripted_events.h"
#include "sshd_fixture.h"

using namespace tunedeck::app;
using namespace app_test;
using State = NodeCheckResult::State;

namespace {

const QString kEngine = QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck-engine");

// A cluster file for one sshd node, with its known_hosts file and remote_root in `dir`.
QString clusterFor(const SshdFixture& sshd, const QString& dir, const QString& extra = {}) {
    return QStringLiteral(
               "# the test's node\n"
               "cluster_name: loop\n"
               "provider:\n"
               "  type: ssh\n"
               "  head_ip: \"%1:%2\"   # sshd on loopback\n"
               "auth:\n"
               "  ssh_user: %3\n"
               "  ssh_private_key: %4\n"
               "  known_hosts: %5/known_hosts\n"
               "remote_root: %5/nodes\n")
               .arg(sshd.host())
               .arg(sshd.port())
               .arg(sshd.user(), sshd.userKeyPath(), dir) +
           extra;
}

}  // namespace

class TestClusterNodes : public QObject {
    Q_OBJECT

  private slots:
    void init();
    void cleanup();
    void testConnectionTrustsAnUnknownKeyOnlyOnAccept();
    void testConnectionRefusesAChangedKeyAndAWrongLogin();
    void upStreamsNodeLinesWhileItRuns();
    void autoscaledNodesShowTheirStateAndTheDecisions();

  private:
    // Each test's own node and folder (its known_hosts, the nodes' remote_root).
    std::unique_ptr<SshdFixture> sshd_;
    std::unique_ptr<QTemporaryDir> dir_;
};

void TestClusterNodes::init() {
    if (QByteArray(QTest::currentTestFunction()) ==
        "autoscaledNodesShowTheirStateAndTheDecisions") {
        return;  // scripted events; no node to reach
    }
    if (QString why; !sshdAvailable(&why)) {
        QSKIP(qPrintable(why));
    }
    sshd_ = std::make_unique<SshdFixture>();
    QString error;
    QVERIFY2(sshd_->start(&error), qPrintable(error));
    dir_ = std::make_unique<QTemporaryDir>();
}

void TestClusterNodes::cleanup() {
    sshd_.reset();
    dir_.reset();
}

void TestClusterNodes::testConnectionTrustsAnUnknownKeyOnlyOnAccept() {
    SshdFixture& sshd = *sshd_;
    QTemporaryDir& dir = *dir_;
    const QString knownHosts = dir.filePath(QStringLiteral("known_hosts"));
    const QString path = dir.filePath(QStringLiteral("cluster.yaml"));
    QVERIFY(writeFile(path, clusterFor(sshd, dir.path())));
    ClusterEditor editor(kEngine);
    QVERIFY(editor.load(path));
    // A second node that refuses connections: checked beside the first, not after it.
    QTableWidget* nodes = child<QTableWidget>(editor, "nodes");
    child<QToolButton>(editor, "addWorker")->click();
    nodes->item(1, 1)->setText(QStringLiteral("127.0.0.1"));
    nodes->item(1, 2)->setText(QStringLiteral("1"));
    QVERIFY(editor.text().contains(QStringLiteral("worker_ips: [\"127.0.0.1:1\"]")));

    ClusterConnectionCheck* check = editor.connectionCheck();
    QSignalSpy finished(check, &ClusterConnectionCheck::finished);
    // The GUI keeps turning while the nodes are checked.
    QElapsedTimer clock;
    qint64 longestGap = 0;
    qint64 last = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        longestGap = std::max(longestGap, clock.elapsed() - last);
        last = clock.elapsed();
    });
    clock.start();
    ticker.start(5);
    child<QPushButton>(editor, "testConnection")->click();
    QVERIFY(finished.wait(20000));
    ticker.stop();
    QVERIFY2(longestGap < 400, qPrintable(QString::number(longestGap)));

    QCOMPARE(int(check->results().size()), 2);
    const NodeCheckResult& head = check->results()[0];
    QCOMPARE(head.node, QStringLiteral("%1:%2").arg(sshd.host()).arg(sshd.port()));
    QCOMPARE(head.state, State::HostKeyUnknown);
    QCOMPARE(head.fingerprint, sshd.hostKeyFingerprint());
    QCOMPARE(check->results()[1].state, State::Unreachable);
    QVERIFY2(check->results()[1].message.contains(QStringLiteral("refused")),
             qPrintable(check->results()[1].message));
    // The fingerprint is shown, with Accept beside it; nothing is written meanwhile.
    QTableWidget* results = editor.connectionView()->table();
    QVERIFY(results->item(0, 3)->text().contains(sshd.hostKeyFingerprint()));
    QVERIFY(editor.connectionView()->details().contains(sshd.hostKeyFingerprint()));
    auto* accept = editor.findChild<QPushButton*>(QStringLiteral("acceptHostKey:") + head.node);
    QVERIFY(accept);
    QVERIFY(!editor.findChild<QPushButton*>(QStringLiteral("acceptHostKey:127.0.0.1:1")));
    QTest::qWait(300);
    QVERIFY(!QFile::exists(knownHosts) || readFile(knownHosts).isEmpty());
    screenshot(editor, QStringLiteral("cluster_editor_test_connection"), QSize(1100, 820));

    // The user's word: the key goes into the file's known_hosts and the node is reachable.
    finished.clear();
    accept->click();
    QVERIFY(finished.wait(20000));
    QCOMPARE(check->results()[0].state, State::Reachable);
    QVERIFY(check->results()[0].keyAccepted);
    const QStringList keyLine = sshd.knownHostsLine().split(QLatin1Char(' '));
    QCOMPARE(readFile(knownHosts).trimmed().split(QLatin1Char(' ')), keyLine);
    QVERIFY(check->results()[0].loginMs >= 0);
    QVERIFY2(check->results()[0].machine.contains(QStringLiteral(" CPU")),
             qPrintable(check->results()[0].machine));
    QVERIFY(results->item(0, 4)->text().contains(QStringLiteral(" CPU")));
    QVERIFY(!editor.findChild<QPushButton*>(QStringLiteral("acceptHostKey:") + head.node));

    // Known from now on: reachable at once, nothing more written.
    finished.clear();
    editor.testConnection();
    QVERIFY(finished.wait(20000));
    QCOMPARE(check->results()[0].state, State::Reachable);
    QVERIFY(!check->results()[0].keyAccepted);
    QCOMPARE(int(readFile(knownHosts).count(QLatin1Char('\n'))), 1);
}

void TestClusterNodes::testConnectionRefusesAChangedKeyAndAWrongLogin() {
    SshdFixture& sshd = *sshd_;
    QTemporaryDir& dir = *dir_;
    QVERIFY(sshd.writeKnownHosts(dir.filePath(QStringLiteral("known_hosts"))));
    const QString oldFingerprint = sshd.hostKeyFingerprint();
    QString error;
    QVERIFY2(sshd.regenerateHostKey(&error), qPrintable(error));
    const QString path = dir.filePath(QStringLiteral("cluster.yaml"));
    QVERIFY(writeFile(path, clusterFor(sshd, dir.path())));
    ClusterEditor editor(kEngine);
    QVERIFY(editor.load(path));
    ClusterConnectionCheck* check = editor.connectionCheck();
    QSignalSpy finished(check, &ClusterConnectionCheck::finished);
    editor.testConnection();
    QVERIFY(finished.wait(20000));
    const NodeCheckResult& changed = check->results()[0];
    QCOMPARE(changed.state, State::HostKeyChanged);
    QVERIFY2(changed.message.contains(oldFingerprint) &&
                 changed.message.contains(sshd.hostKeyFingerprint()),
             qPrintable(changed.message));
    QVERIFY(!editor.findChild<QPushButton*>(QStringLiteral("acceptHostKey:") + changed.node));
    check->accept(0);  // not an unknown key: nothing to accept
    QCOMPARE(check->results()[0].state, State::HostKeyChanged);

    // A key the node does not take: the login is refused, in words that name the key.
    QVERIFY(sshd.writeKnownHosts(dir.filePath(QStringLiteral("known_hosts"))));
    const QString stranger =
        sshd.addUserKey(QStringLiteral("stranger"),
                        {QStringLiteral("-t"), QStringLiteral("ed25519")}, false, &error);
    QVERIFY2(!stranger.isEmpty(), qPrintable(error));
    typeLine(editor, "sshPrivateKey", stranger);
    finished.clear();
    editor.testConnection();
    QVERIFY(finished.wait(20000));
    QCOMPARE(check->results()[0].state, State::AuthFailed);
    QVERIFY2(check->results()[0].message.contains(QStringLiteral("refused")) &&
                 check->results()[0].message.contains(stranger),
             qPrintable(check->results()[0].message));
}

void TestClusterNodes::upStreamsNodeLinesWhileItRuns() {
    SshdFixture& sshd = *sshd_;
    QTemporaryDir& dir = *dir_;
    QVERIFY(sshd.writeKnownHosts(dir.filePath(QStringLiteral("known_hosts"))));
    const QString path = dir.filePath(QStringLiteral("cluster.yaml"));
    QVERIFY(writeFile(path, clusterFor(sshd, dir.path(),
                                       QStringLiteral("setup_commands:\n"
                                                      "  - echo first-step\n"))));
    ClusterEditor editor(kEngine);
    QVERIFY(editor.load(path));
    // An unsaved edit: `up` saves it first, then runs what the form shows.
    child<QToolButton>(editor, "setupCommandsAdd")->click();
    QListWidget* setup = child<QListWidget>(editor, "setupCommands");
    setup->item(1)->setText(QStringLiteral("sleep 2 && echo second-step"));
    QVERIFY(editor.isModified());

    ClusterCommandRunner* runner = editor.commandRunner();
    QPlainTextEdit* output = editor.outputPane()->text();
    QSignalSpy finished(runner, &ClusterCommandRunner::finished);
    const QString node = QStringLiteral("[%1:%2] ").arg(sshd.host()).arg(sshd.port());
    child<QPushButton>(editor, "clusterUp")->click();
    QVERIFY(!editor.isModified());
    QVERIFY(readFile(path).contains(QStringLiteral("sleep 2 && echo second-step")));
    QVERIFY(!child<QPushButton>(editor, "clusterUp")->isEnabled());
    // The first step's line is in the pane while the engine still runs the second.
    QTRY_VERIFY_WITH_TIMEOUT(output->toPlainText().contains(node + "first-step"), 30000);
    QVERIFY(runner->isRunning());
    QVERIFY(finished.isEmpty());
    QVERIFY(finished.wait(30000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(output->toPlainText()));
    QVERIFY(output->toPlainText().contains(node + "second-step"));
    QVERIFY2(editor.outputPane()->statusText().contains(QStringLiteral("succeeded")),
             qPrintable(editor.outputPane()->statusText()));
    QVERIFY(child<QPushButton>(editor, "clusterUp")->isEnabled());
    // Each node's prefix has a colour of its own.
    for (QTextBlock block = output->document()->begin(); block.isValid(); block = block.next()) {
        if (block.text().startsWith(node)) {
            const QTextCharFormat format = block.begin().fragment().charFormat();
            QVERIFY(format.foreground().style() != Qt::NoBrush);
            QCOMPARE(block.begin().fragment().text(), node);
            break;
        }
    }
    screenshot(editor, QStringLiteral("cluster_editor_up"), QSize(1100, 820));

    // Cancel ends a command that would run long, and says so.
    setup->item(1)->setText(QStringLiteral("sleep 60"));
    finished.clear();
    editor.up();
    QTRY_VERIFY_WITH_TIMEOUT(output->toPlainText().contains(node), 30000);
    QElapsedTimer clock;
    clock.start();
    child<QPushButton>(editor, "cancelClusterCommand")->click();
    QVERIFY(finished.wait(10000));
    QVERIFY(clock.elapsed() < 8000);
    QCOMPARE(finished.last().at(0).toBool(), false);
    QVERIFY(editor.outputPane()->statusText().contains(QStringLiteral("cancelled")));

    // Down ends with success too.
    finished.clear();
    editor.down();
    QVERIFY(finished.wait(30000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(output->toPlainText()));
}

namespace {

tunedeck::events::Event nodeEvent(const QString& node, const QString& state,
                                  const QJsonObject& details) {
    return scripted::event(QStringLiteral("node"),
                           {{"node", node}, {"state", state}, {"details", details}});
}

// The table's cells of `node`'s first row under the headers named, joined by '|'.
QString nodeRow(const QTableWidget* table, const QString& node, const QStringList& headers) {
    QMap<QString, int> columns;
    for (int c = 0; c < table->columnCount(); ++c) {
        columns.insert(table->horizontalHeaderItem(c)->text(), c);
    }
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, 0) && table->item(r, 0)->text() == node) {
            QStringList cells;
            for (const QString& header : headers) {
                const int c = columns.value(header, -1);
                cells << (c >= 0 && table->item(r, c) ? table->item(r, c)->text()
                                                      : QStringLiteral("<no %1>").arg(header));
            }
            return cells.join('|');
        }
    }
    return QStringLiteral("<no row>");
}

QStringList listed(const QListWidget* list) {
    QStringList items;
    for (int row = 0; row < list->count(); ++row) {
        items << list->item(row)->text();
    }
    return items;
}

}  // namespace

// Issue 19 in the app: each node an elastic cluster's autoscaler made shows its type and its
// state (launching, ready, terminating, lost), also before its first usage sample, and the
// decisions are listed as they come, the engine's words for a launch or a termination.
void TestClusterNodes::autoscaledNodesShowTheirStateAndTheDecisions() {
    NodeUsageModel usage;
    NodeUsageView view(&usage);
    view.resize(1280, 800);
    view.show();
    const QString launch =
        QStringLiteral("launching 2 x cpu-node (slurm-1, slurm-2) for t00000, t00001");
    const QJsonObject launched{{"type", "cpu-node"},
                               {"reason", "for t00000, t00001"},
                               {"decision", launch},
                               {"trials", QJsonArray{"t00000", "t00001"}}};
    QVERIFY(usage.apply(nodeEvent("slurm-1", "launching", launched)));
    QVERIFY(usage.apply(nodeEvent("slurm-2", "launching", launched)));
    view.refresh();
    const QStringList columns{"Node", "Type", "State"};
    QTRY_COMPARE(nodeRow(view.table(), "slurm-1", columns),
                 QStringLiteral("slurm-1|cpu-node|launching"));
    auto* decisions = view.findChild<QListWidget*>(QStringLiteral("scalingDecisions"));
    QVERIFY(decisions);
    QCOMPARE(listed(decisions), QStringList{launch});  // one decision, for both nodes

    usage.apply(nodeEvent("slurm-1", "up", {{"cpus", 4}}));
    usage.apply(
        nodeEvent("slurm-1", "ready", {{"type", "cpu-node"}, {"seconds_from_launch", 0.31}}));
    usage.apply(nodeEvent("slurm-2", "up", {{"cpus", 4}}));
    usage.apply(scripted::decoded(QJsonObject{{"v", 1},
                                              {"seq", ++scripted::sequence()},
                                              {"time", 1001},
                                              {"type", "node_usage"},
                                              {"node", "slurm-1"},
                                              {"cpu_percent", 97},
                                              {"memory_used_mb", 2048},
                                              {"memory_total_mb", 16384},
                                              {"gpus", QJsonArray{}}}));
    const QString idle = QStringLiteral("terminating slurm-2: idle for 3 s");
    usage.apply(nodeEvent("slurm-2", "terminating",
                          {{"type", "cpu-node"}, {"reason", "idle for 3 s"}, {"decision", idle}}));
    usage.apply(nodeEvent("slurm-3", "launching",
                          {{"type", "gpu-node"},
                           {"reason", "for t00002"},
                           {"decision", "launching 1 x gpu-node (slurm-3) for t00002"}}));
    usage.apply(nodeEvent("slurm-3", "lost", {{"reason", "srun ended (exit status 1)"}}));
    view.refresh();
    QTRY_COMPARE(nodeRow(view.table(), "slurm-1", columns + QStringList{"Utilisation"}),
                 QStringLiteral("slurm-1|cpu-node|ready|97 %"));
    QCOMPARE(nodeRow(view.table(), "slurm-2", columns),
             QStringLiteral("slurm-2|cpu-node|terminating"));
    QCOMPARE(nodeRow(view.table(), "slurm-3", columns), QStringLiteral("slurm-3|gpu-node|lost"));
    QCOMPARE(listed(decisions),
             QStringList({launch, "slurm-1 (cpu-node) ready 0.3 s after its launch", idle,
                          "launching 1 x gpu-node (slurm-3) for t00002",
                          "slurm-3 lost: srun ended (exit status 1)"}));
    QVERIFY(decisions->isVisible());
    screenshot(view, QStringLiteral("nodes_autoscaled"), QSize(1280, 800));

    // The engine says the terminated node is gone (its terminate command succeeded): the table
    // says so too, and the decisions stay as they were (it is no decision of its own).
    usage.apply(nodeEvent("slurm-2", "terminated", {{"type", "cpu-node"}}));
    view.refresh();
    QTRY_COMPARE(nodeRow(view.table(), "slurm-2", columns),
                 QStringLiteral("slurm-2|cpu-node|terminated"));
    QCOMPARE(decisions->count(), 5);

    // A listed node (ssh, local) says only `up`: its table stays as it was, without Type and State.
    NodeUsageModel listedUsage;
    NodeUsageView listedView(&listedUsage);
    listedView.show();
    listedUsage.apply(nodeEvent("localhost", "up", {{"ev", "hello"}, {"cpus", 2}}));
    listedUsage.apply(scripted::decoded(QJsonObject{{"v", 1},
                                                    {"seq", ++scripted::sequence()},
                                                    {"time", 1001},
                                                    {"type", "node_usage"},
                                                    {"node", "localhost"},
                                                    {"cpu_percent", 50},
                                                    {"memory_used_mb", 2048},
                                                    {"memory_total_mb", 16384},
                                                    {"gpus", QJsonArray{}}}));
    listedView.refresh();
    QTRY_COMPARE(listedView.table()->rowCount(), 1);
    QCOMPARE(listedView.table()->horizontalHeaderItem(1)->text(), QStringLiteral("Card"));
    QVERIFY(!listedView.decisions()->isVisible());
}

QTEST_MAIN(TestClusterNodes)
#include "tst_cluster_nodes.moc"
