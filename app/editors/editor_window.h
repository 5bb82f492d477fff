// The window of one YAML editor (experiment or cluster file): named after its file, with `*`
// in the title while the text has unsaved edits, and never losing them without asking Save /
// Discard / Cancel, whether the window is closed or the app quits (the main window asks every
// editor window first). Its menus list the editor's own Undo and Redo actions. It opens no larger
// than the screen's available area (a laptop's 1280x800, or that at 200% scaling: 640x400), and
// the editor scrolls inside it when the window is smaller than the editor can shrink to.
// Thread-safety: GUI thread only.
#pragma once

#include <QMainWindow>

class QMenu;

namespace tunedeck::app {

class YamlDocumentEditor;

class EditorWindow : public QMainWindow {
    Q_OBJECT
  public:
    // Shows `editor` as the central widget; the title reads "FILE[*] - FOLDER - `kind`".
    EditorWindow(YamlDocumentEditor* editor, const QString& kind, QWidget* parent);

    YamlDocumentEditor* document() const { return editor_; }
    // Saves (asking for a file when the text has none); says why not in a message box.
    bool save();
    // With unsaved edits, asks Save / Discard / Cancel. True when the window may close: nothing
    // to save, saved, or discarded (a Discard holds until the text changes again, so the close
    // that follows does not ask twice).
    bool settleUnsavedEdits();
    // Adds the editor's Undo and Redo (the same actions, with their shortcuts) to `menu`.
    void addUndoRedo(QMenu* menu);
    // Sizes the window to `preferred`, or to the available area of its screen where that is
    // smaller (leaving room for the window manager's frame). Once shown, a window whose frame
    // sticks out of the available area is moved and shrunk into it.
    void fitToScreen(const QSize& preferred);

  protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    void updateTitle();
    void keepInsideScreen();

    YamlDocumentEditor* editor_;
    QString kind_;
    bool discarded_ = false;
};

}  // namespace tunedeck::app
