// pbt-replay: re-runs the config schedule a PBT trial's weights lived through (core/pbt_replay.h)
// as a new experiment of one trial, through the same path as `run`.
//
// The replay experiment is the stored experiment file with five top-level keys replaced (name,
// num_samples, search, scheduler, stop), the rest kept as the user wrote it, so the trainable,
// resources, search space, checkpoint and failure settings are those of the original, and
// `resume` reads the replay's stored text like any other.
#include <yaml-cpp/yaml.h>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <cstdio>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/experiment_launch.h"
#include "cli/output_formats.h"
#include "cli/stored_experiment.h"
#include "config/experiment_loader.h"
#include "core/pbt_replay.h"
#include "runtime/trial_command.h"

namespace tunedeck::cli {

namespace {

// The schedulers whose experiments record exploits.
const QStringList kPopulationSchedulers = {QStringLiteral("pbt"), QStringLiteral("pb2"),
                                           QStringLiteral("pbt_replay")};

// A JSON value in the flow style YAML shares with JSON (so strings stay strings, whatever they
// look like), with spaces after separators as YAML parsers expect.
QString flowText(const QJsonValue& value) {
    switch (value.type()) {
        case QJsonValue::Object: {
            QStringList items;
            const QJsonObject object = value.toObject();
            for (auto it = object.begin(); it != object.end(); ++it) {
                items << flowText(it.key()) + QStringLiteral(": ") + flowText(it.value());
            }
            return '{' + items.join(QStringLiteral(", ")) + '}';
        }
        case QJsonValue::Array: {
            QStringList items;
            for (const QJsonValue& item : value.toArray()) {
                items << flowText(item);
            }
            return '[' + items.join(QStringLiteral(", ")) + ']';
        }
        default: {
            // QJsonDocument writes scalars exactly (shortest round-trip numbers, escaped strings).
            const QByteArray text = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
            return QString::fromUtf8(text.mid(1, text.size() - 2));
        }
    }
}

// `specText` with the top-level keys of `replaced` (plain words) set to their values. A JSON file
// stays JSON; a YAML file keeps every other line as written (its block-style top level is edited by
// line, using the parser's positions), with the new keys appended in flow style.
Status replaceTopLevelKeys(const QString& specText, const QJsonObject& replaced, QString* out) {
    QJsonParseError jsonError;
    const QJsonDocument json = QJsonDocument::fromJson(specText.toUtf8(), &jsonError);
    if (jsonError.error == QJsonParseError::NoError && json.isObject()) {
        QJsonObject root = json.object();
        for (auto it = replaced.begin(); it != replaced.end(); ++it) {
            root.insert(it.key(), it.value());
        }
        *out = QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
        return Status::ok();
    }
    YAML::Node root;
    try {
        root = YAML::Load(specText.toStdString());
    } catch (const YAML::Exception& error) {
        return Status::invalid(QStringLiteral("the stored experiment file cannot be read: %1")
                                   .arg(QString::fromStdString(error.what())));
    }
    if (!root.IsMap() || root.Style() == YAML::EmitterStyle::Flow) {
        return Status::invalid(
            QStringLiteral("the stored experiment file is not a YAML mapping written one key per "
                           "line, so its keys cannot be replaced"));
    }
    QStringList lines = specText.split('\n');
    std::vector<int> keyLines;
    std::vector<int> replacedLines;
    int column = 0;
    for (auto it = root.begin(); it != root.end(); ++it) {
        const YAML::Mark mark = it->first.Mark();
        keyLines.push_back(mark.line);
        column = mark.column;
        if (replaced.contains(QString::fromStdString(it->first.as<std::string>()))) {
            replacedLines.push_back(mark.line);
        }
    }
    std::sort(keyLines.begin(), keyLines.end());
    std::sort(replacedLines.rbegin(), replacedLines.rend());
    for (int first : replacedLines) {
        const auto next = std::upper_bound(keyLines.begin(), keyLines.end(), first);
        const int end = next == keyLines.end() ? int(lines.size()) : *next;
        lines.erase(lines.begin() + first, lines.begin() + end);
    }
    // A document end marker would leave the appended keys outside the document.
    while (!lines.isEmpty() &&
           (lines.last().trimmed().isEmpty() || lines.last().trimmed() == QLatin1String("..."))) {
        lines.removeLast();
    }
    const QString indent(column, ' ');
    for (auto it = replaced.begin(); it != replaced.end(); ++it) {
        lines << indent + it.key() + QStringLiteral(": ") + flowText(it.value());
    }
    *out = lines.join('\n') + '\n';
    return Status::ok();
}

// The scheduler's own objective (a multi-objective experiment's PBT had to name one): kept so
// the replay validates as its original did.
QJsonObject originalSchedulerObjective(const QString& specText) {
    QJsonObject objective;
    try {
        const YAML::Node scheduler = YAML::Load(specText.toStdString())["scheduler"];
        for (const char* key : {"metric", "mode"}) {
            if (scheduler && scheduler.IsMap() && scheduler[key] && scheduler[key].IsScalar()) {
                objective.insert(QLatin1String(key),
                                 QString::fromStdString(scheduler[key].as<std::string>()));
            }
        }
    } catch (const YAML::Exception&) {
        // Read already by summarizeSpec; nothing to keep.
    }
    return objective;
}

QString configText(const QJsonObject& config) {
    QStringList parts;
    const QJsonObject flat = flattenConfig(config);
    for (auto it = flat.begin(); it != flat.end(); ++it) {
        parts << QStringLiteral("%1=%2").arg(it.key(), formatConfigValue(it.value()));
    }
    return parts.join(QStringLiteral(", "));
}

QString stepsText(std::int64_t from, std::int64_t to) {
    return from + 1 == to ? QStringLiteral("step %1").arg(to)
                          : QStringLiteral("steps %1-%2").arg(from + 1).arg(to);
}

// What will be replayed, for people: where the weights came from and each config's steps.
QString scheduleSummary(const QString& trialId, const QString& experiment,
                        const PbtReplaySchedule& schedule) {
    QStringList origins;
    for (const ReplaySegment& segment : schedule.lineage) {
        origins << QStringLiteral("%1 (%2)").arg(segment.trialId,
                                                 stepsText(segment.fromStep, segment.toStep));
    }
    QString text = QStringLiteral("Replaying trial %1 of '%2': %3 steps, trained by %4\n")
                       .arg(trialId, experiment)
                       .arg(schedule.totalSteps)
                       .arg(origins.join(QStringLiteral(", then ")));
    std::int64_t from = 0;
    QJsonObject config = schedule.initialConfig;
    for (std::size_t i = 0; i <= schedule.changes.size(); ++i) {
        const std::int64_t to =
            i < schedule.changes.size() ? schedule.changes[i].step : schedule.totalSteps;
        text += QStringLiteral("  %1: %2\n").arg(stepsText(from, to), configText(config));
        if (i < schedule.changes.size()) {
            from = to;
            config = schedule.changes[i].config;
        }
    }
    return text;
}

// The keys of the replay experiment that differ from the original's.
QJsonObject replayKeys(const OpenedExperiment& e, const QString& trialId,
                       const PbtReplaySchedule& schedule) {
    QJsonObject scheduler{{QStringLiteral("type"), QStringLiteral("pbt_replay")},
                          {QStringLiteral("time_attr"), QStringLiteral("training_iteration")},
                          {QStringLiteral("schedule"), pbtReplayScheduleOption(schedule.changes)}};
    const QJsonObject objective = originalSchedulerObjective(e.record.specText);
    for (auto it = objective.begin(); it != objective.end(); ++it) {
        scheduler.insert(it.key(), it.value());
    }
    return QJsonObject{
        {QStringLiteral("name"), QStringLiteral("%1-replay-%2").arg(e.record.name, trialId)},
        {QStringLiteral("num_samples"), 1},
        {QStringLiteral("search"),
         QJsonObject{{QStringLiteral("algorithm"), QStringLiteral("random")},
                     {QStringLiteral("points_to_evaluate"), QJsonArray{schedule.initialConfig}}}},
        {QStringLiteral("scheduler"), scheduler},
        {QStringLiteral("stop"),
         QJsonObject{{QStringLiteral("training_iteration"), double(schedule.totalSteps)}}},
    };
}

}  // namespace

int pbtReplay(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Re-run the config schedule of a PBT trial as one new trial.\n"
        "At each exploit the trial's weights came from another trial's checkpoint; the replay\n"
        "trains one trial from scratch with the first config of that lineage and changes its\n"
        "config at the steps where the lineage did, up to the trial's last iteration. The new\n"
        "experiment, <name>-replay-<TRIAL_ID>, has the same trainable, resources and search\n"
        "space; it is created beside the original unless --results says otherwise."));
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT_DIR"),
                                 QStringLiteral("folder of a pbt or pb2 experiment"));
    parser.addPositionalArgument(QStringLiteral("TRIAL_ID"),
                                 QStringLiteral("the trial to replay, e.g. t00003"));
    parser.addOption({QStringLiteral("results"),
                      QStringLiteral("Results root folder (default: the one holding "
                                     "EXPERIMENT_DIR)."),
                      QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("dry-run"),
                      QStringLiteral("Print the replay experiment file instead of running it.")});
    addRunOptions(parser);
    if (!parseArguments(parser, QStringLiteral("pbt-replay"), args, 2)) {
        return kExitBadInput;
    }
    const QString trialId = parser.positionalArguments().at(1);
    OpenedExperiment e;
    if (!openExperiment(parser.positionalArguments().first(), &e)) {
        return kExitBadInput;
    }
    if (!kPopulationSchedulers.contains(e.spec.schedulerType)) {
        return fail(QStringLiteral("pbt-replay: '%1' is not a PBT experiment (its scheduler is "
                                   "%2); only pbt and pb2 experiments record exploits to replay")
                        .arg(e.record.name, e.spec.schedulerType));
    }
    QMap<QString, QJsonObject> configs;
    std::int64_t lastIteration = -1;
    for (const TrialRecord& record : e.store->loadTrials()) {
        configs.insert(record.trial.id, record.trial.config);
        if (record.trial.id == trialId) {
            lastIteration = record.trial.iteration;
        }
    }
    if (lastIteration < 0) {
        return fail(QStringLiteral("pbt-replay: no trial %1 in '%2' (see tunedeck-engine show %3)")
                        .arg(trialId, e.record.name, e.folder));
    }
    if (e.store->loadExploits(trialId).empty()) {
        return fail(QStringLiteral("pbt-replay: trial %1 has no exploits: it kept its own "
                                   "weights and config, so there is no schedule to replay "
                                   "(tunedeck-engine best prints its config)")
                        .arg(trialId));
    }
    std::vector<RecordedExploit> exploits;
    for (const ExploitRecord& r : e.store->loadExploits()) {
        exploits.push_back(r);  // what the schedule needs, without the reason and time
    }
    PbtReplaySchedule schedule;
    if (Status s = computePbtReplaySchedule(trialId, lastIteration, exploits, configs, &schedule);
        !s) {
        return fail(QStringLiteral("pbt-replay: %1").arg(s.message()));
    }
    if (schedule.totalSteps < 1) {
        return fail(QStringLiteral("pbt-replay: the weights of trial %1 were never trained on; "
                                   "there is nothing to replay")
                        .arg(trialId));
    }

    QString replayText;
    if (Status s =
            replaceTopLevelKeys(e.record.specText, replayKeys(e, trialId, schedule), &replayText);
        !s) {
        return fail(QStringLiteral("pbt-replay: %1").arg(s.message()));
    }
    const QString summary = scheduleSummary(trialId, e.record.name, schedule);
    if (parser.isSet(QStringLiteral("dry-run"))) {
        std::fputs(qPrintable(summary), stderr);
        return writeOutput({}, replayText.toUtf8()) ? 0 : kExitBadInput;
    }
    // Named as the replay in messages; in the original's folder, so relative paths still hold.
    const QFileInfo original(e.record.specFile);
    const QString replayFile = original.dir().filePath(
        QStringLiteral("%1-replay-%2.%3")
            .arg(original.completeBaseName(), trialId,
                 original.suffix().isEmpty() ? QStringLiteral("yaml") : original.suffix()));
    LoadResult<ExperimentSpec> loaded = loadExperimentText(replayText, replayFile);
    printWarnings(loaded);
    if (!loaded) {
        return fail(QStringLiteral("pbt-replay: the replay experiment is not valid (--dry-run "
                                   "prints it):\n%1")
                        .arg(loaded.status().message()));
    }
    ExperimentSpec spec = std::move(*loaded.spec);
    std::fputs(qPrintable(summary), stdout);
    std::fflush(stdout);
    const QString root = parser.isSet(QStringLiteral("results"))
                             ? parser.value(QStringLiteral("results"))
                             : QFileInfo(e.folder).absolutePath();
    e.store.reset();  // the original's history is not needed while the replay runs
    return startExperiment(std::move(spec), root, parser);
}

}  // namespace tunedeck::cli
