// Where a run keeps its trials' files: the folder of a trial and of its checkpoint at an
// iteration, under the experiment's folder (RUNTIME.md, "Files"). Pure; thread-safe.
#pragma once

#include <QString>
#include <cstdint>

namespace tunedeck {

QString trialFolder(const QString& experimentDir, const QString& trialId);
QString checkpointFolder(const QString& experimentDir, const QString& trialId,
                         std::int64_t iteration);

}  // namespace tunedeck
