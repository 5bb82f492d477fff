// When an experiment run is over, and how it ended (the summary line and the exit code of `run`
// and `resume`): every trial finished and the searcher has no more (or the run is stopping and
// nothing runs any longer); and, for a waiting trial restored from a checkpoint, whether that
// checkpoint already meets its end (a stop criterion, `done`, or the scheduler's max_t), so that
// it is finished there instead of run on. Pure.
#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>
#include <vector>

#include "core/experiment_spec.h"
#include "core/scheduler.h"
#include "core/trial.h"
#include "core/trial_roster.h"

namespace tunedeck {

struct RunEnd {
    enum class Kind {
        NotYet,           // trials run or wait, or the searcher may add more
        Stopped,          // the run was stopping (Ctrl-C, fail_fast, a mistake) and nothing runs
        AllTerminated,    // exit 0
        TrialsErrored,    // exit 1: some trials ended in ERROR
        CheckpointsLost,  // exit 1: every trial terminated, but checkpoints were not kept
    };
    Kind kind = Kind::NotYet;
    int trials = 0;
    int errored = 0;
    QString summary;  // the last line for AllTerminated, TrialsErrored and CheckpointsLost
};

// `trials`: how many are in each status. A checkpoint that could not be kept is an error of the
// run, as an errored trial is: a retry or a resume of that trial would start further back than the
// user believes.
RunEnd judgeRunEnd(const StatusCounts& trials, bool stopping, bool searcherFinished,
                   int checkpointsNotKept);

// Why a waiting trial restored from a checkpoint whose result was `restored` is already at its
// end, or nullopt when it should run on.
std::optional<QString> endReachedAtCheckpoint(const StopCriteria& stop, const Scheduler& scheduler,
                                              const QJsonObject& restored);

}  // namespace tunedeck
