#include "editors/experiment_editor_window.h"

#include <QMenuBar>

#include "editors/experiment_editor.h"

namespace tunedeck::app {

ExperimentEditorWindow* ExperimentEditorWindow::open(const QString& path,
                                                     client::EngineClient* client, QWidget* parent,
                                                     QString* error) {
    auto* editor = new ExperimentEditor(client);
    if (!editor->load(path)) {
        *error = editor->errorString();
        delete editor;
        return nullptr;
    }
    return new ExperimentEditorWindow(editor, parent);
}

ExperimentEditorWindow::ExperimentEditorWindow(ExperimentEditor* editor, QWidget* parent)
    : EditorWindow(editor, tr("Tunedeck editor"), parent), editor_(editor) {
    setAttribute(Qt::WA_DeleteOnClose);
    QMenu* menu = menuBar()->addMenu(tr("&Experiment"));
    menu->addAction(tr("&Save"), QKeySequence::Save, this, &EditorWindow::save);
    menu->addAction(tr("&Run"), QKeySequence(tr("Ctrl+Return")), editor_,
                    &ExperimentEditor::checkAndRun);
    menu->addSeparator();
    addUndoRedo(menu);
    connect(editor_, &ExperimentEditor::readyToRun, this, [this] {
        if (save()) {
            emit runRequested(editor_->path());
        }
    });
    fitToScreen(QSize(1240, 900));  // the form and the search space without scrolling
}

void ExperimentEditorWindow::showRunOutcome(const QString& refusal) {
    if (refusal.isEmpty()) {
        lower();  // the monitor, raised by the caller, shows the run
        return;
    }
    editor_->showRunRefused(refusal);
    raise();
    activateWindow();
}

}  // namespace tunedeck::app
