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
#include <cstdio>
#include <map>

#include "cli/arguments.h"
#include "cli/code_version.h"
#include "cli/commands.h"
#include "cli/output_formats.h"
#include "cli/stored_experiment.h"
#include "cli/trial_notes.h"
#include "core/counted.h"
#include "core/early_stop.h"
#include "core/trial_note.h"
#include "core/trial_runtime.h"
#include "runtime/experiment_runner.h"
#include "runtime/install_layout.h"
#include "runtime/trial_command.h"
#include "store/experiment_store.h"

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
    OpenedExperiment e;
    if (!openExperiment(parser.positionalArguments().first(), &e)) {
        return kExitBadInput;
    }
    const std::vector<TrialRecord> trials = e.store->loadTrials();
    // Why each trial ended, as its last status change said: a scheduler's early stop is shown.
    std::map<QString, QString> endReason;
    for (const EventRecord& event : e.store->loadEvents(0)) {
        if (event.type == QLatin1String("trial_status") &&
            event.payload.value("status").toString() == QLatin1String("TERMINATED")) {
            endReason[event.trialId] = event.payload.value("reason").toString();
        }
    }
    std::map<QString, double> bestByTrial;
    if (!e.spec.metric.isEmpty()) {
        for (const TrialScore& s :
             e.store->trialScores(e.spec.metric, e.spec.mode, ScoreScope::All)) {
            bestByTrial[s.trialId] = s.value;
        }
    }
    QStringList configColumns;
    for (const TrialRecord& t : trials) {
        for (const QString& key : flattenConfig(t.trial.config).keys()) {
            if (!configColumns.contains(key)) {
                configColumns << key;
            }
        }
    }
    const bool multiObjective = e.spec.isMultiObjective();
    QSet<QString> front;
    if (multiObjective) {
        for (const ParetoMember& member :
             paretoFront(*e.store, trials, e.spec.objectives, ScoreScope::Last)) {
            front.insert(member.trialId);
        }
    }
    const std::map<QString, QString> notes = trialNotes(*e.store);
    QStringList header{QStringLiteral("TRIAL"), QStringLiteral("STATUS")};
    header << configColumns << QStringLiteral("ITER") << QStringLiteral("RUNTIME");
    if (multiObjective) {
        for (const Objective& objective : e.spec.objectives) {
            header << objective.metric;
        }
        header << QStringLiteral("FRONT");
    } else if (!e.spec.metric.isEmpty()) {
        header << e.spec.metric << QStringLiteral("best ") + e.spec.metric;
    }
    if (!notes.empty()) {
        header << QStringLiteral("NOTE");
    }
    std::vector<QStringList> rows{header};
    QStringList errors;
    for (const TrialRecord& record : trials) {
        const Trial& t = record.trial;
        const QJsonObject flat = flattenConfig(t.config);
        const std::optional<EarlyStop> early = t.status == TrialStatus::Terminated
                                                   ? earlyStopOf(endReason[t.id], t.iteration)
                                                   : std::nullopt;
        QStringList row{t.id, early ? earlyStopText(*early) : trialStatusName(t.status)};
        for (const QString& c : configColumns) {
            row << formatConfigValue(flat.value(c), floatPathsBelow(record.configFloats, c));
        }
        row << QString::number(t.iteration) << runtimeText(trialRuntime(t.timeTotalS, t.iteration));
        if (multiObjective) {
            for (const Objective& objective : e.spec.objectives) {
                const QJsonValue last = t.lastResult.value(objective.metric);
                row << (last.isDouble() ? number(last.toDouble()) : QStringLiteral("-"));
            }
            row << (front.contains(t.id) ? QStringLiteral("*") : QString());
        } else if (!e.spec.metric.isEmpty()) {
            const QJsonValue last = t.lastResult.value(e.spec.metric);
            row << (last.isDouble() ? number(last.toDouble()) : QStringLiteral("-"));
            const auto best = bestByTrial.find(t.id);
            row << (best != bestByTrial.end() ? number(best->second) : QStringLiteral("-"));
        }
        if (!notes.empty()) {
            const auto note = notes.find(t.id);
            row << (note != notes.end() ? trialNoteLine(note->second, kNoteColumnChars)
                                        : QString());
        }
        rows.push_back(row);
        if (t.status == TrialStatus::Error) {
            errors << QStringLiteral("%1: %2").arg(t.id, t.errorMessage);
        }
    }
    const long long resultCount = e.store->resultCount();
    // The trial `best` prints with the same scope, named so the two are never confused.
    const std::vector<TrialScore> scores =
        !multiObjective && !e.spec.metric.isEmpty()
            ? e.store->trialScores(e.spec.metric, e.spec.mode, *scope)
            : std::vector<TrialScore>{};
    if (!readWhole(e)) {
        return kExitBadInput;
    }
    std::printf("Experiment '%s' (%s), %zu trials, %lld results\n", qPrintable(e.record.name),
                qPrintable(e.record.status), trials.size(), resultCount);
    if (const QString code = codeVersionText(readCodeVersion(e.folder)); !code.isEmpty()) {
        std::printf("Code: %s\n", qPrintable(code));
    }
    printTable(rows);
    if (multiObjective) {
        std::printf("\nFRONT *: on the Pareto front of %s by last result (%lld of %zu trials)\n",
                    qPrintable(objectivesText(e.spec.objectives)),
                    static_cast<long long>(front.size()), trials.size());
    }
    if (!multiObjective && !e.spec.metric.isEmpty()) {
        if (!scores.empty()) {
            std::printf("\nBest trial (scope %s, mode %s): %s, %s=%s\n",
                        qPrintable(scoreScopeName(*scope)), qPrintable(metricModeName(e.spec.mode)),
                        qPrintable(scores.front().trialId), qPrintable(e.spec.metric),
                        qPrintable(number(scores.front().value)));
        }
    }
    for (const QString& error : errors) {
        std::printf("\n%s\n", qPrintable(error));
    }
    return 0;
}

namespace {

int printBestTrial(const OpenedExperiment& e, const QCommandLineParser& parser,
                   const Objective& objective, ScoreScope scope) {
    const auto scores = e.store->trialScores(objective.metric, objective.mode, scope);
    if (scores.empty()) {
        std::fprintf(stderr, "best: no trial has reported %s yet\n", qPrintable(objective.metric));
        return kExitTrialErrors;
    }
    const TrialScore& winner = scores.front();
    QJsonObject config;
    FloatPaths floats;
    for (const TrialRecord& t : e.store->loadTrials()) {
        if (t.trial.id == winner.trialId) {
            config = t.trial.config;
            floats = t.configFloats;
        }
    }
    QString summary =
        QStringLiteral("best trial %1 of %2: %3=%4 (mode %5, scope %6)")
            .arg(winner.trialId, e.record.name, objective.metric, number(winner.value),
                 metricModeName(objective.mode), parser.value(QStringLiteral("scope")));
    if (const QString code = codeVersionText(readCodeVersion(e.folder)); !code.isEmpty()) {
        summary += QStringLiteral("\ncode: ") + code;  // a second comment line in yaml
    }
    std::fprintf(stderr, "%s\n", qPrintable(summary));
    const QString format = parser.value(QStringLiteral("format"));
    const QByteArray text = format == "json"    ? configAsJson(config, floats)
                            : format == "flags" ? configAsFlags(config, floats)
                                                : configAsYaml(config, summary, floats);
    return readWhole(e) && writeOutput(parser.value(QStringLiteral("output")), text)
               ? 0
               : kExitBadInput;
}

int printParetoFront(const OpenedExperiment& e, const QCommandLineParser& parser,
                     ScoreScope scope) {
    const std::vector<ParetoMember> front =
        paretoFront(*e.store, e.store->loadTrials(), e.spec.objectives, scope);
    const QString objectives = objectivesText(e.spec.objectives);
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
            .arg(e.record.name, objectives, parser.value(QStringLiteral("scope")),
                 counted(qint64(front.size()), "trial"), ids.join(QStringLiteral(", ")));
    std::fprintf(stderr, "%s\n", qPrintable(summary));
    const QString format = parser.value(QStringLiteral("format"));
    const QByteArray text = format == "json"    ? paretoFrontAsJson(front)
                            : format == "flags" ? paretoFrontAsFlags(front)
                                                : paretoFrontAsYaml(front, summary);
    return readWhole(e) && writeOutput(parser.value(QStringLiteral("output")), text)
               ? 0
               : kExitBadInput;
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
    OpenedExperiment e;
    if (!openExperiment(parser.positionalArguments().first(), &e)) {
        return kExitBadInput;
    }
    if (e.spec.objectives.empty() || e.spec.metric.isEmpty()) {
        std::fprintf(stderr, "best: the experiment has no metric to rank trials by\n");
        return kExitBadInput;
    }
    if (parser.isSet(QStringLiteral("metric"))) {
        const QString metric = parser.value(QStringLiteral("metric"));
        for (const Objective& objective : e.spec.objectives) {
            if (objective.metric == metric) {
                return printBestTrial(e, parser, objective, *scope);
            }
        }
        std::fprintf(stderr, "best: --metric %s is not an objective of this experiment (%s)\n",
                     qPrintable(metric), qPrintable(objectivesText(e.spec.objectives)));
        return kExitBadInput;
    }
    if (e.spec.isMultiObjective()) {
        return printParetoFront(e, parser, *scope);
    }
    return printBestTrial(e, parser, e.spec.objectives.front(), *scope);
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
    OpenedExperiment e;
    if (!openExperiment(parser.positionalArguments().first(), &e)) {
        return kExitBadInput;
    }
    const std::vector<TrialRecord> trials = e.store->loadTrials();
    const std::vector<ResultRecord> results = e.store->loadResults();
    const QJsonObject code = readCodeVersion(e.folder);
    const std::map<QString, QString> notes = trialNotes(*e.store);
    if (format == "json") {
        std::map<QString, QJsonArray> byTrial;
        for (const ResultRecord& r : results) {
            byTrial[r.trialId].append(r.result);
        }
        QJsonArray out;
        FloatPaths floats;  // the configs' floats, at "<index>.config.<path>"
        for (const TrialRecord& t : trials) {
            floats.unite(
                floatPathsUnder(t.configFloats, QStringLiteral("%1.config").arg(out.size())));
            QJsonObject trial{{"trial_id", t.trial.id},
                              {"status", trialStatusName(t.trial.status)},
                              {"config", t.trial.config},
                              {"results", byTrial[t.trial.id]}};
            if (!code.isEmpty()) {
                trial.insert(QStringLiteral("code_version"), code);
            }
            if (const auto note = notes.find(t.trial.id); note != notes.end()) {
                trial.insert(QStringLiteral("note"), note->second);
            }
            out.append(trial);
        }
        return readWhole(e) && writeOutput(parser.value(QStringLiteral("output")),
                                           configJsonText(out, floats, JsonLayout::Indented))
                   ? 0
                   : kExitBadInput;
    }
    // CSV: one row per result; config columns as config/<path> (Ray's dataframe layout).
    QMap<QString, QJsonObject> configs;
    QMap<QString, FloatPaths> configFloats;
    QStringList configColumns;
    for (const TrialRecord& t : trials) {
        configs[t.trial.id] = flattenConfig(t.trial.config);
        configFloats[t.trial.id] = t.configFloats;
        for (const QString& key : configs[t.trial.id].keys()) {
            if (!configColumns.contains(key)) {
                configColumns << key;
            }
        }
    }
    QStringList resultColumns = e.store->resultKeys();
    resultColumns.removeAll(QStringLiteral("trial_id"));
    auto csvField = [](const QJsonValue& value, const FloatPaths& floats = {}) {
        QString text = formatConfigValue(value, floats);
        if (text.contains(',') || text.contains('"') || text.contains('\n')) {
            text = '"' + text.replace('"', QStringLiteral("\"\"")) + '"';
        }
        return text;
    };
    QStringList header{QStringLiteral("trial_id")};
    for (const QString& c : configColumns) {
        header << QStringLiteral("config/") + c;
    }
    header << resultColumns;
    // The code version, one value for every row: "git:<commit>", "+dirty" when it was, or the
    // files' content hash.
    const QString codeId =
        code.value("kind") == QLatin1String("git")
            ? QStringLiteral("git:") + code.value("commit").toString() +
                  (code.value("dirty").toBool() ? QStringLiteral("+dirty") : QString())
            : code.value("content_hash").toString();
    if (!code.isEmpty()) {
        header << QStringLiteral("code_version");
    }
    if (!notes.empty()) {  // the researchers' notes, when there are any (`note`)
        header << QStringLiteral("note");
    }
    QByteArray text = header.join(',').toUtf8() + '\n';
    for (const ResultRecord& r : results) {
        QStringList row{r.trialId};
        for (const QString& c : configColumns) {
            row << csvField(configs[r.trialId].value(c),
                            floatPathsBelow(configFloats[r.trialId], c));
        }
        for (const QString& c : resultColumns) {
            row << csvField(r.result.value(c));
        }
        if (!code.isEmpty()) {
            row << csvField(codeId);
        }
        if (!notes.empty()) {
            const auto note = notes.find(r.trialId);
            row << csvField(note != notes.end() ? note->second : QString());
        }
        text += row.join(',').toUtf8() + '\n';
    }
    return readWhole(e) && writeOutput(parser.value(QStringLiteral("output")), text)
               ? 0
               : kExitBadInput;
}

}  // namespace tunedeck::cli
