// Where a value came from in a user's file, for error messages of the form file:line:column.
// Value type.
#pragma once

#include <QMap>
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

// Where `keyPath` ("search.options.gamma", "nodes[2].host") was written. A key that was not
// recorded (a list item, a default filled in) is reported at the closest key above it that was,
// so the user still lands near the problem; failing all, the file alone.
SourceLocation nearestLocation(const QMap<QString, SourceLocation>& locations,
                               const QString& keyPath, const QString& file);

}  // namespace tunedeck
