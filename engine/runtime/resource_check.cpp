#include "runtime/resource_check.h"

#include <QProcess>
#include <vector>

#include "core/gang_placement.h"
#include "core/placement.h"
#include "runtime/node_pool.h"

namespace tunedeck {

namespace {

// Opening NVML can take a few seconds on a node whose driver is not kept loaded.
constexpr int kInventoryTimeoutMs = 30000;

// This machine's agent's hello, or nothing when it cannot be had.
std::optional<node::Hello> localInventory(const QString& workerPath) {
    QProcess agent;
    agent.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    agent.start(workerPath, {QStringLiteral("--inventory")});
    if (!agent.waitForFinished(kInventoryTimeoutMs) || agent.exitStatus() != QProcess::NormalExit ||
        agent.exitCode() != 0) {
        agent.kill();
        agent.waitForFinished(1000);
        return std::nullopt;
    }
    const node::Decoded<node::Event> event =
        node::decodeEvent(agent.readAllStandardOutput().trimmed().toStdString());
    if (const node::Hello* hello = event ? std::get_if<node::Hello>(&*event.value) : nullptr) {
        return *hello;
    }
    return std::nullopt;
}

}  // namespace

Status checkResourcesFit(const ExperimentSpec& spec, const QString& workerPath) {
    if (spec.clusterSpec && spec.clusterSpec->provider != ClusterProvider::Local) {
        return Status::ok();
    }
    const std::optional<node::Hello> hello = localInventory(workerPath);
    if (!hello) {
        return Status::ok();  // the run reports an agent that cannot start, in its own words
    }
    NodeResources overrides;
    if (spec.clusterSpec && !spec.clusterSpec->nodes.empty()) {
        overrides = spec.clusterSpec->nodes.front().resources;
    }
    // "local", as the run names this machine's node.
    const std::vector<NodeCapacity> nodes{
        nodeCapacityFromHello(QStringLiteral("local"), *hello, overrides)};
    const ResourceRequest& request = spec.resourcesPerTrial;
    const QString note = QString::fromStdString(hello->gpuNote);
    QString why;
    if (trialFitsEver(request, spec.gang, nodes, &why)) {
        return Status::ok();
    }
    if (request.gpu > 0 && !note.isEmpty()) {
        why += QStringLiteral(" (local: %1)").arg(note);
    }
    return Status::invalid(
        QStringLiteral("%1: resources_per_trial: %2")
            .arg(spec.locationOf(QStringLiteral("resources_per_trial")).toString(), why));
}

std::optional<NodeCapacity> localNodeCapacity(const QString& workerPath) {
    const std::optional<node::Hello> hello = localInventory(workerPath);
    if (!hello) {
        return std::nullopt;
    }
    return nodeCapacityFromHello(QStringLiteral("local"), *hello, NodeResources{});
}

}  // namespace tunedeck
