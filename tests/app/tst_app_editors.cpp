// The experiment editor (offscreen): every form field round-trips through the YAML text, form
// edits leave comments and untouched text byte-identical, undo spans both tabs, the search-space
// table reads every domain and writes edits back, and a real `tunedeck-engine serve` pins its
// validation problems to the right lines. With TUNEDECK_SCREENSHOT_DIR set it saves the editor.
#include <QComboBox>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QSpinBox>
#include <QStyleOptionComboBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QToolButton>
#include <QtTest>
#include <algorithm>
#include <csignal>

#include "app_test_support.h"
#include "editors/experiment_editor.h"
#include "editors/experiment_form.h"
#include "editors/search_space_model.h"
#include "editors/search_space_table.h"
#include "engine_harness.h"
#include "views/appearance.h"
#include "wait_for.h"

using namespace tunedeck::app;
using tunedeck::client::EngineClient;
using namespace app_test;

namespace {

// The fixtures in tests/app/editors/: commented.yaml has comments at every level, a key the form
// never touches, and flow and block styles mixed; every_domain.yaml has every domain, a constant,
// a nested group, a condition and a choice of groups.
QString fixture(const char* name) {
    QFile file(QStringLiteral(TUNEDECK_TEST_DATA_DIR "/editors/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly)) {
        qFatal("cannot read %s", name);
    }
    return QString::fromUtf8(file.readAll());
}

void pick(QWidget& editor, const char* name, const QString& value) {
    QComboBox* picker = child<QComboBox>(editor, name);
    picker->setCurrentIndex(picker->findData(value));
    emit picker->activated(picker->currentIndex());
}

QStringList commandShown(QWidget& editor) {
    QListWidget* list = child<QListWidget>(editor, "command");
    QStringList arguments;
    for (int row = 0; row < list->count(); ++row) {
        arguments << list->item(row)->text();
    }
    return arguments;
}

int rowOf(const SearchSpaceModel& model, const QString& name) {
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.rows()[row].name == name) {
            return row;
        }
    }
    return -1;
}

QString cell(const SearchSpaceModel& model, const QString& name, int column) {
    return model.index(rowOf(model, name), column).data().toString();
}

}  // namespace

class TestAppEditors : public QObject {
    Q_OBJECT

  private:
    struct Engine {
        EngineHarness harness;
        std::unique_ptr<QProcess> process;
        EngineClient client;
        ~Engine() {
            client.close();
            if (process && process->state() == QProcess::Running) {
                ::kill(pid_t(process->processId()), SIGTERM);
                process->waitForFinished(30000);
            }
        }
        bool start() {
            const QString socket = harness.root() + "/engine.sock";
            process = harness.start(
                {"serve", "--listen", "unix:" + socket, "--results", harness.resultsRoot()});
            if (!waitFor([&] { return QFile::exists(socket); }, 20000)) {
                return false;
            }
            client.setLocalServer(socket);
            client.open(200);
            return waitFor([&] { return client.isReady(); }, 20000);
        }
    };

  private slots:
    void everyValueOfTheBundledFilesIsReplacedInPlace();
    void everyFormFieldRoundTripsThroughTheYaml();
    void formEditsKeepCommentsByteIdentical();
    void undoAndRedoSpanBothTabs();
    void searchSpaceTableReadsEveryDomain();
    void searchSpaceTableWritesEditsBack();
    void withoutAnEngineTheEditorSaysSo();
    void validationProblemsArePinnedToTheirLines();
    void theAlgorithmPickersShowWholeInGerman();
    void schedulerOptionsAndStopCriteriaRoundTripThroughTheForm();
    void anOptionOfANamedAlgorithmTurnsItIntoAMapping();
};

// Every scalar and flow value of every example and golden experiment file: writing its own text
// back changes nothing, writing another value gives a file that reads that value, and a new key
// lands in every mapping. This is what keeps form and table edits from breaking a user's file.
void recurseValues(const YamlText& yaml, const QString& file, const QStringList& path, int* count) {
    const QStringList added = path + QStringList{QStringLiteral("zz_added")};
    if (auto insert = yaml.setValue(added, QStringLiteral("7"))) {
        const YamlText after(applyEdits(yaml.text(), {*insert}));
        QVERIFY2(after.scalar(added) == "7", qPrintable(file + ": " + added.join('.')));
    }
    for (const QString& key : yaml.keys(path)) {
        const QStringList at = path + QStringList{key};
        const bool block = (yaml.kind(at) == YamlText::Kind::Mapping ||
                            yaml.kind(at) == YamlText::Kind::Sequence) &&
                           !yaml.isFlow(at);
        const TextSpan span = yaml.span(at);
        if (span.isValid() && !block) {
            const auto same = yaml.setValue(at, yaml.source(span));
            QVERIFY(same);
            QCOMPARE(applyEdits(yaml.text(), {*same}), yaml.text());
        }
        const auto other = yaml.setValue(at, QStringLiteral("other"));
        QVERIFY2(other, qPrintable(file + ": " + at.join('.')));
        const YamlText after(applyEdits(yaml.text(), {*other}));
        QVERIFY2(after.scalar(at) == "other",
                 qPrintable(file + ": " + at.join('.') + "\n" + after.text()));
        ++*count;
        if (yaml.kind(at) == YamlText::Kind::Mapping) {
            recurseValues(yaml, file, at, count);
        }
    }
}

void TestAppEditors::everyValueOfTheBundledFilesIsReplacedInPlace() {
    int count = 0;
    for (const char* folder : {"/resources/examples", "/tests/config/golden"}) {
        QDirIterator files(QStringLiteral(TUNEDECK_SOURCE_DIR) + QLatin1String(folder),
                           {QStringLiteral("*.yaml")}, QDir::Files, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            const QString path = files.next();
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const YamlText yaml(QString::fromUtf8(file.readAll()));
            if (yaml.isParsed()) {  // some golden files are broken on purpose
                recurseValues(yaml, path, {}, &count);
            }
        }
    }
    QVERIFY2(count > 500, qPrintable(QString::number(count)));
}

void TestAppEditors::everyFormFieldRoundTripsThroughTheYaml() {
    ExperimentEditor editor(nullptr, nullptr);
    editor.setText(QStringLiteral("name: first\ntrainable:\n  command: python3 train.py\n"));

    typeLine(editor, "name", QStringLiteral("second"));
    QListWidget* command = child<QListWidget>(editor, "command");
    QCOMPARE(commandShown(editor), QStringList({"python3", "train.py"}));
    command->item(1)->setText(QStringLiteral("my train.py"));  // one argument with a blank
    typeLine(editor, "workingDir", QStringLiteral("code"));
    typeLine(editor, "metric", QStringLiteral("loss, latency_ms"));
    QComboBox* mode = child<QComboBox>(editor, "mode");
    mode->setCurrentText(QStringLiteral("min, max"));
    emit mode->lineEdit()->editingFinished();
    child<QSpinBox>(editor, "numSamples")->setValue(12);
    child<QSpinBox>(editor, "maxConcurrentTrials")->setValue(3);
    pick(editor, "searchAlgorithm", QStringLiteral("tpe"));
    pick(editor, "schedulerType", QStringLiteral("hyperband"));
    child<QSpinBox>(editor, "checkpointFrequency")->setValue(5);
    child<QSpinBox>(editor, "maxFailures")->setValue(-1);

    // What the engine will read: every value the form set is in the text.
    const YamlText yaml(editor.text());
    QVERIFY2(yaml.isParsed(), qPrintable(editor.text()));
    const ExperimentFields read = readExperimentFields(yaml);
    QCOMPARE(read.name, QStringLiteral("second"));
    QCOMPARE(yaml.items({"trainable", "command"}), QStringList({"python3", "my train.py"}));
    QCOMPARE(read.workingDir, QStringLiteral("code"));
    QCOMPARE(read.metric, QStringList({"loss", "latency_ms"}));
    QCOMPARE(read.mode, QStringList({"min", "max"}));
    QCOMPARE(yaml.scalar({"num_samples"}), QStringLiteral("12"));
    QCOMPARE(yaml.scalar({"max_concurrent_trials"}), QStringLiteral("3"));
    QCOMPARE(yaml.scalar({"search"}), QStringLiteral("tpe"));
    QCOMPARE(yaml.scalar({"scheduler"}), QStringLiteral("hyperband"));
    QCOMPARE(yaml.scalar({"checkpoint", "frequency"}), QStringLiteral("5"));
    QCOMPARE(yaml.scalar({"failure", "max_failures"}), QStringLiteral("-1"));

    // And back: a second editor reading that text shows the same form.
    ExperimentEditor again(nullptr, nullptr);
    again.setText(editor.text());
    QCOMPARE(child<QLineEdit>(again, "name")->text(), QStringLiteral("second"));
    QCOMPARE(commandShown(again), QStringList({"python3", "my train.py"}));
    QCOMPARE(child<QLineEdit>(again, "workingDir")->text(), QStringLiteral("code"));
    QCOMPARE(child<QLineEdit>(again, "metric")->text(), QStringLiteral("loss, latency_ms"));
    QCOMPARE(child<QComboBox>(again, "mode")->currentText(), QStringLiteral("min, max"));
    QCOMPARE(child<QSpinBox>(again, "numSamples")->value(), 12);
    QCOMPARE(child<QSpinBox>(again, "maxConcurrentTrials")->value(), 3);
    QCOMPARE(child<QComboBox>(again, "searchAlgorithm")->currentData().toString(),
             QStringLiteral("tpe"));
    QCOMPARE(child<QComboBox>(again, "schedulerType")->currentData().toString(),
             QStringLiteral("hyperband"));
    QCOMPARE(child<QSpinBox>(again, "checkpointFrequency")->value(), 5);
    QCOMPARE(child<QSpinBox>(again, "maxFailures")->value(), -1);

    // A YAML edit shows in the form at once.
    QTextCursor cursor(editor.textEdit()->document());
    const qsizetype at = editor.text().indexOf(QStringLiteral("second"));
    cursor.setPosition(int(at));
    cursor.setPosition(int(at + 6), QTextCursor::KeepAnchor);
    cursor.insertText(QStringLiteral("third"));
    QCOMPARE(child<QLineEdit>(editor, "name")->text(), QStringLiteral("third"));
}

void TestAppEditors::formEditsKeepCommentsByteIdentical() {
    ExperimentEditor editor(nullptr, nullptr);
    editor.setText(fixture("commented.yaml"));
    typeLine(editor, "name", QStringLiteral("renamed"));
    child<QSpinBox>(editor, "numSamples")->setValue(20);
    pick(editor, "schedulerType", QStringLiteral("median"));
    child<QSpinBox>(editor, "maxFailures")->setValue(2);
    child<QSpinBox>(editor, "maxConcurrentTrials")->setValue(4);
    typeLine(editor, "metric", QStringLiteral("val_loss"));

    const QString expected = QStringLiteral(R"(# An experiment with comments everywhere.
name: renamed   # the results folder
trainable:
  # the program
  command: python3 train.py --lr {lr}
  env: {OMP_NUM_THREADS: "1"}   # untouched by the form
search_space:
  lr: {loguniform: [1.0e-4, 1.0e-1]}   # learning rate
  layers:
    randint: [2, 8]
num_samples: 20   # how many configs
metric: val_loss
mode: min
scheduler: {type: median, max_t: 30}   # stop the weak early
failure:
  fail_fast: true   # stop at the first error
  max_failures: 2
max_concurrent_trials: 4
# the end
)");
    QCOMPARE(editor.text(), expected);

    // The command, edited as a list, becomes a list; the lines around it stay as they were.
    child<QListWidget>(editor, "command")->item(2)->setText(QStringLiteral("--learning-rate"));
    QVERIFY2(editor.text().contains(QStringLiteral(
                 "  # the program\n  command: [python3, train.py, --learning-rate, \"{lr}\"]\n"
                 "  env: {OMP_NUM_THREADS: \"1\"}   # untouched by the form\n")),
             qPrintable(editor.text()));
}

void TestAppEditors::undoAndRedoSpanBothTabs() {
    ExperimentEditor editor(nullptr, nullptr);
    editor.setText(fixture("commented.yaml"));
    const QString original = editor.text();
    child<QSpinBox>(editor, "numSamples")->setValue(9);
    const QString edited = editor.text();
    QVERIFY(edited.contains(QStringLiteral("num_samples: 9   # how many configs")));
    editor.undo();
    QCOMPARE(editor.text(), original);
    QCOMPARE(child<QSpinBox>(editor, "numSamples")->value(), 4);
    editor.redo();
    QCOMPARE(editor.text(), edited);
    QCOMPARE(child<QSpinBox>(editor, "numSamples")->value(), 9);
    QVERIFY(editor.isModified());

    // A table edit is one undo step too.
    SearchSpaceModel* model = editor.searchSpace()->model();
    model->setData(model->index(rowOf(*model, "lr"), SearchSpaceModel::High), "0.5", Qt::EditRole);
    QVERIFY(waitFor([&] { return editor.text().contains("[1.0e-4, 0.5]"); }, 2000));
    editor.undo();
    QCOMPARE(editor.text(), edited);
}

void TestAppEditors::searchSpaceTableReadsEveryDomain() {
    ExperimentEditor editor(nullptr, nullptr);
    editor.setText(fixture("every_domain.yaml"));
    const SearchSpaceModel& model = *editor.searchSpace()->model();
    QStringList names;
    for (const ParameterRow& row : model.rows()) {
        names << row.name;
    }
    QCOMPARE(names, QStringList({"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k",
                                 "model.width", "model.depth", "momentum", "arch"}));
    using M = SearchSpaceModel;
    const QList<QPair<QString, QStringList>> expected{
        // name: domain, low, high, q, mean, sd, values
        {"a", {"uniform", "0.5", "0.99", "", "", "", ""}},
        {"b", {"quniform", "0", "10", "0.5", "", "", ""}},
        {"c", {"loguniform", "1.0e-4", "1.0e-1", "", "", "", ""}},
        {"d", {"qloguniform", "1", "1000", "5", "", "", ""}},
        {"e", {"randint", "2", "8", "", "", "", ""}},
        {"f", {"qrandint", "0", "100", "10", "", "", ""}},
        {"g", {"lograndint", "1", "1024", "", "", "", ""}},
        {"h", {"normal", "", "", "", "0", "2.5", ""}},
        {"i", {"qnormal", "", "", "1", "10", "3", ""}},
        {"j", {"choice", "", "", "", "", "", "sgd, adam, rmsprop"}},
        {"k", {"grid", "", "", "", "", "", "1, 2, 3"}},
        {"model.width", {"constant", "", "", "", "", "", "128"}},
        {"model.depth", {"grid", "", "", "", "", "", "18, 50"}},
    };
    for (const auto& [name, columns] : expected) {
        QStringList shown;
        for (int column = M::Domain; column <= M::Values; ++column) {
            shown << cell(model, name, column);
        }
        QCOMPARE(shown, columns);
    }
    const auto checked = [&](const char* name) {
        return model.index(rowOf(model, name), M::LogScale).data(Qt::CheckStateRole);
    };
    QCOMPARE(checked("c"), QVariant(Qt::Checked));
    QCOMPARE(checked("a"), QVariant(Qt::Unchecked));
    QVERIFY(!checked("h").isValid());  // normal has no log twin
    QCOMPARE(cell(model, "momentum", M::Condition), QStringLiteral("{j: sgd}"));
    // A field the domain does not take cannot be edited; a choice of groups only as text.
    QVERIFY(!(model.flags(model.index(rowOf(model, "a"), M::Q)) & Qt::ItemIsEditable));
    QVERIFY(model.flags(model.index(rowOf(model, "b"), M::Q)) & Qt::ItemIsEditable);
    QVERIFY(!(model.flags(model.index(rowOf(model, "arch"), M::Values)) & Qt::ItemIsEditable));

    // k (3 values) and model.depth (2) are swept, nested or not.
    QCOMPARE(editor.searchSpace()->gridText(),
             QStringLiteral("Grid: 3 × 2 = 6 combination(s) × 5 sample(s) = 30 trial(s)"));
    child<QSpinBox>(editor, "numSamples")->setValue(2);
    QCOMPARE(editor.searchSpace()->gridText(),
             QStringLiteral("Grid: 3 × 2 = 6 combination(s) × 2 sample(s) = 12 trial(s)"));
}

void TestAppEditors::searchSpaceTableWritesEditsBack() {
    ExperimentEditor editor(nullptr, nullptr);
    editor.resize(1100, 800);
    editor.show();
    editor.setText(fixture("every_domain.yaml"));
    QTest::qWait(ExperimentEditor::kValidateDelayMs + 100);
    screenshot(editor, "editor-every-domain");
    SearchSpaceModel* model = editor.searchSpace()->model();
    using M = SearchSpaceModel;
    auto edit = [&](const char* name, int column, const QVariant& value, const QString& line) {
        const int role = column == M::LogScale ? Qt::CheckStateRole : Qt::EditRole;
        QVERIFY(model->setData(model->index(rowOf(*model, name), column), value, role));
        QVERIFY2(waitFor([&] { return editor.text().contains(line); }, 2000),
                 qPrintable(editor.text()));
    };
    edit("a", M::High, "0.95", QStringLiteral("  a: {uniform: [0.5, 0.95]}\n"));
    edit("k", M::Values, "1, 2, 3, 4", QStringLiteral("  k:\n    grid: [1, 2, 3, 4]\n  model:"));
    edit("e", M::LogScale, Qt::Checked, QStringLiteral("  e: {lograndint: [2, 8]}\n"));
    edit("model.width", M::Values, "256", QStringLiteral("    width: 256\n"));

    // The domain picker offers every domain; picking one writes it with its own fields.
    QTableView* view = editor.searchSpace()->view();
    const QModelIndex domainOfA = model->index(rowOf(*model, "a"), M::Domain);
    view->setCurrentIndex(domainOfA);
    view->edit(domainOfA);
    auto* picker = view->findChild<QComboBox*>(QStringLiteral("domainPicker"));
    QVERIFY(picker);
    QStringList offered;
    for (int i = 0; i < picker->count(); ++i) {
        offered << picker->itemData(i).toString();
    }
    QCOMPARE(offered, domainNames());
    picker->setCurrentIndex(picker->findData(QStringLiteral("quniform")));
    emit picker->activated(picker->currentIndex());
    QVERIFY2(waitFor([&] { return editor.text().contains("  a: {quniform: [0.5, 0.95, 0.1]}\n"); },
                     2000),
             qPrintable(editor.text()));
    QCOMPARE(cell(*model, "a", M::Q), QStringLiteral("0.1"));
    QVERIFY(model->flags(model->index(rowOf(*model, "a"), M::Q)) & Qt::ItemIsEditable);
    edit("h", M::Domain, "choice", QStringLiteral("  h: {choice: [0, 2.5]}\n"));
    QCOMPARE(cell(*model, "h", M::Values), QStringLiteral("0, 2.5"));
    QCOMPARE(cell(*model, "h", M::Mean), QString());

    // Everything else is as it was: the comment inside k's old list went with the list only.
    QString expected = fixture("every_domain.yaml");
    expected.replace("a: {uniform: [0.5, 0.99]}", "a: {quniform: [0.5, 0.95, 0.1]}");
    expected.replace("e: {randint: [2, 8]}", "e: {lograndint: [2, 8]}");
    expected.replace("h: {normal: [0, 2.5]}", "h: {choice: [0, 2.5]}");
    expected.replace("    grid:\n      - 1\n      - 2   # two\n      - 3\n",
                     "    grid: [1, 2, 3, 4]\n");
    expected.replace("width: 128", "width: 256");
    QCOMPARE(editor.text(), expected);
    QCOMPARE(editor.searchSpace()->gridText(),
             QStringLiteral("Grid: 4 × 2 = 8 combination(s) × 5 sample(s) = 40 trial(s)"));
}

void TestAppEditors::withoutAnEngineTheEditorSaysSo() {
    EngineClient client;  // never opened
    ExperimentEditor editor(&client, nullptr);
    editor.setText(fixture("commented.yaml"));
    QLabel* status = child<QLabel>(editor, "validationStatus");
    QVERIFY(waitFor([&] { return status->text().contains("No engine connected"); },
                    ExperimentEditor::kValidateDelayMs + 2000));
    QVERIFY(editor.problems().isEmpty());
}

void TestAppEditors::validationProblemsArePinnedToTheirLines() {
    Engine engine;
    QVERIFY(engine.start());
    const QString path = engine.harness.writeFile(
        QStringLiteral("broken.yaml"),
        QStringLiteral("# a typo and an empty range\n"                   // 1
                       "name: broken\n"                                  // 2
                       "trainable: {command: [python3, \"@TRIAL@\"]}\n"  // 3
                       "search_space:\n"                                 // 4
                       "  x: {uniform: [1, 0]}\n"                        // 5
                       "num_sample: 3\n"));                              // 6
    ExperimentEditor editor(&engine.client, nullptr);
    editor.resize(1100, 800);
    editor.show();
    QSignalSpy validated(&editor, &ExperimentEditor::validated);
    QVERIFY(editor.load(path));
    QVERIFY(validated.wait(20000));
    QCOMPARE(validated.last().at(0).toBool(), false);
    QList<int> lines;
    for (const ValidationProblem& problem : editor.problems()) {
        QVERIFY2(problem.pinned, qPrintable(problem.file + ": " + problem.message));
        lines << problem.line;
    }
    QCOMPARE(lines, QList<int>({5, 6}));
    QVERIFY(editor.problems()[0].message.contains("search_space.x"));
    QVERIFY(editor.problems()[1].message.contains("num_samples"));  // "did you mean"
    QList<int> marked;
    for (const LineProblem& problem : editor.textEdit()->problems()) {
        marked << problem.line;
    }
    QCOMPARE(marked, QList<int>({5, 6}));
    QCOMPARE(editor.textEdit()->extraSelections().size(), 2);  // the two lines tinted
    screenshot(editor, "editor-form-problems");

    // Clicking a message puts the cursor on its line in the YAML tab.
    QListWidget* list = child<QListWidget>(editor, "problems");
    QCOMPARE(list->count(), 2);
    emit list->itemClicked(list->item(1));
    QCOMPARE(editor.tabs()->currentIndex(), 1);
    QCOMPARE(editor.textEdit()->textCursor().blockNumber() + 1, 6);
    screenshot(editor, "editor-yaml-problems");

    // Fixing the text in the YAML tab validates it again by itself, after the pause.
    QTextCursor cursor = editor.textEdit()->textCursor();
    cursor.movePosition(QTextCursor::StartOfBlock);
    cursor.insertText(QStringLiteral("#"));  // comments out num_sample
    const qsizetype range = editor.text().indexOf(QStringLiteral("[1, 0]"));
    cursor.setPosition(int(range));
    cursor.setPosition(int(range + 6), QTextCursor::KeepAnchor);
    cursor.insertText(QStringLiteral("[0, 1]"));
    QVERIFY(validated.wait(20000));
    QCOMPARE(validated.last().at(0).toBool(), true);
    QCOMPARE(validated.last().at(1).toInt(), 0);
    QVERIFY(editor.textEdit()->problems().isEmpty());
    QVERIFY(child<QLabel>(editor, "validationStatus")->text().startsWith("Valid"));

    // The grid size under the table is what the engine counts.
    QVERIFY(editor.load(engine.harness.writeFile("domains.yaml", fixture("every_domain.yaml"))));
    QVERIFY(validated.wait(20000));
    QVERIFY2(validated.last().at(0).toBool(), qPrintable(editor.problems().value(0).message));
    QVERIFY2(child<QLabel>(editor, "validationStatus")->text().endsWith(", 30 trial(s)."),
             qPrintable(child<QLabel>(editor, "validationStatus")->text()));
    QVERIFY(editor.searchSpace()->gridText().endsWith(" = 30 trial(s)"));

    // The bundled ASHA example, as a user opens it.
    if (!qgetenv("TUNEDECK_SCREENSHOT_DIR").isEmpty()) {
        QVERIFY(editor.load(
            QStringLiteral(TUNEDECK_SOURCE_DIR "/resources/examples/asha/experiment.yaml")));
        QVERIFY(validated.wait(20000));
        editor.tabs()->setCurrentIndex(0);
        QTest::qWait(100);
        screenshot(editor, "editor-form-asha");
        editor.tabs()->setCurrentIndex(1);
        QTest::qWait(100);
        screenshot(editor, "editor-yaml-asha");
    }
}

// The field of `name` in the editor, or null (a QVERIFY in the caller says which is missing).
QLineEdit* optionField(QWidget& editor, const QString& name) {
    return editor.findChild<QLineEdit*>(name);
}

QString runEngine(const QStringList& arguments, const QString& folder, int* exitCode) {
    QProcess engine;
    engine.setWorkingDirectory(folder);
    engine.start(QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck-engine"), arguments);
    if (!engine.waitForFinished(120000)) {
        *exitCode = -1;
        return engine.errorString();
    }
    *exitCode = engine.exitCode();
    return QString::fromUtf8(engine.readAllStandardOutput() + engine.readAllStandardError());
}

// Issue 34.10: the form showed the scheduler's defaults ("max_t = 100 (default)") for the ASHA
// example's `{type: asha, max_t: 30, grace_period: 2, reduction_factor: 3}`, and no `stop:`.
// It shows the file's values (the defaults, marked, where the file is silent), and the scheduler
// options and stop criteria edited in the form land in the file that the real engine then runs:
// its trials stop where the edited criteria say.
void TestAppEditors::schedulerOptionsAndStopCriteriaRoundTripThroughTheForm() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("asha")));
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("quickstart")));
    const QString examples = QStringLiteral(TUNEDECK_SOURCE_DIR "/resources/examples/");
    const QString path = dir.filePath(QStringLiteral("asha/experiment.yaml"));
    const QString original = readFile(examples + "asha/experiment.yaml");
    QVERIFY(writeFile(path, original));
    QVERIFY(QFile::copy(examples + "quickstart/train.py",
                        dir.filePath(QStringLiteral("quickstart/train.py"))));

    ExperimentEditor editor(nullptr, nullptr);
    QVERIFY(editor.load(path));
    editor.resize(1280, 800);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));

    // What the file says, not the catalogue's defaults.
    for (QLabel* label : editor.form()->findChildren<QLabel*>()) {
        QVERIFY2(!label->text().contains(QStringLiteral("max_t = 100")), qPrintable(label->text()));
    }
    for (const auto& [name, value] : {std::pair{"max_t", "30"}, std::pair{"grace_period", "2"},
                                      std::pair{"reduction_factor", "3"}}) {
        QLineEdit* field = optionField(editor, QStringLiteral("schedulerOption_") + name);
        QVERIFY2(field, name);
        QCOMPARE(field->text(), QString::fromLatin1(value));
    }
    QLineEdit* timeAttr = optionField(editor, QStringLiteral("schedulerOption_time_attr"));
    QVERIFY2(timeAttr, "time_attr");
    QCOMPARE(timeAttr->text(), QString());  // not in the file: its default, marked as one
    QCOMPARE(timeAttr->placeholderText(), QStringLiteral("training_iteration (default)"));
    auto* stop = editor.findChild<QTableWidget*>(QStringLiteral("stopCriteria"));
    QVERIFY2(stop, "no stop criteria in the form");
    QCOMPARE(stop->rowCount(), 1);
    QCOMPARE(stop->item(0, 0)->text(), QStringLiteral("training_iteration"));
    QCOMPARE(stop->item(0, 1)->text(), QStringLiteral("30"));
    screenshot(editor, QStringLiteral("editor-form-asha-options"));

    // A sweep made short in the form: 2 samples, ASHA up to 4 iterations from the first, the
    // default reduction factor, and stop at iteration 3 or once val_loss is down to 0.05.
    child<QSpinBox>(editor, "numSamples")->setValue(2);
    typeLine(editor, "schedulerOption_max_t", QStringLiteral("4"));
    typeLine(editor, "schedulerOption_grace_period", QStringLiteral("1"));
    typeLine(editor, "schedulerOption_reduction_factor", QString());
    stop->item(0, 1)->setText(QStringLiteral("3"));
    QTest::mouseClick(child<QToolButton>(editor, "addStopCriterion"), Qt::LeftButton);
    QCOMPARE(stop->rowCount(), 2);
    QCOMPARE(stop->item(1, 0)->text(), QStringLiteral("time_total_s"));
    stop->item(1, 0)->setText(QStringLiteral("val_loss"));
    stop->item(1, 1)->setText(QStringLiteral("0.05"));

    QString expected = original;
    expected.replace(QStringLiteral("num_samples: 16"), QStringLiteral("num_samples: 2"));
    expected.replace(
        QStringLiteral("scheduler: {type: asha, max_t: 30, grace_period: 2, reduction_factor: 3}"),
        QStringLiteral("scheduler: {type: asha, max_t: 4, grace_period: 1}"));
    expected.replace(QStringLiteral("stop:\n  training_iteration: 30\n"),
                     QStringLiteral("stop:\n  training_iteration: 3\n  val_loss: 0.05\n"));
    QCOMPARE(editor.text(), expected);  // every other byte, the comments too, as written
    QCOMPARE(stop->item(1, 0)->text(), QStringLiteral("val_loss"));
    QVERIFY(editor.save());

    // The real engine runs the saved file: two trials, none past iteration 3 (the stop
    // criterion), at least one reaching it (ASHA, from iteration 1 on, may stop the other).
    int exitCode = 0;
    const QString results = dir.filePath(QStringLiteral("results"));
    const QString ran = runEngine({QStringLiteral("run"), QStringLiteral("experiment.yaml"),
                                   QStringLiteral("--results"), results, QStringLiteral("--quiet")},
                                  dir.filePath(QStringLiteral("asha")), &exitCode);
    QVERIFY2(exitCode == 0, qPrintable(ran));
    const QString exported = runEngine({QStringLiteral("export"), results + "/asha",
                                        QStringLiteral("--format"), QStringLiteral("json")},
                                       dir.path(), &exitCode);
    QVERIFY2(exitCode == 0, qPrintable(exported));
    const QJsonArray trials = QJsonDocument::fromJson(exported.toUtf8()).array();
    QCOMPARE(trials.size(), 2);
    int furthest = 0;
    for (const QJsonValue& trial : trials) {
        const QJsonArray reported = trial[QStringLiteral("results")].toArray();
        QVERIFY(!reported.isEmpty());
        const int last = reported.last()[QStringLiteral("training_iteration")].toInt();
        QVERIFY2(last <= 3, qPrintable(QString::number(last)));
        furthest = std::max(furthest, last);
    }
    QCOMPARE(furthest, 3);

    // A second editor on the saved file shows the new values and the default again.
    ExperimentEditor again(nullptr, nullptr);
    QVERIFY(again.load(path));
    QCOMPARE(child<QLineEdit>(again, "schedulerOption_max_t")->text(), QStringLiteral("4"));
    QCOMPARE(child<QLineEdit>(again, "schedulerOption_reduction_factor")->text(), QString());
    QCOMPARE(child<QLineEdit>(again, "schedulerOption_reduction_factor")->placeholderText(),
             QStringLiteral("4 (default)"));
    QCOMPARE(child<QTableWidget>(again, "stopCriteria")->rowCount(), 2);
}

// `search: tpe` and `scheduler: asha` name the algorithm alone (SCHEMA.md's short form): an
// option typed in the form makes each a mapping with the option beside the name; clearing the
// stop criterion's value removes it, and `stop:` with it.
void TestAppEditors::anOptionOfANamedAlgorithmTurnsItIntoAMapping() {
    ExperimentEditor editor(nullptr, nullptr);
    editor.setText(
        QStringLiteral("name: short\ntrainable: {command: python3 train.py}\n"
                       "search_space: {x: {uniform: [0, 1]}}\nmetric: loss\n"
                       "mode: min\nsearch: tpe  # Optuna's default sampler\n"
                       "scheduler: asha\nstop: {training_iteration: 9}\n"));
    QLineEdit* startup = optionField(editor, QStringLiteral("searchOption_n_startup_trials"));
    QVERIFY2(startup, "n_startup_trials");
    QCOMPARE(startup->placeholderText(), QStringLiteral("10 (default)"));
    typeLine(editor, "searchOption_n_startup_trials", QStringLiteral("5"));
    typeLine(editor, "schedulerOption_max_t", QStringLiteral("10"));
    typeLine(editor, "schedulerOption_time_attr", QStringLiteral("epoch"));
    auto* stop = editor.findChild<QTableWidget*>(QStringLiteral("stopCriteria"));
    QVERIFY2(stop, "no stop criteria in the form");
    stop->item(0, 1)->setText(QString());
    QCOMPARE(editor.text(),
             QStringLiteral("name: short\ntrainable: {command: python3 train.py}\n"
                            "search_space: {x: {uniform: [0, 1]}}\nmetric: loss\nmode: min\n"
                            "search: {algorithm: tpe, n_startup_trials: 5}  # Optuna's default "
                            "sampler\nscheduler: {type: asha, max_t: 10, time_attr: epoch}\n"));
    QCOMPARE(child<QLineEdit>(editor, "searchOption_n_startup_trials")->text(),
             QStringLiteral("5"));
    QCOMPARE(stop->rowCount(), 0);
}

QTEST_MAIN(TestAppEditors)
// The tour's German screenshots at 1280x800 cut both pickers off ("random — Zufallsziehungen,
// Grid-Parameter werden durchlaufen (B", "asha — asynchrones Successive Halving: stoppt auf
// jeder Stufe die"): each shows its name whole, its description under it.
void TestAppEditors::theAlgorithmPickersShowWholeInGerman() {
    QCOMPARE(applyAppearance({Theme::Light, QStringLiteral("de")}), QStringLiteral("de"));
    {
        ExperimentEditor editor(nullptr, nullptr);
        editor.setText(QStringLiteral("name: a\ntrainable:\n  command: python3 train.py\n"));
        editor.resize(1280, 800);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        for (const char* name : {"searchAlgorithm", "schedulerType"}) {
            QComboBox* picker = child<QComboBox>(editor, name);
            for (int i = 0; i < picker->count(); ++i) {
                picker->setCurrentIndex(i);
                QStyleOptionComboBox option;
                option.initFrom(picker);
                const QRect field = picker->style()->subControlRect(
                    QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, picker);
                QVERIFY2(
                    picker->fontMetrics().horizontalAdvance(picker->currentText()) <= field.width(),
                    qPrintable(QStringLiteral("%1 in %2 px")
                                   .arg(picker->currentText())
                                   .arg(field.width())));
            }
        }
    }
    applyAppearance({Theme::System, QStringLiteral("en")});
}

#include "tst_app_editors.moc"
