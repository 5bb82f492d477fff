// Command lines for a node's POSIX shell (what an SSH exec request runs): every word is quoted
// so that no config value, path or argument can ever run a command of its own.
// Thread-safety: pure functions.
#pragma once

#include <QString>
#include <QStringList>

namespace tunedeck {

// One word for sh: wrapped in single quotes, each ' written as '\'' ; "" becomes ''.
// (A NUL cannot travel in a command line; the shell would see the word end there.)
QString shellQuote(const QString& word);

// The words quoted and joined by spaces: the remote shell splits it back into exactly argv.
QString shellCommand(const QStringList& argv);

// A remote path as a shell word. "~" and "~/rest" become "$HOME" and "$HOME"/'rest', so a user
// may write paths relative to the remote home; everything else (including "~user/...") is quoted
// as is and never expanded.
QString remotePathExpression(const QString& path);

}  // namespace tunedeck
