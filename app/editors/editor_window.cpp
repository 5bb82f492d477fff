#include "editors/editor_window.h"

#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QShowEvent>
#include <QTextDocument>
#include <QTimer>
#include <algorithm>

#include "editors/yaml_document_editor.h"

namespace tunedeck::app {

EditorWindow::EditorWindow(YamlDocumentEditor* editor, const QString& kind, QWidget* parent)
    : QMainWindow(parent), editor_(editor), kind_(kind) {
    // On a screen smaller than the editor's minimum the editor scrolls instead of running off
    // the window (its last lines and buttons out of reach).
    auto* scroller = new QScrollArea;
    scroller->setObjectName(QStringLiteral("editorScroller"));
    scroller->setFrameShape(QFrame::NoFrame);
    scroller->setWidgetResizable(true);
    scroller->setWidget(editor_);
    setCentralWidget(scroller);
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

namespace {

// Room for a title bar and borders the window manager adds around a window not yet shown.
constexpr int kFrameAllowance = 48;

QRect availableArea(const QWidget* window) {
    const QScreen* screen = window->screen();
    return screen ? screen->availableGeometry() : QRect();
}

}  // namespace

void EditorWindow::fitToScreen(const QSize& preferred) {
    const QRect area = availableArea(this);
    if (!area.isValid()) {
        resize(preferred);
        return;
    }
    // Known once the window has been shown; before that, a typical frame's size.
    QSize frame = frameGeometry().size() - size();
    if (!isVisible() || frame.isEmpty()) {
        frame = QSize(kFrameAllowance / 4, kFrameAllowance);
    }
    resize(preferred.boundedTo(area.size() - frame));
}

void EditorWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    QTimer::singleShot(0, this, &EditorWindow::keepInsideScreen);  // the frame is known by then
}

void EditorWindow::keepInsideScreen() {
    const QRect area = availableArea(this);
    const QRect frame = frameGeometry();
    if (!area.isValid() || area.contains(frame)) {
        return;
    }
    const QSize border = frame.size() - size();
    resize(size().boundedTo(area.size() - border));
    const QSize outer = frameGeometry().size();
    move(std::clamp(frame.left(), area.left(),
                    std::max(area.left(), area.right() + 1 - outer.width())),
         std::clamp(frame.top(), area.top(),
                    std::max(area.top(), area.bottom() + 1 - outer.height())));
}

void EditorWindow::closeEvent(QCloseEvent* event) {
    if (!settleUnsavedEdits()) {
        event->ignore();
        return;
    }
    event->accept();
}

}  // namespace tunedeck::app
