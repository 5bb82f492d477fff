// The cluster editor's form and text (offscreen): every cluster file of the repository reads into
// the form and writes back through it with its comments byte-identical, YAML edits show in the
// form with one undo for both, validation problems are pinned to their lines, and a new file
// starts valid; an elastic cluster's node types and scaling keys are edited in the form and the
// saved file passes `tunedeck-engine validate`. Its nodes (Test connection, up and down) are
// tst_cluster_nodes.cpp's.
// With TUNEDECK_SCREENSHOT_DIR set it saves the editor.
#include <QComboBox>
#include <QDirIterator>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QTableWidget>
#include <QToolButton>
#include <QWindow>
#include <QtTest>

#include "app_test_support.h"
#include "config/cluster_loader.h"
#include "editors/cluster_command_runner.h"
#include "editors/cluster_connection_check.h"
#include "editors/cluster_editor.h"
#include "editors/cluster_fields.h"
#include "editors/cluster_form.h"
#include "views/appearance.h"

using namespace tunedeck::app;
using tunedeck::ClusterSpec;
using tunedeck::loadClusterText;
using tunedeck::LoadResult;
using namespace app_test;

namespace {

const QString kEngine = QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck-engine");

void setCell(QWidget& editor, const char* table, int row, int column, const QString& text) {
    QTableWidget* widget = child<QTableWidget>(editor, table);
    QVERIFY2(widget->item(row, column),
             qPrintable(QStringLiteral("%1 row %2").arg(table).arg(row)));
    widget->item(row, column)->setText(text);
}

QStringList tableRow(QWidget& editor, const char* table, int row, int columns) {
    QTableWidget* widget = child<QTableWidget>(editor, table);
    QStringList cells;
    for (int column = 0; column < columns; ++column) {
        cells << (widget->item(row, column) ? widget->item(row, column)->text() : QString());
    }
    return cells;
}

QStringList listShown(QWidget& editor, const char* name) {
    QListWidget* list = child<QListWidget>(editor, name);
    QStringList items;
    for (int row = 0; row < list->count(); ++row) {
        items << list->item(row)->text();
    }
    return items;
}

// Every comment of a YAML text, whole-line or trailing, in order. (A " #" inside quotes counts
// too; it is compared with itself before and after, so it does no harm.)
QStringList commentsOf(const QString& text) {
    static const QRegularExpression comment(QStringLiteral("(?:^|\\s)(#.*)$"),
                                            QRegularExpression::MultilineOption);
    QStringList comments;
    for (auto it = comment.globalMatch(text); it.hasNext();) {
        comments << it.next().captured(1);
    }
    return comments;
}

// What the line edits of the form show, by object name.
const QList<std::pair<const char*, ClusterField>> kLineEdits{
    {"clusterName", ClusterField::Name},
    {"sshUser", ClusterField::User},
    {"sshPrivateKey", ClusterField::PrivateKey},
    {"sshPort", ClusterField::SshPort},
    {"knownHosts", ClusterField::KnownHosts},
    {"minWorkers", ClusterField::MinWorkers},
    {"maxWorkers", ClusterField::MaxWorkers},
    {"cpu", ClusterField::Cpu},
    {"gpu", ClusterField::Gpu},
    {"nodeTimeout", ClusterField::NodeTimeout},
    {"remoteRoot", ClusterField::RemoteRoot}};

const QList<std::pair<const char*, ClusterList>> kLists{
    {"initializationCommands", ClusterList::InitializationCommands},
    {"setupCommands", ClusterList::SetupCommands},
    {"workerSetupCommands", ClusterList::WorkerSetupCommands},
    {"rsyncExclude", ClusterList::RsyncExclude}};

}  // namespace

class TestClusterEditor : public QObject {
    Q_OBJECT

  private slots:
    void everyClusterFileRoundTripsThroughTheForm_data();
    void everyClusterFileRoundTripsThroughTheForm();
    void formEditsKeepCommentsByteIdentical();
    void yamlEditsShowInTheFormAndUndoSpansBoth();
    void validationProblemsArePinnedToTheirLines();
    void aNewClusterFileStartsValidAndIsWrittenOnSave();
    void elasticClusterNodeTypesAreEditedAndStillValidate_data();
    void elasticClusterNodeTypesAreEditedAndStillValidate();
    void theSummarySaysWhatTheFileDefines_data();
    void theSummarySaysWhatTheFileDefines();
};

void TestClusterEditor::everyClusterFileRoundTripsThroughTheForm_data() {
    QTest::addColumn<QString>("path");
    // The golden cluster files, and any cluster file the repository ships.
    QDirIterator golden(QStringLiteral(TUNEDECK_SOURCE_DIR "/tests/config/golden/cluster"),
                        {QStringLiteral("*.yaml")}, QDir::Files);
    QStringList paths;
    while (golden.hasNext()) {
        paths << golden.next();
    }
    QDirIterator shipped(QStringLiteral(TUNEDECK_SOURCE_DIR "/resources"),
                         {QStringLiteral("*.yaml")}, QDir::Files, QDirIterator::Subdirectories);
    while (shipped.hasNext()) {
        const QString path = shipped.next();
        if (readFile(path).contains(QLatin1String("cluster_name:"))) {
            paths << path;
        }
    }
    paths.sort();
    QVERIFY(paths.size() >= 25);  // the folder is found and read
    for (const QString& path : paths) {
        QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
    }
}

// YAML -> form: every widget shows what the text says. Form -> YAML: writing back what is shown
// changes nothing; new values land in the text, which the engine's loader then reads as such,
// and every comment stays as written.
void TestClusterEditor::everyClusterFileRoundTripsThroughTheForm() {
    QFETCH(QString, path);
    ClusterEditor editor(kEngine);
    QVERIFY2(editor.load(path), qPrintable(editor.errorString()));
    const QString original = editor.text();
    const YamlText yaml(original);
    if (!yaml.isParsed()) {
        QVERIFY(child<QLabel>(editor, "formBanner")->isVisibleTo(editor.form()));
        QVERIFY(!child<QLineEdit>(editor, "clusterName")->isEnabled());
        return;
    }
    const ClusterFields fields = readClusterFields(yaml);
    QCOMPARE(editor.form()->shown().nodes, fields.nodes);
    for (const auto& [name, field] : kLineEdits) {
        QCOMPARE(child<QLineEdit>(editor, name)->text(), fields.value(field));
    }
    for (const auto& [name, list] : kLists) {
        QCOMPARE(listShown(editor, name), fields.list(list));
    }
    QCOMPARE(child<QTableWidget>(editor, "nodes")->rowCount(), int(fields.nodes.size()));
    for (int row = 0; row < fields.nodes.size(); ++row) {
        const ClusterNode& node = fields.nodes[row];
        QCOMPARE(tableRow(editor, "nodes", row, 5).mid(1),
                 QStringList({node.host, node.port, node.cpu, node.gpu}));
    }
    QCOMPARE(child<QTableWidget>(editor, "fileMounts")->rowCount(), int(fields.mounts.size()));
    for (int row = 0; row < fields.mounts.size(); ++row) {
        QCOMPARE(tableRow(editor, "fileMounts", row, 2),
                 QStringList({fields.mounts[row].remote, fields.mounts[row].local}));
    }

    // What is shown, written back, is no edit at all.
    for (const auto& [name, field] : kLineEdits) {
        emit child<QLineEdit>(editor, name)->editingFinished();
    }
    for (int row = 0; row < fields.nodes.size(); ++row) {
        setCell(editor, "nodes", row, 1, fields.nodes[row].host);
    }
    QCOMPARE(editor.text(), original);
    QVERIFY(!editor.isModified());

    const LoadResult<ClusterSpec> before = loadClusterText(original, path);
    if (!before.spec) {
        return;  // broken on purpose: the loader's golden test covers its messages
    }
    const bool ssh = before.spec->provider == tunedeck::ClusterProvider::Ssh;
    typeLine(editor, "clusterName", QStringLiteral("renamed"));
    typeLine(editor, "nodeTimeout", QStringLiteral("42"));
    if (ssh) {
        typeLine(editor, "sshUser", QStringLiteral("carol"));
        setCell(editor, "nodes", 0, 1, QStringLiteral("10.9.9.9"));
        if (fields.nodes.size() > 1) {
            setCell(editor, "nodes", 1, 3, QStringLiteral("3"));
        }
        if (fields.nodes.size() > 2) {
            setCell(editor, "nodes", int(fields.nodes.size()) - 1, 2, QStringLiteral("2999"));
        }
    }
    child<QToolButton>(editor, "setupCommandsAdd")->click();
    QListWidget* setup = child<QListWidget>(editor, "setupCommands");
    setup->item(setup->count() - 1)->setText(QStringLiteral("echo added, then more"));
    child<QToolButton>(editor, "addMount")->click();

    const QString edited = editor.text();
    QCOMPARE(commentsOf(edited), commentsOf(original));
    const LoadResult<ClusterSpec> after = loadClusterText(edited, path);
    QVERIFY2(after.spec, qPrintable(after.errorLines().join('\n') + "\n" + edited));
    QCOMPARE(after.spec->clusterName, QStringLiteral("renamed"));
    QCOMPARE(after.spec->nodeTimeoutS, 42.0);
    QCOMPARE(after.spec->setupCommands,
             before.spec->setupCommands + QStringList{"echo added, then more"});
    QCOMPARE(int(after.spec->fileMounts.size()), int(before.spec->fileMounts.size()) + 1);
    QCOMPARE(after.spec->fileMounts.back().remotePath, QStringLiteral("~/mount"));
    QCOMPARE(after.spec->initializationCommands, before.spec->initializationCommands);
    QCOMPARE(after.spec->rsyncExclude, before.spec->rsyncExclude);
    if (ssh) {
        QCOMPARE(after.spec->sshUser, QStringLiteral("carol"));
        QCOMPARE(int(after.spec->nodes.size()), int(before.spec->nodes.size()));
        QCOMPARE(after.spec->nodes[0].host, QStringLiteral("10.9.9.9"));
        QCOMPARE(after.spec->nodes[0].port, before.spec->nodes[0].port);
        if (before.spec->nodes.size() > 1) {
            QCOMPARE(after.spec->nodes[1].host, before.spec->nodes[1].host);
            QVERIFY(after.spec->nodes[1].resources.cpu == 3.0);
        }
        // The last worker may lie beyond max_workers, where the loader does not use it.
        const ClusterFields read = readClusterFields(YamlText(edited));
        if (fields.nodes.size() > 2) {
            QCOMPARE(read.nodes.back().port, QStringLiteral("2999"));
            QCOMPARE(read.nodes.back().host, fields.nodes.back().host);
        }
    }

    // And back: a second editor reading that text shows the same form.
    ClusterEditor again(kEngine);
    again.setText(edited);
    QCOMPARE(child<QLineEdit>(again, "clusterName")->text(), QStringLiteral("renamed"));
    QCOMPARE(again.form()->shown().nodes, editor.form()->shown().nodes);
    QCOMPARE(listShown(again, "setupCommands"), listShown(editor, "setupCommands"));
}

void TestClusterEditor::formEditsKeepCommentsByteIdentical() {
    ClusterEditor editor(kEngine);
    editor.setText(QStringLiteral(R"(# The lab's GPU boxes.
cluster_name: lab   # shown on every node
provider:
  type: ssh
  head_ip: 10.0.0.1      # the fast one
  worker_ips:
    # rack A
    - 10.0.0.2
    - "10.0.0.3:2222"   # odd port
    - host: 10.0.0.4    # a block mapping
      resources: {cpu: 4}
    # rack B
    - {host: 10.0.0.5, port: 2200}
auth:
  ssh_user: alice   # everyone's login
  ssh_port: 22
setup_commands:
  - echo one   # first
  # between
  - echo two
  - echo three   # last
file_mounts:
  "~/code": ./code   # the code
storage: copy
# the end
)"));
    typeLine(editor, "clusterName", QStringLiteral("lab-2"));
    setCell(editor, "nodes", 0, 1, QStringLiteral("10.0.0.9"));
    setCell(editor, "nodes", 1, 3, QStringLiteral("2"));
    setCell(editor, "nodes", 2, 2, QStringLiteral("2223"));
    setCell(editor, "nodes", 3, 4, QStringLiteral("1"));
    setCell(editor, "nodes", 4, 2, QString());
    typeLine(editor, "sshPort", QString());
    QListWidget* setup = child<QListWidget>(editor, "setupCommands");
    setup->item(1)->setText(QStringLiteral("echo 2"));
    setup->setCurrentRow(2);
    child<QToolButton>(editor, "setupCommandsRemove")->click();
    setCell(editor, "fileMounts", 0, 1, QStringLiteral("./src"));
    QComboBox* storage = child<QComboBox>(editor, "storage");
    storage->setCurrentIndex(storage->findData(QStringLiteral("shared")));
    emit storage->activated(storage->currentIndex());

    const QString expected = QStringLiteral(R"(# The lab's GPU boxes.
cluster_name: lab-2   # shown on every node
provider:
  type: ssh
  head_ip: 10.0.0.9      # the fast one
  worker_ips:
    # rack A
    - {host: 10.0.0.2, resources: {cpu: 2}}
    - "10.0.0.3:2223"   # odd port
    - host: 10.0.0.4    # a block mapping
      resources: {cpu: 4, gpu: 1}
    # rack B
    - {host: 10.0.0.5}
auth:
  ssh_user: alice   # everyone's login
setup_commands:
  - echo one   # first
  # between
  - echo 2
file_mounts:
  "~/code": ./src   # the code
storage: shared
# the end
)");
    QCOMPARE(editor.text(), expected);

    // A worker added and one removed: the other entries and their comments stay.
    child<QToolButton>(editor, "addWorker")->click();
    child<QTableWidget>(editor, "nodes")->setCurrentCell(2, 1);
    child<QToolButton>(editor, "removeWorker")->click();
    QVERIFY2(editor.text().contains(QStringLiteral("    - {host: 10.0.0.2, resources: {cpu: 2}}\n"
                                                   "    - host: 10.0.0.4    # a block mapping\n"
                                                   "      resources: {cpu: 4, gpu: 1}\n"
                                                   "    # rack B\n"
                                                   "    - {host: 10.0.0.5}\n"
                                                   "    - new-node\n"
                                                   "auth:\n")),
             qPrintable(editor.text()));
}

void TestClusterEditor::yamlEditsShowInTheFormAndUndoSpansBoth() {
    ClusterEditor editor(kEngine);
    editor.setText(QStringLiteral(
        "cluster_name: lab\nprovider: {type: ssh, head_ip: node1}\nauth: {ssh_user: bob}\n"));
    const QString original = editor.text();

    // A YAML edit shows in the form at once.
    QTextCursor cursor(editor.textEdit()->document());
    const qsizetype at = original.indexOf(QStringLiteral("node1"));
    cursor.setPosition(int(at));
    cursor.setPosition(int(at + 5), QTextCursor::KeepAnchor);
    cursor.insertText(QStringLiteral("\"node2:2022\""));
    QCOMPARE(tableRow(editor, "nodes", 0, 3), QStringList({"head", "node2", "2022"}));
    const QString typed = editor.text();

    // A form edit is one undo step, and undo shows in the form too.
    setCell(editor, "nodes", 0, 3, QStringLiteral("8"));
    QVERIFY2(editor.text().contains(
                 QStringLiteral("head_ip: {host: node2, port: 2022, resources: {cpu: 8}}")),
             qPrintable(editor.text()));
    typeLine(editor, "sshUser", QStringLiteral("carol"));
    QVERIFY(editor.text().contains(QStringLiteral("auth: {ssh_user: carol}")));
    editor.undo();
    QVERIFY(editor.text().contains(QStringLiteral("auth: {ssh_user: bob}")));
    QCOMPARE(child<QLineEdit>(editor, "sshUser")->text(), QStringLiteral("bob"));
    editor.undo();
    QCOMPARE(editor.text(), typed);
    QCOMPARE(tableRow(editor, "nodes", 0, 4).at(3), QString());
    editor.redo();
    QCOMPARE(tableRow(editor, "nodes", 0, 4).at(3), QStringLiteral("8"));

    // Text that does not parse leaves the form read-only with the reason above it.
    editor.setText(QStringLiteral("cluster_name: [lab\n"));
    QVERIFY(child<QLabel>(editor, "formBanner")->isVisibleTo(editor.form()));
    QVERIFY(!child<QLineEdit>(editor, "clusterName")->isEnabled());
}

void TestClusterEditor::validationProblemsArePinnedToTheirLines() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cluster.yaml"));
    QVERIFY(writeFile(path, QStringLiteral("# a lab\n"
                                           "cluster_name: lab\n"
                                           "provider:\n"
                                           "  type: ssh\n"
                                           "  head_ip: 10.0.0.1\n"
                                           "auth:\n"
                                           "  ssh_user: alice\n"
                                           "  ssh_port: 70000\n"
                                           "upscaling_speed: 1.0\n")));
    ClusterEditor editor(kEngine);
    QSignalSpy validated(&editor, &ClusterEditor::validated);
    QVERIFY(editor.load(path));
    QVERIFY(validated.wait(5000));
    QCOMPARE(validated.last().at(0).toBool(), false);
    QCOMPARE(int(editor.problems().size()), 2);
    const ClusterProblem& error = editor.problems()[0];
    QCOMPARE(error.line, 8);
    QCOMPARE(error.column, 13);
    QVERIFY2(error.message.startsWith(QStringLiteral("auth.ssh_port: must be a port")),
             qPrintable(error.message));
    QVERIFY(!error.warning);
    QCOMPARE(editor.problems()[1].line, 9);  // Ray's key: a warning, at its line
    QVERIFY(editor.problems()[1].warning);
    QCOMPARE(int(editor.textEdit()->problems().size()), 2);
    QCOMPARE(editor.textEdit()->problems()[0].line, 8);
    QCOMPARE(editor.tabs()->tabText(1), QStringLiteral("YAML (1 error(s))"));

    // Fixed in the form: the check follows the last edit, and the problem goes.
    typeLine(editor, "sshPort", QStringLiteral("2222"));
    QVERIFY(validated.wait(5000));
    QCOMPARE(validated.last().at(0).toBool(), true);
    QCOMPARE(int(editor.problems().size()), 1);
    QVERIFY(editor.problems()[0].warning);
    QCOMPARE(editor.tabs()->tabText(1), QStringLiteral("YAML"));

    // A problem picked in the list puts the YAML cursor on it.
    editor.showProblem(0);
    QCOMPARE(editor.tabs()->currentIndex(), 1);
    QCOMPARE(editor.textEdit()->textCursor().blockNumber() + 1, 9);
    screenshot(editor, QStringLiteral("cluster_editor"), QSize(1100, 820));  // the window's size
}

// What the main window's File menu opens: a window of its own, here on a file not written yet.
void TestClusterEditor::aNewClusterFileStartsValidAndIsWrittenOnSave() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("new-cluster.yaml"));
    QWidget parent;
    ClusterEditor* editor = openClusterEditor(&parent, path, kEngine);
    QVERIFY(editor);
    QPointer<QWidget> window = editor->window();
    QVERIFY(window != &parent && window->isVisible());
    // The title as the window system shows it, `*` while unsaved.
    QVERIFY(window->windowHandle()->title().startsWith(QStringLiteral("new-cluster.yaml*")));
    QVERIFY(editor->isModified());
    QSignalSpy validated(editor, &ClusterEditor::validated);
    QVERIFY(validated.wait(5000));
    QVERIFY2(validated.last().at(0).toBool(), qPrintable(editor->text()));
    QVERIFY(!QFile::exists(path));
    QVERIFY(editor->save());
    QCOMPARE(readFile(path), editor->text());
    QVERIFY(window->windowHandle()->title().startsWith(QStringLiteral("new-cluster.yaml -")));
    window->close();  // saved: closes without asking
    QTRY_VERIFY(window.isNull());
}

void TestClusterEditor::elasticClusterNodeTypesAreEditedAndStillValidate_data() {
    QTest::addColumn<QString>("path");
    QDirIterator shipped(QStringLiteral(TUNEDECK_SOURCE_DIR "/resources/examples/clusters"),
                         {QStringLiteral("*.yaml")}, QDir::Files);
    QStringList paths{
        QStringLiteral(TUNEDECK_SOURCE_DIR "/tests/config/golden/cluster/slurm.yaml")};
    while (shipped.hasNext()) {
        paths << shipped.next();
    }
    QVERIFY(paths.size() >= 4);  // AWS, GCP, Kubernetes and Slurm
    for (const QString& path : paths) {
        QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
    }
}

// Issue 19 in the editor: a Slurm or command cluster shows its provider, node types with their
// resources and limits, the scaling keys and (command) the four commands; a type's max_workers
// and the idle timeout edited in the form land in the file, which the real engine still
// validates, with every comment and every key the form does not show kept.
void TestClusterEditor::elasticClusterNodeTypesAreEditedAndStillValidate() {
    QFETCH(QString, path);
    QTemporaryDir dir;
    const QString cluster = dir.filePath(QStringLiteral("cluster.yaml"));
    const QString original = readFile(path);
    QVERIFY(writeFile(cluster, original));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("experiment.yaml")),
                      QStringLiteral("name: elastic\ntrainable: {command: \"true\"}\n"
                                     "search_space: {x: {uniform: [0, 1]}}\nnum_samples: 1\n"
                                     "metric: loss\nmode: min\ncluster: cluster.yaml\n")));
    const LoadResult<ClusterSpec> before = loadClusterText(original, cluster);
    QVERIFY2(before.spec, qPrintable(before.errorLines().join('\n')));
    QVERIFY(before.spec->elastic());

    ClusterEditor editor(kEngine);
    QVERIFY2(editor.load(cluster), qPrintable(editor.errorString()));
    editor.resize(1280, 800);
    editor.show();
    const bool slurm = before.spec->provider == tunedeck::ClusterProvider::Slurm;
    QCOMPARE(child<QComboBox>(editor, "provider")->currentData().toString(),
             slurm ? QStringLiteral("slurm") : QStringLiteral("command"));
    auto* types = editor.findChild<QTableWidget*>(QStringLiteral("nodeTypes"));
    QVERIFY(types);
    QVERIFY(types->isVisible());
    QVERIFY(!child<QTableWidget>(editor, "nodes")->isVisible());  // no host list here
    QCOMPARE(types->rowCount(), int(before.spec->nodeTypes.size()));
    const YamlText yaml(original);
    for (int row = 0; row < types->rowCount(); ++row) {
        const tunedeck::ClusterNodeType& type = before.spec->nodeTypes[size_t(row)];
        const QStringList at{QStringLiteral("available_node_types"), type.name};
        // Name, CPUs, GPUs, min, max: as written (empty: the default applies).
        const QString cpu = yaml.scalar(at + QStringList{"resources", "CPU"}) +
                            yaml.scalar(at + QStringList{"resources", "cpu"});
        const QString gpu = yaml.scalar(at + QStringList{"resources", "GPU"}) +
                            yaml.scalar(at + QStringList{"resources", "gpu"});
        QCOMPARE(tableRow(editor, "nodeTypes", row, 5),
                 QStringList({type.name, cpu, gpu, yaml.scalar(at + QStringList{"min_workers"}),
                              yaml.scalar(at + QStringList{"max_workers"})}));
    }
    QCOMPARE(child<QLineEdit>(editor, "upscalingSpeed")->text(), yaml.scalar({"upscaling_speed"}));
    QCOMPARE(child<QLineEdit>(editor, "idleTimeout")->text(),
             yaml.scalar({"idle_timeout_minutes"}));
    QCOMPARE(child<QLineEdit>(editor, "maxWorkers")->text(), yaml.scalar({"max_workers"}));
    QVERIFY(child<QLineEdit>(editor, "maxWorkers")->isEnabled());
    auto* create = editor.findChild<QPlainTextEdit*>(QStringLiteral("createCommand"));
    QVERIFY(create);
    QCOMPARE(create->isVisible(), !slurm);
    if (!slurm) {
        QCOMPARE(create->toPlainText(), yaml.scalar({"provider", "create"}).trimmed());
        QCOMPARE(child<QPlainTextEdit>(editor, "connectCommand")->toPlainText(),
                 yaml.scalar({"provider", "connect"}).trimmed());
    } else {
        QCOMPARE(child<QLineEdit>(editor, "workerPath")->text(),
                 yaml.scalar({"provider", "worker_path"}));
    }

    // What is shown, written back, is no edit at all.
    for (const char* name : {"upscalingSpeed", "idleTimeout", "workerPath"}) {
        emit child<QLineEdit>(editor, name)->editingFinished();
    }
    setCell(editor, "nodeTypes", 0, 4, types->item(0, 4)->text());
    QCOMPARE(editor.text(), original);

    // The first type's max_workers and the idle timeout, as a user types them.
    const int oldMax = before.spec->nodeTypes[0].maxWorkers;
    const int newMax = oldMax > 1 ? oldMax - 1 : oldMax + 1;
    setCell(editor, "nodeTypes", 0, 4, QString::number(newMax));
    typeLine(editor, "idleTimeout", QStringLiteral("7"));
    QVERIFY(editor.isModified());
    QVERIFY(editor.save());
    const QString saved = readFile(cluster);
    QCOMPARE(commentsOf(saved), commentsOf(original));

    QProcess validate;
    validate.setWorkingDirectory(dir.path());
    validate.start(kEngine, {QStringLiteral("validate"), QStringLiteral("experiment.yaml")});
    QVERIFY2(validate.waitForFinished(20000), qPrintable(validate.errorString()));
    const QString said =
        QString::fromUtf8(validate.readAllStandardOutput() + validate.readAllStandardError());
    QVERIFY2(validate.exitCode() == 0 && said.contains(QStringLiteral(": ok.")),
             qPrintable(said + "\n" + saved));
    const LoadResult<ClusterSpec> after = loadClusterText(saved, cluster);
    QVERIFY2(after.spec, qPrintable(after.errorLines().join('\n')));
    QCOMPARE(after.spec->nodeTypes[0].maxWorkers, newMax);
    QCOMPARE(after.spec->idleTimeoutS, 420.0);
    QCOMPARE(after.spec->nodeTypes.size(), before.spec->nodeTypes.size());
    for (size_t t = 0; t < after.spec->nodeTypes.size(); ++t) {  // the rest as it was
        QCOMPARE(after.spec->nodeTypes[t].cpu, before.spec->nodeTypes[t].cpu);
        QCOMPARE(after.spec->nodeTypes[t].nodeConfig, before.spec->nodeTypes[t].nodeConfig);
        QCOMPARE(after.spec->nodeTypes[t].slurm.partition,
                 before.spec->nodeTypes[t].slurm.partition);
    }
    QCOMPARE(after.spec->commands.connect.parts.size(), before.spec->commands.connect.parts.size());

    // And a second editor on the saved file shows the new limit.
    ClusterEditor again(kEngine);
    QVERIFY(again.load(cluster));
    QCOMPARE(tableRow(again, "nodeTypes", 0, 5)[4], QString::number(newMax));
    if (slurm) {
        screenshot(editor, QStringLiteral("cluster_editor_slurm"), QSize(1280, 800));
    } else if (QFileInfo(path).fileName() == QLatin1String("aws.yaml")) {
        screenshot(editor, QStringLiteral("cluster_editor_command"), QSize(1280, 800));
    }
}

void TestClusterEditor::theSummarySaysWhatTheFileDefines_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("summary");
    const QString examples = QStringLiteral(TUNEDECK_SOURCE_DIR "/resources/examples/clusters/");
    QTest::newRow("aws.yaml") << readFile(examples + "aws.yaml")
                              << QStringLiteral(
                                     "Valid: aws-lab makes nodes with your commands as trials "
                                     "wait (provider command, 2 node types): cpu-spot (4 CPUs): "
                                     "up to 8 workers; gpu-spot (4 CPUs, 1 GPU): up to 2 workers.");
    QTest::newRow("slurm.yaml") << readFile(examples + "slurm.yaml")
                                << QStringLiteral(
                                       "Valid: slurm-lab asks Slurm for nodes as trials wait (2 "
                                       "node types): cpu-node (8 CPUs): up to 4 workers; "
                                       "gpu-node (16 CPUs, 2 GPUs): up to 2 workers.");
    QTest::newRow("capped elastic")
        << QStringLiteral(
               "cluster_name: lab\nprovider: {type: slurm}\navailable_node_types:\n"
               "  small: {resources: {CPU: 2}, min_workers: 1, max_workers: 4}\n"
               "  big: {resources: {CPU: 32, GPU: 8}, max_workers: 2}\nmax_workers: 3\n")
        << QStringLiteral(
               "Valid: lab asks Slurm for nodes as trials wait (2 node types): small (2 CPUs): 1 "
               "to 4 workers; big (32 CPUs, 8 GPUs): up to 2 workers. At most 3 workers in all.");
    QTest::newRow("ssh") << QStringLiteral(
                                "cluster_name: rack\nprovider:\n  type: ssh\n"
                                "  head_ip: 10.0.0.1\n  worker_ips: [10.0.0.2, 10.0.0.3]\n"
                                "auth: {ssh_user: me}\n")
                         << QStringLiteral(
                                "Valid: rack: 3 nodes over SSH as me: 10.0.0.1 (head), 10.0.0.2, "
                                "10.0.0.3.");
    QTest::newRow("local") << QStringLiteral("cluster_name: laptop\nprovider: {type: local}\n")
                           << QStringLiteral("Valid: laptop runs trials on this machine only.");
}

// Issue 34.9: aws.yaml (command provider, two node types of up to 8 and 2 workers) read "Valid:
// aws-lab with 0 node(s) over SSH". The line under the editor says what the file defines, from
// the loader's spec, for each kind of provider.
void TestClusterEditor::theSummarySaysWhatTheFileDefines() {
    QFETCH(QString, text);
    QFETCH(QString, summary);
    QCOMPARE(applyAppearance({Theme::System, QStringLiteral("en")}), QStringLiteral("en"));
    ClusterEditor editor(kEngine);
    editor.setText(text);
    editor.validateNow();
    QCOMPARE(child<QLabel>(editor, "validationStatus")->text(), summary);
}

QTEST_MAIN(TestClusterEditor)
#include "tst_cluster_editor.moc"
