// Reads an experiment file (YAML; the search space may come from an NNI search-space JSON file)
// into a validated ExperimentSpec. Every problem is reported as "file:line:column: key: problem"
// and nothing is partially returned. Stateless; safe to call from any thread.
#pragma once

#include <QString>

#include "core/experiment_spec.h"
#include "core/status.h"

namespace tunedeck {

// Loads and validates `path`. On error, `out` is untouched and the Status message is the one
// the CLI prints (several problems may be listed, one per line, the first one first).
Status loadExperimentFile(const QString& path, ExperimentSpec* out);

// The same from text already read (resume reads the text stored in SQLite). `fileName` is used
// in messages and to resolve relative paths (working_dir, search-space files, cluster).
Status loadExperimentText(const QString& text, const QString& fileName, ExperimentSpec* out);

// Reads an NNI search space ({"lr": {"_type": "loguniform", "_value": [1e-4, 0.1]}, ...}).
Status loadNniSearchSpace(const QString& jsonPath, SearchSpace* out);

}  // namespace tunedeck
