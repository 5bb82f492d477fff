#include "editors/editor_window.h"

#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QTextDocument>

#include "editors/yaml_document_editor.h"

namespace tunedeck::app {

EditorWindow::EditorWindow(YamlDocumentEditor* editor, const QString& kind, QWidget* parent)
    : QMainWindow(parent), editor_(editor), kind_(kind) {
    setCentralWidget(editor_);
    connect(editor_, &YamlDocumentEditor::modificationChanged, this, &QWidget::setWindowModified);
    connect(editor_, &YamlDocumentEditor::pathChanged, this, &EditorWindow::updateTitle);
    connect(editor_->textEdit()->document(), &QTextDocument::contentsChanged, this,
            [this] { discarded_ = false; });
    updateTitle();
    setWindowModified(editor_->isModified());
}

void EditorWindow::updateTitle() {
    if (editor_->path().isEmpty()) {
        setWindowTitle(tr("%1[*] - %2").arg(tr("Untitled"), kind_));
        return;
    }
    // The folder too: every template's file is experiment.yaml. `[*]` is where Qt shows the `*`
    // of windowModified.
    const QFileInfo file(editor_->path());
    setWindowTitle(tr("%1[*] - %2 - %3").arg(file.fileName(), file.absoluteDir().dirName(), kind_));
}

bool EditorWindow::save() {
    if (editor_->path().isEmpty()) {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save as"), QString(),
                                                          tr("YAML files (*.yaml *.yml)"));
        if (path.isEmpty()) {
            return false;
        }
        if (editor_->saveAs(path)) {
            return true;
        }
    } else if (editor_->save()) {
        return true;
    }
    QMessageBox::warning(this, tr("Save"), editor_->errorString());
    return false;
}

bool EditorWindow::settleUnsavedEdits() {
    if (!editor_->isModified() || discarded_) {
        return true;
    }
    raise();
    activateWindow();
    const QString file =
        editor_->path().isEmpty() ? tr("the untitled file") : QFileInfo(editor_->path()).fileName();
    QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                    tr("Save the changes to %1 before closing?").arg(file),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setInformativeText(tr("Your changes are lost if you do not save them."));
    box.setDefaultButton(QMessageBox::Save);
    // Our own words: Qt's translations of its buttons are not installed everywhere.
    box.button(QMessageBox::Save)->setText(tr("Save"));
    box.button(QMessageBox::Discard)->setText(tr("Discard"));
    box.button(QMessageBox::Cancel)->setText(tr("Cancel"));
    switch (box.exec()) {
        case QMessageBox::Save:
            return save();
        case QMessageBox::Discard:
            discarded_ = true;
            return true;
        default:
            return false;
    }
}

void EditorWindow::addUndoRedo(QMenu* menu) {
    menu->addAction(editor_->undoAction());
    menu->addAction(editor_->redoAction());
}

void EditorWindow::closeEvent(QCloseEvent* event) {
    if (!settleUnsavedEdits()) {
        event->ignore();
        return;
    }
    event->accept();
}

}  // namespace tunedeck::app
