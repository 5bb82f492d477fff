// The one rule for the names that become folders: an experiment's `name` (its results folder),
// a cluster's `cluster_name` (its folder on every node), and the experiment folders the control
// API's requests name. Pure; thread-safe.
#pragma once

#include <QString>

namespace tunedeck {

// Letters, digits, '_', '.' and '-', not starting with '.' (a hidden folder: `ls` and the
// control API's `list` would not show it) nor '-' (it would read as an option on a command
// line), at most kMaxFolderNameLength characters (a folder name is at most 255 bytes, and
// "-2" or "-replay-t00001" may be added to it).
constexpr int kMaxFolderNameLength = 200;

// Empty when `name` is a valid folder name; else why not, as
// "'x' is not a valid name (...)", its control characters left for the caller to escape.
QString folderNameProblem(const QString& name);

}  // namespace tunedeck
