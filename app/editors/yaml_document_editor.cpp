#include "editors/yaml_document_editor.h"

#include <QAction>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QTabWidget>
#include <QToolButton>
#include <algorithm>

namespace tunedeck::app {

namespace {

// The verdict under the editor, wrapped: a layout may not squeeze it below the lines its text
// takes at its width (in a small window a wrapped label was cut to half its lines).
class StatusLine : public QLabel {
  public:
    QSize minimumSizeHint() const override {
        QSize hint = QLabel::minimumSizeHint();
        if (width() > 0) {
            hint.setHeight(std::max(hint.height(), heightForWidth(width())));
        }
        return hint;
    }

  protected:
    void resizeEvent(QResizeEvent* event) override {
        QLabel::resizeEvent(event);
        if (heightForWidth(width()) != lastNeeded_) {
            lastNeeded_ = heightForWidth(width());
            updateGeometry();
        }
    }

  private:
    int lastNeeded_ = -1;
};

}  // namespace

namespace {

QToolButton* toolButton(QAction* action) {
    auto* button = new QToolButton;
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    button->setAutoRaise(true);
    return button;
}

}  // namespace

YamlDocumentEditor::YamlDocumentEditor(const QString& untitled, const QString& noFileYet,
                                       QWidget* parent)
    : QWidget(parent), untitled_(untitled), noFileYet_(noFileYet) {
    textEdit_ = new YamlTextEdit;
    textEdit_->setObjectName(QStringLiteral("yamlText"));

    undo_ = new QAction(style()->standardIcon(QStyle::SP_ArrowBack), tr("Undo"), this);
    undo_->setShortcuts(QKeySequence::Undo);
    redo_ = new QAction(style()->standardIcon(QStyle::SP_ArrowForward), tr("Redo"), this);
    redo_->setShortcuts(QKeySequence::Redo);  // Ctrl+Shift+Z and Ctrl+Y
    for (QAction* action : {undo_, redo_}) {
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        action->setEnabled(false);
        addAction(action);
    }
    connect(undo_, &QAction::triggered, this, &YamlDocumentEditor::undo);
    connect(redo_, &QAction::triggered, this, &YamlDocumentEditor::redo);
    QTextDocument* document = textEdit_->document();
    connect(document, &QTextDocument::undoAvailable, undo_, &QAction::setEnabled);
    connect(document, &QTextDocument::redoAvailable, redo_, &QAction::setEnabled);
    connect(document, &QTextDocument::modificationChanged, this,
            &YamlDocumentEditor::modificationChanged);
    connect(document, &QTextDocument::contentsChanged, this, [this] { onTextChanged(); });

    pathLabel_ = new QLabel(untitled_);
    pathLabel_->setObjectName(QStringLiteral("editorPath"));
    pathLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pathLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    pathLabel_->installEventFilter(this);

    status_ = new StatusLine;
    status_->setObjectName(QStringLiteral("validationStatus"));
    status_->setWordWrap(true);
    problemList_ = new QListWidget;
    problemList_->setObjectName(QStringLiteral("problems"));
    problemList_->setIconSize(QSize(16, 16));
    problemList_->hide();
    problemList_->setMaximumHeight(problemList_->fontMetrics().height() * 8);
    connect(problemList_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { showProblem(problemList_->row(item)); });
    connect(problemList_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { showProblem(problemList_->row(item)); });

    validateTimer_.setSingleShot(true);
    validateTimer_.setInterval(kValidateDelayMs);
    connect(&validateTimer_, &QTimer::timeout, this, [this] { validateNow(); });
}

YamlDocumentEditor::~YamlDocumentEditor() = default;

QTabWidget* YamlDocumentEditor::makeTabs(QWidget* formPage) {
    tabs_ = new QTabWidget;
    tabs_->setObjectName(QStringLiteral("editorTabs"));
    tabs_->addTab(formPage, tr("Form"));
    tabs_->addTab(textEdit_, tr("YAML"));
    return tabs_;
}

QHBoxLayout* YamlDocumentEditor::makeTopBar() {
    auto* top = new QHBoxLayout;
    top->addWidget(pathLabel_, 1);
    top->addWidget(toolButton(undo_));
    top->addWidget(toolButton(redo_));
    return top;
}

bool YamlDocumentEditor::load(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error_ = tr("Cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    const QString text = QString::fromUtf8(file.readAll());
    setPath(path);
    setText(text);
    emit pathChanged(path_);
    return true;
}

void YamlDocumentEditor::setPath(const QString& path) {
    path_ = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    showPath();
}

void YamlDocumentEditor::showPath() {
    const QString path = path_.isEmpty() ? untitled_ : path_;
    pathLabel_->setToolTip(path);
    pathLabel_->setText(
        pathLabel_->fontMetrics().elidedText(path, Qt::ElideMiddle, pathLabel_->width()));
}

bool YamlDocumentEditor::eventFilter(QObject* watched, QEvent* event) {
    if (watched == pathLabel_ && event->type() == QEvent::Resize) {
        showPath();
    }
    return QWidget::eventFilter(watched, event);
}

bool YamlDocumentEditor::save() {
    if (path_.isEmpty()) {
        error_ = noFileYet_;
        return false;
    }
    return textEdit_->saveTo(path_, &error_);
}

bool YamlDocumentEditor::saveAs(const QString& path) {
    const QString previous = path_;
    path_ = QFileInfo(path).absoluteFilePath();
    if (!save()) {
        path_ = previous;
        return false;
    }
    setPath(path_);
    emit pathChanged(path_);
    validateTimer_.start();  // relative paths now start from the new folder
    return true;
}

bool YamlDocumentEditor::isModified() const {
    return textEdit_->document()->isModified();
}

QString YamlDocumentEditor::text() const {
    return textEdit_->toPlainText();
}

void YamlDocumentEditor::setText(const QString& text) {
    textEdit_->setYamlText(text);
}

void YamlDocumentEditor::undo() {
    textEdit_->undo();
}

void YamlDocumentEditor::redo() {
    textEdit_->redo();
}

void YamlDocumentEditor::applyEdits(const QList<TextEdit>& edits) {
    textEdit_->applyEdits(edits);
}

void YamlDocumentEditor::listProblems(const QList<ListedProblem>& problems) {
    listed_ = problems;
    QList<LineProblem> pinned;
    problemList_->clear();
    for (const ListedProblem& problem : problems) {
        if (problem.line > 0) {
            pinned << LineProblem{problem.line, problem.column, problem.message, problem.warning};
        }
        auto* item = new QListWidgetItem(
            style()->standardIcon(problem.warning ? QStyle::SP_MessageBoxWarning
                                                  : QStyle::SP_MessageBoxCritical),
            problem.text, problemList_);
        item->setToolTip(problem.message);
    }
    textEdit_->setProblems(pinned);
    problemList_->setVisible(!problems.isEmpty());
    const int errors = int(std::count_if(problems.begin(), problems.end(),
                                         [](const ListedProblem& p) { return !p.warning; }));
    tabs_->setTabText(YamlTab, errors ? tr("YAML (%n error(s))", nullptr, errors) : tr("YAML"));
}

void YamlDocumentEditor::showProblem(int row) {
    if (row < 0 || row >= listed_.size() || listed_[row].line <= 0) {
        return;
    }
    tabs_->setCurrentIndex(YamlTab);
    textEdit_->goTo(listed_[row].line, listed_[row].column);
    textEdit_->setFocus();
}

}  // namespace tunedeck::app
