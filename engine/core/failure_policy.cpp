#include "core/failure_policy.h"

namespace tunedeck {

FailureDecision decideOnFailure(const FailureSpec& spec, FailureCause cause, int failuresSoFar) {
    if (cause == FailureCause::NodeLost) {
        return {FailureAction::Retry, false};
    }
    if (spec.failFast) {
        return {FailureAction::StopExperiment, true};
    }
    const bool retriesLeft = spec.maxFailures < 0 || failuresSoFar < spec.maxFailures;
    return {retriesLeft ? FailureAction::Retry : FailureAction::GiveUp, true};
}

}  // namespace tunedeck
