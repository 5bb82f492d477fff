#include "runtime/node_checkpoints.h"

namespace tunedeck {

NodeCheckpoints::NodeCheckpoints(std::function<NodeLink*(const QString&)> linkOf)
    : linkOf_(std::move(linkOf)) {}

bool NodeCheckpoints::missingOn(const QString& nodeId, const QString& checkpoint) const {
    NodeLink* link = linkOf_(nodeId);
    if (link == nullptr || link->files() == nullptr || checkpoint.isEmpty()) {
        return false;
    }
    const auto node = held_.find(nodeId);
    return node == held_.end() || node->second.count(checkpoint) == 0;
}

void NodeCheckpoints::push(const QString& nodeId, const QString& checkpoint, NodeFiles::Done done) {
    NodeLink* link = linkOf_(nodeId);
    if (link == nullptr || link->files() == nullptr) {
        done(false, QStringLiteral("node %1 is not up").arg(nodeId));
        return;
    }
    link->files()->pushFolder(
        checkpoint, link->paths().toNode(checkpoint),
        [this, nodeId, checkpoint, done = std::move(done)](bool ok, const QString& error) {
            if (ok) {
                held_[nodeId].insert(checkpoint);
            }
            done(ok, error);
        });
}

void NodeCheckpoints::held(const QString& nodeId, const QString& checkpoint) {
    held_[nodeId].insert(checkpoint);
}

bool NodeCheckpoints::forget(const QString& nodeId, const QString& checkpoint) {
    const auto node = held_.find(nodeId);
    return node != held_.end() && node->second.erase(checkpoint) != 0;
}

void NodeCheckpoints::nodeLost(const QString& nodeId) {
    held_.erase(nodeId);
}

}  // namespace tunedeck
