// The trainable's command: shell-like splitting of a command string into argv (quotes honoured,
// nothing expanded), the {param} placeholders it carries, and whether its program can be run.
// Pure functions apart from checkProgram, which looks at the filesystem; thread-safe.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

namespace tunedeck {

// Splits like a POSIX shell splits words: blanks separate arguments; '...' keeps everything
// literally; "..." keeps everything but \" \\ \$ \` (backslash-escaped); a backslash outside
// quotes escapes the next character. No variable, glob, tilde or brace expansion happens, so
// `$HOME` and `{lr}` reach the program (after placeholder substitution) as written.
// On error (an unterminated quote) returns nullopt and sets `error`.
std::optional<QStringList> splitCommandLine(const QString& text, QString* error);

// Why a command string cannot be split.
enum class CommandLineProblem { LoneBackslash, UnterminatedSingleQuote, UnterminatedDoubleQuote };
// The same split, with the problem as a value, for a caller that words it in its own language
// (the app's experiment form, translated).
std::optional<QStringList> splitCommandLine(const QString& text, CommandLineProblem* problem);

// The dotted parameter paths named by {param} placeholders, in order of appearance, once each.
// Only `{name}` / `{group.name}` count, so `{}` or JSON text in an argument are left alone.
QStringList commandPlaceholders(const QStringList& argv);

// Empty when `program` (argv[0]) can be started from `workingDir`: a path containing '/' is
// resolved against workingDir and must be an executable file; a bare name must be found in
// `searchPath` (PATH's value; the process's PATH when empty). Otherwise the problem, in words.
QString checkProgram(const QString& program, const QString& workingDir,
                     const QString& searchPath = QString());

}  // namespace tunedeck
