// Collects the problems found in a user's file (core/problem.h), in the order of the file, and
// the result every loader returns: the spec, or the errors, with the warnings either way. The
// CLI prints each as "file:line:column: key: problem".
// Value types; each load owns its own, nothing is shared between threads.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "core/problem.h"
#include "core/source_location.h"
#include "core/status.h"

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
    // Characters (UTF-16 code units, as QString counts them) in the text's first `byte` bytes.
    qsizetype unitsBefore(qsizetype byte) const;

    QString file_;
    QByteArray text_;
    std::vector<qsizetype> lineStarts_;
    // unitsBefore() at every kUnitStride-th byte, so that a lookup counts at most one stride of
    // bytes: decoding from the start of the line each time made many problems on one long line
    // (a 1 MiB single-line JSON file) quadratic.
    std::vector<qsizetype> strideUnits_;
};

// The problems of one kind (errors or warnings) found while reading a file, each stored through
// printableText: what the CLI prints and `validate` answers is one line per problem, free of
// control characters.
class ProblemList {
  public:
    explicit ProblemList(Severity severity = Severity::Error) : severity_(severity) {}

    void add(const SourceLocation& at, const QString& key, const QString& message);
    // A problem located elsewhere (a nested file, a core validator), placed among the others as
    // if it were written at `sortAt`.
    void add(const Problem& problem, const SourceLocation& sortAt);
    void append(const ProblemList& other, const SourceLocation& sortAt);

    bool isEmpty() const { return entries_.empty(); }
    qsizetype size() const { return qsizetype(entries_.size()); }
    // Problems without a position first (the file as a whole), then in the order of the file;
    // a problem found twice is listed once.
    std::vector<Problem> problems() const;
    QString text() const;  // problems()' lines, one per line
    QStringList lines() const;

  private:
    struct Entry {
        int line;
        int column;
        Problem problem;
    };
    Severity severity_;
    std::vector<Entry> entries_;
};

// What a load found, errors and warnings in one list: the common part of every load result.
struct LoadProblems {
    std::vector<Problem> problems;  // the errors in the order of the file, then the warnings
    // The Status code of a failed load: InvalidArgument, or NotFound / IoError when the file
    // could not be read at all.
    Status::Code failure = Status::Code::InvalidArgument;

    // A file that could not be read at all (`read` failed): one error whose place is the file
    // alone, and `failure` keeps the Status code.
    static LoadProblems unreadable(const QString& file, const Status& read);

    bool hasErrors() const;
    std::vector<Problem> errors() const;
    std::vector<Problem> warnings() const;
    // Their lines as the CLI prints them, "file:line:column: key: message".
    QStringList errorLines() const;
    QStringList warningLines() const;
    // Ok, or `failure` with one line per error, the first one first: the message the CLI prints.
    Status status() const;
};

// The result of loading a file into `Spec`: the spec exactly when no problem is an error.
template <typename Spec>
struct LoadResult : LoadProblems {
    std::optional<Spec> spec;

    bool isOk() const { return spec.has_value(); }
    explicit operator bool() const { return isOk(); }

    // What a read found: the `errors`, then the `warnings`; `read` becomes the spec when no
    // error was found.
    static LoadResult of(const ProblemList& errors, const ProblemList& warnings, Spec read) {
        LoadResult result;
        result.problems = errors.problems();
        for (Problem& warning : warnings.problems()) {
            result.problems.push_back(std::move(warning));
        }
        if (errors.isEmpty()) {
            result.spec = std::move(read);
        }
        return result;
    }
};

// The known key closest to `key` by edit distance, when it is close enough (<= 2) to be a typo.
QString closestKey(const QString& key, const QStringList& known);
// " (did you mean 'x'?)" or "".
QString didYouMean(const QString& key, const QStringList& known);

}  // namespace tunedeck
