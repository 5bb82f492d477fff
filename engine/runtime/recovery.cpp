#include "runtime/recovery.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <set>

#include "checkpoint/checkpoint_files.h"
#include "checkpoint/file_identity.h"
#include "core/trial_attempt.h"
#include "core/trial_report.h"

namespace tunedeck {

namespace {

Status statusOf(const checkpoint::FileOutcome& outcome) {
    return outcome.ok ? Status::ok() : Status::ioError(QString::fromStdString(outcome.error));
}

bool isCommittedCheckpoint(const QString& folder) {
    return checkpoint::holdsManifest(checkpoint::posixFileSystem(), folder.toStdString());
}

}  // namespace

Status copyCheckpoint(const QString& from, const QString& to, const QJsonObject& manifest) {
    return statusOf(checkpoint::asExperimentOwner([&] {
        return checkpoint::commitCheckpoint(
            checkpoint::posixFileSystem(), from.toStdString(), to.toStdString(),
            QJsonDocument(manifest).toJson().toStdString(), checkpoint::Handover::Copy);
    }));
}

Status removeCheckpoint(const QString& folder) {
    return statusOf(checkpoint::asExperimentOwner([&] {
        return checkpoint::deleteCheckpoint(checkpoint::posixFileSystem(), folder.toStdString());
    }));
}

Status removeStagingFolder(const QString& folder) {
    return statusOf(checkpoint::asExperimentOwner([&] {
        return checkpoint::removeStaging(checkpoint::posixFileSystem(), folder.toStdString());
    }));
}

namespace {

// Removes what a crash left in the trial's checkpoints folder that SQLite does not list (a
// checkpoint renamed into place just before the crash, a half-written .tmp): only what the engine
// makes there, never through a symbolic link (checkpoint::sweepUnlistedCheckpoints).
void sweepCheckpointsFolder(const QString& experimentDir, const QString& trialId,
                            const std::vector<StoredCheckpoint>& stored, QStringList* notices) {
    std::set<std::string> listed;
    for (const StoredCheckpoint& c : stored) {
        listed.insert(QFileInfo(c.path).fileName().toStdString());
    }
    const QString folder = trialFolder(experimentDir, trialId) + QStringLiteral("/checkpoints");
    checkpoint::SweepOutcome swept;
    if (const std::string refused = checkpoint::runAsExperimentOwner([&] {
            swept = checkpoint::sweepUnlistedCheckpoints(checkpoint::posixFileSystem(),
                                                         folder.toStdString(), listed);
        });
        !refused.empty()) {
        swept.error = refused;
    }
    for (const std::string& line : swept.leftAlone) {
        notices->append(
            QObject::tr("trial %1: left alone: %2").arg(trialId, QString::fromStdString(line)));
    }
    if (!swept.error.empty()) {
        notices->append(QObject::tr("trial %1: cleaning its checkpoints folder: %2")
                            .arg(trialId, QString::fromStdString(swept.error)));
    }
}

}  // namespace

Status recoverExperiment(ExperimentStore& store, const QString& experimentDir,
                         RecoveredExperiment* out) {
    RecoveredExperiment recovered;
    if (Status s = store.loadExperiment(&recovered.experiment); !s) {
        return s;
    }
    std::map<QString, std::vector<StoredCheckpoint>> checkpointsByTrial;
    for (StoredCheckpoint& c : store.loadCheckpoints()) {
        if (!c.deleted) {
            checkpointsByTrial[c.trialId].push_back(std::move(c));
        }
    }
    for (TrialRecord& record : store.loadTrials()) {
        RecoveredTrial rt;
        rt.trial = std::move(record.trial);
        rt.startedAt = record.startedAt;
        rt.finishedAt = record.finishedAt;
        Trial& trial = rt.trial;
        auto& stored = checkpointsByTrial[trial.id];
        std::sort(stored.begin(), stored.end(),
                  [](const StoredCheckpoint& a, const StoredCheckpoint& b) {
                      return a.iteration < b.iteration;
                  });
        const StoredCheckpoint* latest = nullptr;
        for (const StoredCheckpoint& c : stored) {
            if (!isCommittedCheckpoint(c.path)) {
                store.markCheckpointDeleted(c.id);  // gone from disk: nothing to restore
                continue;
            }
            rt.checkpoints.push_back({c.id, c.iteration, c.result});
            rt.checkpointPaths[c.id] = c.path;
            latest = &c;
        }
        if (!isFinished(trial.status)) {
            sweepCheckpointsFolder(experimentDir, trial.id, stored, &recovered.notices);
            // A trial paused with its experiment, or by the user (that hold is not kept past
            // the run), waits for a slot as PENDING until it starts again; a trial a scheduler
            // paused stays PAUSED, as the scheduler's state expects.
            if (trial.status == TrialStatus::Running ||
                (trial.status == TrialStatus::Paused &&
                 (trial.pendingReason == QLatin1String(kExperimentPausedReason) ||
                  trial.pendingReason == QLatin1String("paused by the user")))) {
                trial.status = TrialStatus::Pending;
                trial.pendingReason = QStringLiteral("resumed");
            }
            trial.checkpointPath = latest ? latest->path : QString();
            trial.checkpointIteration = latest ? latest->iteration : 0;
            trial.iteration = trial.checkpointIteration;
            trial.timeTotalS = latest ? recordedTimeTotalS(latest->result) : 0;
            trial.lastResult = latest ? latest->result : QJsonObject();
            store.deleteResultsAfter(trial.id, trial.checkpointIteration);
        }
        recovered.trials.push_back(std::move(rt));
    }
    // What was read must be the whole history: a run resumed from part of it would repeat,
    // lose or misjudge trials (quick_check at open does not see a damaged value in a row).
    if (Status s = store.readError(); !s) {
        return s;
    }
    if (Status s = store.flush(); !s) {
        return s;
    }
    recovered.resultCount = store.resultCount();
    *out = std::move(recovered);
    return Status::ok();
}

}  // namespace tunedeck
