#include "core/experiment_end.h"

#include "core/counted.h"

namespace tunedeck {

RunEnd judgeRunEnd(const std::vector<TrialStatus>& statuses, bool stopping, bool searcherFinished,
                   int checkpointsNotKept) {
    RunEnd end;
    for (const TrialStatus status : statuses) {
        if (status == TrialStatus::Running || (!stopping && !isFinished(status))) {
            return end;
        }
        end.errored += status == TrialStatus::Error ? 1 : 0;
    }
    end.trials = int(statuses.size());
    if (stopping) {
        end.kind = RunEnd::Kind::Stopped;
        return end;
    }
    if (!searcherFinished) {
        return end;
    }
    if (end.errored > 0) {
        end.kind = RunEnd::Kind::TrialsErrored;
        end.summary =
            QStringLiteral("Finished with %1.").arg(counted(end.errored, "errored trial"));
    } else if (checkpointsNotKept > 0) {
        end.kind = RunEnd::Kind::CheckpointsLost;
        end.summary =
            QStringLiteral("Finished: all %1 trials terminated, but %2 %3 not kept.")
                .arg(end.trials)
                .arg(counted(checkpointsNotKept, "checkpoint"),
                     checkpointsNotKept == 1 ? QStringLiteral("was") : QStringLiteral("were"));
    } else {
        end.kind = RunEnd::Kind::AllTerminated;
        end.summary = QStringLiteral("Finished: all %1 trials terminated.").arg(end.trials);
    }
    return end;
}

std::optional<QString> endReachedAtCheckpoint(const StopCriteria& stop, const Scheduler& scheduler,
                                              const QJsonObject& restored) {
    if (std::optional<QString> why = stopReason(stop, restored)) {
        return why;
    }
    return scheduler.endReached(restored);
}

}  // namespace tunedeck
