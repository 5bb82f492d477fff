// The part of ExperimentRunner that handles what a trial says (reports, checkpoints) and how
// an attempt ends (finished, paused, failed and retried).
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include "api/events.h"
#include "core/checkpoint_policy.h"
#include "core/trial_report.h"
#include "runtime/experiment_runner.h"
#include "runtime/recovery.h"

namespace tunedeck {

void ExperimentRunner::onTrialMessage(LiveTrial& live, const QJsonObject& msg) {
    if (live.trial.status != TrialStatus::Running) {
        return;
    }
    live.lastActivity.start();
    const QString type = msg.value("type").toString();
    if (type == QLatin1String("report") && live.attempt.saidDone()) {
        // It said it has finished: a report after that is no training iteration (PROTOCOL.md).
        sendAnswer(live, live.attempt.answer(SchedulerDecision::stop(tr("the trial said done"))));
    } else if (type == QLatin1String("report")) {
        onReport(live, msg);
    } else if (type == QLatin1String("checkpoint")) {
        onCheckpointWritten(live, msg);
    } else if (type == QLatin1String("log")) {
        emitEvent(events::type::kLog, events::log(live.trial.id, msg.value("message").toString()));
    } else if (type == QLatin1String("done")) {
        live.attempt.trialSaidDone();
    } else if (type != QLatin1String("heartbeat")) {
        killTrial(live, FailureCause::ProtocolViolation,
                  tr("the trial sent a message of unknown type '%1'").arg(type.left(40)));
    }
}

void ExperimentRunner::onReport(LiveTrial& live, const QJsonObject& msg) {
    if (!live.attempt.takesReports()) {
        return;  // already being stopped; the kill or the pending answer decides
    }
    Trial& trial = live.trial;
    const QJsonValue metrics = msg.value("metrics");
    std::int64_t iteration = 0;
    if (std::optional<ReportProblem> problem =
            checkReport(metrics, spec_, trial.id, trial.iteration, &iteration)) {
        refuseReport(live, *problem);
        return;
    }
    const double thisIter = double(live.sinceReport.elapsed()) / 1000.0;
    live.sinceReport.start();
    trial.timeTotalS += thisIter;
    trial.iteration = iteration;
    const std::int64_t sinceRestore = live.attempt.countReport();

    const double timestamp = now();
    const QJsonObject result = withAutomaticFields(
        metrics.toObject(),
        {iteration, trial.id, timestamp, thisIter, trial.timeTotalS, sinceRestore});
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
    if (std::optional<ReportProblem> problem =
            checkRequiredKeys(*scheduler_, spec_, trial.id, result)) {
        refuseReport(live, *problem);
        return;
    }
    SchedulerDecision decision = decideOnResult(spec_.stop, *scheduler_, trial, result);
    if (decision.action == SchedulerDecision::Action::Pause && decision.workers > 0) {
        // resource_changing: the trial pauses here and starts again with its new size.
        const int from = trial.workers > 0 ? trial.workers : spec_.gang.workers;
        trial.workers = decision.workers;
        emitEvent(
            events::type::kTrialResources,
            events::trialResources(trial.id, iteration, from, decision.workers, decision.reason));
    }
    ReportFacts facts;
    facts.trialId = trial.id;
    facts.iteration = iteration;
    facts.result = result;
    facts.namesCheckpoint = !givenCheckpoint.isEmpty();
    if (decision.action == SchedulerDecision::Action::Exploit) {
        auto source = trials_.find(decision.source);
        if (source != trials_.end() && !source->second.trial.checkpointPath.isEmpty()) {
            facts.exploitSource = ExploitSource{source->second.trial.checkpointPath,
                                                source->second.trial.checkpointIteration};
        }
    }
    const QString exploitFrom = decision.source;
    const ReportStep step = live.attempt.onReport(std::move(decision), facts, spec_.checkpoint);
    if (step.exploitDropped) {
        emitEvent(events::type::kWarning,
                  events::warning(tr("trial %1 cannot copy trial %2: it has no checkpoint yet "
                                     "(the trial continues unchanged)")
                                      .arg(trial.id, exploitFrom),
                                  trial.id));
    }
    if (step.exploitsOther) {
        ++pinnedCheckpoints_[live.attempt.exploitSource()->path];  // until it is copied
    }
    if (step.policyChanged) {
        savePolicyState(true);
    }
    sendAnswer(live, step.answer);
}

void ExperimentRunner::refuseReport(LiveTrial& live, const ReportProblem& problem) {
    if (problem.kind == ReportProblem::Kind::TrialFault) {
        killTrial(live, FailureCause::ProtocolViolation, problem.message);
        return;
    }
    interruptTrial(live, problem.message);  // a mistake in the experiment, not the trial's fault
    failExperiment(kExitBadInput, problem.message);
}

void ExperimentRunner::sendAnswer(LiveTrial& live, TrialAnswer answer) {
    live.attempt.answerSent(answer, now());
    if (answer == TrialAnswer::Continue || answer == TrialAnswer::Stop) {
        // The hot path of every result: the line is put together without a JSON document.
        QByteArray line = QByteArrayLiteral("{\"op\":\"answer\",\"trial\":\"");
        line += live.trial.id.toLatin1();  // ids are "t" and digits
        line += answer == TrialAnswer::Stop
                    ? QByteArrayLiteral("\",\"answer\":{\"action\":\"stop\"}}\n")
                    : QByteArrayLiteral("\",\"answer\":{\"action\":\"continue\"}}\n");
        if (NodeLink* link = linkOf(live)) {
            link->sendLine(line);
        }
        return;
    }
    // A checkpoint asked for: the agent makes the folder, empty, on the trial's node (removing
    // what a dead attempt left there); the trial's save function writes into it.
    const QString scratch =
        checkpointFolder(options_.experimentDir, live.trial.id, live.attempt.savingIteration()) +
        QStringLiteral(".tmp");
    sendToNode(live, QJsonObject{{"op", "answer"},
                                 {"trial", live.trial.id},
                                 {"answer", QJsonObject{{"action", answer == TrialAnswer::Pause
                                                                       ? QStringLiteral("pause")
                                                                       : QStringLiteral("save")},
                                                        {"path", onNodePath(live, scratch)}}}});
}

void ExperimentRunner::onCheckpointWritten(LiveTrial& live, const QJsonObject& msg) {
    const QJsonValue path = msg.value("path");
    const bool namesFolder = path.isString() && !path.toString().isEmpty();
    const CheckpointStep step = live.attempt.onCheckpoint(namesFolder);
    if (!step.asked) {
        // Unasked: taken at the trial's latest report.
        if (step.commit) {
            commitCheckpoint(live, path.toString(), live.trial.iteration, live.trial.lastResult);
        }
    } else {
        const std::int64_t iteration = live.attempt.savingIteration();
        const QString scratch =
            onNodePath(live, checkpointFolder(options_.experimentDir, live.trial.id, iteration) +
                                 QStringLiteral(".tmp"));
        // The folder the engine named is its own and is moved; any other the trial names
        // instead is taken by the handover rule, as in a report.
        const bool ours =
            namesFolder && QDir::cleanPath(path.toString()) == QDir::cleanPath(scratch);
        if (step.commit) {
            commitCheckpoint(live, path.toString(), iteration, live.attempt.savingResult(), ours);
        }
        if (!ours) {
            sendToNode(live, QJsonObject{{"op", "delete_checkpoint"}, {"path", scratch}});
        }
        if (step.cannotSave) {
            const QString why = tr("trial %1 cannot save a checkpoint on request (register a save "
                                   "function with tunedeck.on_save)")
                                    .arg(live.trial.id);
            emitEvent(events::type::kWarning,
                      events::warning(step.pauseDropped
                                          ? tr("%1: it keeps its slot instead of giving way, so "
                                               "as not to start again from an older checkpoint")
                                                .arg(why)
                                          : why,
                                      live.trial.id));
        }
    }
    if (step.answer) {
        sendAnswer(live, *step.answer);
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
    live.attempt.commitSent(to, iteration, result);
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
    const std::optional<PendingCommit> pending =
        live.attempt.commitAnswered(message.value("to").toString());
    if (!pending) {
        return;
    }
    const QString to = message.value("to").toString();
    const std::int64_t iteration = pending->iteration;
    const QJsonObject& result = pending->result;
    if (message.value("ok").toBool()) {
        supersedeCheckpointAt(live, to);
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
    if (std::optional<ExitFacts> exit = live.attempt.takeDeferredExit()) {
        onTrialExited(live, *exit);
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

void ExperimentRunner::supersedeCheckpointAt(LiveTrial& live, const QString& folder) {
    // The folder now holds a newer checkpoint (a PBT exploit's copy over the checkpoint the
    // trial reported at the same iteration, a retried attempt's save): the older row goes from
    // the history without its folder, so retention never deletes the folder for it.
    for (auto it = live.checkpointPaths.begin(); it != live.checkpointPaths.end();) {
        if (it->second != folder) {
            ++it;
            continue;
        }
        const std::int64_t id = it->first;
        store_->markCheckpointDeleted(id);
        std::erase_if(live.checkpoints, [id](const CheckpointRecord& c) { return c.id == id; });
        it = live.checkpointPaths.erase(it);
    }
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

}  // namespace tunedeck
