// The YAML tab's text editor: line numbers in a gutter, syntax colours, Return that keeps the
// indentation, and the problems the engine's `validate` reported pinned to their lines (a marker
// in the gutter whose tooltip is the message, and the line's background tinted).
// Thread-safety: GUI thread only.
#pragma once

#include <QList>
#include <QPlainTextEdit>

#include "editors/yaml_text.h"

namespace tunedeck::app {

// One problem of `validate`, pinned to a line of this text (1-based; 0 when it has none).
struct LineProblem {
    int line = 0;
    int column = 0;
    QString message;
    bool warning = false;
};

class YamlTextEdit : public QPlainTextEdit {
    Q_OBJECT
  public:
    explicit YamlTextEdit(QWidget* parent = nullptr);

    // The whole text, as the document holds it (\n line ends, no BOM: positions of problems and
    // edits count in it), as a new unmodified document with a new undo history.
    void setYamlText(const QString& text);
    // Non-overlapping edits of the text as one undo step and one change signal.
    void applyEdits(const QList<TextEdit>& edits);
    // Writes the text to `path` atomically and marks the document unmodified; false with
    // `error` set when it cannot.
    bool saveTo(const QString& path, QString* error);

    void setProblems(const QList<LineProblem>& problems);
    const QList<LineProblem>& problems() const { return problems_; }
    // Puts the cursor at a 1-based line and column and shows it.
    void goTo(int line, int column);
    int gutterWidth() const;

  protected:
    void resizeEvent(QResizeEvent* event) override;
    // Tab indents with spaces: YAML does not allow tabs in indentation. Return keeps the
    // indentation of the line it breaks (breakLineKeepingIndentation).
    void keyPressEvent(QKeyEvent* event) override;

  private:
    class Gutter;
    friend class Gutter;

    // A new line indented as the one the cursor is on, one step more after a "key:" whose
    // value is to come: in YAML the indentation is the structure.
    void breakLineKeepingIndentation();
    void paintGutter(QPaintEvent* event);
    QString tooltipAt(int y) const;
    void updateGutter(const QRect& rect, int dy);
    void updateTints();

    Gutter* gutter_;
    QList<LineProblem> problems_;
};

}  // namespace tunedeck::app
