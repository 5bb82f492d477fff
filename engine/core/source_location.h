// Where a value came from in a user's file, for error messages of the form file:line:column.
// Value type.
#pragma once

#include <QString>

namespace tunedeck {

struct SourceLocation {
    QString file;
    int line = 0;    // 1-based; 0 when unknown
    int column = 0;  // 1-based; 0 when unknown

    bool isKnown() const { return line > 0; }
    // "file:line:column" (or just "file" when the position is unknown).
    QString toString() const;
};

}  // namespace tunedeck
