// Notes on the trials of an experiment that no engine runs (core/trial_note.h): recorded straight
// into its history as a `trial_note` event, under the experiment folder's lock so that a run
// cannot start in the middle, and read back for `show`, `export` and serve's answers. A running
// experiment's notes go through its engine instead (the control API's set_trial_note), which
// owns the history's sequence numbers. Main thread only.
#pragma once

#include <QString>
#include <map>

#include "core/status.h"
#include "store/history_reader.h"

namespace tunedeck::cli {

// Records `note` (empty: clears it) for `trial` of the experiment in `folder`. Refused, saying
// why, for a bad note, a trial the experiment does not have, or a folder an engine holds (busy).
Status recordTrialNote(const QString& folder, const QString& trial, const QString& note);

// Each trial's note (the latest `trial_note` event; cleared notes left out), by trial id.
Status readTrialNotes(store::HistoryReader& reader, std::map<QString, QString>* out);

}  // namespace tunedeck::cli
