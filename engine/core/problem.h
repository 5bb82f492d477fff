// A problem found in a user's file: where it is, under which key, what is wrong, and whether it
// stops the load. The one shape the loaders produce (config/problem_list.h), the CLI prints, the
// control API serialises (api/problems_json.h) and the editors pin to their lines; the printed
// line is made from it, never read back into it. Value type; thread-safe.
#pragma once

#include <QString>

#include "core/source_location.h"

namespace tunedeck {

enum class Severity {
    Error,    // the file is not loaded
    Warning,  // accepted, but deserves the user's eye (a Ray key that Tunedeck ignores)
};

struct Problem {
    SourceLocation location;  // the file; line and column 0 when it is about the whole file
    QString key;              // the dotted key path ("scheduler.grace_period"); empty when none
    QString message;          // what is wrong, without place or key
    Severity severity = Severity::Error;

    bool isError() const { return severity == Severity::Error; }

    // "key: message", or the message alone: the problem as a list beside the text shows it.
    QString keyedMessage() const {
        return key.isEmpty() ? message : key + QStringLiteral(": ") + message;
    }

    // "file:line:column", "file" when the position is unknown, or nothing without a file.
    QString place() const {
        if (location.line <= 0) {
            return location.file;
        }
        return QStringLiteral("%1:%2:%3")
            .arg(location.file)
            .arg(location.line)
            .arg(location.column);
    }

    // "file:line:column: key: message": the line the CLI prints.
    QString text() const {
        const QString at = place();
        return at.isEmpty() ? keyedMessage() : at + QStringLiteral(": ") + keyedMessage();
    }

    friend bool operator==(const Problem& a, const Problem& b) {
        return a.location.file == b.location.file && a.location.line == b.location.line &&
               a.location.column == b.location.column && a.key == b.key && a.message == b.message &&
               a.severity == b.severity;
    }
};

}  // namespace tunedeck
