#include "editors/yaml_text_edit.h"

#include <QSaveFile>
#include <algorithm>

#include <QFontDatabase>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

#include "editors/yaml_highlighter.h"

namespace tunedeck::app {

namespace {

const QColor kErrorColour(0xd3, 0x2f, 0x2f);
const QColor kWarningColour(0xf5, 0x9e, 0x0b);

QColor tint(const QColor& colour) {
    QColor light = colour;
    light.setAlpha(48);
    return light;
}

}  // namespace

class YamlTextEdit::Gutter : public QWidget {
  public:
    explicit Gutter(YamlTextEdit* editor) : QWidget(editor), editor_(editor) {}
    QSize sizeHint() const override { return {editor_->gutterWidth(), 0}; }

  protected:
    void paintEvent(QPaintEvent* event) override { editor_->paintGutter(event); }
    bool event(QEvent* event) override {
        if (event->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(event);
            const QString text = editor_->tooltipAt(help->pos().y());
            if (text.isEmpty()) {
                QToolTip::hideText();
            } else {
                QToolTip::showText(help->globalPos(), text, this);
            }
            return true;
        }
        return QWidget::event(event);
    }

  private:
    YamlTextEdit* editor_;
};

YamlTextEdit::YamlTextEdit(QWidget* parent) : QPlainTextEdit(parent), gutter_(new Gutter(this)) {
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabChangesFocus(false);
    setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2);
    new YamlHighlighter(document());
    connect(this, &QPlainTextEdit::blockCountChanged, this,
            [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, &YamlTextEdit::updateGutter);
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

int YamlTextEdit::gutterWidth() const {
    int digits = 2;
    for (int count = std::max(1, blockCount()); count >= 100; count /= 10) {
        ++digits;
    }
    const int marker = fontMetrics().height();
    return marker + 8 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

void YamlTextEdit::setYamlText(const QString& text) {
    QString plain = text;
    plain.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    if (plain.startsWith(QChar(0xFEFF))) {
        plain.remove(0, 1);
    }
    setPlainText(plain);
    document()->setModified(false);
}

void YamlTextEdit::applyEdits(const QList<TextEdit>& edits) {
    QList<TextEdit> ordered = edits;
    std::sort(ordered.begin(), ordered.end(),
              [](const TextEdit& a, const TextEdit& b) { return a.start > b.start; });
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    for (const TextEdit& edit : ordered) {
        cursor.setPosition(int(edit.start));
        cursor.setPosition(int(edit.end), QTextCursor::KeepAnchor);
        cursor.insertText(edit.text);
    }
    cursor.endEditBlock();
}

bool YamlTextEdit::saveTo(const QString& path, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(toPlainText().toUtf8()) < 0 ||
        !file.commit()) {
        *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    document()->setModified(false);
    return true;
}

void YamlTextEdit::setProblems(const QList<LineProblem>& problems) {
    problems_ = problems;
    updateTints();
    gutter_->update();
}

void YamlTextEdit::goTo(int line, int column) {
    const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
    if (!block.isValid()) {
        return;
    }
    QTextCursor cursor(block);
    cursor.setPosition(block.position() + std::clamp(column - 1, 0, block.length() - 1));
    setTextCursor(cursor);
    centerCursor();
}

void YamlTextEdit::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect area = contentsRect();
    gutter_->setGeometry(QRect(area.left(), area.top(), gutterWidth(), area.height()));
}

void YamlTextEdit::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Tab && event->modifiers() == Qt::NoModifier &&
        !textCursor().hasSelection()) {
        const int column = textCursor().positionInBlock();
        insertPlainText(QString(2 - column % 2, QLatin1Char(' ')));
        return;
    }
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) &&
        (event->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier) {
        breakLineKeepingIndentation();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void YamlTextEdit::breakLineKeepingIndentation() {
    QTextCursor cursor = textCursor();
    cursor.beginEditBlock();
    cursor.removeSelectedText();
    const QString line = cursor.block().text();
    const int column = cursor.positionInBlock();
    int indent = 0;
    while (indent < column && line[indent] == QLatin1Char(' ')) {
        ++indent;
    }
    // A key whose value is to come ("search_space:", "- trainable:") opens a block: its entries
    // are indented one step more.
    QString before = line.left(column);
    const qsizetype comment = before.indexOf(QLatin1String(" #"));
    if (comment >= 0) {
        before.truncate(comment);
    }
    if (before.trimmed().endsWith(QLatin1Char(':'))) {
        indent += 2;
    }
    cursor.insertText(QLatin1Char('\n') + QString(indent, QLatin1Char(' ')));
    cursor.endEditBlock();
    setTextCursor(cursor);
    ensureCursorVisible();
}

void YamlTextEdit::updateGutter(const QRect& rect, int dy) {
    if (dy != 0) {
        gutter_->scroll(0, dy);
    } else {
        gutter_->update(0, rect.y(), gutter_->width(), rect.height());
    }
}

void YamlTextEdit::updateTints() {
    QList<QTextEdit::ExtraSelection> selections;
    for (const LineProblem& problem : problems_) {
        const QTextBlock block = document()->findBlockByNumber(problem.line - 1);
        if (problem.line <= 0 || !block.isValid()) {
            continue;
        }
        QTextEdit::ExtraSelection selection;
        selection.format.setBackground(tint(problem.warning ? kWarningColour : kErrorColour));
        selection.format.setProperty(QTextFormat::FullWidthSelection, true);
        selection.format.setToolTip(problem.message);
        selection.cursor = QTextCursor(block);
        selections << selection;
    }
    setExtraSelections(selections);
}

QString YamlTextEdit::tooltipAt(int y) const {
    QTextBlock block = firstVisibleBlock();
    const int offset = int(contentOffset().y());
    while (block.isValid()) {
        const QRectF box = blockBoundingGeometry(block).translated(0, offset);
        if (y >= box.top() && y < box.bottom()) {
            QStringList messages;
            for (const LineProblem& problem : problems_) {
                if (problem.line == block.blockNumber() + 1) {
                    messages << problem.message;
                }
            }
            return messages.join(QLatin1Char('\n'));
        }
        block = block.next();
    }
    return {};
}

void YamlTextEdit::paintGutter(QPaintEvent* event) {
    QPainter painter(gutter_);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    painter.setRenderHint(QPainter::Antialiasing);
    const int marker = fontMetrics().height();
    QTextBlock block = firstVisibleBlock();
    int top = int(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int height = int(blockBoundingRect(block).height());
        const int line = block.blockNumber() + 1;
        if (block.isVisible() && top + height >= event->rect().top()) {
            bool error = false;
            bool warning = false;
            for (const LineProblem& problem : problems_) {
                (problem.warning ? warning : error) |= problem.line == line;
            }
            if (error || warning) {
                const QColor colour = error ? kErrorColour : kWarningColour;
                painter.setPen(Qt::NoPen);
                painter.setBrush(colour);
                const int size = marker * 2 / 3;
                painter.drawEllipse(QRect(4, top + (height - size) / 2, size, size));
            }
            painter.setPen(error     ? kErrorColour
                           : warning ? kWarningColour.darker(130)
                                     : palette().color(QPalette::PlaceholderText));
            painter.drawText(QRect(0, top, gutter_->width() - 4, height), Qt::AlignRight,
                             QString::number(line));
        }
        block = block.next();
        top += height;
    }
}

}  // namespace tunedeck::app
