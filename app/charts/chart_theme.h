// Charts follow the app's palette: the light or dark QtCharts theme, whichever matches the
// palette now in use. GUI thread only.
#pragma once

class QWidget;

namespace tunedeck::app {

// Gives every chart under `root` (every chart of the app when null) the matching theme; windows
// call it once they are built, and the appearance again after a palette change.
void applyChartTheme(QWidget* root = nullptr);

}  // namespace tunedeck::app
