#include "runtime/node_plans.h"

#include <QFileInfo>

#include "cluster/cluster_launcher.h"
#include "cluster/ssh_node_link.h"

namespace tunedeck {

namespace {

NodePlan localPlan(const QString& workerPath, NodeResources overrides) {
    NodePlan plan;
    plan.id = QStringLiteral("local");
    plan.overrides = overrides;
    plan.makeLink = [workerPath] { return std::make_unique<LocalNodeLink>(workerPath); };
    return plan;
}

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
        options.headExperimentDir = context.experimentDir;
    }
    return options;
}

}  // namespace

std::vector<NodePlan> planNodes(const ExperimentSpec& spec, const NodePlanContext& context) {
    std::vector<NodePlan> plans;
    if (!spec.clusterSpec || spec.clusterSpec->provider == ClusterProvider::Local) {
        NodeResources overrides;
        if (spec.clusterSpec && !spec.clusterSpec->nodes.empty()) {
            overrides = spec.clusterSpec->nodes.front().resources;
        }
        plans.push_back(localPlan(context.workerPath, overrides));
        return plans;
    }
    const ClusterSpec& cluster = *spec.clusterSpec;
    for (const ClusterNodeSpec& node : cluster.nodes) {
        NodePlan plan;
        plan.id = node.name();
        plan.overrides = node.resources;
        SshNodeOptions options = sshOptions(spec, cluster, node, context);
        plan.makeLink = [options] { return std::make_unique<SshNodeLink>(options); };
        plans.push_back(std::move(plan));
    }
    return plans;
}

}  // namespace tunedeck
