#include "config/experiment_loader.h"

#include <yaml-cpp/yaml.h>

#include <QFileInfo>
#include <algorithm>

#include "config/cluster_loader.h"
#include "config/command_line.h"
#include "config/experiment_sections.h"
#include "config/nni_search_space.h"
#include "config/problem_list.h"
#include "config/search_space_yaml.h"
#include "config/yaml_limits.h"
#include "config/yaml_reader.h"
#include "core/autoscaler.h"
#include "core/counted.h"
#include "core/gang_placement.h"
#include "core/placement.h"
#include "core/scheduler.h"
#include "core/searcher.h"

namespace tunedeck {

namespace {

const QStringList& topLevelKeys() {
    static const QStringList keys = {
        "name",
        "trainable",
        "resources_per_trial",
        "search_space",
        "num_samples",
        "time_budget_s",
        "metric",
        "mode",
        "search",
        "scheduler",
        "stop",
        "checkpoint",
        "failure",
        "max_concurrent_trials",
        "seed",
        "cluster",
        "placement",
        "gpu_sample_s",
        "gpu_sharing",
    };
    return keys;
}

class ExperimentReader {
  public:
    ExperimentReader(YamlReader& reader, FilePlace place, ProblemList* problems,
                     ProblemList* warnings, ExperimentSpec* spec)
        : reader_(reader),
          place_(std::move(place)),
          problems_(problems),
          warnings_(warnings),
          spec_(spec) {}

    void read(const YAML::Node& root) {
        const SourceLocation rootLocation = reader_.locationOf(root);
        const std::vector<YamlEntry> entries = reader_.entries(root, QString());
        rejectUnknownKeys(reader_, entries, topLevelKeys(), QString());
        const auto entry = [&](const char* key) { return findEntry(entries, QLatin1String(key)); };

        readName(entry("name"), rootLocation);
        SourceLocation commandValue;
        bool workingDirOk = false;
        if (const YamlEntry* trainable = entry("trainable")) {
            readTrainable(reader_, *trainable, place_, &spec_->trainable, &commandValue,
                          &workingDirOk);
        } else {
            spec_->trainable.workingDir = place_.folder;
            reader_.problem(rootLocation, QStringLiteral("trainable.command"),
                            QStringLiteral("required key is missing (the program each trial "
                                           "runs, e.g. python3 train.py --lr {lr})"));
        }
        if (const YamlEntry* resources = entry("resources_per_trial")) {
            readResources(reader_, *resources, &spec_->resourcesPerTrial, &spec_->gang);
        }
        // Placeholders can be checked once every parameter is known; the searcher needs more:
        // a space whose domains are sound too.
        bool spaceComplete = true;
        bool spaceValid = true;
        if (const YamlEntry* space = entry("search_space")) {
            readSpace(*space, &spaceComplete, &spaceValid);
        }
        if (const YamlEntry* samples = entry("num_samples")) {
            readNumSamples(reader_, *samples, &spec_->numSamples);
        }
        if (const YamlEntry* budget = entry("time_budget_s")) {
            readTimeBudget(reader_, *budget, &spec_->timeBudgetS);
        }
        readMetricAndMode(entry("metric"), entry("mode"));
        if (const YamlEntry* search = entry("search")) {
            readAlgorithm(reader_, *search, QStringLiteral("algorithm"), &spec_->search);
        }
        if (const YamlEntry* scheduler = entry("scheduler")) {
            readAlgorithm(reader_, *scheduler, QStringLiteral("type"), &spec_->scheduler);
            readMutations(*scheduler);
        }
        if (const YamlEntry* stop = entry("stop")) {
            std::vector<WrittenThreshold> thresholds;
            readStop(reader_, *stop, &spec_->stop, &thresholds);
            resolveStopDirections(thresholds, spec_->objectives, &spec_->stop);
        }
        bool scoreGiven = false;
        bool scoreModeGiven = false;
        if (const YamlEntry* checkpoint = entry("checkpoint")) {
            readCheckpoint(reader_, *checkpoint, &spec_->checkpoint, &scoreGiven, &scoreModeGiven);
        }
        if (!scoreGiven) {
            spec_->checkpoint.score = spec_->metric;
        }
        if (!scoreModeGiven && spec_->checkpoint.score == spec_->metric) {
            spec_->checkpoint.scoreMode = spec_->mode;
        }
        if (const YamlEntry* failure = entry("failure")) {
            readFailure(reader_, *failure, &spec_->failure);
        }
        if (const YamlEntry* concurrent = entry("max_concurrent_trials")) {
            spec_->maxConcurrentTrials =
                readInt(reader_, *concurrent, 0).value_or(spec_->maxConcurrentTrials);
        }
        if (const YamlEntry* seed = entry("seed")) {
            readSeed(*seed);
        }
        if (const YamlEntry* cluster = entry("cluster")) {
            readCluster(*cluster);
        }
        if (const YamlEntry* placement = entry("placement")) {
            readPlacement(*placement);
        }
        if (const YamlEntry* sample = entry("gpu_sample_s")) {
            readSampleInterval(*sample);
        }
        if (const YamlEntry* sharing = entry("gpu_sharing")) {
            readGpuSharing(*sharing);
        }

        // Checks that need several sections at once.
        if (const YamlEntry* resources = entry("resources_per_trial")) {
            checkDeclaredNodes(*resources);
        }
        if (spaceComplete) {
            checkPlaceholders(commandValue);
        }
        const bool commandUsable = commandFreeOfNul(commandValue);
        if (workingDirOk && !spec_->trainable.command.isEmpty() && commandUsable) {
            checkTrainableProgram(commandValue);
        }
        if (spaceValid) {
            QString badKey;
            if (const Status status = validateSearcher(*spec_, &badKey); !status.isOk()) {
                reportAlgorithm(status, badKey, QStringLiteral("search"),
                                QStringLiteral("algorithm"), rootLocation);
            }
        }
        QString badKey;
        if (!mutationsValid_) {
            return;  // their problems are reported; the scheduler would repeat them
        }
        if (const Status status = validateScheduler(*spec_, &badKey); !status.isOk()) {
            reportAlgorithm(status, badKey, QStringLiteral("scheduler"), QStringLiteral("type"),
                            rootLocation);
        }
    }

  private:
    void readName(const YamlEntry* entry, const SourceLocation& rootLocation) {
        if (const auto name =
                readFolderName(reader_, entry, rootLocation, QStringLiteral("name"),
                               QStringLiteral("it names the results folder, e.g. name: quickstart"),
                               QStringLiteral("it becomes the results folder's name"))) {
            spec_->name = *name;
        }
    }

    void readSpace(const YamlEntry& entry, bool* complete, bool* valid) {
        const bool isPath =
            entry.value.IsScalar() &&
            (isQuoted(entry.value) || !yamlScalarToJson(yamlText(entry.value), false).isNull());
        if (!isPath) {
            *complete = readSearchSpaceYaml(reader_, entry, &spec_->searchSpace);
            *valid = checkSearchSpace(spec_->searchSpace, entry.path, *complete, entry.keyLocation,
                                      problems_);
            return;
        }
        const QString path = yamlText(entry.value);
        if (path.contains(QChar(0))) {
            reader_.problem(entry.valueLocation, entry.path, nulProblem(path));
            *complete = *valid = false;
            return;
        }
        const QFileInfo file(place_.resolve(path));
        if (!file.isFile()) {
            reader_.problem(entry.valueLocation, entry.path,
                            QStringLiteral("'%1' %2 (a search-space JSON file, relative to the "
                                           "experiment file's folder)")
                                .arg(path, file.exists() ? QStringLiteral("is not a file")
                                                         : QStringLiteral("does not exist")));
            *complete = *valid = false;
            return;
        }
        // Its problems are located in the JSON file, and listed where search_space is written.
        ProblemList nniProblems;
        *complete = *valid = readNniSearchSpace(place_.display(path), file.absoluteFilePath(),
                                                &nniProblems, &spec_->searchSpace);
        problems_->append(nniProblems, entry.valueLocation);
    }

    // `metric: loss` with `mode: min`, or lists of the same length for several objectives.
    void readMetricAndMode(const YamlEntry* metric, const YamlEntry* mode) {
        std::vector<QString> metrics;
        if (metric && metric->value.IsSequence()) {
            for (std::size_t i = 0; i < metric->value.size(); ++i) {
                const YAML::Node item = metric->value[i];
                if (!item.IsScalar() || yamlText(item).isEmpty()) {
                    reader_.problem(reader_.locationOf(item), metric->path,
                                    QStringLiteral("item %1 must be a result key, got %2")
                                        .arg(i + 1)
                                        .arg(describeYaml(item)));
                    return;
                }
                metrics.push_back(yamlText(item));
            }
            if (metrics.empty()) {
                reader_.problem(metric->valueLocation, metric->path,
                                QStringLiteral("lists no result key"));
                return;
            }
        } else if (metric) {
            metrics.push_back(reader_.string(*metric).value_or(QString()));
        }
        if (!mode) {
            // Ray and Optuna ask for the direction too: guessing it would silently maximise a loss.
            if (metric) {
                reader_.problem(metric->keyLocation, metric->path,
                                QStringLiteral("needs mode: min or mode: max beside it"));
            }
            return;
        }
        if (!metric) {
            if (mode->value.IsSequence() || readMode(reader_, *mode)) {
                reader_.problem(mode->keyLocation, mode->path,
                                QStringLiteral("is set but metric is not; name the result key "
                                               "it applies to, e.g. metric: loss"));
            }
            return;
        }
        std::vector<MetricMode> modes;
        if (mode->value.IsSequence()) {
            for (std::size_t i = 0; i < mode->value.size(); ++i) {
                YamlEntry item{mode->key, mode->path, mode->value[i],
                               reader_.locationOf(mode->value[i]),
                               reader_.locationOf(mode->value[i])};
                const auto value = readMode(reader_, item);
                if (!value) {
                    return;
                }
                modes.push_back(*value);
            }
        } else if (const auto value = readMode(reader_, *mode)) {
            modes.push_back(*value);
        } else {
            return;
        }
        if (modes.size() != metrics.size()) {
            reader_.problem(
                mode->valueLocation, mode->path,
                QStringLiteral("gives %1 for %2; write one min or max per "
                               "metric, in the same order")
                    .arg(counted(modes.size(), "direction"), counted(metrics.size(), "metric")));
            return;
        }
        for (std::size_t i = 0; i < metrics.size(); ++i) {
            spec_->objectives.push_back({metrics[i], modes[i]});
        }
        spec_->metric = metrics.front();
        spec_->mode = modes.front();
    }

    // pbt's `hyperparam_mutations`: each key a domain in the search-space syntax, or a list of
    // values to choose from (Ray's shorthand), read with the search space's reader so its
    // problems point at the line.
    void readMutations(const YamlEntry& scheduler) {
        if (!scheduler.value.IsMap()) {
            return;
        }
        const YAML::Node written = scheduler.value["hyperparam_mutations"];
        if (!written || !written.IsMap()) {
            return;  // absent, or reported by the scheduler's own option check
        }
        YAML::Node mutations(YAML::NodeType::Map);
        for (const auto& item : written) {
            if (item.second.IsSequence()) {
                YAML::Node choice(YAML::NodeType::Map);
                choice["choice"] = item.second;
                mutations[item.first] = choice;
            } else {
                mutations[item.first] = item.second;
            }
        }
        const QString path = scheduler.path + QStringLiteral(".hyperparam_mutations");
        const SourceLocation at = reader_.locationOf(written);
        YamlEntry entry{QStringLiteral("hyperparam_mutations"), path, mutations, at, at};
        const bool complete = readSearchSpaceYaml(reader_, entry, &spec_->scheduler.mutations);
        mutationsValid_ =
            checkSearchSpace(spec_->scheduler.mutations, path, complete, at, problems_);
    }

    void readSeed(const YamlEntry& entry) {
        const QString text = entry.value.IsScalar() ? yamlText(entry.value) : QString();
        bool ok = false;
        const std::uint64_t seed = text.toULongLong(&ok);
        if (ok && !isQuoted(entry.value) && !text.startsWith(QLatin1Char('-'))) {
            spec_->seed = seed;
            spec_->seedGiven = true;
            return;
        }
        if (parseYamlInteger(text) && text.startsWith(QLatin1Char('-'))) {
            reader_.problem(entry.valueLocation, entry.path,
                            QStringLiteral("must be >= 0, got %1").arg(text));
            return;
        }
        reader_.problem(entry.valueLocation, entry.path,
                        QStringLiteral("expected an integer between 0 and 2^64-1, got %1")
                            .arg(describeYaml(entry.value)));
    }

    // The cluster file is validated here too, so `validate` finds its mistakes before `run`
    // reaches for the nodes; its problems carry its own file:line:column and are listed where
    // `cluster` is written.
    void readCluster(const YamlEntry& entry) {
        const auto path = reader_.string(entry);
        if (!path) {
            return;
        }
        const QFileInfo file(place_.resolve(*path));
        if (!file.isFile()) {
            reader_.problem(entry.valueLocation, entry.path,
                            QStringLiteral("'%1' %2 (a cluster file, relative to the experiment "
                                           "file's folder)")
                                .arg(*path, file.exists() ? QStringLiteral("is not a file")
                                                          : QStringLiteral("does not exist")));
            return;
        }
        spec_->cluster = file.absoluteFilePath();
        LoadResult<ClusterSpec> cluster = loadClusterFile(place_.display(*path));
        for (const Problem& problem : cluster.problems) {
            (problem.isError() ? problems_ : warnings_)->add(problem, entry.valueLocation);
        }
        spec_->clusterSpec = std::move(cluster.spec);
    }

    // SSH nodes whose cluster file states their GPUs (or CPUs) already tell whether a trial can
    // ever fit; what the file leaves to the agents is checked when they answer. This machine's
    // own is asked by `validate` (runtime/resource_check.h).
    void checkDeclaredNodes(const YamlEntry& resources) {
        if (spec_->clusterSpec && spec_->clusterSpec->elastic()) {
            // Node types state what they offer: a trial none can hold would wait for ever.
            const AutoscalerSpec scaling = autoscalerSpecOf(*spec_->clusterSpec);
            const bool held = std::any_of(
                scaling.types.begin(), scaling.types.end(),
                [&](const NodeTypeSpec& t) { return typeHolds(t, spec_->resourcesPerTrial); });
            if (!held) {
                reader_.problem(resources.keyLocation, resources.path,
                                QStringLiteral("no node type can hold a trial: %1")
                                    .arg(closestType(scaling.types, spec_->resourcesPerTrial).why));
            }
            return;
        }
        if (!spec_->clusterSpec || spec_->clusterSpec->provider != ClusterProvider::Ssh) {
            return;
        }
        const std::vector<ClusterNodeSpec>& listed = spec_->clusterSpec->nodes;
        ResourceRequest request = spec_->resourcesPerTrial;
        if (!std::all_of(listed.begin(), listed.end(),
                         [](const ClusterNodeSpec& n) { return n.resources.cpu.has_value(); })) {
            request.cpu = 0;
        }
        if (!std::all_of(listed.begin(), listed.end(),
                         [](const ClusterNodeSpec& n) { return n.resources.gpu.has_value(); })) {
            request.gpu = 0;
        }
        std::vector<NodeCapacity> declared;
        for (const ClusterNodeSpec& listedNode : listed) {
            NodeCapacity node;
            node.nodeId = listedNode.name();
            node.cpuTotalMilli = toMilli(listedNode.resources.cpu.value_or(0));
            node.gpuUsedMilli.assign(std::size_t(listedNode.resources.gpu.value_or(0)), 0);
            declared.push_back(std::move(node));
        }
        QString why;
        if (!listed.empty() && !trialFitsEver(request, spec_->gang, declared, &why)) {
            reader_.problem(resources.keyLocation, resources.path, why);
        }
    }

    // 0 turns monitoring off; otherwise the agent's own limits (PROTOCOL.md, `monitor`) apply.
    void readSampleInterval(const YamlEntry& entry) {
        const std::optional<double> value = reader_.number(entry);
        if (!value) {
            return;
        }
        if (*value != 0 && !(*value >= 0.1 && *value <= 3600)) {
            reader_.problem(entry.valueLocation, entry.path,
                            QStringLiteral("must be 0 (no monitoring) or between 0.1 and 3600 "
                                           "seconds, got %1")
                                .arg(yamlText(entry.value)));
            return;
        }
        spec_->gpuSampleS = *value;
    }

    void readGpuSharing(const YamlEntry& entry) {
        const QString text = entry.value.IsScalar() ? yamlText(entry.value) : QString();
        if (text == QLatin1String("mps")) {
            spec_->gpuSharing = GpuSharing::Mps;
        } else if (text == QLatin1String("time_slicing")) {
            spec_->gpuSharing = GpuSharing::TimeSlicing;
        } else {
            reader_.problem(entry.valueLocation, entry.path,
                            QStringLiteral("must be mps or time_slicing, got %1")
                                .arg(entry.value.IsScalar() ? yamlText(entry.value)
                                                            : QStringLiteral("a collection")));
        }
    }

    void readPlacement(const YamlEntry& entry) {
        if (entry.value.IsScalar()) {
            const QString text = yamlText(entry.value);
            if (text == QLatin1String("pack")) {
                spec_->placement = PlacementStrategy::Pack;
                return;
            }
            if (text == QLatin1String("spread")) {
                spec_->placement = PlacementStrategy::Spread;
                return;
            }
        }
        reader_.problem(
            entry.valueLocation, entry.path,
            QStringLiteral("expected 'pack' or 'spread', got %1").arg(describeYaml(entry.value)));
    }

    void checkPlaceholders(const SourceLocation& commandValue) {
        const QStringList known = parameterPaths(spec_->searchSpace);
        for (const QString& name : commandPlaceholders(spec_->trainable.command)) {
            if (known.contains(name)) {
                continue;
            }
            const QString suggestion = closestKey(name, known);
            reader_.problem(
                commandValue, QStringLiteral("trainable.command"),
                QStringLiteral("'{%1}' names no parameter of the search space%2")
                    .arg(name, suggestion.isEmpty()
                                   ? QString()
                                   : QStringLiteral(" (did you mean '{%1}'?)").arg(suggestion)));
        }
    }

    // The command is split by its own reader; an argument with a NUL would be cut short by
    // execve, and looking its program up would make Qt warn without a place.
    bool commandFreeOfNul(const SourceLocation& commandValue) {
        for (const QString& argument : spec_->trainable.command) {
            if (argument.contains(QChar(0))) {
                reader_.problem(commandValue, QStringLiteral("trainable.command"),
                                nulProblem(argument));
                return false;
            }
        }
        return true;
    }

    void checkTrainableProgram(const SourceLocation& commandValue) {
        const QString program = spec_->trainable.command.first();
        if (!commandPlaceholders({program}).isEmpty()) {
            return;  // chosen per trial; nothing to look up yet
        }
        const QString problem = checkProgram(program, spec_->trainable.workingDir,
                                             spec_->trainable.env.value(QStringLiteral("PATH")));
        if (!problem.isEmpty()) {
            reader_.problem(commandValue, QStringLiteral("trainable.command"), problem);
        }
    }

    // Core's validators name the key at fault relative to the section ("algorithm",
    // "grace_period") or as a top-level key ("metric"); point at it where it was written.
    void reportAlgorithm(const Status& status, const QString& badKey, const QString& section,
                         const QString& nameKey, const SourceLocation& rootLocation) {
        QString key = badKey.isEmpty() ? nameKey : badKey;
        if (!key.startsWith(section + QLatin1Char('.')) &&
            !topLevelKeys().contains(key.section(QLatin1Char('.'), 0, 0))) {
            key = section + QLatin1Char('.') + key;
        }
        SourceLocation at = rootLocation;
        for (const QString& candidate : {key, section + QLatin1Char('.') + nameKey, section}) {
            if (spec_->locations.contains(candidate)) {
                at = spec_->locations.value(candidate);
                break;
            }
        }
        reader_.problem(at, key, status.message());
    }

    YamlReader& reader_;
    FilePlace place_;
    ProblemList* problems_;
    ProblemList* warnings_;
    ExperimentSpec* spec_;
    bool mutationsValid_ = true;
};

}  // namespace

LoadResult<ExperimentSpec> loadExperimentText(const QString& text, const QString& fileName) {
    const QByteArray utf8 = text.toUtf8();
    const TextPositions positions(fileName, utf8);
    ProblemList problems;
    ProblemList cautions(Severity::Warning);
    ExperimentSpec spec;
    spec.sourceFile = QFileInfo(fileName).absoluteFilePath();
    spec.sourceText = text;
    const YamlFileKind kind{
        QStringLiteral("an experiment file"),
        QStringLiteral("an experiment needs at least name and trainable.command"),
        QStringLiteral("name, trainable, search_space, ..."),
    };
    readYamlFile(positions, utf8, kind, &problems, [&](const YAML::Node& root) {
        YamlReader reader(positions, &problems, &spec.locations);
        ExperimentReader experiment(reader, FilePlace{fileName, QFileInfo(fileName).absolutePath()},
                                    &problems, &cautions, &spec);
        experiment.read(root);
    });
    return LoadResult<ExperimentSpec>::of(problems, cautions, std::move(spec));
}

LoadResult<ExperimentSpec> loadExperimentFile(const QString& path) {
    return loadYamlFile(path, &loadExperimentText);
}

}  // namespace tunedeck
