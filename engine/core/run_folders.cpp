#include "core/run_folders.h"

namespace tunedeck {

QString trialFolder(const QString& experimentDir, const QString& trialId) {
    return experimentDir + QStringLiteral("/trials/") + trialId;
}

QString checkpointFolder(const QString& experimentDir, const QString& trialId,
                         std::int64_t iteration) {
    return trialFolder(experimentDir, trialId) +
           QStringLiteral("/checkpoints/checkpoint_%1").arg(iteration, 6, 10, QChar('0'));
}

}  // namespace tunedeck
