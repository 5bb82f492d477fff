// What to do when a trial fails (Ray Tune's FailureConfig): retry from the latest checkpoint
// until max_failures is spent, then mark it ERROR; fail_fast ends the experiment instead.
// Node loss is not the trial's fault (preemption) and never counts against max_failures.
// Pure.
#pragma once

#include "core/experiment_spec.h"

namespace tunedeck {

enum class FailureCause {
    TrialCrashed,       // exited non-zero, killed by a signal, or exited without `done`
    TrialHung,          // silent past the heartbeat timeout
    ProtocolViolation,  // malformed line, oversized line, non-numeric metric
    NodeLost,           // the node or its agent went away
};

enum class FailureAction { Retry, GiveUp, StopExperiment };

struct FailureDecision {
    FailureAction action = FailureAction::GiveUp;
    bool counts = true;  // whether this failure counts against max_failures
};

// `failuresSoFar` excludes this failure.
FailureDecision decideOnFailure(const FailureSpec& spec, FailureCause cause, int failuresSoFar);

}  // namespace tunedeck
