// The part of ExperimentRunner that handles what a trial says (reports, checkpoints) and how
// an attempt ends (finished, paused, failed and retried).
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>

#include "api/events.h"
#include "core/checkpoint_policy.h"
#include "runtime/experiment_runner.h"
#include "runtime/recovery.h"

namespace tunedeck {

namespace {

// Iterations are counted in doubles on the wire: beyond 2^53 they are no longer whole numbers,
// and a cast of 1e300 to 64 bits gives nonsense.
constexpr double kLargestIteration = 9007199254740992.0;  // 2^53

bool isIntegral(const QJsonValue& v) {
    return v.isDouble() && std::floor(v.toDouble()) == v.toDouble() && v.toDouble() >= 0 &&
           v.toDouble() <= kLargestIteration;
}

QString describeValue(const QJsonValue& v) {
    if (v.isString()) {
        return QStringLiteral("\"%1\"").arg(v.toString().left(40));
    }
    return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact))
        .mid(1)
        .chopped(1);
}

}  // namespace

void ExperimentRunner::onTrialMessage(LiveTrial& live, const QJsonObject& msg) {
    if (live.trial.status != TrialStatus::Running) {
        return;
    }
    live.lastActivity.start();
    const QString type = msg.value("type").toString();
    if (type == QLatin1String("report") && live.doneReceived) {
        // It said it has finished: a report after that is no training iteration (PROTOCOL.md).
        answer(live, SchedulerDecision::stop(tr("the trial said done")));
    } else if (type == QLatin1String("report")) {
        onReport(live, msg);
    } else if (type == QLatin1String("checkpoint")) {
        onCheckpointWritten(live, msg);
    } else if (type == QLatin1String("log")) {
        emitEvent(events::type::kLog, events::log(live.trial.id, msg.value("message").toString()));
    } else if (type == QLatin1String("done")) {
        live.doneReceived = true;
    } else if (type != QLatin1String("heartbeat")) {
        killTrial(live, LiveTrial::Ending::Kill, FailureCause::ProtocolViolation,
                  tr("the trial sent a message of unknown type '%1'").arg(type.left(40)));
    }
}

bool ExperimentRunner::checkMetric(LiveTrial& live, const QJsonObject& metrics) {
    if (spec_.metric.isEmpty()) {
        return true;
    }
    const QJsonValue value = metrics.value(spec_.metric);
    if (value.isUndefined()) {
        const QString message =
            tr("%1: metric: '%2' is not in the results that trial %3 reports (it reported: %4)")
                .arg(spec_.locationOf("metric").toString(), spec_.metric, live.trial.id,
                     metrics.keys().join(QStringLiteral(", ")));
        killTrial(live, LiveTrial::Ending::Interrupt, FailureCause::NodeLost, message);
        failExperiment(kExitBadInput, message);
        return false;
    }
    if (!value.isDouble() || !std::isfinite(value.toDouble())) {
        killTrial(live, LiveTrial::Ending::Kill, FailureCause::ProtocolViolation,
                  tr("the trial reported %1 = %2, which is not a finite number")
                      .arg(spec_.metric, describeValue(value)));
        return false;
    }
    return true;
}

void ExperimentRunner::onReport(LiveTrial& live, const QJsonObject& msg) {
    if (live.ending != LiveTrial::Ending::None || live.awaitingCheckpoint) {
        return;  // already being stopped; the kill or the pending answer decides
    }
    if (!msg.value("metrics").isObject()) {
        killTrial(live, LiveTrial::Ending::Kill, FailureCause::ProtocolViolation,
                  tr("a report without a \"metrics\" object"));
        return;
    }
    const QJsonObject metrics = msg.value("metrics").toObject();
    if (!checkMetric(live, metrics)) {
        return;
    }
    Trial& trial = live.trial;
    const QJsonValue given = metrics.value("training_iteration");
    if (given.isDouble() && !isIntegral(given)) {
        killTrial(live, LiveTrial::Ending::Kill, FailureCause::ProtocolViolation,
                  tr("the trial reported training_iteration = %1; it must be a whole number "
                     "from 0 to 2^53")
                      .arg(describeValue(given)));
        return;
    }
    const std::int64_t iteration =
        isIntegral(given) ? std::int64_t(given.toDouble()) : trial.iteration + 1;
    const double thisIter = double(live.sinceReport.elapsed()) / 1000.0;
    live.sinceReport.start();
    trial.timeTotalS += thisIter;
    trial.iteration = iteration;
    ++live.iterationsSinceRestore;

    // Ray Tune's automatic result fields.
    QJsonObject result = metrics;
    const double timestamp = now();
    result.insert("training_iteration", qint64(iteration));
    result.insert("trial_id", trial.id);
    result.insert("timestamp", timestamp);
    result.insert("time_this_iter_s", thisIter);
    result.insert("time_total_s", trial.timeTotalS);
    result.insert("iterations_since_restore", qint64(live.iterationsSinceRestore));
    trial.lastResult = result;
    live.dirty = true;

    const std::int64_t seq = store_->appendResult(trial.id, iteration, timestamp, result);
    ++resultCount_;
    if (eventsFile_) {
        QByteArray line = QJsonDocument(events::envelope(events::type::kResult, seq, timestamp,
                                                         events::result(trial.id, result)))
                              .toJson(QJsonDocument::Compact);
        line.append('\n');
        eventsFile_->write(line);
    }
    searcher_->onResult(trial.id, result);

    const QString givenCheckpoint = msg.value("checkpoint").toString();
    if (!givenCheckpoint.isEmpty()) {
        commitCheckpoint(live, givenCheckpoint, iteration, result);
    }
    if (!checkRequiredKeys(live, result)) {
        return;
    }
    SchedulerDecision decision;
    if (std::optional<QString> reason = stopReason(spec_.stop, result)) {
        decision = SchedulerDecision::stop(*reason);
    } else {
        decision = scheduler_->onResult(trial, result);
    }
    applyUserOrder(live, &decision);
    using Action = SchedulerDecision::Action;
    if (decision.action == Action::Exploit && decision.source != trial.id) {
        auto source = trials_.find(decision.source);
        const QString copied =
            source == trials_.end() ? QString() : source->second.trial.checkpointPath;
        if (copied.isEmpty()) {
            emitEvent(events::type::kWarning,
                      events::warning(tr("trial %1 cannot copy trial %2: it has no checkpoint yet "
                                         "(the trial continues unchanged)")
                                          .arg(trial.id, decision.source),
                                      trial.id));
            decision = SchedulerDecision::proceed();
        } else {
            ++pinnedCheckpoints_[copied];
            live.exploitCheckpoint = copied;
            live.exploitSourceIteration = source->second.trial.checkpointIteration;
            answer(live, SchedulerDecision::stop(decision.reason));
            live.ending = LiveTrial::Ending::Exploit;
            live.exploit = decision;
            savePolicyState(true);
            return;
        }
    }
    if (decision.action != Action::Continue) {
        savePolicyState(true);
    }
    const bool haveCheckpoint = !givenCheckpoint.isEmpty();
    const bool asked = spec_.checkpoint.enabled && !haveCheckpoint;
    if (decision.action == Action::Pause && haveCheckpoint) {
        // This report's checkpoint is the one to resume from (Ray pauses a function trainable
        // at its latest reported checkpoint): the trial need only exit, as when stopped.
        answer(live, SchedulerDecision::stop(decision.reason));
        live.ending = LiveTrial::Ending::Pause;
        return;
    }
    if (decision.action == Action::Pause || decision.action == Action::Exploit ||
        (decision.action == Action::Stop && spec_.checkpoint.atEnd && asked) ||
        (decision.action == Action::Continue && asked &&
         (decision.checkpoint || shouldRequestCheckpoint(spec_.checkpoint, iteration)))) {
        requestCheckpoint(live, result, decision);
    } else {
        answer(live, decision);
    }
}

bool ExperimentRunner::checkRequiredKeys(LiveTrial& live, const QJsonObject& result) {
    for (const auto& [key, specKey] : scheduler_->requiredResultKeys()) {
        if (!valueAtPath(result, key).isUndefined()) {
            continue;
        }
        const QString message =
            tr("%1: %2: '%3' is not in the results that trial %4 reports (it reported: %5)")
                .arg(spec_.locationOf(specKey).toString(), specKey, key, live.trial.id,
                     result.keys().join(QStringLiteral(", ")));
        killTrial(live, LiveTrial::Ending::Interrupt, FailureCause::NodeLost, message);
        failExperiment(kExitBadInput, message);
        return false;
    }
    return true;
}

void ExperimentRunner::answer(LiveTrial& live, const SchedulerDecision& decision) {
    const bool stop = decision.action == SchedulerDecision::Action::Stop;
    if (stop) {
        live.ending = LiveTrial::Ending::Stop;
        live.endReason = decision.reason;
    }
    // The hot path of every result: the line is put together without a JSON document.
    QByteArray line = QByteArrayLiteral("{\"op\":\"answer\",\"trial\":\"");
    line += live.trial.id.toLatin1();  // ids are "t" and digits
    line += stop ? QByteArrayLiteral("\",\"answer\":{\"action\":\"stop\"}}\n")
                 : QByteArrayLiteral("\",\"answer\":{\"action\":\"continue\"}}\n");
    if (NodeLink* link = linkOf(live)) {
        link->sendLine(line);
    }
}

void ExperimentRunner::requestCheckpoint(LiveTrial& live, const QJsonObject& result,
                                         const SchedulerDecision& after) {
    const std::int64_t iteration = live.trial.iteration;
    const QString target = checkpointFolder(options_.experimentDir, live.trial.id, iteration);
    // The agent makes it, empty, on the trial's node (removing what a dead attempt left there).
    const QString scratch = target + QStringLiteral(".tmp");
    live.awaitingCheckpoint = true;
    live.afterCheckpoint = after;
    live.checkpointTarget = target;
    live.checkpointResult = result;
    live.checkpointIterationPending = iteration;
    // A pause, or a change of config on the spot (a self-exploit: pbt-replay), saves and exits.
    const bool exploit = after.action == SchedulerDecision::Action::Exploit;
    const bool pause = after.action == SchedulerDecision::Action::Pause || exploit;
    if (pause) {
        live.ending = exploit ? LiveTrial::Ending::Exploit : LiveTrial::Ending::Pause;
        live.endReason = after.reason;
        if (exploit) {
            live.exploit = after;
            live.exploitCheckpoint.clear();  // its own latest, once committed
        }
    }
    sendToNode(live, QJsonObject{{"op", "answer"},
                                 {"trial", live.trial.id},
                                 {"answer", QJsonObject{{"action", pause ? "pause" : "save"},
                                                        {"path", onNodePath(live, scratch)}}}});
}

void ExperimentRunner::onCheckpointWritten(LiveTrial& live, const QJsonObject& msg) {
    const QJsonValue path = msg.value("path");
    if (!live.awaitingCheckpoint) {
        // Unasked: keep it if it names a folder, and let the trial go on.
        if (path.isString() && !path.toString().isEmpty()) {
            commitCheckpoint(live, path.toString(), live.trial.iteration, live.trial.lastResult);
        }
        answer(live, SchedulerDecision::proceed());
        return;
    }
    live.awaitingCheckpoint = false;
    const QString scratch = onNodePath(live, live.checkpointTarget + QStringLiteral(".tmp"));
    if (path.isString() && !path.toString().isEmpty()) {
        // The folder the engine named is its own and is moved; any other the trial names instead
        // is taken by the handover rule, as in a report.
        const bool ours = QDir::cleanPath(path.toString()) == QDir::cleanPath(scratch);
        commitCheckpoint(live, path.toString(), live.checkpointIterationPending,
                         live.checkpointResult, ours);
        if (!ours) {
            sendToNode(live, QJsonObject{{"op", "delete_checkpoint"}, {"path", scratch}});
        }
    } else {
        sendToNode(live, QJsonObject{{"op", "delete_checkpoint"}, {"path", scratch}});
        emitEvent(events::type::kWarning,
                  events::warning(tr("trial %1 cannot save a checkpoint on request (register "
                                     "a save function with tunedeck.on_save)")
                                      .arg(live.trial.id),
                                  live.trial.id));
    }
    if (live.afterCheckpoint.action != SchedulerDecision::Action::Pause &&
        live.afterCheckpoint.action != SchedulerDecision::Action::Exploit) {
        answer(live, live.afterCheckpoint);
    }
}

QJsonObject ExperimentRunner::checkpointManifest(const QString& trialId, std::int64_t iteration,
                                                 const QJsonObject& result) const {
    return QJsonObject{{"experiment", spec_.name},
                       {"trial", trialId},
                       {"iteration", qint64(iteration)},
                       {"result", result},
                       {"created_at", now()}};
}

QJsonArray ExperimentRunner::protectedFolders(const LiveTrial& live) const {
    QJsonArray places;
    const auto add = [&](const QString& headPath, const QString& what) {
        if (!headPath.isEmpty()) {
            places.append(QJsonObject{{"path", onNodePath(live, headPath)}, {"what", what}});
        }
    };
    add(spec_.trainable.workingDir, tr("the trial's working directory"));
    add(options_.experimentDir, tr("the experiment folder"));
    add(QFileInfo(options_.experimentDir).absolutePath(), tr("the results root"));
    return places;
}

void ExperimentRunner::commitCheckpoint(LiveTrial& live, const QString& from,
                                        std::int64_t iteration, const QJsonObject& result,
                                        bool engineScratch) {
    const QString to = checkpointFolder(options_.experimentDir, live.trial.id, iteration);
    live.pendingCommits[to] = {iteration, result};
    QJsonObject op{{"op", "commit_checkpoint"},
                   {"trial", live.trial.id},
                   {"from", from},
                   {"to", onNodePath(live, to)},
                   {"manifest", checkpointManifest(live.trial.id, iteration, result)},
                   {"handover", engineScratch ? "engine" : "trial"}};
    if (!engineScratch) {
        op.insert("trial_dir",
                  onNodePath(live, trialFolder(options_.experimentDir, live.trial.id)));
        op.insert("protect", protectedFolders(live));
    }
    sendToNode(live, op);
}

void ExperimentRunner::onCommitted(LiveTrial& live, const QJsonObject& message) {
    const QString to = message.value("to").toString();
    auto pending = live.pendingCommits.find(to);
    if (pending == live.pendingCommits.end()) {
        return;
    }
    const auto [iteration, result] = pending->second;
    live.pendingCommits.erase(pending);
    if (message.value("ok").toBool()) {
        const std::int64_t id = store_->addCheckpoint(live.trial.id, iteration, to, result, now());
        live.checkpoints.push_back({id, iteration, result});
        live.checkpointPaths[id] = to;
        if (iteration >= live.trial.checkpointIteration) {
            live.trial.checkpointPath = to;
            live.trial.checkpointIteration = iteration;
        }
        live.dirty = true;
        emitEvent(events::type::kCheckpoint, events::checkpoint(live.trial.id, iteration, to));
        applyRetention(live);
    } else {
        checkpointNotKept(live, iteration, message.value("error").toString());
    }
    if (live.pendingCommits.empty() && !live.deferredExit.isEmpty()) {
        const QJsonObject exit = std::exchange(live.deferredExit, {});
        onTrialExited(live, exit);
    }
}

void ExperimentRunner::checkpointNotKept(const LiveTrial& live, std::int64_t iteration,
                                         const QString& why) {
    ++checkpointsNotKept_;
    const QString message = tr("checkpoint of trial %1 at iteration %2 was not kept: %3")
                                .arg(live.trial.id)
                                .arg(iteration)
                                .arg(why);
    emitEvent(events::type::kWarning, events::warning(message, live.trial.id));
    reporter_->warning(message);
}

void ExperimentRunner::applyRetention(LiveTrial& live) {
    const std::vector<std::int64_t> doomed =
        checkpointsToDelete(spec_.checkpoint, live.checkpoints, {});
    if (doomed.empty()) {
        return;
    }
    // The checkpoint that replaces them must be durable before they go.
    if (Status s = store_->flush(); !s) {
        return;
    }
    for (std::int64_t id : doomed) {
        if (pinnedCheckpoints_.count(live.checkpointPaths[id])) {
            continue;  // an exploit will copy it; the next retention pass removes it
        }
        deleteCheckpointFolder(live, live.checkpointPaths[id]);
        store_->markCheckpointDeleted(id);
        live.checkpointPaths.erase(id);
        std::erase_if(live.checkpoints, [id](const CheckpointRecord& c) { return c.id == id; });
    }
}

void ExperimentRunner::killTrial(LiveTrial& live, LiveTrial::Ending ending, FailureCause cause,
                                 const QString& message) {
    if (live.trial.status != TrialStatus::Running) {
        return;
    }
    if (live.ending == LiveTrial::Ending::None || live.ending == LiveTrial::Ending::Stop ||
        ending == LiveTrial::Ending::Interrupt) {
        live.ending = ending;
        live.failureCause = cause;
        live.failureMessage = message;
    }
    sendToNode(live, QJsonObject{{"op", "kill"}, {"trial", live.trial.id}, {"reason", message}});
}

void ExperimentRunner::onTrialExited(LiveTrial& live, const QJsonObject& message) {
    Trial& trial = live.trial;
    if (trial.status != TrialStatus::Running) {
        return;
    }
    const bool realExit = message.contains("code") || message.contains("signal");
    if (realExit && !live.pendingCommits.empty()) {
        live.deferredExit = message;  // finish the checkpoint it sent first
        return;
    }
    live.processRunning = false;
    live.pendingCommits.clear();
    release(pool_->capacities(), spec_.resourcesPerTrial, live.placement);
    live.placement = {};

    const QJsonValue code = message.value("code");
    const QJsonValue signal = message.value("signal");
    const bool cleanExit = code.isDouble() && code.toInt() == 0;
    using Ending = LiveTrial::Ending;
    if (live.ending == Ending::Interrupt) {
        setStatus(live, TrialStatus::Pending, live.failureMessage);
    } else if (live.ending == Ending::Stop || (live.ending == Ending::None && cleanExit)) {
        setStatus(live, TrialStatus::Terminated,
                  live.ending == Ending::Stop ? live.endReason : tr("finished"));
        scheduler_->onComplete(trial, trial.lastResult);
        searcher_->onComplete(trial.id, trial.lastResult, false);
    } else if (live.ending == Ending::Pause && cleanExit) {
        setStatus(live, TrialStatus::Paused, live.endReason);
    } else if (live.ending == Ending::Exploit) {
        applyExploit(live);
    } else {
        const FailureCause cause = live.failureCause.value_or(FailureCause::TrialCrashed);
        QString why = live.failureMessage;
        if (why.isEmpty()) {
            why = signal.isDouble() ? tr("killed by signal %1").arg(signal.toInt())
                                    : tr("exited with status %1").arg(code.toInt());
        }
        QStringList tail;
        for (const QJsonValue& line : message.value("log_tail").toArray()) {
            tail << line.toString();
        }
        const FailureDecision decision = decideOnFailure(spec_.failure, cause, trial.failures);
        if (decision.counts) {
            ++trial.failures;
        }
        trial.errorMessage = why;
        if (!tail.isEmpty()) {
            trial.errorMessage +=
                QStringLiteral("\n--- last lines of %1/trial.log ---\n%2")
                    .arg(trialFolder(options_.experimentDir, trial.id), tail.join('\n'));
        }
        emitEvent(
            events::type::kWarning,
            events::warning(tr("trial %1 failed: %2").arg(trial.id, trial.errorMessage), trial.id));
        switch (decision.action) {
            case FailureAction::Retry:
                setStatus(live, TrialStatus::Pending,
                          cause == FailureCause::NodeLost
                              ? why
                              : tr("retrying (failure %1 of %2 allowed): %3")
                                    .arg(trial.failures)
                                    .arg(spec_.failure.maxFailures)
                                    .arg(why));
                break;
            case FailureAction::GiveUp:
            case FailureAction::StopExperiment:
                setStatus(live, TrialStatus::Error, why);
                scheduler_->onError(trial);
                searcher_->onComplete(trial.id, trial.lastResult, true);
                if (decision.action == FailureAction::StopExperiment) {
                    // `raise`: the trial's error as Ray raises it, its log's last lines included.
                    failExperiment(
                        kExitTrialErrors,
                        tr("fail_fast: trial %1 failed: %2")
                            .arg(trial.id, spec_.failure.failFastRaise ? trial.errorMessage : why));
                }
                break;
        }
    }
    savePolicyState();
    pump();
}

void ExperimentRunner::applyExploit(LiveTrial& live) {
    Trial& trial = live.trial;
    const SchedulerDecision exploit = std::exchange(live.exploit, {});
    const bool self = exploit.source == trial.id;
    const QString copied = std::exchange(live.exploitCheckpoint, {});
    ExploitRecord record;
    record.trialId = trial.id;
    record.sourceTrialId = exploit.source;
    record.iteration = trial.iteration;
    record.sourceIteration = self ? trial.checkpointIteration : live.exploitSourceIteration;
    record.oldConfig = trial.config;
    record.newConfig = exploit.config;
    record.reason = exploit.reason;
    record.timestamp = now();
    if (!self) {
        // The copy becomes this trial's checkpoint at its own iteration: its curve goes on
        // from where it is, with the source's weights.
        const QString to = checkpointFolder(options_.experimentDir, trial.id, trial.iteration);
        QJsonObject manifest = checkpointManifest(trial.id, trial.iteration, trial.lastResult);
        manifest.insert("copied_from", exploit.source);
        const Status copiedOk = copyCheckpoint(copied, to, manifest);
        if (--pinnedCheckpoints_[copied] <= 0) {
            pinnedCheckpoints_.erase(copied);
        }
        if (!copiedOk) {
            emitEvent(events::type::kWarning,
                      events::warning(tr("trial %1 could not copy the checkpoint of trial %2: %3; "
                                         "it continues from its own")
                                          .arg(trial.id, exploit.source, copiedOk.message()),
                                      trial.id));
            setStatus(live, TrialStatus::Pending, tr("exploit failed; resuming"));
            return;
        }
        QJsonObject result = trial.lastResult;
        const std::int64_t id = store_->addCheckpoint(trial.id, trial.iteration, to, result, now());
        live.checkpoints.push_back({id, trial.iteration, result});
        live.checkpointPaths[id] = to;
        trial.checkpointPath = to;
        trial.checkpointIteration = trial.iteration;
        emitEvent(events::type::kCheckpoint, events::checkpoint(trial.id, trial.iteration, to));
    }
    trial.config = exploit.config;
    store_->addExploit(record);
    emitEvent(events::type::kExploit,
              events::exploit(record.trialId, record.sourceTrialId, record.iteration,
                              record.sourceIteration, record.oldConfig, record.newConfig,
                              record.reason, floatPathsOf(spec_.searchSpace, record.oldConfig),
                              floatPathsOf(spec_.searchSpace, record.newConfig)));
    setStatus(live, TrialStatus::Pending, exploit.reason);
    applyRetention(live);
}

}  // namespace tunedeck
