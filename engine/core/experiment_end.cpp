#include "core/experiment_end.h"

#include "core/counted.h"

namespace tunedeck {

RunEnd judgeRunEnd(const StatusCounts& trials, bool stopping, bool searcherFinished,
                   int checkpointsNotKept) {
    RunEnd end;
    if (trials.of(TrialStatus::Running) > 0 || (!stopping && trials.finished() < trials.total())) {
        return end;
    }
    end.errored = trials.of(TrialStatus::Error);
    end.trials = trials.total();
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
