#include "runtime/recovery.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>
#include <filesystem>
#include <system_error>

namespace tunedeck {

QString trialFolder(const QString& experimentDir, const QString& trialId) {
    return experimentDir + QStringLiteral("/trials/") + trialId;
}

QString checkpointFolder(const QString& experimentDir, const QString& trialId,
                         std::int64_t iteration) {
    return trialFolder(experimentDir, trialId) +
           QStringLiteral("/checkpoints/checkpoint_%1").arg(iteration, 6, 10, QChar('0'));
}

Status copyCheckpoint(const QString& from, const QString& to) {
    namespace fs = std::filesystem;
    const fs::path source = from.toStdString();
    const fs::path target = to.toStdString();
    const fs::path scratch = target.string() + ".tmp";
    std::error_code error;
    fs::remove_all(scratch, error);
    fs::create_directories(scratch.parent_path(), error);
    fs::copy(source, scratch, fs::copy_options::recursive | fs::copy_options::create_hard_links,
             error);
    if (error) {
        fs::remove_all(scratch, error);
        error.clear();
        fs::copy(source, scratch, fs::copy_options::recursive, error);
    }
    if (!error) {
        fs::remove_all(target, error);
        error.clear();
        fs::rename(scratch, target, error);
    }
    if (error) {
        std::error_code ignored;
        fs::remove_all(scratch, ignored);
        return Status::ioError(QStringLiteral("cannot copy %1 to %2: %3")
                                   .arg(from, to, QString::fromStdString(error.message())));
    }
    return Status::ok();
}

namespace {

bool isCommittedCheckpoint(const QString& folder) {
    return QFileInfo::exists(folder + QStringLiteral("/.tunedeck_checkpoint.json"));
}

}  // namespace

Status removeCheckpoint(const QString& folder) {
    if (!QFileInfo::exists(folder)) {
        return Status::ok();
    }
    if (!isCommittedCheckpoint(folder) && !folder.endsWith(QStringLiteral(".tmp"))) {
        return Status::invalid(
            QStringLiteral("refusing to delete %1: it is not a checkpoint folder").arg(folder));
    }
    if (!QDir(folder).removeRecursively()) {
        return Status::ioError(QStringLiteral("cannot delete %1").arg(folder));
    }
    return Status::ok();
}

namespace {

// Removes checkpoint folders of `trialId` that SQLite does not list (a crash between the
// agent's rename and the database commit, or a half-written .tmp).
void removeUnknownCheckpointFolders(const QString& experimentDir, const QString& trialId,
                                    const QSet<QString>& known) {
    QDir dir(trialFolder(experimentDir, trialId) + QStringLiteral("/checkpoints"));
    if (!dir.exists()) {
        return;
    }
    for (const QFileInfo& entry : dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (!known.contains(QDir::cleanPath(entry.absoluteFilePath()))) {
            QDir(entry.absoluteFilePath()).removeRecursively();
        }
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
        QSet<QString> known;
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
            known.insert(QDir::cleanPath(c.path));
            rt.checkpoints.push_back({c.id, c.iteration, c.result});
            rt.checkpointPaths[c.id] = c.path;
            latest = &c;
        }
        if (!isFinished(trial.status)) {
            removeUnknownCheckpointFolders(experimentDir, trial.id, known);
            if (trial.status == TrialStatus::Running) {
                trial.status = TrialStatus::Pending;
                trial.pendingReason = QStringLiteral("resumed");
            }
            trial.checkpointPath = latest ? latest->path : QString();
            trial.checkpointIteration = latest ? latest->iteration : 0;
            trial.iteration = trial.checkpointIteration;
            trial.timeTotalS = latest ? latest->result.value("time_total_s").toDouble() : 0;
            trial.lastResult = latest ? latest->result : QJsonObject();
            store.deleteResultsAfter(trial.id, trial.checkpointIteration);
        }
        recovered.trials.push_back(std::move(rt));
    }
    if (Status s = store.flush(); !s) {
        return s;
    }
    recovered.resultCount = store.resultCount();
    *out = std::move(recovered);
    return Status::ok();
}

}  // namespace tunedeck
