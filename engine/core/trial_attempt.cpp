#include "core/trial_attempt.h"

#include "core/checkpoint_policy.h"
#include "core/early_stop.h"

namespace tunedeck {

void TrialAttempt::begin() {
    const int number = number_ + 1;
    const UserOrder order = userOrder_;
    *this = TrialAttempt();
    number_ = number;
    userOrder_ = order;
}

SchedulerDecision TrialAttempt::applyUserOrder(SchedulerDecision decision) {
    switch (std::exchange(userOrder_, UserOrder::None)) {
        case UserOrder::Stop:
            return SchedulerDecision::stop(QString::fromLatin1(kStoppedByUserReason));
        case UserOrder::Pause:
            return SchedulerDecision::pause(QStringLiteral("paused by the user"));
        case UserOrder::None:
            break;
    }
    return decision;
}

TrialAnswer TrialAttempt::answer(const SchedulerDecision& decision) {
    if (decision.action != SchedulerDecision::Action::Stop) {
        return TrialAnswer::Continue;
    }
    ending_ = Ending::Stop;
    endReason_ = decision.reason;
    return TrialAnswer::Stop;
}

ReportStep TrialAttempt::onReport(SchedulerDecision decision, const ReportFacts& facts,
                                  const CheckpointSpec& checkpoints) {
    using Action = SchedulerDecision::Action;
    ReportStep step;
    decision = applyUserOrder(std::move(decision));
    if (decision.action == Action::Exploit && decision.source != facts.trialId) {
        if (!facts.exploitSource && !facts.exploitSourceOnItsWay) {
            // Nothing to copy yet (SchedulerDecision says so): the trial goes on unchanged.
            step.exploitDropped = true;
            decision = SchedulerDecision::proceed();
        } else {
            // It exits at once; the copy is made once it has (onExit: Exploit).
            step.answer = answer(SchedulerDecision::stop(decision.reason));
            ending_ = Ending::Exploit;
            exploit_ = std::move(decision);
            exploitSource_ = facts.exploitSource;
            step.exploitsOther = true;
            step.policyChanged = true;
            return step;
        }
    }
    step.policyChanged = decision.action != Action::Continue;
    const bool named = facts.namesCheckpoint;
    const bool mayAsk = checkpoints.enabled && !named;
    if (decision.action == Action::Pause && named) {
        // This report's checkpoint is the one to resume from (Ray pauses a function trainable
        // at its latest reported checkpoint): the trial need only exit, as when stopped.
        step.answer = answer(SchedulerDecision::stop(decision.reason));
        ending_ = Ending::Pause;
        return step;
    }
    if (decision.action == Action::Pause && decision.yields && declinedSave_) {
        step.answer = answer(SchedulerDecision::proceed());  // it cannot keep its progress
        return step;
    }
    const bool save =
        decision.action == Action::Pause || decision.action == Action::Exploit ||
        (decision.action == Action::Stop && checkpoints.atEnd && mayAsk) ||
        (decision.action == Action::Continue && mayAsk &&
         (decision.checkpoint || shouldRequestCheckpoint(checkpoints, facts.iteration)));
    if (!save) {
        step.answer = answer(decision);
        return step;
    }
    saving_ = true;
    savingIteration_ = facts.iteration;
    savingResult_ = facts.result;
    // A pause, or a change of config on the spot (a self-exploit: pbt-replay), saves and exits.
    // A give-way pause asks for a plain save first: the trial exits only once it has one.
    const bool exploit = decision.action == Action::Exploit;
    const bool pause = (decision.action == Action::Pause && !decision.yields) || exploit;
    if (pause) {
        ending_ = exploit ? Ending::Exploit : Ending::Pause;
        endReason_ = decision.reason;
        if (exploit) {
            exploit_ = decision;
            exploitSource_.reset();  // its own latest checkpoint, once committed
        }
    }
    afterSave_ = std::move(decision);
    step.answer = pause ? TrialAnswer::Pause : TrialAnswer::Save;
    return step;
}

CheckpointStep TrialAttempt::onCheckpoint(bool namesFolder) {
    CheckpointStep step;
    step.commit = namesFolder;
    if (!saving_) {
        // Unasked: kept if it names a folder, and the trial goes on.
        step.answer = answer(SchedulerDecision::proceed());
        return step;
    }
    saving_ = false;
    step.asked = true;
    step.cannotSave = !namesFolder;
    declinedSave_ = declinedSave_ || !namesFolder;
    const SchedulerDecision::Action after = afterSave_.action;
    if (after == SchedulerDecision::Action::Pause && afterSave_.yields) {
        if (!namesFolder) {
            step.pauseDropped = true;
            step.answer = answer(SchedulerDecision::proceed());
            return step;
        }
        // Saved: it exits now and comes back from this checkpoint.
        step.answer = answer(SchedulerDecision::stop(afterSave_.reason));
        ending_ = Ending::Pause;
        return step;
    }
    if (after != SchedulerDecision::Action::Pause && after != SchedulerDecision::Action::Exploit) {
        step.answer = answer(afterSave_);
    }
    return step;
}

void TrialAttempt::answerSent(TrialAnswer answer, double now) {
    const bool toldToEnd = answer == TrialAnswer::Stop || answer == TrialAnswer::Pause;
    if (toldToEnd && ending_ != Ending::None && !toldToEndAt_) {
        toldToEndAt_ = now;
    }
}

bool TrialAttempt::exitOverdue(double now, double graceS) const {
    return processRunning_ && toldToEndAt_ && !forced_ && now - *toldToEndAt_ >= graceS;
}

void TrialAttempt::commitSent(const QString& target, std::int64_t iteration,
                              const QJsonObject& result) {
    pendingCommits_[target] = {iteration, result};
}

std::optional<PendingCommit> TrialAttempt::commitAnswered(const QString& target) {
    auto it = pendingCommits_.find(target);
    if (it == pendingCommits_.end()) {
        return std::nullopt;
    }
    PendingCommit commit = std::move(it->second);
    pendingCommits_.erase(it);
    return commit;
}

std::optional<ExitFacts> TrialAttempt::takeDeferredExit() {
    if (!pendingCommits_.empty()) {
        return std::nullopt;
    }
    return std::exchange(deferredExit_, std::nullopt);
}

void TrialAttempt::kill(FailureCause cause, const QString& message) {
    if (ending_ == Ending::None || ending_ == Ending::Stop) {
        ending_ = Ending::Kill;
        failureCause_ = cause;
        failureMessage_ = message;
    }
}

void TrialAttempt::interrupt(const QString& message) {
    ending_ = Ending::Interrupt;
    failureCause_.reset();
    failureMessage_ = message;
}

void TrialAttempt::pauseWithExperiment(const QString& message) {
    interrupt(message);
    pausedWithExperiment_ = true;
}

bool TrialAttempt::stopNow(const QString& reason) {
    if (ending_ != Ending::None) {
        return false;
    }
    ending_ = Ending::Stop;
    endReason_ = reason;
    return true;
}

void TrialAttempt::nodeLost(const QString& message) {
    processRunning_ = false;
    pendingCommits_.clear();
    failureCause_ = FailureCause::NodeLost;
    failureMessage_ = message;
}

AttemptOutcome TrialAttempt::onExit(const ExitFacts& exit, const FailureSpec& failure,
                                    int failuresSoFar) {
    AttemptOutcome outcome;
    if (exit.isProcessExit() && !pendingCommits_.empty()) {
        deferredExit_ = exit;  // the checkpoints it sent first are finished first
        return outcome;
    }
    processRunning_ = false;
    pendingCommits_.clear();
    using Kind = AttemptOutcome::Kind;
    const bool clean = exit.isClean();
    if (ending_ == Ending::Interrupt) {
        outcome.kind = Kind::Requeued;
        outcome.status = pausedWithExperiment_ ? TrialStatus::Paused : TrialStatus::Pending;
        outcome.reason = failureMessage_;
        return outcome;
    }
    if (ending_ == Ending::Stop || (ending_ == Ending::None && clean)) {
        outcome.kind = Kind::Terminated;
        outcome.status = TrialStatus::Terminated;
        outcome.reason = ending_ == Ending::Stop ? endReason_ : QStringLiteral("finished");
        return outcome;
    }
    // A pause forced to end after its grace (the trial ignored it) is still the pause it was
    // told: its checkpoint was taken, and killing it is not its failure.
    if (ending_ == Ending::Pause && (clean || forced_)) {
        outcome.kind = Kind::Paused;
        outcome.status = TrialStatus::Paused;
        outcome.reason = endReason_;
        return outcome;
    }
    if (ending_ == Ending::Exploit) {
        outcome.kind = Kind::Exploit;
        outcome.status = TrialStatus::Pending;
        outcome.reason = exploit_.reason;
        return outcome;
    }
    const FailureCause cause = failureCause_.value_or(FailureCause::TrialCrashed);
    outcome.why = failureMessage_;
    if (outcome.why.isEmpty()) {
        outcome.why = describeExit(exit);
    }
    const FailureDecision decision = decideOnFailure(failure, cause, failuresSoFar);
    outcome.countsFailure = decision.counts;
    if (decision.action == FailureAction::Retry) {
        outcome.kind = Kind::Retry;
        outcome.status = TrialStatus::Pending;
        outcome.reason = cause == FailureCause::NodeLost
                             ? outcome.why
                             : QStringLiteral("retrying (failure %1 of %2 allowed): %3")
                                   .arg(failuresSoFar + (decision.counts ? 1 : 0))
                                   .arg(failure.maxFailures)
                                   .arg(outcome.why);
        return outcome;
    }
    outcome.kind = Kind::Error;
    outcome.status = TrialStatus::Error;
    outcome.reason = outcome.why;
    outcome.stopsExperiment = decision.action == FailureAction::StopExperiment;
    return outcome;
}

}  // namespace tunedeck
