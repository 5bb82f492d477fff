// Where the relative paths written in a user's file start, and how to show them in messages.
// Shared by the experiment and cluster loaders. Value type; thread-safe.
#pragma once

#include <QString>

namespace tunedeck {

struct FilePlace {
    QString displayFile;  // the file as the user named it
    QString folder;       // its folder, absolute

    QString resolve(const QString& path) const;  // absolute, cleaned
    QString display(const QString& path) const;  // as a path beside displayFile
    // As resolve, after turning a leading "~" or "~/" into the user's home folder, as a shell
    // would (cluster files name keys and known_hosts that way). Another user's "~name/" is not
    // expanded: the result is empty.
    QString resolveHome(const QString& path) const;
};

}  // namespace tunedeck
