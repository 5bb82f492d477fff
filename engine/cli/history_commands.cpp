// ls, show, best and export: read-only views of experiment folders, straight from SQLite.
// With several objectives, best prints the Pareto front and show marks its members.
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QSet>
#include <cmath>
#include <cstdio>
#include <map>

#include "cli/arguments.h"
#include "cli/code_version.h"
#include "cli/commands.h"
#include "cli/history_view.h"
#include "cli/output_formats.h"
#include "cli/results_export.h"
#include "cli/trial_notes.h"
#include "core/counted.h"
#include "core/early_stop.h"
#include "core/trial_note.h"
#include "core/trial_runtime.h"
#include "runtime/experiment_runner.h"
#include "runtime/install_layout.h"
#include "runtime/trial_command.h"
#include "store/experiment_store.h"
#include "store/result_metric.h"

namespace tunedeck::cli {

namespace {

constexpr int kNoteColumnChars = 40;  // `show`'s NOTE column; `export` has the whole note

// --scope, for `best` and `show`: Ray's names, the engine's default (core/best_trial.h).
QCommandLineOption scopeOption(const QString& what) {
    return {QStringLiteral("scope"),
            QStringLiteral("%1 by each trial's last result (last, the default), its best result "
                           "(all), the mean of all (avg), or of the last 5 or 10 (last-5-avg, "
                           "last-10-avg).")
                .arg(what),
            QStringLiteral("SCOPE"), scoreScopeName(kDefaultScoreScope)};
}

std::optional<ScoreScope> scopeArgument(const QCommandLineParser& parser, const char* command) {
    const std::optional<ScoreScope> scope =
        scoreScopeFromName(parser.value(QStringLiteral("scope")));
    if (!scope) {
        std::fprintf(stderr, "%s: --scope is one of %s, not %s\n", command,
                     qPrintable(scoreScopeNames().join(QStringLiteral(", "))),
                     qPrintable(parser.value(QStringLiteral("scope"))));
    }
    return scope;
}

QString number(double value) {
    return QString::number(value, 'g', 6);
}

// A metric in a stored result, read as the scores read it (store/result_metric.h: a nested one by
// its "a/b" path), or "-".
QString metricText(const QByteArray& resultJson, const store::ResultMetric& metric) {
    const double value =
        metric.in(std::string_view(resultJson.constData(), std::size_t(resultJson.size())));
    return std::isnan(value) ? QStringLiteral("-") : number(value);
}

// Prints rows as left-aligned columns.
void printTable(const std::vector<QStringList>& rows) {
    std::vector<int> widths;
    for (const QStringList& row : rows) {
        widths.resize(std::max<size_t>(widths.size(), size_t(row.size())), 0);
        for (int i = 0; i < row.size(); ++i) {
            widths[size_t(i)] = std::max(widths[size_t(i)], int(row[i].size()));
        }
    }
    for (const QStringList& row : rows) {
        QString line;
        for (int i = 0; i < row.size(); ++i) {
            line += row[i].leftJustified(i + 1 < row.size() ? widths[size_t(i)] + 2 : 0);
        }
        std::printf("%s\n", qPrintable(line));
    }
}

}  // namespace

bool writeOutput(const QString& path, const QByteArray& text) {
    if (path.isEmpty() || path == QLatin1String("-")) {
        std::fwrite(text.constData(), 1, size_t(text.size()), stdout);
        return true;
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text) != text.size()) {
        std::fprintf(stderr, "cannot write %s: %s\n", qPrintable(path),
                     qPrintable(file.errorString()));
        return false;
    }
    return true;
}

int list(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("List past experiments."));
    parser.addOption(
        {QStringLiteral("results"), QStringLiteral("Results root folder."), QStringLiteral("DIR")});
    if (!parseArguments(parser, QStringLiteral("ls"), args, 0)) {
        return kExitBadInput;
    }
    const QString root = parser.isSet(QStringLiteral("results"))
                             ? parser.value(QStringLiteral("results"))
                             : defaultResultsRoot();
    std::vector<QStringList> rows{{"FOLDER", "STATUS", "CREATED", "TRIALS", "ERRORS", "BEST"}};
    for (const ExperimentSummary& e : summarizeExperiments(root)) {
        rows.push_back({e.folderName, e.status,
                        QDateTime::fromSecsSinceEpoch(qint64(e.createdAt))
                            .toString(QStringLiteral("yyyy-MM-dd hh:mm")),
                        QString::number(e.trials), QString::number(e.errors),
                        e.best.isEmpty() ? QStringLiteral("-") : e.best});
    }
    if (rows.size() == 1) {
        std::printf("No experiments in %s\n", qPrintable(root));
        return 0;
    }
    printTable(rows);
    return 0;
}

int show(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Show the trials of an experiment."));
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT_DIR"),
                                 QStringLiteral("experiment folder"));
    parser.addOption(scopeOption(QStringLiteral("Name the best trial")));
    if (!parseArguments(parser, QStringLiteral("show"), args, 1)) {
        return kExitBadInput;
    }
    const std::optional<ScoreScope> scope = scopeArgument(parser, "show");
    if (!scope) {
        return kExitBadInput;
    }
    OpenedHistory h;
    if (!openHistory(parser.positionalArguments().first(), &h)) {
        return kExitBadInput;
    }
    std::vector<store::HistoryTrial> trials;
    Status status = h.reader->readTrials(&trials, store::HistoryReader::LastResult::TextOnly);
    // Why each trial ended, as its last status change said: a scheduler's early stop is shown.
    QHash<QString, QString> endReason;
    if (status) {
        status = h.reader->readEndReasons(&endReason);
    }
    const bool multiObjective = h.spec.isMultiObjective();
    // One pass over the results for the metric: each trial's best, and the ranking by --scope
    // (the trial `best` prints with the same scope, named so the two are never confused).
    QHash<QString, double> bestByTrial;
    std::vector<TrialScore> scores;
    std::int64_t resultCount = 0;
    if (status && !multiObjective && !h.spec.metric.isEmpty()) {
        std::vector<store::MetricCurve> curves;
        status = h.reader->readCurves(h.spec.metric, trials, &curves, &resultCount);
        for (const TrialScore& s :
             store::rankTrials(trials, curves, h.spec.mode, ScoreScope::All)) {
            bestByTrial.insert(s.trialId, s.value);
        }
        scores = store::rankTrials(trials, curves, h.spec.mode, *scope);
    } else if (status) {
        status = h.reader->readResultCount(&resultCount);
    }
    QSet<QString> front;
    if (status && multiObjective) {
        std::vector<ParetoMember> members;
        status = readParetoFront(h, trials, h.spec.objectives, ScoreScope::Last, &members);
        for (const ParetoMember& member : members) {
            front.insert(member.trialId);
        }
    }
    std::map<QString, QString> notes;
    if (status) {
        status = readTrialNotes(*h.reader, &notes);
    }
    if (!readSucceeded(h, status)) {
        return kExitBadInput;
    }
    std::vector<QJsonObject> flatConfigs;
    const QStringList configColumns = flatConfigColumns(trials, &flatConfigs);
    QStringList header{QStringLiteral("TRIAL"), QStringLiteral("STATUS")};
    header << configColumns << QStringLiteral("ITER") << QStringLiteral("RUNTIME");
    if (multiObjective) {
        for (const Objective& objective : h.spec.objectives) {
            header << objective.metric;
        }
        header << QStringLiteral("FRONT");
    } else if (!h.spec.metric.isEmpty()) {
        header << h.spec.metric << QStringLiteral("best ") + h.spec.metric;
    }
    if (!notes.empty()) {
        header << QStringLiteral("NOTE");
    }
    std::vector<QStringList> rows{header};
    rows.reserve(trials.size() + 1);
    QStringList errors;
    ColumnFloats columnFloats(configColumns);
    const store::ResultMetric metric(h.spec.metric);
    std::vector<store::ResultMetric> objectiveMetrics;
    for (const Objective& objective : h.spec.objectives) {
        objectiveMetrics.emplace_back(objective.metric);
    }
    for (std::size_t i = 0; i < trials.size(); ++i) {
        const store::HistoryTrial& t = trials[i];
        const TrialStatus trialStatus = trialStatusOf(t);
        const QJsonObject& flat = flatConfigs[i];
        const std::optional<EarlyStop> early = trialStatus == TrialStatus::Terminated
                                                   ? earlyStopOf(endReason.value(t.id), t.iteration)
                                                   : std::nullopt;
        QString statusText = early ? earlyStopText(*early) : trialStatusName(trialStatus);
        if (trialStatus == TrialStatus::Terminated && stoppedByUser(endReason.value(t.id))) {
            statusText = QStringLiteral("%1 at %2")
                             .arg(QLatin1String(kStoppedByUserReason))
                             .arg(t.iteration);
        }
        QStringList row{t.id, statusText};
        const std::vector<FloatPaths>& floats = columnFloats.below(t.configFloats);
        for (qsizetype c = 0; c < configColumns.size(); ++c) {
            row << formatConfigValue(flat.value(configColumns[c]), floats[std::size_t(c)]);
        }
        row << QString::number(t.iteration) << runtimeText(trialRuntime(t.timeTotalS, t.iteration));
        if (multiObjective) {
            for (const store::ResultMetric& objective : objectiveMetrics) {
                row << metricText(t.lastResultJson, objective);
            }
            row << (front.contains(t.id) ? QStringLiteral("*") : QString());
        } else if (!h.spec.metric.isEmpty()) {
            row << metricText(t.lastResultJson, metric);
            const auto best = bestByTrial.constFind(t.id);
            row << (best != bestByTrial.constEnd() ? number(*best) : QStringLiteral("-"));
        }
        if (!notes.empty()) {
            const auto note = notes.find(t.id);
            row << (note != notes.end() ? trialNoteLine(note->second, kNoteColumnChars)
                                        : QString());
        }
        rows.push_back(row);
        if (trialStatus == TrialStatus::Error) {
            errors << QStringLiteral("%1: %2").arg(t.id, t.errorMessage);
        }
    }
    std::printf("Experiment '%s' (%s), %zu trials, %lld results\n", qPrintable(h.experiment.name),
                qPrintable(h.experiment.status), trials.size(),
                static_cast<long long>(resultCount));
    if (const QString code = codeVersionText(readCodeVersion(h.folder)); !code.isEmpty()) {
        std::printf("Code: %s\n", qPrintable(code));
    }
    printTable(rows);
    if (multiObjective) {
        std::printf("\nFRONT *: on the Pareto front of %s by last result (%lld of %zu trials)\n",
                    qPrintable(objectivesText(h.spec.objectives)),
                    static_cast<long long>(front.size()), trials.size());
    }
    if (!multiObjective && !h.spec.metric.isEmpty()) {
        if (!scores.empty()) {
            std::printf("\nBest trial (scope %s, mode %s): %s, %s=%s\n",
                        qPrintable(scoreScopeName(*scope)), qPrintable(metricModeName(h.spec.mode)),
                        qPrintable(scores.front().trialId), qPrintable(h.spec.metric),
                        qPrintable(number(scores.front().value)));
        }
    }
    for (const QString& error : errors) {
        std::printf("\n%s\n", qPrintable(error));
    }
    return 0;
}

namespace {

int printBestTrial(OpenedHistory& h, const QCommandLineParser& parser, const Objective& objective,
                   ScoreScope scope) {
    std::vector<store::HistoryTrial> trials;
    Status status = h.reader->readTrials(&trials, store::HistoryReader::LastResult::TextOnly);
    std::vector<TrialScore> scores;
    if (status) {
        status = readScores(h, trials, objective.metric, objective.mode, scope, &scores);
    }
    if (!readSucceeded(h, status)) {
        return kExitBadInput;
    }
    if (scores.empty()) {
        std::fprintf(stderr, "best: no trial has reported %s yet\n", qPrintable(objective.metric));
        return kExitTrialErrors;
    }
    const TrialScore& winner = scores.front();
    QJsonObject config;
    FloatPaths floats;
    for (const store::HistoryTrial& t : trials) {
        if (t.id == winner.trialId) {
            config = t.config;
            floats = t.configFloats;
        }
    }
    QString summary =
        QStringLiteral("best trial %1 of %2: %3=%4 (mode %5, scope %6)")
            .arg(winner.trialId, h.experiment.name, objective.metric, number(winner.value),
                 metricModeName(objective.mode), parser.value(QStringLiteral("scope")));
    if (const QString code = codeVersionText(readCodeVersion(h.folder)); !code.isEmpty()) {
        summary += QStringLiteral("\ncode: ") + code;  // a second comment line in yaml
    }
    std::fprintf(stderr, "%s\n", qPrintable(summary));
    const QString format = parser.value(QStringLiteral("format"));
    const QByteArray text = format == "json"    ? configAsJson(config, floats)
                            : format == "flags" ? configAsFlags(config, floats)
                                                : configAsYaml(config, summary, floats);
    return writeOutput(parser.value(QStringLiteral("output")), text) ? 0 : kExitBadInput;
}

int printParetoFront(OpenedHistory& h, const QCommandLineParser& parser, ScoreScope scope) {
    std::vector<store::HistoryTrial> trials;
    Status status = h.reader->readTrials(&trials, store::HistoryReader::LastResult::TextOnly);
    std::vector<ParetoMember> front;
    if (status) {
        status = readParetoFront(h, trials, h.spec.objectives, scope, &front);
    }
    if (!readSucceeded(h, status)) {
        return kExitBadInput;
    }
    const QString objectives = objectivesText(h.spec.objectives);
    if (front.empty()) {
        std::fprintf(stderr, "best: no trial has reported all of %s yet\n", qPrintable(objectives));
        return kExitTrialErrors;
    }
    QStringList ids;
    for (const ParetoMember& member : front) {
        ids << member.trialId;
    }
    const QString summary =
        QStringLiteral("Pareto front of %1 on %2 (scope %3): %4, %5")
            .arg(h.experiment.name, objectives, parser.value(QStringLiteral("scope")),
                 counted(qint64(front.size()), "trial"), ids.join(QStringLiteral(", ")));
    std::fprintf(stderr, "%s\n", qPrintable(summary));
    const QString format = parser.value(QStringLiteral("format"));
    const QByteArray text = format == "json"    ? paretoFrontAsJson(front)
                            : format == "flags" ? paretoFrontAsFlags(front)
                                                : paretoFrontAsYaml(front, summary);
    return writeOutput(parser.value(QStringLiteral("output")), text) ? 0 : kExitBadInput;
}

}  // namespace

int best(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Print the best trial's config.\n"
        "With several objectives (metric: [a, b]), print the Pareto front instead: every trial\n"
        "no other trial beats on all objectives, most spread out first, each with its id,\n"
        "objective values and config: a list under pareto_front: in yaml and json, one line of\n"
        "flags per trial (in the same order) with --format flags. --metric NAME ranks by that\n"
        "objective alone and prints its single best trial."));
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT_DIR"),
                                 QStringLiteral("experiment folder"));
    parser.addOption({QStringLiteral("format"), QStringLiteral("yaml (default), json or flags."),
                      QStringLiteral("FORMAT"), QStringLiteral("yaml")});
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                      QStringLiteral("Write to FILE instead of stdout."),
                      QStringLiteral("FILE")});
    parser.addOption(
        scopeOption(QStringLiteral("Rank trials (with several objectives, score each objective)")));
    parser.addOption({QStringLiteral("metric"),
                      QStringLiteral("Rank by this one of the experiment's objectives alone."),
                      QStringLiteral("NAME")});
    if (!parseArguments(parser, QStringLiteral("best"), args, 1)) {
        return kExitBadInput;
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (format != "yaml" && format != "json" && format != "flags") {
        std::fprintf(stderr, "best: --format is yaml, json or flags\n");
        return kExitBadInput;
    }
    const std::optional<ScoreScope> scope = scopeArgument(parser, "best");
    if (!scope) {
        return kExitBadInput;
    }
    OpenedHistory h;
    if (!openHistory(parser.positionalArguments().first(), &h)) {
        return kExitBadInput;
    }
    if (h.spec.objectives.empty() || h.spec.metric.isEmpty()) {
        std::fprintf(stderr, "best: the experiment has no metric to rank trials by\n");
        return kExitBadInput;
    }
    if (parser.isSet(QStringLiteral("metric"))) {
        const QString metric = parser.value(QStringLiteral("metric"));
        for (const Objective& objective : h.spec.objectives) {
            if (objective.metric == metric) {
                return printBestTrial(h, parser, objective, *scope);
            }
        }
        std::fprintf(stderr, "best: --metric %s is not an objective of this experiment (%s)\n",
                     qPrintable(metric), qPrintable(objectivesText(h.spec.objectives)));
        return kExitBadInput;
    }
    if (h.spec.isMultiObjective()) {
        return printParetoFront(h, parser, *scope);
    }
    return printBestTrial(h, parser, h.spec.objectives.front(), *scope);
}

int exportResults(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Export every result of an experiment."));
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT_DIR"),
                                 QStringLiteral("experiment folder"));
    parser.addOption(
        {QStringLiteral("format"), QStringLiteral("csv or json."), QStringLiteral("FORMAT")});
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                      QStringLiteral("Write to FILE instead of stdout."),
                      QStringLiteral("FILE")});
    if (!parseArguments(parser, QStringLiteral("export"), args, 1)) {
        return kExitBadInput;
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (format != "csv" && format != "json") {
        std::fprintf(stderr, "export: --format csv or --format json is required\n");
        return kExitBadInput;
    }
    OpenedHistory h;
    if (!openHistory(parser.positionalArguments().first(), &h)) {
        return kExitBadInput;
    }
    std::vector<store::HistoryTrial> trials;
    ExportExtras extras;
    extras.codeVersion = readCodeVersion(h.folder);
    Status status = h.reader->readTrials(&trials, store::HistoryReader::LastResult::TextOnly);
    if (status) {
        status = readTrialNotes(*h.reader, &extras.notes);
    }
    QByteArray text;
    if (status) {
        status = format == "json" ? exportJson(*h.reader, trials, extras, &text)
                                  : exportCsv(*h.reader, trials, extras, &text);
    }
    return readSucceeded(h, status) && writeOutput(parser.value(QStringLiteral("output")), text)
               ? 0
               : kExitBadInput;
}

}  // namespace tunedeck::cli
