// What the experiment and the cluster editors have in common: one YAML file shown as a form and
// as text in two tabs, the text document being the one gateway for changes (one undo stack for
// both tabs); its path above with undo and redo; validation started kValidateDelayMs after the
// last edit; and the problems found, listed below and pinned to their lines. A subclass builds
// its form, lays the parts out, reads the text on each change and validates it.
// Thread-safety: GUI thread only.
#pragma once

#include <QTimer>
#include <QWidget>

#include "editors/yaml_text_edit.h"

class QAction;
class QHBoxLayout;
class QLabel;
class QListWidget;
class QTabWidget;

namespace tunedeck::app {

// A problem as the list below the editor shows it.
struct ListedProblem {
    QString text;     // the list's line: "Line 4: metric: ..."
    QString message;  // its tooltip: the problem alone
    bool warning = false;
    int line = 0;  // 1-based, in this text; 0 when it is not pinned to one
    int column = 0;
};

class YamlDocumentEditor : public QWidget {
    Q_OBJECT
  public:
    ~YamlDocumentEditor() override;

    // Reads `path` (relative paths in it start from its folder); false with errorString() set
    // when it cannot be read.
    bool load(const QString& path);
    // Writes the text to path() atomically; false without a path or on a write error.
    bool save();
    bool saveAs(const QString& path);
    QString path() const { return path_; }
    QString errorString() const { return error_; }
    bool isModified() const;

    QString text() const;
    // Replaces the whole text and starts a new undo history.
    void setText(const QString& text);

    YamlTextEdit* textEdit() const { return textEdit_; }
    QTabWidget* tabs() const { return tabs_; }
    // Undo and Redo with their shortcuts, answering while the focus is anywhere in the editor.
    // A window's menu lists these same actions: a second action on the same keys would make
    // both keys do nothing ("Ambiguous shortcut overload").
    QAction* undoAction() const { return undo_; }
    QAction* redoAction() const { return redo_; }

    // How long after the last edit the text is validated.
    static constexpr int kValidateDelayMs = 400;

  public slots:
    void undo();
    void redo();
    // Validates the text now instead of after the delay.
    virtual void validateNow() = 0;
    // Moves the YAML tab's cursor to the problem at `row` of the list.
    void showProblem(int row);

  signals:
    void validated(bool valid, int problems);
    void modificationChanged(bool modified);
    void pathChanged(const QString& path);

  protected:
    enum Tab { FormTab = 0, YamlTab = 1 };

    // `untitled` labels a text without a file; `noFileYet` is save()'s error then.
    YamlDocumentEditor(const QString& untitled, const QString& noFileYet, QWidget* parent);

    // The tabs, with `formPage` first and the text second; call once from the constructor.
    QTabWidget* makeTabs(QWidget* formPage);
    // The path, then undo and redo: the start of the bar above the tabs.
    QHBoxLayout* makeTopBar();
    // The subclass's view of the text after every change (and once when it is built).
    virtual void onTextChanged() = 0;
    // Shows `problems` in the list (hidden when empty), pins them in the text and counts the
    // errors in the YAML tab's title.
    void listProblems(const QList<ListedProblem>& problems);
    void applyEdits(const QList<TextEdit>& edits);
    // Sets path() (absolute; empty for a text without a file) and shows it; pathChanged() is the
    // caller's to emit, once the text is in place.
    void setPath(const QString& path);

    QString path_;
    QString error_;
    YamlTextEdit* textEdit_;
    QTabWidget* tabs_ = nullptr;
    QLabel* status_;
    QListWidget* problemList_;
    QTimer validateTimer_;

    // Shows the path again when its label is resized.
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    // The path, elided in the middle to the label's width (a narrow window keeps the file name).
    void showPath();

    QString untitled_;
    QString noFileYet_;
    QLabel* pathLabel_;
    QAction* undo_;
    QAction* redo_;
    QList<ListedProblem> listed_;
};

}  // namespace tunedeck::app
