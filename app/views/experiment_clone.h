// Cloning a recorded experiment for a re-run with edits (issue 18, as NNI's and optuna-
// dashboard's users re-run a study): the experiment file as the history recorded it, under a new
// name, written beside the original file so its relative paths (working_dir, the trainable's
// script, a cluster file) still resolve. Pure functions but for the file system reads of
// cloneFilePath(); thread-safe.
#pragma once

#include <QString>

namespace tunedeck::app {

// `specText` with its top-level `name:` set to `name` (added first when it has none); every other
// line as written, comments too.
QString renamedSpecText(const QString& specText, const QString& name);

// Where a clone of `specFile` (the recorded path of the file that ran `name`) is written: in the
// file's folder when that exists here and is writable, else in `fallbackFolder`; as NAME-N.yaml
// with the first N from 2 for which neither that file nor `resultsRoot`/NAME-N exists. `*newName`
// is NAME-N.
QString cloneFilePath(const QString& specFile, const QString& name, const QString& fallbackFolder,
                      const QString& resultsRoot, QString* newName);

}  // namespace tunedeck::app
