// The window's menus: every command of the monitor, with its shortcut.
#pragma once

namespace tunedeck::app {

class MainWindow;

void addMainMenus(MainWindow& window);

}  // namespace tunedeck::app
