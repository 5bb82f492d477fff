// A researcher's note on a trial ("lr too high, diverged at 40"), as optuna-dashboard keeps notes
// with the study and NNI's web UI keeps a trial's custom name: free text, set and replaced by the
// control API's set_trial_note, the app's Trial > Edit note... and `tunedeck-engine note`, kept as
// `trial_note` events in the experiment's history (the latest one counts; an empty note clears
// it). Pure; thread-safe.
#pragma once

#include <QString>

#include "core/status.h"

namespace tunedeck {

// The longest note, in characters: a paragraph or two, not a document.
inline constexpr int kMaxTrialNoteChars = 4000;

// Ok for a note that may be recorded: at most kMaxTrialNoteChars characters, and no control
// character besides line feeds and tabs (a terminal must not take `show`'s output as commands).
// Otherwise the message names the problem and where it is ("character 12: control character
// U+001B").
Status checkTrialNote(const QString& note);

// The note as one line for tables (`show`, the app's Note column): line breaks and tabs become
// spaces, runs of spaces one, and a note longer than `maxChars` ends in "...".
QString trialNoteLine(const QString& note, int maxChars);

}  // namespace tunedeck
