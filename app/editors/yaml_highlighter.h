// Colours for the YAML tab: keys, quoted strings, numbers and booleans, comments, and the
// search-space domain names, so a reader finds the structure at a glance. Line by line, with no
// state carried across lines (block scalars are shown as plain text).
// Thread-safety: GUI thread only, like the document it highlights.
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace tunedeck::app {

class YamlHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
  public:
    explicit YamlHighlighter(QTextDocument* document);

  protected:
    void highlightBlock(const QString& text) override;

  private:
    QTextCharFormat key_;
    QTextCharFormat domain_;
    QTextCharFormat string_;
    QTextCharFormat literal_;
    QTextCharFormat comment_;
    QTextCharFormat punctuation_;
};

}  // namespace tunedeck::app
