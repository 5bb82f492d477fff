// Reads an experiment file (YAML; the search space may come from an NNI search-space JSON file)
// into a validated ExperimentSpec. Every problem is reported as "file:line:column: key: problem"
// and nothing is partially returned. A `cluster:` file is loaded and validated with it; its
// problems carry its own file:line:column. Stateless; safe to call from any thread.
#pragma once

#include <QString>
#include <QStringList>

#include "core/experiment_spec.h"
#include "core/status.h"

namespace tunedeck {

// Loads and validates `path`. On error, `out` is untouched and the Status message is the one
// the CLI prints (several problems may be listed, one per line, the first one first).
// `warnings`, when given, receives what was accepted but deserves the user's eye (keys of a Ray
// cluster file that Tunedeck ignores), as "file:line:column: key: ...", whether or not the load
// succeeded; a caller prints them before going on.
Status loadExperimentFile(const QString& path, ExperimentSpec* out,
                          QStringList* warnings = nullptr);

// The same from text already read (resume reads the text stored in SQLite). `fileName` is used
// in messages and to resolve relative paths (working_dir, search-space files, cluster).
Status loadExperimentText(const QString& text, const QString& fileName, ExperimentSpec* out,
                          QStringList* warnings = nullptr);

// Reads an NNI search space ({"lr": {"_type": "loguniform", "_value": [1e-4, 0.1]}, ...}).
Status loadNniSearchSpace(const QString& jsonPath, SearchSpace* out);

}  // namespace tunedeck
