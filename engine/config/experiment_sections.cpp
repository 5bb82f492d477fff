#include "config/experiment_sections.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QRegularExpression>
#include <cmath>
#include <limits>

#include "config/cluster_sections.h"
#include "config/command_line.h"

namespace tunedeck {

std::optional<MetricMode> readMode(YamlReader& reader, const YamlEntry& entry) {
    if (entry.value.IsScalar()) {
        const QString text = yamlText(entry.value);
        if (text == QLatin1String("min")) {
            return MetricMode::Min;
        }
        if (text == QLatin1String("max")) {
            return MetricMode::Max;
        }
    }
    reader.problem(
        entry.valueLocation, entry.path,
        QStringLiteral("expected 'min' or 'max', got %1").arg(describeYaml(entry.value)));
    return std::nullopt;
}

namespace {

std::optional<QStringList> readCommand(YamlReader& reader, const YamlEntry& entry) {
    QStringList argv;
    if (entry.value.IsSequence()) {
        for (const YAML::Node& item : entry.value) {
            if (!item.IsScalar()) {
                reader.problem(reader.locationOf(item), entry.path,
                               QStringLiteral("expected a string, got %1").arg(describeYaml(item)));
                return std::nullopt;
            }
            argv << yamlText(item);
        }
    } else if (entry.value.IsScalar() && !entry.value.IsNull()) {
        QString error;
        const auto split = splitCommandLine(yamlText(entry.value), &error);
        if (!split) {
            reader.problem(entry.valueLocation, entry.path, error);
            return std::nullopt;
        }
        argv = *split;
    } else if (!entry.value.IsNull()) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("expected a command line or a list of arguments, got %1")
                           .arg(describeYaml(entry.value)));
        return std::nullopt;
    }
    if (argv.isEmpty() || argv.first().isEmpty()) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("is empty; name the program to run, e.g. "
                                      "python3 train.py --lr {lr}"));
        return std::nullopt;
    }
    return argv;
}

void readEnv(YamlReader& reader, const YamlEntry& entry, QMap<QString, QString>* out) {
    if (entry.value.IsNull() || !reader.isMap(entry)) {
        return;
    }
    static const QRegularExpression variableName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    for (const YamlEntry& variable : reader.entries(entry.value, entry.path)) {
        if (!variableName.match(variable.key).hasMatch()) {
            reader.problem(variable.keyLocation, variable.path,
                           QStringLiteral("not a valid environment variable name"));
            continue;
        }
        if (variable.key.startsWith(QLatin1String("TUNEDECK_"))) {
            reader.problem(variable.keyLocation, variable.path,
                           QStringLiteral("TUNEDECK_* variables are set by the engine for "
                                          "each trial"));
            continue;
        }
        // Numbers and booleans are passed as written: `1e-4` stays "1e-4", not "0.0001".
        if (const auto value = reader.string(variable)) {
            out->insert(variable.key, *value);
        }
    }
}

// trainable.files: paths that exist, relative ones from the experiment file's folder.
void readTrainableFiles(YamlReader& reader, const YamlEntry& entry, const FilePlace& place,
                        QStringList* out) {
    const std::optional<QStringList> paths = readStringList(reader, entry);
    if (!paths) {
        return;
    }
    for (qsizetype i = 0; i < paths->size(); ++i) {
        const QString& path = paths->at(i);
        if (path.contains(QChar(0))) {
            reader.problem(reader.itemLocation(entry.value, std::size_t(i)),
                           QStringLiteral("%1[%2]").arg(entry.path).arg(i), nulProblem(path));
            continue;
        }
        const QFileInfo info(place.resolve(path));
        if (path.isEmpty() || !info.exists()) {
            reader.problem(reader.itemLocation(entry.value, std::size_t(i)),
                           QStringLiteral("%1[%2]").arg(entry.path).arg(i),
                           QStringLiteral("'%1' does not exist%2")
                               .arg(path, QDir::isAbsolutePath(path)
                                              ? QString()
                                              : QStringLiteral(" (relative paths start from the "
                                                               "experiment file's folder)")));
            continue;
        }
        out->append(QDir::cleanPath(info.absoluteFilePath()));
    }
}

}  // namespace

void readTrainable(YamlReader& reader, const YamlEntry& entry, const FilePlace& place,
                   TrainableSpec* out, SourceLocation* commandValue, bool* workingDirOk) {
    out->workingDir = place.folder;
    *workingDirOk = true;
    if (!entry.value.IsMap()) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("expected a mapping with a command, e.g. "
                                      "{command: python3 train.py}, got %1")
                           .arg(describeYaml(entry.value)));
        *workingDirOk = false;
        return;
    }
    const std::vector<YamlEntry> entries = reader.entries(entry.value, entry.path);
    reader.rejectUnknown(entries, {"command", "working_dir", "env", "files"});
    if (const YamlEntry* command = findEntry(entries, QStringLiteral("command"))) {
        *commandValue = command->valueLocation;
        if (const auto argv = readCommand(reader, *command)) {
            out->command = *argv;
        }
    } else {
        reader.problem(entry.keyLocation, entry.path + QStringLiteral(".command"),
                       QStringLiteral("required key is missing (the program each trial runs, "
                                      "e.g. python3 train.py --lr {lr})"));
    }
    if (const YamlEntry* dir = findEntry(entries, QStringLiteral("working_dir"))) {
        if (const auto path = reader.string(*dir)) {
            const QFileInfo info(place.resolve(*path));
            const QString hint = QDir::isAbsolutePath(*path)
                                     ? QString()
                                     : QStringLiteral(
                                           " (relative paths start from the "
                                           "experiment file's folder)");
            if (!info.exists()) {
                reader.problem(dir->valueLocation, dir->path,
                               QStringLiteral("'%1' does not exist%2").arg(*path, hint));
                *workingDirOk = false;
            } else if (!info.isDir()) {
                reader.problem(dir->valueLocation, dir->path,
                               QStringLiteral("'%1' is not a folder").arg(*path));
                *workingDirOk = false;
            } else {
                out->workingDir = info.absoluteFilePath();
            }
        } else {
            *workingDirOk = false;
        }
    }
    if (const YamlEntry* env = findEntry(entries, QStringLiteral("env"))) {
        readEnv(reader, *env, &out->env);
    }
    if (const YamlEntry* files = findEntry(entries, QStringLiteral("files"))) {
        readTrainableFiles(reader, *files, place, &out->files);
    }
}

namespace {

// The most ranks a gang may have: beyond any cluster this engine drives, and a typo's bound.
constexpr std::int64_t kMostGangWorkers = 1024;

void readGang(YamlReader& reader, const std::vector<YamlEntry>& entries, GangSpec* out) {
    if (const YamlEntry* workers = findEntry(entries, QStringLiteral("workers"))) {
        if (const auto value = reader.integerAtLeast(*workers, 1)) {
            if (*value > kMostGangWorkers) {
                reader.problem(workers->valueLocation, workers->path,
                               QStringLiteral("at most %1 workers per trial, got %2")
                                   .arg(kMostGangWorkers)
                                   .arg(*value));
            } else {
                out->workers = int(*value);
            }
        }
    }
    if (const YamlEntry* placement = findEntry(entries, QStringLiteral("placement"))) {
        const QString text = placement->value.IsScalar() ? yamlText(placement->value) : QString();
        if (text == QLatin1String("pack")) {
            out->placement = GangStrategy::Pack;
        } else if (text == QLatin1String("spread")) {
            out->placement = GangStrategy::Spread;
        } else if (text == QLatin1String("strict_spread")) {
            out->placement = GangStrategy::StrictSpread;
        } else {
            reader.problem(placement->valueLocation, placement->path,
                           QStringLiteral("expected pack, spread or strict_spread (how the "
                                          "workers of a trial spread over the nodes), got %1")
                               .arg(describeYaml(placement->value)));
        }
    }
}

}  // namespace

void readResources(YamlReader& reader, const YamlEntry& entry, ResourceRequest* out,
                   GangSpec* gang) {
    if (entry.value.IsNull() || !reader.isMap(entry)) {
        return;
    }
    const std::vector<YamlEntry> entries = reader.entries(entry.value, entry.path);
    reader.rejectUnknown(entries, {"cpu", "gpu", "gpu_memory_mb", "workers", "placement"});
    readGang(reader, entries, gang);
    if (const YamlEntry* cpu = findEntry(entries, QStringLiteral("cpu"))) {
        if (const auto value = reader.numberAbove(*cpu, 0)) {
            out->cpu = *value;
        }
    }
    if (const YamlEntry* gpu = findEntry(entries, QStringLiteral("gpu"))) {
        if (const auto value = reader.number(*gpu)) {
            if (!(*value >= 0) || std::isinf(*value)) {
                reader.problem(gpu->valueLocation, gpu->path,
                               QStringLiteral("must be >= 0, got %1").arg(yamlText(gpu->value)));
            } else if (*value > 1 && *value != std::floor(*value)) {
                // A fraction shares one card; several cards cannot be shared partially.
                reader.problem(gpu->valueLocation, gpu->path,
                               QStringLiteral("a fraction of a GPU must be below 1, got %1 "
                                              "(use a whole number for several GPUs)")
                                   .arg(yamlText(gpu->value)));
            } else {
                out->gpu = *value;
            }
        }
    }
    if (const YamlEntry* memory = findEntry(entries, QStringLiteral("gpu_memory_mb"))) {
        if (const auto value = reader.integerAtLeast(*memory, 0)) {
            if (*value > 0 && out->gpu <= 0) {
                // Memory on a card only means something for a trial that gets one.
                reader.problem(memory->keyLocation, memory->path,
                               QStringLiteral("needs a gpu request (gpu: 1, or a share such as "
                                              "0.25) beside it"));
            } else {
                out->gpuMemoryMb = *value;
            }
        }
    }
}

void readStop(YamlReader& reader, const YamlEntry& entry, StopCriteria* out,
              std::vector<WrittenThreshold>* thresholds) {
    if (entry.value.IsNull() || !reader.isMap(entry)) {
        return;
    }
    for (const YamlEntry& criterion : reader.entries(entry.value, entry.path)) {
        if (criterion.key == QLatin1String("training_iteration")) {
            if (const auto value = reader.integerAtLeast(criterion, 1)) {
                out->trainingIteration = *value;
            }
            continue;
        }
        if (criterion.key == QLatin1String("done")) {
            // Ray's `stop: {done: True}`: a trial reporting done = true already ends (the
            // trial SDK's rule, as Ray's), so true needs no rule; anything else means nothing.
            if (!criterion.value.IsScalar() || criterion.value.Scalar() != "true") {
                reader.problem(criterion.valueLocation, criterion.path,
                               QStringLiteral("only `done: true` is accepted: a trial that "
                                              "reports done = true ends, without a stop rule"));
            }
            continue;
        }
        if (criterion.key == QLatin1String("time_total_s")) {
            if (const auto value = reader.numberAbove(criterion, 0)) {
                out->timeTotalS = *value;
            }
            continue;
        }
        WrittenThreshold threshold;
        threshold.metric = criterion.key;
        if (criterion.value.IsMap()) {
            const std::vector<YamlEntry> comparison =
                reader.entries(criterion.value, criterion.path);
            reader.rejectUnknown(comparison, {">=", "<="});
            if (comparison.size() != 1) {
                reader.problem(criterion.valueLocation, criterion.path,
                               QStringLiteral("expected a number or one comparison, "
                                              "{\">=\": x} or {\"<=\": x}"));
                continue;
            }
            const YamlEntry& only = comparison.front();
            if (only.key != QLatin1String(">=") && only.key != QLatin1String("<=")) {
                continue;  // reported as an unknown key
            }
            const auto value = reader.number(only);
            if (!value) {
                continue;
            }
            threshold.value = *value;
            threshold.atLeast = only.key == QLatin1String(">=");
        } else {
            const auto value = reader.number(criterion);
            if (!value) {
                continue;
            }
            threshold.value = *value;
        }
        thresholds->push_back(threshold);
    }
}

void resolveStopDirections(const std::vector<WrittenThreshold>& thresholds,
                           const std::vector<Objective>& objectives, StopCriteria* out) {
    for (const WrittenThreshold& written : thresholds) {
        StopThreshold threshold;
        threshold.metric = written.metric;
        threshold.value = written.value;
        bool minimized = false;
        for (const Objective& objective : objectives) {
            minimized = minimized ||
                        (written.metric == objective.metric && objective.mode == MetricMode::Min);
        }
        threshold.atLeast = written.atLeast.value_or(!minimized);
        out->thresholds.push_back(threshold);
    }
}

namespace {

struct RayName {
    const char* section;  // "" for the top level
    const char* rayKey;
    const char* key;  // the Tunedeck key, as a path from `section`
    const char* rayPlace;
};

// Ray Tune's names (Tuner, TuneConfig, CheckpointConfig, FailureConfig) for what these keys do,
// in the sections where Ray users write them.
constexpr RayName kRayNames[] = {
    {"", "param_space", "search_space", "Tuner(param_space=...)"},
    {"", "config", "search_space", "tune.run(config=...)"},
    {"", "search_alg", "search", "TuneConfig(search_alg=...)"},
    {"", "max_failures", "failure.max_failures", "FailureConfig(max_failures=...)"},
    {"", "checkpoint_config", "checkpoint", "RunConfig(checkpoint_config=...)"},
    {"", "num_to_keep", "checkpoint.keep", "CheckpointConfig(num_to_keep=...)"},
    {"", "checkpoint_frequency", "checkpoint.frequency",
     "CheckpointConfig(checkpoint_frequency=...)"},
    {"", "checkpoint_at_end", "checkpoint.at_end", "CheckpointConfig(checkpoint_at_end=...)"},
    {"", "checkpoint_score_attribute", "checkpoint.score",
     "CheckpointConfig(checkpoint_score_attribute=...)"},
    {"checkpoint", "num_to_keep", "keep", "CheckpointConfig(num_to_keep=...)"},
    {"checkpoint", "checkpoint_frequency", "frequency",
     "CheckpointConfig(checkpoint_frequency=...)"},
    {"checkpoint", "checkpoint_at_end", "at_end", "CheckpointConfig(checkpoint_at_end=...)"},
    {"checkpoint", "checkpoint_score_attribute", "score",
     "CheckpointConfig(checkpoint_score_attribute=...)"},
    {"checkpoint", "checkpoint_score_order", "score_mode",
     "CheckpointConfig(checkpoint_score_order=...)"},
};

}  // namespace

void rejectUnknownKeys(YamlReader& reader, const std::vector<YamlEntry>& entries,
                       const QStringList& known, const QString& section) {
    std::vector<YamlEntry> others;
    for (const YamlEntry& entry : entries) {
        const RayName* ray = nullptr;
        for (const RayName& name : kRayNames) {
            if (section == QLatin1String(name.section) && entry.key == QLatin1String(name.rayKey) &&
                !known.contains(entry.key)) {
                ray = &name;
            }
        }
        if (ray) {
            reader.problem(entry.keyLocation, entry.path,
                           QStringLiteral("unknown key (did you mean '%1'? That is Ray's %2)")
                               .arg(QLatin1String(ray->key), QLatin1String(ray->rayPlace)));
        } else {
            others.push_back(entry);
        }
    }
    reader.rejectUnknown(others, known);
}

void readCheckpoint(YamlReader& reader, const YamlEntry& entry, CheckpointSpec* out,
                    bool* scoreGiven, bool* scoreModeGiven) {
    if (entry.value.IsNull() || !reader.isMap(entry)) {
        return;
    }
    const std::vector<YamlEntry> entries = reader.entries(entry.value, entry.path);
    rejectUnknownKeys(reader, entries,
                      {"enabled", "frequency", "at_end", "keep", "score", "score_mode"},
                      QStringLiteral("checkpoint"));
    if (const YamlEntry* enabled = findEntry(entries, QStringLiteral("enabled"))) {
        out->enabled = reader.boolean(*enabled).value_or(out->enabled);
    }
    if (const YamlEntry* frequency = findEntry(entries, QStringLiteral("frequency"))) {
        out->frequency = readInt(reader, *frequency, 0).value_or(out->frequency);
    }
    if (const YamlEntry* atEnd = findEntry(entries, QStringLiteral("at_end"))) {
        out->atEnd = reader.boolean(*atEnd).value_or(out->atEnd);
    }
    if (const YamlEntry* keep = findEntry(entries, QStringLiteral("keep"))) {
        out->keep = readInt(reader, *keep, 0).value_or(out->keep);
    }
    if (const YamlEntry* score = findEntry(entries, QStringLiteral("score"))) {
        if (const auto value = reader.string(*score)) {
            out->score = *value;
            *scoreGiven = true;
        }
    }
    if (const YamlEntry* scoreMode = findEntry(entries, QStringLiteral("score_mode"))) {
        if (const auto value = readMode(reader, *scoreMode)) {
            out->scoreMode = *value;
            *scoreModeGiven = true;
        }
    }
}

void readFailure(YamlReader& reader, const YamlEntry& entry, FailureSpec* out) {
    if (entry.value.IsNull() || !reader.isMap(entry)) {
        return;
    }
    const std::vector<YamlEntry> entries = reader.entries(entry.value, entry.path);
    reader.rejectUnknown(entries,
                         {"max_failures", "fail_fast", "heartbeat_timeout_s", "stop_grace_s"});
    if (const YamlEntry* maxFailures = findEntry(entries, QStringLiteral("max_failures"))) {
        out->maxFailures = readInt(reader, *maxFailures, -1).value_or(out->maxFailures);
    }
    if (const YamlEntry* failFast = findEntry(entries, QStringLiteral("fail_fast"))) {
        const bool raise =
            failFast->value.IsScalar() && yamlText(failFast->value) == QLatin1String("raise");
        if (raise) {
            out->failFast = true;
            out->failFastRaise = true;
        } else {
            out->failFast = reader.boolean(*failFast).value_or(out->failFast);
        }
    }
    if (const YamlEntry* timeout = findEntry(entries, QStringLiteral("heartbeat_timeout_s"))) {
        out->heartbeatTimeoutS = reader.numberAbove(*timeout, 0).value_or(out->heartbeatTimeoutS);
    }
    if (const YamlEntry* grace = findEntry(entries, QStringLiteral("stop_grace_s"))) {
        out->stopGraceS = reader.numberAbove(*grace, 0).value_or(out->stopGraceS);
    }
}

void readNumSamples(YamlReader& reader, const YamlEntry& entry, int* out) {
    if (entry.value.IsScalar() && yamlText(entry.value).trimmed() == QLatin1String("-1")) {
        *out = ExperimentSpec::kSampleUntilBudget;
        return;
    }
    *out = readInt(reader, entry, 1).value_or(*out);
}

void readTimeBudget(YamlReader& reader, const YamlEntry& entry, std::optional<double>* out) {
    if (const auto seconds = reader.numberAbove(entry, 0)) {
        *out = seconds;
    }
}

void readAlgorithm(YamlReader& reader, const YamlEntry& entry, const QString& nameKey,
                   AlgorithmSpec* out) {
    out->location = entry.keyLocation;
    if (entry.value.IsNull()) {
        return;
    }
    if (entry.value.IsScalar()) {  // `scheduler: asha` is short for `scheduler: {type: asha}`
        out->name = yamlText(entry.value);
        out->location = entry.valueLocation;
        return;
    }
    if (!reader.isMap(entry)) {
        return;
    }
    for (const YamlEntry& option : reader.entries(entry.value, entry.path)) {
        if (option.key == nameKey) {
            if (const auto name = reader.string(option)) {
                out->name = *name;
                out->location = option.keyLocation;
            }
            continue;
        }
        reader.recordLocations(option.value, option.path);
        out->options.insert(option.key, reader.toJson(option.value));
    }
}

}  // namespace tunedeck
