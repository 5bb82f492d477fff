#include "spec_dump.h"

#include <QDir>
#include <QJsonDocument>

namespace tunedeck::testing {

namespace {

QString relativeTo(const QString& baseDir, const QString& path) {
    if (path.isEmpty()) {
        return path;
    }
    return QDir(baseDir).relativeFilePath(path);
}

QJsonObject dumpDomain(const Domain& domain) {
    QJsonObject out{{"kind", domainKindName(domain.kind)}};
    switch (domain.kind) {
        case DomainKind::Choice:
        case DomainKind::Grid: {
            QJsonArray options;
            for (const DomainOption& option : domain.options) {
                options.append(option.group ? QJsonObject{{"group", dumpSearchSpace(*option.group)}}
                                            : QJsonObject{{"value", option.value}});
            }
            out.insert("options", options);
            break;
        }
        case DomainKind::Normal:
        case DomainKind::QNormal:
            out.insert("mu", domain.mu);
            out.insert("sigma", domain.sigma);
            break;
        default:
            out.insert("low", domain.low);
            out.insert("high", domain.high);
            break;
    }
    if (domain.kind == DomainKind::QUniform || domain.kind == DomainKind::QLogUniform ||
        domain.kind == DomainKind::QRandInt || domain.kind == DomainKind::QLogRandInt ||
        domain.kind == DomainKind::QNormal) {
        out.insert("q", domain.q);
    }
    return out;
}

QString modeName(MetricMode mode) {
    return metricModeName(mode);
}

QString machineFreePath(const QString& baseDir, const QString& path) {
    const QString home = QDir::cleanPath(QDir::homePath());
    if (path.startsWith(baseDir + QLatin1Char('/'))) {
        return path.mid(baseDir.size() + 1);
    }
    if (path.startsWith(home + QLatin1Char('/'))) {
        return QStringLiteral("~") + path.mid(home.size());
    }
    return path;
}

QJsonValue optionalNumber(const std::optional<double>& value) {
    return value ? QJsonValue(*value) : QJsonValue();
}

}  // namespace

QJsonArray dumpSearchSpace(const SearchSpace& space) {
    QJsonArray parameters;
    for (const Parameter& parameter : space.parameters) {
        QJsonObject out{{"name", parameter.name}};
        switch (parameter.kind) {
            case Parameter::Kind::Constant:
                out.insert("constant", parameter.constant);
                break;
            case Parameter::Kind::Sampled:
                out.insert("domain", dumpDomain(parameter.domain));
                break;
            case Parameter::Kind::Group:
                out.insert("group",
                           parameter.group ? dumpSearchSpace(*parameter.group) : QJsonArray());
                break;
        }
        if (parameter.when) {
            out.insert("when", QJsonObject{{"path", parameter.when->path},
                                           {"values", parameter.when->values}});
        }
        parameters.append(out);
    }
    return parameters;
}

QJsonObject dumpExperiment(const ExperimentSpec& spec, const QString& baseDir) {
    QJsonObject env;
    for (auto it = spec.trainable.env.begin(); it != spec.trainable.env.end(); ++it) {
        env.insert(it.key(), it.value());
    }
    QJsonArray thresholds;
    for (const StopThreshold& threshold : spec.stop.thresholds) {
        thresholds.append(QJsonObject{{"metric", threshold.metric},
                                      {"stop_when", threshold.atLeast ? ">=" : "<="},
                                      {"value", threshold.value}});
    }
    QJsonArray objectives;
    for (const Objective& objective : spec.objectives) {
        objectives.append(
            QJsonObject{{"metric", objective.metric}, {"mode", modeName(objective.mode)}});
    }
    QJsonObject scheduler{{"type", spec.scheduler.name}, {"options", spec.scheduler.options}};
    if (!spec.scheduler.mutations.parameters.empty()) {
        scheduler.insert("mutations", dumpSearchSpace(spec.scheduler.mutations));
    }
    QJsonObject stop{{"thresholds", thresholds}};
    stop.insert("training_iteration", spec.stop.trainingIteration
                                          ? QJsonValue(qint64(*spec.stop.trainingIteration))
                                          : QJsonValue());
    stop.insert("time_total_s",
                spec.stop.timeTotalS ? QJsonValue(*spec.stop.timeTotalS) : QJsonValue());
    QJsonObject trainable{{"command", QJsonArray::fromStringList(spec.trainable.command)},
                          {"working_dir", relativeTo(baseDir, spec.trainable.workingDir)},
                          {"env", env}};
    if (!spec.trainable.files.isEmpty()) {  // shown only where a case lists some
        QJsonArray files;
        for (const QString& file : spec.trainable.files) {
            files.append(relativeTo(baseDir, file));
        }
        trainable.insert("files", files);
    }
    return {
        {"name", spec.name},
        {"trainable", trainable},
        {"resources_per_trial",
         QJsonObject{{"cpu", spec.resourcesPerTrial.cpu},
                     {"gpu", spec.resourcesPerTrial.gpu},
                     {"gpu_memory_mb", qint64(spec.resourcesPerTrial.gpuMemoryMb)}}},
        {"search_space", dumpSearchSpace(spec.searchSpace)},
        {"num_samples", spec.numSamples},
        {"metric", spec.metric},
        {"mode", modeName(spec.mode)},
        {"objectives", objectives},
        {"search", QJsonObject{{"algorithm", spec.search.name}, {"options", spec.search.options}}},
        {"scheduler", scheduler},
        {"stop", stop},
        {"checkpoint", QJsonObject{{"enabled", spec.checkpoint.enabled},
                                   {"frequency", spec.checkpoint.frequency},
                                   {"at_end", spec.checkpoint.atEnd},
                                   {"keep", spec.checkpoint.keep},
                                   {"score", spec.checkpoint.score},
                                   {"score_mode", modeName(spec.checkpoint.scoreMode)}}},
        {"failure", QJsonObject{{"max_failures", spec.failure.maxFailures},
                                {"fail_fast", spec.failure.failFast},
                                {"heartbeat_timeout_s", spec.failure.heartbeatTimeoutS},
                                {"stop_grace_s", spec.failure.stopGraceS}}},
        {"max_concurrent_trials", spec.maxConcurrentTrials},
        // uint64 does not fit a JSON number exactly; a string keeps every digit.
        {"seed", spec.seedGiven ? QJsonValue(QString::number(spec.seed)) : QJsonValue()},
        {"cluster", relativeTo(baseDir, spec.cluster)},
        {"cluster_spec", spec.clusterSpec ? dumpCluster(*spec.clusterSpec, baseDir) : QJsonValue()},
        {"placement", spec.placement == PlacementStrategy::Pack ? "pack" : "spread"},
        {"gpu_sample_s", spec.gpuSampleS},
        {"gpu_sharing", spec.gpuSharing == GpuSharing::Mps ? "mps" : "time_slicing"},
    };
}

QJsonObject dumpCluster(const ClusterSpec& spec, const QString& baseDir) {
    QJsonArray nodes;
    for (const ClusterNodeSpec& node : spec.nodes) {
        nodes.append(QJsonObject{
            {"name", node.name()},
            {"host", node.host},
            {"port", node.port},
            {"head", node.isHead},
            {"cpu", optionalNumber(node.resources.cpu)},
            {"gpu", optionalNumber(node.resources.gpu)},
            {"at", QStringLiteral("%1:%2").arg(node.location.line).arg(node.location.column)},
        });
    }
    QJsonArray mounts;
    for (const FileMount& mount : spec.fileMounts) {
        mounts.append(QJsonObject{{"remote", mount.remotePath},
                                  {"local", machineFreePath(baseDir, mount.localPath)}});
    }
    QJsonObject dump{
        {"source_file", machineFreePath(baseDir, spec.sourceFile)},
        {"cluster_name", spec.clusterName},
        {"provider", spec.provider == ClusterProvider::Local   ? "local"
                     : spec.provider == ClusterProvider::Ssh   ? "ssh"
                     : spec.provider == ClusterProvider::Slurm ? "slurm"
                                                               : "command"},
        {"nodes", nodes},
        {"min_workers", spec.minWorkers},
        {"max_workers", spec.maxWorkers},
        {"auth", QJsonObject{{"ssh_user", spec.sshUser},
                             {"ssh_private_key", machineFreePath(baseDir, spec.sshPrivateKey)},
                             {"ssh_port", spec.sshPort},
                             {"known_hosts", machineFreePath(baseDir, spec.knownHosts)}}},
        {"file_mounts", mounts},
        {"rsync_exclude", QJsonArray::fromStringList(spec.rsyncExclude)},
        {"initialization_commands", QJsonArray::fromStringList(spec.initializationCommands)},
        {"setup_commands", QJsonArray::fromStringList(spec.setupCommands)},
        {"worker_setup_commands", QJsonArray::fromStringList(spec.workerSetupCommands)},
        {"storage", spec.storage == ClusterStorage::Copy ? "copy" : "shared"},
        {"node_timeout_s", spec.nodeTimeoutS},
        {"remote_root", spec.remoteRoot},
    };
    if (spec.elastic()) {
        QJsonArray types;
        for (const ClusterNodeType& type : spec.nodeTypes) {
            const SlurmNodeConfig& slurm = type.slurm;
            if (spec.provider == ClusterProvider::Command) {
                QJsonObject config;
                for (auto it = type.nodeConfig.begin(); it != type.nodeConfig.end(); ++it) {
                    config.insert(it.key(), it.value());
                }
                types.append(QJsonObject{
                    {"name", type.name},
                    {"cpu", type.cpu},
                    {"gpu", type.gpu},
                    {"min_workers", type.minWorkers},
                    {"max_workers", type.maxWorkers},
                    {"at",
                     QStringLiteral("%1:%2").arg(type.location.line).arg(type.location.column)},
                    {"node_config", config},
                });
                continue;
            }
            types.append(QJsonObject{
                {"name", type.name},
                {"cpu", type.cpu},
                {"gpu", type.gpu},
                {"min_workers", type.minWorkers},
                {"max_workers", type.maxWorkers},
                {"at", QStringLiteral("%1:%2").arg(type.location.line).arg(type.location.column)},
                {"slurm",
                 QJsonObject{{"partition", slurm.partition},
                             {"cpus_per_task", slurm.cpusPerTask},
                             {"gpus", slurm.gpus},
                             {"mem", slurm.mem},
                             {"time", slurm.time},
                             {"account", slurm.account},
                             {"qos", slurm.qos},
                             {"srun_options", QJsonArray::fromStringList(slurm.srunOptions)}}},
            });
        }
        dump.insert("available_node_types", types);
        dump.insert("upscaling_speed", spec.upscalingSpeed);
        dump.insert("idle_timeout_s", spec.idleTimeoutS);
        if (spec.provider == ClusterProvider::Command) {
            // Each command as its parts: literal text as written, placeholders as {name}.
            const auto parts = [](const CommandTemplate& command) {
                QJsonArray out;
                for (const CommandTemplate::Part& part : command.parts) {
                    out.append(part.placeholder ? QStringLiteral("{%1}").arg(part.text)
                                                : part.text);
                }
                return out;
            };
            dump.insert("commands", QJsonObject{{"create", parts(spec.commands.create)},
                                                {"terminate", parts(spec.commands.terminate)},
                                                {"list", parts(spec.commands.list)},
                                                {"connect", parts(spec.commands.connect)},
                                                {"list_interval_s", spec.commands.listIntervalS}});
        } else {
            dump.insert("worker_path", spec.workerPath);
        }
    }
    return dump;
}

QString toGoldenText(const QJsonObject& object) {
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented));
}

}  // namespace tunedeck::testing
