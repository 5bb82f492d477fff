#include "config/cluster_node_types.h"

#include <QRegularExpression>
#include <cmath>

#include "config/cluster_hosts.h"
#include "config/cluster_sections.h"

namespace tunedeck {

namespace {

// Ray's default of the cluster's max_workers.
constexpr int kRayDefaultMaxWorkers = 2;
// A type's max_workers not written yet: the cluster's applies (resolved by
// readElasticWorkerCounts).
constexpr int kMaxWorkersUnset = -1;

// A name that is safe as a word of a job name and a command argument.
bool isPlainName(const QString& text) {
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.-]*$"));
    return plain.match(text).hasMatch() && text.size() <= 64;
}

std::optional<QString> readPlainName(YamlReader& reader, const YamlEntry& entry) {
    const auto text = reader.string(entry);
    if (!text) {
        return std::nullopt;
    }
    if (!isPlainName(*text)) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("'%1' is not a Slurm name (letters, digits, '_', '.' and "
                                      "'-', not starting with '.' or '-', at most 64)")
                           .arg(printable(*text)));
        return std::nullopt;
    }
    return text;
}

// srun's --mem: a whole number with an optional unit (K, M, G, T).
std::optional<QString> readMemory(YamlReader& reader, const YamlEntry& entry) {
    const auto text = reader.string(entry);
    static const QRegularExpression memory(QStringLiteral("^[1-9][0-9]*[KMGT]?$"));
    if (text && !memory.match(*text).hasMatch()) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("expected memory as srun's --mem takes it, a whole number "
                                      "with K, M, G or T (4G, 500M), got '%1'")
                           .arg(printable(*text)));
        return std::nullopt;
    }
    return text;
}

// srun's --time: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or UNLIMITED.
std::optional<QString> readTimeLimit(YamlReader& reader, const YamlEntry& entry) {
    const auto text = reader.string(entry);
    static const QRegularExpression time(QStringLiteral(
        "^([0-9]+|[0-9]+:[0-9]+|[0-9]+:[0-9]+:[0-9]+|[0-9]+-[0-9]+(:[0-9]+){0,2}|UNLIMITED)$"));
    if (text && !time.match(*text).hasMatch()) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("expected a time limit as srun's --time takes it (minutes, "
                                      "HH:MM:SS or D-HH:MM:SS), got '%1'")
                           .arg(printable(*text)));
        return std::nullopt;
    }
    return text;
}

void readSrunOptions(YamlReader& reader, const YamlEntry& entry, QStringList* out) {
    const auto list = readStringList(reader, entry);
    if (!list) {
        return;
    }
    for (qsizetype i = 0; i < list->size(); ++i) {
        const QString& option = list->at(i);
        if (!option.startsWith(QLatin1Char('-'))) {
            reader.problem(reader.itemLocation(entry.value, std::size_t(i)),
                           QStringLiteral("%1[%2]").arg(entry.path).arg(i),
                           QStringLiteral("'%1' is not an option of srun (each item is one "
                                          "option, e.g. --exclusive or --constraint=a100)")
                               .arg(printable(option)));
            return;
        }
    }
    *out = *list;
}

struct WrittenResources {
    std::optional<double> cpu;
    std::optional<int> gpu;
};

// Ray writes CPU and GPU; cpu and gpu are taken too, as in `resources` of an SSH node.
WrittenResources readTypeResources(YamlReader& reader, const YamlEntry& entry) {
    WrittenResources out;
    if (entry.value.IsNull() || !reader.isMap(entry)) {
        return out;
    }
    const std::vector<YamlEntry> entries = reader.entries(entry.value, entry.path);
    reader.rejectUnknown(entries, {"CPU", "GPU", "cpu", "gpu"});
    for (const YamlEntry& item : entries) {
        if (item.key.compare(QLatin1String("cpu"), Qt::CaseInsensitive) == 0) {
            out.cpu = reader.numberAbove(item, 0);
        } else if (item.key.compare(QLatin1String("gpu"), Qt::CaseInsensitive) == 0) {
            out.gpu = readInt(reader, item, 0);
        }
    }
    return out;
}

struct WrittenSlurm {
    SlurmNodeConfig config;
    std::optional<int> cpusPerTask;
    std::optional<int> gpus;
};

WrittenSlurm readSlurmNodeConfig(YamlReader& reader, const YamlEntry& entry) {
    WrittenSlurm out;
    if (entry.value.IsNull() || !reader.isMap(entry)) {
        return out;
    }
    const std::vector<YamlEntry> entries = reader.entries(entry.value, entry.path);
    reader.rejectUnknown(entries, {"partition", "cpus_per_task", "gpus", "mem", "time", "account",
                                   "qos", "srun_options"});
    SlurmNodeConfig& config = out.config;
    const auto entryNamed = [&](const char* key) { return findEntry(entries, QLatin1String(key)); };
    if (const YamlEntry* e = entryNamed("partition")) {
        config.partition = readPlainName(reader, *e).value_or(QString());
    }
    if (const YamlEntry* e = entryNamed("cpus_per_task")) {
        out.cpusPerTask = readInt(reader, *e, 1);
    }
    if (const YamlEntry* e = entryNamed("gpus")) {
        out.gpus = readInt(reader, *e, 0);
    }
    if (const YamlEntry* e = entryNamed("mem")) {
        config.mem = readMemory(reader, *e).value_or(QString());
    }
    if (const YamlEntry* e = entryNamed("time")) {
        config.time = readTimeLimit(reader, *e).value_or(QString());
    }
    if (const YamlEntry* e = entryNamed("account")) {
        config.account = readPlainName(reader, *e).value_or(QString());
    }
    if (const YamlEntry* e = entryNamed("qos")) {
        config.qos = readPlainName(reader, *e).value_or(QString());
    }
    if (const YamlEntry* e = entryNamed("srun_options")) {
        readSrunOptions(reader, *e, &config.srunOptions);
    }
    return out;
}

// The command provider's node_config: KEY -> a text the commands use as {node_config.KEY} (an
// instance type, a zone, an image), passed on as written.
QMap<QString, QString> readCommandNodeConfig(YamlReader& reader, const YamlEntry& entry) {
    QMap<QString, QString> config;
    if (entry.value.IsNull() || !reader.isMap(entry)) {
        return config;
    }
    static const QRegularExpression key(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.-]*$"));
    for (const YamlEntry& item : reader.entries(entry.value, entry.path)) {
        if (!key.match(item.key).hasMatch()) {
            reader.problem(item.keyLocation, item.path,
                           QStringLiteral("'%1' cannot be used as {node_config.KEY} (letters, "
                                          "digits, '_', '.' and '-')")
                               .arg(printable(item.key)));
        } else if (const auto text = reader.string(item)) {
            config.insert(item.key, *text);
        }
    }
    return config;
}

// A node type of the command provider: what its nodes offer is written, node_config is free.
std::optional<ClusterNodeType> readCommandNodeType(YamlReader& reader, const YamlEntry& entry,
                                                   ClusterNodeType type,
                                                   const std::vector<YamlEntry>& entries) {
    WrittenResources resources;
    if (const YamlEntry* e = findEntry(entries, QStringLiteral("resources"))) {
        resources = readTypeResources(reader, *e);
    }
    if (const YamlEntry* e = findEntry(entries, QStringLiteral("node_config"))) {
        type.nodeConfig = readCommandNodeConfig(reader, *e);
    }
    if (!resources.cpu) {
        reader.problem(entry.keyLocation, entry.path + QStringLiteral(".resources.CPU"),
                       QStringLiteral("required key is missing (the CPUs a node of this type "
                                      "offers, e.g. resources: {CPU: 4})"));
        return std::nullopt;
    }
    type.cpu = *resources.cpu;
    type.gpu = resources.gpu.value_or(0);
    return type;
}

// What the trials may use and what Slurm is asked for, each from the other when only one is
// written: a node offers the CPUs and GPUs its allocation holds.
std::optional<ClusterNodeType> readNodeType(YamlReader& reader, const YamlEntry& entry,
                                            ClusterProvider provider) {
    ClusterNodeType type;
    type.name = entry.key;
    type.location = entry.keyLocation;
    type.maxWorkers = kMaxWorkersUnset;
    if (!isPlainName(entry.key)) {
        reader.problem(entry.keyLocation, entry.path,
                       QStringLiteral("'%1' is not a node type name (letters, digits, '_', '.' "
                                      "and '-', not starting with '.' or '-', at most 64)")
                           .arg(printable(entry.key)));
        return std::nullopt;
    }
    if (!reader.isMap(entry)) {
        return std::nullopt;
    }
    const std::vector<YamlEntry> entries = reader.entries(entry.value, entry.path);
    reader.rejectUnknown(entries, {"resources", "min_workers", "max_workers", "node_config"});
    if (const YamlEntry* e = findEntry(entries, QStringLiteral("min_workers"))) {
        type.minWorkers = readInt(reader, *e, 0).value_or(0);
    }
    if (const YamlEntry* e = findEntry(entries, QStringLiteral("max_workers"))) {
        if (const auto max = readInt(reader, *e, 0); max && *max < type.minWorkers) {
            reader.problem(e->valueLocation, e->path,
                           QStringLiteral("must be at least min_workers (%1), got %2")
                               .arg(type.minWorkers)
                               .arg(*max));
        } else if (max) {
            type.maxWorkers = *max;
        }
    }
    if (provider == ClusterProvider::Command) {
        return readCommandNodeType(reader, entry, std::move(type), entries);
    }
    WrittenResources resources;
    if (const YamlEntry* e = findEntry(entries, QStringLiteral("resources"))) {
        resources = readTypeResources(reader, *e);
    }
    WrittenSlurm slurm;
    if (const YamlEntry* e = findEntry(entries, QStringLiteral("node_config"))) {
        slurm = readSlurmNodeConfig(reader, *e);
    }
    type.slurm = slurm.config;
    if (!resources.cpu && !slurm.cpusPerTask) {
        reader.problem(entry.keyLocation, entry.path + QStringLiteral(".resources.CPU"),
                       QStringLiteral("required key is missing (the CPUs a node of this type "
                                      "offers, e.g. resources: {CPU: 4}; or "
                                      "node_config.cpus_per_task)"));
        return std::nullopt;
    }
    type.cpu = resources.cpu.value_or(double(slurm.cpusPerTask.value_or(1)));
    type.slurm.cpusPerTask = slurm.cpusPerTask.value_or(int(std::ceil(type.cpu)));
    type.gpu = resources.gpu.value_or(slurm.gpus.value_or(0));
    type.slurm.gpus = slurm.gpus.value_or(type.gpu);
    if (type.cpu > type.slurm.cpusPerTask || type.gpu > type.slurm.gpus) {
        reader.problem(entry.keyLocation, entry.path + QStringLiteral(".resources"),
                       QStringLiteral("offers %1 CPUs and %2 GPUs, more than node_config asks "
                                      "Slurm for (cpus_per_task %3, gpus %4)")
                           .arg(type.cpu)
                           .arg(type.gpu)
                           .arg(type.slurm.cpusPerTask)
                           .arg(type.slurm.gpus));
        return std::nullopt;
    }
    return type;
}

}  // namespace

std::vector<ClusterNodeType> readNodeTypes(YamlReader& reader, const YamlEntry& entry,
                                           ClusterProvider provider) {
    std::vector<ClusterNodeType> types;
    if (entry.value.IsNull() || !reader.isMap(entry)) {
        return types;
    }
    for (const YamlEntry& item : reader.entries(entry.value, entry.path)) {
        if (auto type = readNodeType(reader, item, provider)) {
            types.push_back(std::move(*type));
        }
    }
    return types;
}

void readElasticWorkerCounts(YamlReader& reader, const YamlEntry* written, ClusterSpec* spec) {
    std::optional<int> max;
    if (written) {
        max = readInt(reader, *written, 0);
    }
    int sumOfTypes = 0;
    int minOfTypes = 0;
    bool everyTypeStates = true;
    for (const ClusterNodeType& type : spec->nodeTypes) {
        everyTypeStates = everyTypeStates && type.maxWorkers != kMaxWorkersUnset;
        sumOfTypes += std::max(type.maxWorkers, 0);
        minOfTypes += type.minWorkers;
    }
    spec->maxWorkers = max.value_or(
        everyTypeStates && !spec->nodeTypes.empty() ? sumOfTypes : kRayDefaultMaxWorkers);
    if (written && max && *max < minOfTypes) {
        reader.problem(written->valueLocation, written->path,
                       QStringLiteral("must be at least the node types' min_workers together "
                                      "(%1), got %2")
                           .arg(minOfTypes)
                           .arg(*max));
    }
    for (ClusterNodeType& type : spec->nodeTypes) {
        if (type.maxWorkers == kMaxWorkersUnset) {
            type.maxWorkers = std::max(spec->maxWorkers, type.minWorkers);
        }
    }
}

void readScalingKeys(YamlReader& reader, const YamlEntry* upscalingSpeed,
                     const YamlEntry* idleTimeoutMinutes, ClusterSpec* spec) {
    if (upscalingSpeed) {
        spec->upscalingSpeed =
            reader.numberAbove(*upscalingSpeed, 0).value_or(spec->upscalingSpeed);
    }
    if (idleTimeoutMinutes) {
        if (const auto minutes = reader.numberAbove(*idleTimeoutMinutes, 0)) {
            spec->idleTimeoutS = *minutes * 60;
        }
    }
}

}  // namespace tunedeck
