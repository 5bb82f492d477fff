// The colour of a trial wherever trials are drawn as lines (the curves, their system health):
// the best trial in one strong colour, the others spread around the hue circle by their row in
// the experiment's table, so a trial keeps its colour from one view to the next. Thread-safe.
#pragma once

#include <QColor>

namespace tunedeck::app {

inline QColor trialLineColor(int row, bool best) {
    return best ? QColor(0xd8, 0x1b, 0x60) : QColor::fromHsv((row * 47) % 360, 140, 200);
}

}  // namespace tunedeck::app
