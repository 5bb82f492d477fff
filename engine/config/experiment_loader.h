// Reads an experiment file (YAML; the search space may come from an NNI search-space JSON file)
// into a validated ExperimentSpec. Every problem is located (file:line:column) and keyed, and
// nothing is partially returned. A `cluster:` file is loaded and validated with it; its problems
// carry its own file:line:column. Stateless; safe to call from any thread.
#pragma once

#include <QString>

#include "config/problem_list.h"
#include "core/experiment_spec.h"
#include "core/status.h"

namespace tunedeck {

// Loads and validates `path`. The spec is set when no problem is an error; the warnings (what
// was accepted but deserves the user's eye: keys of a Ray cluster file that Tunedeck ignores)
// come back either way, and a caller prints them before going on. `status()` is the message the
// CLI prints (several problems, one per line, the first one first).
LoadResult<ExperimentSpec> loadExperimentFile(const QString& path);

// The same from text already read (resume reads the text stored in SQLite). `fileName` is used
// in messages and to resolve relative paths (working_dir, search-space files, cluster).
LoadResult<ExperimentSpec> loadExperimentText(const QString& text, const QString& fileName);

// Reads an NNI search space ({"lr": {"_type": "loguniform", "_value": [1e-4, 0.1]}, ...}).
Status loadNniSearchSpace(const QString& jsonPath, SearchSpace* out);

}  // namespace tunedeck
