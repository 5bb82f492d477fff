// What the screenshot tour's parts share (tests/app/screenshot_tour.cpp): saving a window or the
// screen as a PNG in the output folder, and showing a tab of the window by its title.
#pragma once

#include <QString>

class QTemporaryDir;
class QWidget;

namespace tunedeck::app {
class MainWindow;
}

namespace tour {

extern QString outputFolder;

// The widget's window as NAME.png, after a frame or two.
void shoot(QWidget* widget, const QString& name);
// The whole screen, for a dialog over its window.
void shootScreen(QWidget* dialog, const QString& name);
void showTab(tunedeck::app::MainWindow& window, const QString& title);
// The whole loop attached to a server over SSH (screenshot_tour_ssh.cpp); `experimentFile` is
// a template's copy to run there.
void shootOverSsh(const QTemporaryDir& work, const QString& experimentFile);
// A run of two objectives and its Pareto front in every view, then trials stopped, paused and
// resumed, in German (screenshot_tour_objectives.cpp), with the engine on `socket`.
void shootBestAndStops(const QString& socket, const QTemporaryDir& work);

}  // namespace tour
