// NNI search-space files ({"lr": {"_type": "loguniform", "_value": [1e-4, 0.1]}, ...}) -> the
// same SearchSpace the YAML syntax builds, with file:line:column for every problem.
// Internal to engine/config (loadNniSearchSpace in experiment_loader.h is the public entry).
// Stateless; thread-safe.
#pragma once

#include <QByteArray>
#include <QString>

#include "config/problem_list.h"
#include "core/search_space.h"

namespace tunedeck {

// Reads `filePath` within the bounds of config/input_limits.h (a file over the size bound is
// refused unread); problems name `displayPath` (the path as the user wrote it). Checks the
// structure and every domain. Returns false when it reported a problem.
bool readNniSearchSpace(const QString& displayPath, const QString& filePath, ProblemList* problems,
                        SearchSpace* out);

// The same for the file's text, already read (the fuzz targets and their corpus replay call it
// with bytes), checked against the same bounds: problems name `displayPath`.
bool readNniSearchSpaceText(const QString& displayPath, const QByteArray& text,
                            ProblemList* problems, SearchSpace* out);

}  // namespace tunedeck
