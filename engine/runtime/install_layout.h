// Where Tunedeck's own files are, relative to the running binary, so the build tree and an
// installed tree work the same way: <prefix>/bin/{tunedeck-engine,tunedeck-worker} and
// <prefix>/share/tunedeck/{sdk/python,examples}. Pure lookups; thread-safe.
#pragma once

#include <QString>

namespace tunedeck {

// The tunedeck-worker next to this binary (or $TUNEDECK_WORKER when set).
QString workerBinaryPath();
// The folder holding tunedeck.py (or $TUNEDECK_PYTHON_SDK when set).
QString pythonSdkDir();
// The default results root: $TUNEDECK_RESULTS, else ~/tunedeck-results.
QString defaultResultsRoot();

}  // namespace tunedeck
