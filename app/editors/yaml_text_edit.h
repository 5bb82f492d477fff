// The YAML tab's text editor: line numbers in a gutter, syntax colours, and the problems the
// engine's `validate` reported pinned to their lines (a marker in the gutter whose tooltip is the
// message, and the line's background tinted). Thread-safety: GUI thread only.
#pragma once

#include <QList>
#include <QPlainTextEdit>

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

    void setProblems(const QList<LineProblem>& problems);
    const QList<LineProblem>& problems() const { return problems_; }
    // Puts the cursor at a 1-based line and column and shows it.
    void goTo(int line, int column);
    int gutterWidth() const;

  protected:
    void resizeEvent(QResizeEvent* event) override;
    // Tab indents with spaces: YAML does not allow tabs in indentation.
    void keyPressEvent(QKeyEvent* event) override;

  private:
    class Gutter;
    friend class Gutter;

    void paintGutter(QPaintEvent* event);
    QString tooltipAt(int y) const;
    void updateGutter(const QRect& rect, int dy);
    void updateTints();

    Gutter* gutter_;
    QList<LineProblem> problems_;
};

}  // namespace tunedeck::app
