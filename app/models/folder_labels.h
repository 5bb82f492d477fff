// Short names for experiment folders shown side by side: each folder's name, with as many of the
// folders above it as it takes to tell it from the others ("results/quickstart" beside
// "copies/quickstart"), since two experiments may share a name but never a folder. Pure;
// thread-safe.
#pragma once

#include <QStringList>

namespace tunedeck::app {

// One label per folder of `folders`, in their order: the folder's last path component, or its
// last few, enough that no other folder of `folders` ends the same way. The same path twice gets
// the same label.
QStringList distinguishingFolderLabels(const QStringList& folders);

}  // namespace tunedeck::app
