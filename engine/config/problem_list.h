// Collects the problems found in a user's file and prints them the way the CLI shows them:
// "file:line:column: key: problem", one per line, the first one in the file first.
// Value type; each load owns one, nothing is shared between threads.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <vector>

#include "core/source_location.h"

namespace tunedeck {

// "file:line:column", or "file" when the position is unknown.
QString formatLocation(const SourceLocation& location);

// `text` with its control characters (C0, DEL, C1) written as \n, \t, \r or \xNN, so a value
// quoted from a user's file cannot move the cursor, recolour or clear the terminal that prints
// the message, nor end it early at a NUL.
QString printableText(const QString& text);

// Turns a 0-based (line, byte column) of a UTF-8 text into a 1-based line and character column,
// so that a line with "é" before the problem points where an editor's cursor would.
class TextPositions {
  public:
    TextPositions() = default;
    TextPositions(QString file, const QByteArray& utf8Text);

    SourceLocation at(int zeroBasedLine, int zeroBasedByteColumn) const;
    SourceLocation atOffset(qsizetype byteOffset) const;
    const QString& file() const { return file_; }

  private:
    QString file_;
    QByteArray text_;
    std::vector<qsizetype> lineStarts_;
};

// Every line is stored through printableText: what the CLI prints and `validate` answers is
// one line per problem, free of control characters.
class ProblemList {
  public:
    void add(const SourceLocation& at, const QString& key, const QString& problem);
    // A line already formatted with its own location (a nested file, a core validator), placed
    // among the others as if it were written at `sortAt`.
    void addLine(const SourceLocation& sortAt, const QString& line);
    void append(const ProblemList& other, const SourceLocation& sortAt);

    bool isEmpty() const { return problems_.empty(); }
    qsizetype size() const { return qsizetype(problems_.size()); }
    // Problems without a position first (the file as a whole), then in the order of the file.
    QString text() const;
    QStringList lines() const;

  private:
    struct Entry {
        int line;
        int column;
        QString text;
    };
    std::vector<Entry> problems_;
};

// The known key closest to `key` by edit distance, when it is close enough (<= 2) to be a typo.
QString closestKey(const QString& key, const QStringList& known);
// " (did you mean 'x'?)" or "".
QString didYouMean(const QString& key, const QStringList& known);

}  // namespace tunedeck
