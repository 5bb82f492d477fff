// The editors' small row buttons (+, −, ↑, ↓ beside a table or a list): flat until hovered,
// with a tool tip saying what they do and an object name the tests find them by. GUI thread.
#pragma once

#include <QString>
#include <QToolButton>

namespace tunedeck::app {

QToolButton* smallButton(const QString& text, const QString& tip, const QString& objectName);

}  // namespace tunedeck::app
