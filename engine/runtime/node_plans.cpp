#include "runtime/node_plans.h"

#include <QFileInfo>

#include "cluster/cluster_launcher.h"
#include "cluster/command_provider.h"
#include "cluster/slurm_provider.h"
#include "cluster/ssh_node_link.h"

namespace tunedeck {

namespace {

SshNodeOptions sshOptions(const ExperimentSpec& spec, const ClusterSpec& cluster,
                          const ClusterNodeSpec& node, const NodePlanContext& context) {
    SshNodeOptions options;
    options.nodeId = node.name();
    options.endpoint = ClusterLauncher::endpointOf(cluster, node, context.acceptNewHostKeys);
    options.nodeRoot = ClusterLauncher::nodeRoot(cluster, node);
    options.mirrors.push_back(
        {context.workerPath, QStringLiteral("bin/tunedeck-worker"), {}, false});
    if (!context.pythonSdkDir.isEmpty() && QFileInfo(context.pythonSdkDir).isDir()) {
        options.mirrors.push_back({context.pythonSdkDir, QStringLiteral("python"), {}, true});
    }
    if (cluster.storage == ClusterStorage::Copy) {
        const QString experimentName = QFileInfo(context.experimentDir).fileName();
        // The trainable's folder travels as Ray's runtime_env working_dir does; the results
        // root is left out when it lies inside it.
        QStringList exclude = cluster.rsyncExclude;
        const QString resultsRoot = QFileInfo(context.experimentDir).absolutePath();
        const QString workingDir = spec.trainable.workingDir;
        if (resultsRoot.startsWith(workingDir + QLatin1Char('/'))) {
            exclude << resultsRoot.mid(workingDir.size() + 1);
        }
        options.mirrors.push_back(
            {workingDir, QStringLiteral("experiments/%1/code").arg(experimentName), exclude, true});
        for (qsizetype i = 0; i < spec.trainable.files.size(); ++i) {
            const QString& file = spec.trainable.files.at(i);
            options.mirrors.push_back({file,
                                       QStringLiteral("experiments/%1/files/%2-%3")
                                           .arg(experimentName)
                                           .arg(i)
                                           .arg(QFileInfo(file).fileName()),
                                       {},
                                       true});
        }
        options.headExperimentDir = context.experimentDir;
    }
    return options;
}

}  // namespace

std::unique_ptr<NodeProvider> makeNodeProvider(const ExperimentSpec& spec,
                                               const NodePlanContext& context) {
    std::vector<StaticNodeProvider::Entry> entries;
    if (!spec.clusterSpec || spec.clusterSpec->provider == ClusterProvider::Local) {
        NodeResources overrides;
        if (spec.clusterSpec && !spec.clusterSpec->nodes.empty()) {
            overrides = spec.clusterSpec->nodes.front().resources;
        }
        const QString workerPath = context.workerPath;
        entries.push_back({{QStringLiteral("local"), QString(), overrides},
                           [workerPath] { return std::make_unique<LocalNodeLink>(workerPath); }});
        return std::make_unique<StaticNodeProvider>(std::move(entries));
    }
    const ClusterSpec& cluster = *spec.clusterSpec;
    if (cluster.provider == ClusterProvider::Slurm) {
        return std::make_unique<SlurmNodeProvider>(
            cluster, SlurmNodeProvider::uniqueJobPrefix(
                         cluster.clusterName, QFileInfo(context.experimentDir).fileName()));
    }
    if (cluster.provider == ClusterProvider::Command) {
        return std::make_unique<CommandNodeProvider>(
            cluster, context.workerPath,
            CommandNodeProvider::uniqueNamePrefix(cluster.clusterName));
    }
    for (const ClusterNodeSpec& node : cluster.nodes) {
        SshNodeOptions options = sshOptions(spec, cluster, node, context);
        entries.push_back({{node.name(), QString(), node.resources},
                           [options] { return std::make_unique<SshNodeLink>(options); }});
    }
    return std::make_unique<StaticNodeProvider>(std::move(entries));
}

NodePlan planNode(NodeProvider& provider, const ProviderNode& node) {
    NodePlan plan;
    plan.id = node.id;
    plan.overrides = node.resources;
    plan.reopenAfterLoss = !provider.elastic();
    plan.makeLink = [&provider, node] { return provider.openLink(node); };
    return plan;
}

}  // namespace tunedeck
