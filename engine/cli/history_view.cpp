#include "cli/history_view.h"

#include <QDir>
#include <QFileInfo>
#include <cstdio>

#include "cli/stored_experiment.h"
#include "core/folder_name.h"
#include "core/pareto.h"
#include "store/sqlite_db.h"

namespace tunedeck::cli {

bool openHistory(const QString& folderArgument, OpenedHistory* out) {
    QString database;
    if (!locateHistory(folderArgument, &out->folder, &database)) {
        return false;
    }
    Status s = store::HistoryReader::open(database, &out->reader);
    if (s) {
        s = store::asDamage(out->reader->readExperiment(&out->experiment));
    }
    if (s && !out->experiment.recorded) {
        s = Status::notFound(
            QStringLiteral("%1: no experiment has been recorded in it").arg(database));
    }
    if (!s) {
        std::fprintf(stderr, "cannot read %s: %s\n", qPrintable(database), qPrintable(s.message()));
        return false;
    }
    out->spec = summarizeSpec(out->experiment.specText);
    return true;
}

bool readSucceeded(const OpenedHistory& h, const Status& status) {
    if (!status) {
        std::fprintf(stderr, "cannot read %s: %s\n", qPrintable(h.folder),
                     qPrintable(store::asDamage(status).message()));
        return false;
    }
    return true;
}

const std::vector<FloatPaths>& ColumnFloats::below(const FloatPaths& floats) {
    for (const auto& [known, columns] : known_) {
        if (known == floats) {
            return columns;
        }
    }
    constexpr std::size_t kSetsKept = 16;  // a space's float paths differ only by its choices
    std::vector<FloatPaths> columns;
    columns.reserve(std::size_t(columns_.size()));
    for (const QString& column : columns_) {
        columns.push_back(floatPathsBelow(floats, column));
    }
    if (known_.size() >= kSetsKept) {
        scratch_ = std::move(columns);
        return scratch_;
    }
    known_.emplace_back(floats, std::move(columns));
    return known_.back().second;
}

TrialStatus trialStatusOf(const store::HistoryTrial& trial) {
    return trialStatusFromName(trial.status).value_or(TrialStatus::Pending);
}

Status readScores(OpenedHistory& h, const std::vector<store::HistoryTrial>& trials,
                  const QString& metric, MetricMode mode, ScoreScope scope,
                  std::vector<TrialScore>* out) {
    std::vector<store::MetricCurve> curves;
    std::int64_t results = 0;
    Status status = h.reader->readCurves(metric, trials, &curves, &results);
    *out = status ? store::rankTrials(trials, curves, mode, scope) : std::vector<TrialScore>{};
    return status;
}

Status readParetoFront(OpenedHistory& h, const std::vector<store::HistoryTrial>& trials,
                       const std::vector<Objective>& objectives, ScoreScope scope,
                       std::vector<ParetoMember>* out) {
    out->clear();
    std::vector<std::map<QString, double>> scores;
    for (const Objective& objective : objectives) {
        std::vector<TrialScore> ranked;
        if (Status s = readScores(h, trials, objective.metric, objective.mode, scope, &ranked);
            !s) {
            return s;
        }
        std::map<QString, double>& byTrial = scores.emplace_back();
        for (const TrialScore& score : ranked) {
            byTrial[score.trialId] = score.value;
        }
    }
    std::vector<const store::HistoryTrial*> scored;
    std::vector<std::vector<double>> losses;
    for (const store::HistoryTrial& trial : trials) {
        std::vector<double> loss;
        for (std::size_t i = 0; i < objectives.size(); ++i) {
            const auto it = scores[i].find(trial.id);
            if (it == scores[i].end()) {
                break;
            }
            loss.push_back(objectives[i].mode == MetricMode::Max ? -it->second : it->second);
        }
        if (loss.size() == objectives.size()) {
            scored.push_back(&trial);
            losses.push_back(std::move(loss));
        }
    }
    const std::vector<int> ranks = pareto::frontRanks(losses);
    std::vector<const store::HistoryTrial*> members;
    std::vector<std::vector<double>> memberLosses;
    for (std::size_t i = 0; i < scored.size(); ++i) {
        if (ranks[i] == 0) {
            members.push_back(scored[i]);
            memberLosses.push_back(losses[i]);
        }
    }
    for (std::size_t index : pareto::rankOrder(memberLosses)) {
        const store::HistoryTrial& trial = *members[index];
        ParetoMember member{trial.id, {}, trial.config};
        for (std::size_t i = 0; i < objectives.size(); ++i) {
            member.objectives.emplace_back(objectives[i].metric, scores[i].at(trial.id));
        }
        out->push_back(std::move(member));
    }
    return Status::ok();
}

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
        OpenedHistory h;
        if (!openHistory(entry.absoluteFilePath(), &h)) {
            continue;
        }
        ExperimentSummary summary;
        summary.folderName = entry.fileName();
        summary.status = h.experiment.status;
        summary.createdAt = h.experiment.createdAt;
        std::vector<store::HistoryTrial> trials;
        Status status = h.reader->readTrials(&trials, store::HistoryReader::LastResult::TextOnly);
        summary.trials = int(trials.size());
        for (const store::HistoryTrial& t : trials) {
            summary.errors += trialStatusOf(t) == TrialStatus::Error ? 1 : 0;
        }
        if (status && h.spec.isMultiObjective()) {
            std::vector<ParetoMember> front;
            status = readParetoFront(h, trials, h.spec.objectives, ScoreScope::Last, &front);
            if (!front.empty()) {
                summary.best = QStringLiteral("Pareto front of %1").arg(front.size());
            }
        } else if (status && !h.spec.metric.isEmpty()) {
            std::vector<TrialScore> scores;
            status = readScores(h, trials, h.spec.metric, h.spec.mode, ScoreScope::Last, &scores);
            if (!scores.empty()) {
                summary.best =
                    QStringLiteral("%1=%2 (%3)")
                        .arg(h.spec.metric, QString::number(scores.front().value, 'g', 6),
                             scores.front().trialId);
            }
        }
        if (!status) {
            // Counted from part of the history: said so, and no best is named from it.
            summary.status = QStringLiteral("damaged");
            summary.best.clear();
        }
        summaries.push_back(std::move(summary));
    }
    return summaries;
}

}  // namespace tunedeck::cli
