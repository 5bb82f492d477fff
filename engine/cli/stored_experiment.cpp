#include "cli/stored_experiment.h"

#include <QDir>
#include <QFileInfo>
#include <cstdio>
#include <map>

#include "core/folder_name.h"
#include "core/pareto.h"

namespace tunedeck::cli {

bool openExperiment(const QString& folderArgument, OpenedExperiment* out) {
    out->folder = QDir::cleanPath(QDir::current().absoluteFilePath(folderArgument));
    const QString database = out->folder + QStringLiteral("/experiment.sqlite");
    if (!QFileInfo::exists(database)) {
        std::fprintf(stderr, "%s is not a Tunedeck experiment folder (no experiment.sqlite)\n",
                     qPrintable(out->folder));
        return false;
    }
    Status s = ExperimentStore::open(database, ExperimentStore::Mode::ReadOnly, &out->store);
    if (s) {
        s = out->store->loadExperiment(&out->record);
    }
    if (!s) {
        std::fprintf(stderr, "cannot read %s: %s\n", qPrintable(database), qPrintable(s.message()));
        return false;
    }
    out->spec = summarizeSpec(out->record.specText);
    return true;
}

bool readWhole(const OpenedExperiment& e) {
    if (const Status s = e.store->readError(); !s) {
        std::fprintf(stderr, "cannot read %s: %s\n", qPrintable(e.folder), qPrintable(s.message()));
        return false;
    }
    return true;
}

std::vector<ParetoMember> paretoFront(const ExperimentStore& store,
                                      const std::vector<TrialRecord>& trials,
                                      const std::vector<Objective>& objectives, ScoreScope scope) {
    std::vector<std::map<QString, double>> scores;
    for (const Objective& objective : objectives) {
        std::map<QString, double>& byTrial = scores.emplace_back();
        for (const TrialScore& score : store.trialScores(objective.metric, objective.mode, scope)) {
            byTrial[score.trialId] = score.value;
        }
    }
    std::vector<const TrialRecord*> scored;
    std::vector<std::vector<double>> losses;
    for (const TrialRecord& record : trials) {
        std::vector<double> loss;
        for (std::size_t i = 0; i < objectives.size(); ++i) {
            const auto it = scores[i].find(record.trial.id);
            if (it == scores[i].end()) {
                break;
            }
            loss.push_back(objectives[i].mode == MetricMode::Max ? -it->second : it->second);
        }
        if (loss.size() == objectives.size()) {
            scored.push_back(&record);
            losses.push_back(std::move(loss));
        }
    }
    const std::vector<int> ranks = pareto::frontRanks(losses);
    std::vector<const TrialRecord*> members;
    std::vector<std::vector<double>> memberLosses;
    for (std::size_t i = 0; i < scored.size(); ++i) {
        if (ranks[i] == 0) {
            members.push_back(scored[i]);
            memberLosses.push_back(losses[i]);
        }
    }
    std::vector<ParetoMember> front;
    for (std::size_t index : pareto::rankOrder(memberLosses)) {
        const TrialRecord& record = *members[index];
        ParetoMember member{record.trial.id, {}, record.trial.config};
        for (std::size_t i = 0; i < objectives.size(); ++i) {
            member.objectives.emplace_back(objectives[i].metric, scores[i].at(record.trial.id));
        }
        front.push_back(std::move(member));
    }
    return front;
}

}  // namespace tunedeck::cli

namespace tunedeck::cli {

std::vector<ExperimentSummary> summarizeExperiments(const QString& root) {
    std::vector<ExperimentSummary> summaries;
    const QFileInfoList entries =
        QDir(root).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time | QDir::Reversed);
    for (const QFileInfo& entry : entries) {
        // Only what requests can name again (`resume`, `best`, `export`) is listed.
        if (!folderNameProblem(entry.fileName()).isEmpty() ||
            !QFileInfo::exists(entry.absoluteFilePath() + QStringLiteral("/experiment.sqlite"))) {
            continue;
        }
        OpenedExperiment e;
        if (!openExperiment(entry.absoluteFilePath(), &e)) {
            continue;
        }
        ExperimentSummary summary;
        summary.folderName = entry.fileName();
        summary.status = e.record.status;
        summary.createdAt = e.record.createdAt;
        const std::vector<TrialRecord> trials = e.store->loadTrials();
        summary.trials = int(trials.size());
        for (const TrialRecord& t : trials) {
            summary.errors += t.trial.status == TrialStatus::Error ? 1 : 0;
        }
        if (e.spec.isMultiObjective()) {
            const std::size_t size =
                paretoFront(*e.store, trials, e.spec.objectives, ScoreScope::Last).size();
            if (size > 0) {
                summary.best = QStringLiteral("Pareto front of %1").arg(size);
            }
        } else if (!e.spec.metric.isEmpty()) {
            const auto scores = e.store->trialScores(e.spec.metric, e.spec.mode, ScoreScope::Last);
            if (!scores.empty()) {
                summary.best =
                    QStringLiteral("%1=%2 (%3)")
                        .arg(e.spec.metric, QString::number(scores.front().value, 'g', 6),
                             scores.front().trialId);
            }
        }
        if (!e.store->readError()) {
            // Counted from part of the history: said so, and no best is named from it.
            summary.status = QStringLiteral("damaged");
            summary.best.clear();
        }
        summaries.push_back(std::move(summary));
    }
    return summaries;
}

}  // namespace tunedeck::cli
