// The main window's Help menu: Documentation opens the README installed with the app (or the
// build tree's) in the desktop's viewer for Markdown files, and About Tunedeck names the version
// and the commit it was built from. GUI thread only.
#pragma once

#include <QString>

class QMainWindow;

namespace tunedeck::app {

// The README the Documentation action opens: <prefix>/share/doc/tunedeck/README.md beside the
// installed app, else the source tree's when run from a build; empty when there is none.
QString documentationFile();

// Adds Help (Documentation, About Tunedeck) to `window`'s menu bar.
void addHelpMenu(QMainWindow* window);

}  // namespace tunedeck::app
