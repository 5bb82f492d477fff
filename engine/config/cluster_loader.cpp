#include "config/cluster_loader.h"

#include <QDir>
#include <QFileInfo>

#include "config/cluster_command_provider.h"
#include "config/cluster_node_types.h"
#include "config/cluster_sections.h"
#include "config/file_place.h"
#include "config/problem_list.h"
#include "config/yaml_limits.h"
#include "config/yaml_reader.h"

namespace tunedeck {

namespace {

const QStringList& topLevelKeys() {
    static const QStringList keys = {
        "cluster_name",
        "provider",
        "auth",
        "min_workers",
        "max_workers",
        "resources",
        "file_mounts",
        "rsync_exclude",
        "initialization_commands",
        "setup_commands",
        "worker_setup_commands",
        "storage",
        "node_timeout_s",
        "remote_root",
    };
    return keys;
}

// Ray's autoscaling keys: read for an elastic provider (slurm, command), ignored with a warning
// otherwise.
const QStringList& elasticKeys() {
    static const QStringList keys = {"available_node_types", "upscaling_speed",
                                     "idle_timeout_minutes"};
    return keys;
}

// Keys of Ray's cluster files that have no meaning here. They are accepted, with a warning
// saying why, so that a user's Ray on-prem file loads unchanged.
struct IgnoredRayKey {
    const char* key;
    const char* reason;
};
constexpr IgnoredRayKey kIgnoredRayKeys[] = {
    {"head_setup_commands", "the engine runs on your machine, not on head_ip; use setup_commands"},
    {"head_start_ray_commands", "its own agent is started on each node, not Ray"},
    {"worker_start_ray_commands", "its own agent is started on each node, not Ray"},
    {"upscaling_speed", "no autoscaling: the nodes listed are used, up to max_workers"},
    {"idle_timeout_minutes", "no autoscaling: nodes are let go when the experiment ends"},
    {"docker", "trials run directly on the nodes, not in containers"},
    {"cluster_synced_files", "checkpoints and results are moved by the engine; see storage"},
    {"file_mounts_sync_continuously", "file_mounts are copied once, when the cluster starts"},
    {"head_node_type", "node types describe cloud machines; on-prem nodes are listed in provider"},
    {"available_node_types",
     "node types describe cloud machines; on-prem nodes are listed in provider"},
    {"rsync_filter", "filter files are not read; list patterns in rsync_exclude"},
    {"head_node", "Ray's cloud settings of the head machine; on-prem nodes are listed in provider"},
    {"worker_nodes",
     "Ray's cloud settings of the worker machines; on-prem nodes are listed in provider"},
    {"initial_workers", "no autoscaling: the nodes listed are used, up to max_workers"},
    {"autoscaling_mode", "no autoscaling: the nodes listed are used, up to max_workers"},
    {"target_utilization_fraction", "no autoscaling: the nodes listed are used, up to max_workers"},
};

// provider keys of Ray's local (on-prem) provider that have no meaning here.
constexpr IgnoredRayKey kIgnoredProviderKeys[] = {
    {"external_head_ip", "the head is reached at head_ip"},
};

// Ray's cloud providers. Tunedeck calls no cloud API itself: one message says what to write
// instead (the command provider with the cloud's CLI, CLUSTER.md), rather than an unknown key for
// each of the provider's own fields.
bool isCloudProvider(const QString& type) {
    static const QStringList cloud = {"aws", "gcp", "azure", "kubernetes"};
    return cloud.contains(type);
}

QString providerTypeOf(const YAML::Node& root) {
    if (!root.IsMap()) {
        return {};
    }
    const YAML::Node provider = root["provider"];
    if (!provider || !provider.IsMap() || !provider["type"] || !provider["type"].IsScalar()) {
        return {};
    }
    return yamlText(provider["type"]);
}

const char* ignoredReason(const QString& key) {
    for (const IgnoredRayKey& ignored : kIgnoredRayKeys) {
        if (key == QLatin1String(ignored.key)) {
            return ignored.reason;
        }
    }
    return nullptr;
}

class ClusterReader {
  public:
    ClusterReader(YamlReader& reader, FilePlace place, ProblemList* warnings, ClusterSpec* spec)
        : reader_(reader), place_(std::move(place)), warnings_(warnings), spec_(spec) {}

    void read(const YAML::Node& root) {
        const SourceLocation rootLocation = reader_.locationOf(root);
        std::vector<YamlEntry> entries;
        // A cloud file gets one message about its provider, not a warning per Ray key.
        const bool cloud = isCloudProvider(providerTypeOf(root));
        elastic_ = providerTypeOf(root) == QLatin1String("slurm") ||
                   providerTypeOf(root) == QLatin1String("command");
        for (YamlEntry& entry : reader_.entries(root, QString())) {
            if (elastic_ && elasticKeys().contains(entry.key)) {
                entries.push_back(std::move(entry));
            } else if (const char* reason = ignoredReason(entry.key)) {
                if (!cloud) {
                    warnings_->add(entry.keyLocation, entry.path,
                                   QStringLiteral("ignored by Tunedeck (%1)").arg(reason));
                }
            } else {
                entries.push_back(std::move(entry));
            }
        }
        reader_.rejectUnknown(entries, elastic_ ? topLevelKeys() + elasticKeys() : topLevelKeys());
        const auto entry = [&](const char* key) { return findEntry(entries, QLatin1String(key)); };

        readName(entry("cluster_name"), rootLocation);
        if (const YamlEntry* resources = entry("resources")) {
            readNodeResources(reader_, *resources, &defaultResources_);
        }
        readProvider(entry("provider"), rootLocation);
        if (cloud) {
            return;  // its one message says what to write; the rest describes cloud machines
        }
        spec_->knownHosts = QDir::cleanPath(QDir::homePath() + QStringLiteral("/.ssh/known_hosts"));
        const bool ssh = providerType_ == QLatin1String("ssh");
        if (const YamlEntry* auth = entry("auth")) {
            readAuth(reader_, *auth, place_, ssh, spec_);
        } else if (ssh) {
            reader_.problem(rootLocation, QStringLiteral("auth.ssh_user"),
                            QStringLiteral("required key is missing (the user to log in as on "
                                           "every node, e.g. auth: {ssh_user: alice})"));
        }
        if (elastic_) {
            readElastic(entry("available_node_types"), entry("min_workers"), entry("max_workers"),
                        rootLocation);
            readScalingKeys(reader_, entry("upscaling_speed"), entry("idle_timeout_minutes"),
                            spec_);
            if (spec_->provider == ClusterProvider::Command) {
                checkNodeConfigKeys(reader_, *spec_);
            }
        } else {
            readWorkerCounts(entry("min_workers"), entry("max_workers"));
            placeNodes();
        }

        if (const YamlEntry* mounts = entry("file_mounts")) {
            readFileMounts(reader_, *mounts, place_, &spec_->fileMounts);
        }
        readList(entry("rsync_exclude"), &spec_->rsyncExclude);
        readList(entry("initialization_commands"), &spec_->initializationCommands);
        readList(entry("setup_commands"), &spec_->setupCommands);
        readList(entry("worker_setup_commands"), &spec_->workerSetupCommands);
        if (elastic_) {
            spec_->storage = ClusterStorage::Shared;
        }
        if (const YamlEntry* storage = entry("storage")) {
            readStorage(*storage);
        }
        if (const YamlEntry* timeout = entry("node_timeout_s")) {
            spec_->nodeTimeoutS = reader_.numberAbove(*timeout, 0).value_or(spec_->nodeTimeoutS);
        }
        if (const YamlEntry* root = entry("remote_root")) {
            spec_->remoteRoot = readRemoteRoot(reader_, *root).value_or(spec_->remoteRoot);
        }
    }

  private:
    void readName(const YamlEntry* entry, const SourceLocation& rootLocation) {
        if (const auto name = readFolderName(
                reader_, entry, rootLocation, QStringLiteral("cluster_name"),
                QStringLiteral("it names the cluster's folder on every node, e.g. cluster_name: "
                               "lab"),
                QStringLiteral("it becomes a folder name on the nodes"))) {
            spec_->clusterName = *name;
        }
    }

    void readProvider(const YamlEntry* provider, const SourceLocation& rootLocation) {
        if (!provider) {
            reader_.problem(rootLocation, QStringLiteral("provider.type"),
                            QStringLiteral("required key is missing (local for this machine, "
                                           "ssh for nodes reached over SSH)"));
            return;
        }
        if (!provider->value.IsMap()) {
            reader_.problem(provider->valueLocation, provider->path,
                            QStringLiteral("expected a mapping with a type, e.g. {type: local}, "
                                           "got %1")
                                .arg(describeYaml(provider->value)));
            return;
        }
        providerLocation_ = provider->keyLocation;
        const std::vector<YamlEntry> entries = reader_.entries(provider->value, provider->path);
        const YamlEntry* type = findEntry(entries, QStringLiteral("type"));
        const YamlEntry* head = findEntry(entries, QStringLiteral("head_ip"));
        const YamlEntry* workers = findEntry(entries, QStringLiteral("worker_ips"));
        const std::optional<QString> name = type ? reader_.string(*type) : std::nullopt;
        if (name && isCloudProvider(*name)) {
            reader_.problem(
                type->valueLocation, type->path,
                QStringLiteral("'%1' is a cloud provider: Tunedeck calls no cloud API itself. Let "
                               "it start nodes with the cloud's own CLI: provider: {type: "
                               "command, create, terminate, list, connect} (examples/clusters "
                               "has aws.yaml, gcp.yaml and kubernetes.yaml), or start machines "
                               "yourself and list them: provider: {type: ssh, head_ip: ADDRESS, "
                               "worker_ips: [ADDRESS, ...]}")
                    .arg(*name));
            return;
        }
        std::vector<YamlEntry> others;
        for (const YamlEntry& entry : entries) {
            const IgnoredRayKey* ignored = nullptr;
            for (const IgnoredRayKey& key : kIgnoredProviderKeys) {
                if (entry.key == QLatin1String(key.key)) {
                    ignored = &key;
                }
            }
            if (ignored) {
                warnings_->add(entry.keyLocation, entry.path,
                               QStringLiteral("ignored by Tunedeck (%1)").arg(ignored->reason));
            } else if (entry.key == QLatin1String("coordinator_address")) {
                // Ray's coordinator server leases it the nodes; ignoring it would quietly turn
                // the file into a cluster of this machine alone.
                reader_.problem(entry.keyLocation, entry.path,
                                QStringLiteral("Ray's coordinator server is not supported: "
                                               "Tunedeck does not lease nodes from one; list "
                                               "the machines as provider.head_ip and "
                                               "provider.worker_ips (type: ssh)"));
            } else {
                others.push_back(entry);
            }
        }
        if (name == QStringLiteral("slurm")) {
            readSlurmProvider(others);
            return;
        }
        if (name == QStringLiteral("command")) {
            providerType_ = *name;
            rejectHosts(others, QStringLiteral("the command provider's nodes are made by its "
                                               "create command; describe them in "
                                               "available_node_types"));
            readCommandProvider(reader_, withoutHosts(others), *provider, spec_);
            return;
        }
        reader_.rejectUnknown(others, {"type", "head_ip", "worker_ips"});
        const bool listsWorkers = workers &&
                                  !(workers->value.IsSequence() && workers->value.size() == 0) &&
                                  !workers->value.IsNull();
        if (!type) {
            reader_.problem(provider->keyLocation, QStringLiteral("provider.type"),
                            QStringLiteral("required key is missing (local, ssh, slurm or "
                                           "command)"));
        } else if (name) {
            if (*name == QLatin1String("local") || *name == QLatin1String("ssh")) {
                // Ray's on-prem provider is called "local" and lists its hosts: those are
                // reached over SSH, exactly as type ssh. Without hosts, local is this machine.
                providerType_ = *name == QLatin1String("local") && (head || listsWorkers)
                                    ? QStringLiteral("ssh")
                                    : *name;
                providerLocation_ = type->valueLocation;
            } else {
                reader_.problem(type->valueLocation, type->path,
                                QStringLiteral("expected 'local', 'ssh', 'slurm' or 'command' (or "
                                               "a cloud provider Tunedeck explains), got '%1'")
                                    .arg(*name));
            }
        }
        if (providerType_ == QLatin1String("local")) {
            spec_->provider = ClusterProvider::Local;
            return;
        }
        if (providerType_ == QLatin1String("ssh")) {
            spec_->provider = ClusterProvider::Ssh;
            if (!head) {
                reader_.problem(provider->keyLocation, QStringLiteral("provider.head_ip"),
                                QStringLiteral("required key is missing for %1 (the first "
                                               "node, e.g. head_ip: 10.0.0.1)")
                                    .arg(name == QStringLiteral("local")
                                             ? QStringLiteral("a local provider listing worker_ips")
                                             : QStringLiteral("type ssh")));
            }
        }
        if (head) {
            head_ = readNode(reader_, head->value, head->path, head->valueLocation);
        }
        if (workers) {
            readWorkers(*workers);
        }
    }

    static bool isHostKey(const YamlEntry& entry) {
        return entry.key == QLatin1String("head_ip") || entry.key == QLatin1String("worker_ips");
    }

    // An elastic provider's nodes are not addresses: head_ip and worker_ips are refused.
    void rejectHosts(const std::vector<YamlEntry>& entries, const QString& why) {
        for (const YamlEntry& entry : entries) {
            if (isHostKey(entry)) {
                reader_.problem(entry.keyLocation, entry.path, why);
            }
        }
    }

    static std::vector<YamlEntry> withoutHosts(const std::vector<YamlEntry>& entries) {
        std::vector<YamlEntry> rest;
        std::copy_if(entries.begin(), entries.end(), std::back_inserter(rest),
                     [](const YamlEntry& entry) { return !isHostKey(entry); });
        return rest;
    }

    // provider: {type: slurm, worker_path}: nodes are allocations, not addresses.
    void readSlurmProvider(const std::vector<YamlEntry>& entries) {
        spec_->provider = ClusterProvider::Slurm;
        providerType_ = QStringLiteral("slurm");
        rejectHosts(entries, QStringLiteral("a Slurm cluster's nodes are allocations Slurm "
                                            "gives; describe them in available_node_types"));
        const std::vector<YamlEntry> rest = withoutHosts(entries);
        reader_.rejectUnknown(rest, {"type", "worker_path"});
        if (const YamlEntry* path = findEntry(rest, QStringLiteral("worker_path"))) {
            if (const auto text = reader_.string(*path); text && !text->isEmpty()) {
                spec_->workerPath = *text;
            } else if (text) {
                reader_.problem(path->valueLocation, path->path,
                                QStringLiteral("must name tunedeck-worker on the compute nodes"));
            }
        }
    }

    void readElastic(const YamlEntry* types, const YamlEntry* minEntry, const YamlEntry* maxEntry,
                     const SourceLocation& rootLocation) {
        if (!types) {
            reader_.problem(rootLocation, QStringLiteral("available_node_types"),
                            QStringLiteral("required key is missing for type %1 (the nodes "
                                           "to %2, e.g. available_node_types: "
                                           "{cpu-node: {resources: {CPU: 4}, max_workers: 2}})")
                                .arg(providerType_, providerType_ == QLatin1String("slurm")
                                                        ? QStringLiteral("ask Slurm for")
                                                        : QStringLiteral("create")));
        } else {
            spec_->nodeTypes = readNodeTypes(reader_, *types, spec_->provider);
            if (spec_->nodeTypes.empty() && types->value.IsMap() && types->value.size() == 0) {
                reader_.problem(types->valueLocation, types->path,
                                QStringLiteral("lists no node type"));
            }
        }
        if (minEntry) {
            // Ray's autoscaler reads min_workers per node type only.
            warnings_->add(minEntry->keyLocation, minEntry->path,
                           QStringLiteral("ignored by Tunedeck (set min_workers on each of "
                                          "available_node_types)"));
        }
        readElasticWorkerCounts(reader_, maxEntry, spec_);
    }

    void readWorkers(const YamlEntry& entry) {
        if (entry.value.IsNull()) {
            return;
        }
        if (!entry.value.IsSequence()) {
            reader_.problem(
                entry.valueLocation, entry.path,
                QStringLiteral("expected a list of hosts, got %1").arg(describeYaml(entry.value)));
            return;
        }
        workersWritten_ = int(entry.value.size());
        for (std::size_t i = 0; i < entry.value.size(); ++i) {
            const QString path = QStringLiteral("%1[%2]").arg(entry.path).arg(i);
            if (auto node =
                    readNode(reader_, entry.value[i], path, reader_.itemLocation(entry.value, i))) {
                workers_.push_back(std::move(*node));
            }
        }
    }

    void readWorkerCounts(const YamlEntry* minEntry, const YamlEntry* maxEntry) {
        spec_->maxWorkers = workersWritten_;
        if (minEntry) {
            const int min = readInt(reader_, *minEntry, 0).value_or(0);
            if (min > workersWritten_) {
                reader_.problem(minEntry->valueLocation, minEntry->path,
                                QStringLiteral("must be at most the number of worker_ips (%1), "
                                               "got %2")
                                    .arg(workersWritten_)
                                    .arg(min));
            } else {
                spec_->minWorkers = min;
            }
        }
        if (!maxEntry) {
            return;
        }
        const auto max = readInt(reader_, *maxEntry, 0);
        if (!max) {
            return;
        }
        if (*max < spec_->minWorkers) {
            reader_.problem(maxEntry->valueLocation, maxEntry->path,
                            QStringLiteral("must be at least min_workers (%1), got %2")
                                .arg(spec_->minWorkers)
                                .arg(*max));
        } else if (*max > workersWritten_) {
            // Ray does the same: there are no more machines to start.
            warnings_->add(maxEntry->valueLocation, maxEntry->path,
                           QStringLiteral("%1, but provider.worker_ips lists %2; %2 are used")
                               .arg(*max)
                               .arg(workersWritten_));
        } else {
            spec_->maxWorkers = *max;
        }
    }

    // Head first, then the first max_workers workers, each with the cluster's port and resources
    // unless it names its own. A host written twice is refused: two agents on one machine would
    // offer its CPUs and GPUs twice.
    void placeNodes() {
        if (spec_->provider == ClusterProvider::Local) {
            if (providerType_ == QLatin1String("local")) {
                ClusterNodeSpec local;
                local.host = QStringLiteral("localhost");
                local.isHead = true;
                local.resources = defaultResources_;
                local.location = providerLocation_;
                spec_->nodes.push_back(local);
            }
            return;
        }
        std::vector<const WrittenNode*> written;
        if (head_) {
            written.push_back(&*head_);
        }
        for (const WrittenNode& worker : workers_) {
            written.push_back(&worker);
        }
        QMap<QString, const WrittenNode*> seen;
        int workersPlaced = 0;
        for (const WrittenNode* node : written) {
            ClusterNodeSpec spec;
            spec.host = node->host;
            spec.port = node->port.value_or(spec_->sshPort);
            spec.isHead = node == written.front() && head_.has_value();
            spec.resources = defaultResources_;
            if (node->resources.cpu) {
                spec.resources.cpu = node->resources.cpu;
            }
            if (node->resources.gpu) {
                spec.resources.gpu = node->resources.gpu;
            }
            spec.location = node->location;
            if (!spec_->locations.contains(node->path)) {
                spec_->locations.insert(node->path, node->location);
            }
            const QString key = spec.host.toLower() + QLatin1Char(' ') + QString::number(spec.port);
            if (const WrittenNode* first = seen.value(key)) {
                reader_.problem(node->location, node->path,
                                QStringLiteral("'%1' is already listed at line %2 (%3); list each "
                                               "node once")
                                    .arg(spec.name())
                                    .arg(first->location.line)
                                    .arg(first->path));
                continue;
            }
            seen.insert(key, node);
            if (!spec.isHead && workersPlaced++ >= spec_->maxWorkers) {
                continue;
            }
            spec_->nodes.push_back(spec);
        }
    }

    void readList(const YamlEntry* entry, QStringList* out) {
        if (entry) {
            *out = readStringList(reader_, *entry).value_or(*out);
        }
    }

    void readStorage(const YamlEntry& entry) {
        if (entry.value.IsScalar()) {
            const QString text = yamlText(entry.value);
            if (text == QLatin1String("copy") && elastic_) {
                const bool command = providerType_ == QLatin1String("command");
                reader_.problem(
                    entry.valueLocation, entry.path,
                    QStringLiteral("a %1 node's link is %2 stdin and stdout, which "
                                   "carries no files: its nodes must see the "
                                   "experiment folder at the same path (shared)")
                        .arg(command ? QStringLiteral("command provider") : QStringLiteral("Slurm"),
                             command ? QStringLiteral("its connect command's")
                                     : QStringLiteral("srun's")));
                return;
            }
            if (text == QLatin1String("copy")) {
                spec_->storage = ClusterStorage::Copy;
                return;
            }
            if (text == QLatin1String("shared")) {
                spec_->storage = ClusterStorage::Shared;
                return;
            }
        }
        reader_.problem(
            entry.valueLocation, entry.path,
            QStringLiteral("expected 'copy' or 'shared', got %1").arg(describeYaml(entry.value)));
    }

    YamlReader& reader_;
    FilePlace place_;
    ProblemList* warnings_;
    ClusterSpec* spec_;
    QString providerType_;  // "local", "ssh", "slurm" or "command" once read without problems
    bool elastic_ = false;  // provider slurm or command: nodes come and go with the demand
    SourceLocation providerLocation_;
    NodeResources defaultResources_;
    std::optional<WrittenNode> head_;
    std::vector<WrittenNode> workers_;
    int workersWritten_ = 0;
};

}  // namespace

LoadResult<ClusterSpec> loadClusterText(const QString& text, const QString& sourceFile) {
    const QByteArray utf8 = text.toUtf8();
    const TextPositions positions(sourceFile, utf8);
    ProblemList problems;
    ProblemList warnings(Severity::Warning);
    ClusterSpec spec;
    spec.sourceFile = QFileInfo(sourceFile).absoluteFilePath();
    const YamlFileKind kind{
        QStringLiteral("a cluster file"),
        QStringLiteral("a cluster needs at least cluster_name and provider.type"),
        QStringLiteral("cluster_name, provider, auth, ..."),
    };
    readYamlFile(positions, utf8, kind, &problems, [&](const YAML::Node& root) {
        YamlReader reader(positions, &problems, &spec.locations);
        ClusterReader cluster(reader, FilePlace{sourceFile, QFileInfo(sourceFile).absolutePath()},
                              &warnings, &spec);
        cluster.read(root);
    });
    return LoadResult<ClusterSpec>::of(problems, warnings, std::move(spec));
}

LoadResult<ClusterSpec> loadClusterFile(const QString& path) {
    return loadYamlFile(path, &loadClusterText);
}

}  // namespace tunedeck
