// The experiment editor's window as a user meets it (offscreen), opened from the real window
// attached to a real `tunedeck-engine serve`: unsaved edits put a `*` in its title, and neither
// closing it nor quitting the app loses them without asking Save / Discard / Cancel; Ctrl+Z and
// Ctrl+Shift+Z (and the menu's Undo and Redo) undo and redo wherever the focus is; Run on a file
// with mistakes keeps the editor in front and shows the engine's problems there, pinned to their
// lines, and saves nothing. Issue 18, defect 5.
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QWindow>
#include <QtTest>
#include <csignal>

#include "app_test_support.h"
#include "editors/experiment_editor.h"
#include "editors/yaml_text_edit.h"
#include "engine_harness.h"
#include "local_engine.h"
#include "message_box_answer.h"
#include "views/main_window.h"
#include "views/start_page.h"
#include "wait_for.h"

using tunedeck::app::ExperimentEditor;
using tunedeck::app::MainWindow;
using tunedeck::app::YamlTextEdit;
using namespace app_test;

namespace {

// The action of `window`'s menus whose text (without `&`) is `text`.
QAction* menuAction(QWidget* window, const QString& text) {
    for (QMenuBar* bar : window->findChildren<QMenuBar*>(Qt::FindDirectChildrenOnly)) {
        for (QAction* menu : bar->actions()) {
            for (QAction* action : menu->menu() ? menu->menu()->actions() : QList<QAction*>{}) {
                if (action->text().remove('&') == text) {
                    return action;
                }
            }
        }
    }
    qFatal("no menu action %s", qPrintable(text));
}

// The title the window system shows (the `[*]` placeholder replaced).
QString shownTitle(QWidget* window) {
    return window->windowHandle() ? window->windowHandle()->title() : QString();
}

// Types `text` at the end of the YAML tab's text, as a user would.
void typeAtEnd(ExperimentEditor* editor, const QString& text) {
    editor->tabs()->setCurrentIndex(1);
    editor->textEdit()->setFocus();
    editor->textEdit()->moveCursor(QTextCursor::End);
    const QStringList lines = text.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QTest::keyClicks(editor->textEdit(), lines[i]);
        if (i + 1 < lines.size()) {
            QTest::keyClick(editor->textEdit(), Qt::Key_Return);
        }
    }
}

}  // namespace

class TestAppEditorWindow : public QObject {
    Q_OBJECT

  private:
    static QString experimentFile(const EngineHarness& harness, const QString& fileName) {
        return harness.writeFile(fileName,
                                 QStringLiteral("name: race\n"
                                                "trainable: {command: [python3, \"@TRIAL@\"]}\n"
                                                "search_space:\n"
                                                "  x: {grid: [1, 2]}\n"
                                                "  iterations: 3\n"
                                                "metric: score\n"
                                                "mode: max\n"));
    }

    // Opens `path` in the window's editor and waits for the editor's window to be shown.
    static ExperimentEditor* edit(MainWindow& window, const QString& path) {
        const auto before = window.findChildren<ExperimentEditor*>();
        window.editExperimentFile(path);
        for (ExperimentEditor* editor : window.findChildren<ExperimentEditor*>()) {
            if (!before.contains(editor)) {
                return QTest::qWaitForWindowExposed(editor->window()) ? editor : nullptr;
            }
        }
        return nullptr;
    }

  private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }  // not the user's settings
    void unsavedEditsAreMarkedAndNeverLostWithoutAsking();
    void twoFilesOfOneNameHaveDistinctTitles();
    void recentFilesOfOneNameAreToldApart();
    void undoAndRedoAnswerTheKeyboardAndTheMenu();
    void runOnAFileWithMistakesKeepsTheEditorAndShowsTheProblems();
    void returnKeepsTheIndentationInTheYamlTab();
};

void TestAppEditorWindow::unsavedEditsAreMarkedAndNeverLostWithoutAsking() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    const QString race = experimentFile(harness, "race.yaml");
    const QString other = experimentFile(harness, "other.yaml");
    const QString raceOnDisk = readFile(race);
    ExperimentEditor* raceEditor = edit(window, race);
    ExperimentEditor* otherEditor = edit(window, other);
    QVERIFY(raceEditor && otherEditor);
    QPointer<QWidget> raceWindow = raceEditor->window();
    QPointer<QWidget> otherWindow = otherEditor->window();
    // Each editor window is named after its file.
    QVERIFY2(shownTitle(raceWindow).startsWith("race.yaml - "), qPrintable(shownTitle(raceWindow)));
    QVERIFY2(shownTitle(otherWindow).startsWith("other.yaml - "),
             qPrintable(shownTitle(otherWindow)));

    typeAtEnd(raceEditor, "# raced\n");
    typeAtEnd(otherEditor, "# other\n");
    QVERIFY2(shownTitle(raceWindow).startsWith("race.yaml* - "),
             qPrintable(shownTitle(raceWindow)));
    QVERIFY2(shownTitle(otherWindow).startsWith("other.yaml* - "),
             qPrintable(shownTitle(otherWindow)));

    // Closing an editor with unsaved edits asks; Discard closes it and leaves the file as it was.
    {
        MessageBoxAnswer discard("Discard");
        otherWindow->close();
        QVERIFY2(discard.answered(), qPrintable(discard.seen()));
        QVERIFY2(discard.seen().contains("other.yaml"), qPrintable(discard.seen()));
    }
    QTRY_VERIFY(otherWindow.isNull() || !otherWindow->isVisible());
    QVERIFY(!readFile(other).contains("# other"));

    // Quit with unsaved edits asks too; Cancel keeps every window open and every edit.
    QAction* quit = menuAction(&window, "Quit");
    {
        MessageBoxAnswer cancel("Cancel");
        quit->trigger();
        QVERIFY2(cancel.answered(), qPrintable(cancel.seen()));
        QVERIFY2(cancel.buttons().contains("Save") && cancel.buttons().contains("Discard"),
                 qPrintable(cancel.buttons().join(", ")));
    }
    QTest::qWait(200);
    QVERIFY(window.isVisible());
    QVERIFY(!raceWindow.isNull() && raceWindow->isVisible());
    QVERIFY(raceEditor->text().endsWith("# raced\n"));
    QCOMPARE(readFile(race), raceOnDisk);

    // Save writes the edits, then the app quits.
    {
        MessageBoxAnswer save("Save");
        quit->trigger();
        QVERIFY2(save.answered(), qPrintable(save.seen()));
    }
    QTRY_VERIFY(!window.isVisible());
    QCOMPARE(readFile(race), raceOnDisk + "# raced\n");
}

// Every template is an experiment.yaml in a folder of its own: the folder tells them apart.
void TestAppEditorWindow::twoFilesOfOneNameHaveDistinctTitles() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    QVERIFY(QDir(harness.root()).mkpath("quickstart") && QDir(harness.root()).mkpath("asha"));
    ExperimentEditor* first = edit(window, experimentFile(harness, "quickstart/experiment.yaml"));
    ExperimentEditor* second = edit(window, experimentFile(harness, "asha/experiment.yaml"));
    QVERIFY(first && second);
    QVERIFY2(shownTitle(first->window()).startsWith("experiment.yaml - quickstart - "),
             qPrintable(shownTitle(first->window())));
    QVERIFY2(shownTitle(second->window()).startsWith("experiment.yaml - asha - "),
             qPrintable(shownTitle(second->window())));
    // The same file again is the window already open, not a second one saving over it.
    window.editExperimentFile(harness.root() + "/asha/experiment.yaml");
    QCOMPARE(window.findChildren<ExperimentEditor*>().size(), 2);
}

// The start page's recent files: two experiment.yaml read by their folders, not as two
// identical rows cut off at the right.
void TestAppEditorWindow::recentFilesOfOneNameAreToldApart() {
    QSettings().remove("recent");
    QTemporaryDir root;
    for (const char* folder : {"quickstart", "asha"}) {
        QVERIFY(QDir(root.path()).mkpath(folder));
        const QString file = root.filePath(QString::fromLatin1(folder) + "/experiment.yaml");
        QVERIFY(writeFile(file, "name: x\n"));
        tunedeck::app::rememberRecent(tunedeck::app::RecentKind::File, file);
    }
    tunedeck::app::StartPage page;
    page.resize(1280, 800);
    page.show();
    auto* recent = child<QListWidget>(page, "recent");
    QCOMPARE(recent->count(), 2);
    QVERIFY2(recent->item(0)->text().startsWith("asha/experiment.yaml"),
             qPrintable(recent->item(0)->text()));
    QVERIFY2(recent->item(1)->text().startsWith("quickstart/experiment.yaml"),
             qPrintable(recent->item(1)->text()));
    // A long path is cut in its middle, so both ends stay readable.
    QCOMPARE(recent->textElideMode(), Qt::ElideMiddle);
    QSettings().remove("recent");
}

void TestAppEditorWindow::undoAndRedoAnswerTheKeyboardAndTheMenu() {
    // Two actions answering one key is what made Ctrl+Z do nothing.
    QTest::failOnWarning(QRegularExpression("Ambiguous shortcut"));
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    const QString path = experimentFile(harness, "race.yaml");
    ExperimentEditor* editor = edit(window, path);
    QVERIFY(editor);
    QWidget* editorWindow = editor->window();
    editorWindow->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(editorWindow));
    const QString original = editor->text();
    typeAtEnd(editor, "#");
    QCOMPARE(editor->text(), original + "#");

    // In the YAML tab.
    QTest::keyClick(editor->textEdit(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(editor->text(), original);
    QTest::keyClick(editor->textEdit(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(editor->text(), original + "#");

    // With the focus on the Form tab, where no text field takes the key for itself.
    editor->tabs()->setCurrentIndex(0);
    QTabBar* tabBar = editor->tabs()->tabBar();
    tabBar->setFocus();
    QTRY_VERIFY(tabBar->hasFocus());
    QTest::keyClick(tabBar, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(editor->text(), original);
    QTest::keyClick(tabBar, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(editor->text(), original + "#");

    // And from the menu.
    menuAction(editorWindow, "Undo")->trigger();
    QCOMPARE(editor->text(), original);
    menuAction(editorWindow, "Redo")->trigger();
    QCOMPARE(editor->text(), original + "#");
}

void TestAppEditorWindow::runOnAFileWithMistakesKeepsTheEditorAndShowsTheProblems() {
    EngineHarness harness;
    app_test::LocalEngine engine;
    MainWindow window;
    QVERIFY(engine.startAttached(harness, &window));
    const QString path = experimentFile(harness, "race.yaml");
    const QString onDisk = readFile(path);
    ExperimentEditor* editor = edit(window, path);
    QVERIFY(editor);
    QWidget* editorWindow = editor->window();
    editorWindow->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(editorWindow));
    // Line 8: a misspelt key. Run at once, before the editor's own check after a pause.
    const int wrongLine = int(onDisk.count('\n')) + 1;
    typeAtEnd(editor, "num_sample: 3\n");
    menuAction(editorWindow, "Run")->trigger();

    // The problem is shown in the editor, with its line, and the YAML tab's cursor on it.
    auto* problems = child<QListWidget>(*editor, "problems");
    QVERIFY(waitFor([&] { return problems->isVisible() && problems->count() > 0; }, 20000));
    QVERIFY2(problems->item(0)->text().startsWith(QStringLiteral("Line %1:").arg(wrongLine)),
             qPrintable(problems->item(0)->text()));
    QVERIFY2(problems->item(0)->text().contains("num_samples"),  // did you mean
             qPrintable(problems->item(0)->text()));
    QCOMPARE(editor->textEdit()->problems().value(0).line, wrongLine);
    QCOMPARE(editor->tabs()->currentIndex(), 1);
    QCOMPARE(editor->textEdit()->textCursor().blockNumber() + 1, wrongLine);
    const QString status = child<QLabel>(*editor, "validationStatus")->text();
    QVERIFY2(status.contains("not started", Qt::CaseInsensitive), qPrintable(status));

    // The editor stays in front; nothing was saved or started.
    QTest::qWait(500);
    QVERIFY(editorWindow->isVisible());
    QCOMPARE(QApplication::activeWindow(), editorWindow);
    QCOMPARE(readFile(path), onDisk);
    QVERIFY(window.currentExperiment().isEmpty());
}

// Issue 34.11: Return after an indented line started the next one at column 0, so every key
// typed into a mapping had to be indented by hand (and a forgotten space made it a key of the
// parent). The new line takes the indentation of the line it leaves, two more after a "key:"
// whose value is to come.
void TestAppEditorWindow::returnKeepsTheIndentationInTheYamlTab() {
    EngineHarness harness;
    MainWindow window;
    window.show();
    ExperimentEditor* editor = edit(window, experimentFile(harness, "race.yaml"));
    QVERIFY(editor);
    editor->tabs()->setCurrentIndex(1);
    YamlTextEdit* text = editor->textEdit();
    text->setFocus();
    const auto endOfLine = [&](const QString& line) {
        const QTextBlock block = text->document()->find(line).block();
        QVERIFY2(block.isValid(), qPrintable(line));
        QTextCursor cursor(block);
        cursor.movePosition(QTextCursor::EndOfBlock);
        text->setTextCursor(cursor);
    };
    endOfLine("  iterations: 3");
    QTest::keyClick(text, Qt::Key_Return);
    QTest::keyClicks(text, "sleep: 0.1");
    QVERIFY2(editor->text().contains("\n  iterations: 3\n  sleep: 0.1\n"),
             qPrintable(editor->text()));
    endOfLine("search_space:");
    QTest::keyClick(text, Qt::Key_Return);
    QTest::keyClicks(text, "y: {grid: [3]}");
    QVERIFY2(editor->text().contains("search_space:\n  y: {grid: [3]}\n  x: {grid: [1, 2]}\n"),
             qPrintable(editor->text()));
    // A line at the top level stays there.
    endOfLine("mode: max");
    QTest::keyClick(text, Qt::Key_Return);
    QTest::keyClicks(text, "seed: 1");
    QVERIFY2(editor->text().contains("mode: max\nseed: 1"), qPrintable(editor->text()));
    screenshot(*editor->window(), "yaml-return-keeps-indentation", QSize(1280, 800));
    // One undo takes back the typed key, a second the line break with its indentation.
    QTest::keyClick(text, Qt::Key_Z, Qt::ControlModifier);
    QTest::keyClick(text, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY2(editor->text().contains("mode: max\n") && !editor->text().contains("seed"),
             qPrintable(editor->text()));
}

QTEST_MAIN(TestAppEditorWindow)
#include "test_app_editor_window.moc"
