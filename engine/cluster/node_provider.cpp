#include "cluster/node_provider.h"

namespace tunedeck {

std::optional<ProviderNode> StaticNodeProvider::createNode(const QString& type, QString* error) {
    (void)type;
    if (error) {
        *error = QStringLiteral("the cluster's nodes are a fixed list");
    }
    return std::nullopt;
}

std::vector<ProviderNode> StaticNodeProvider::listNodes() {
    std::vector<ProviderNode> nodes;
    for (const Entry& entry : entries_) {
        nodes.push_back(entry.node);
    }
    return nodes;
}

std::unique_ptr<NodeLink> StaticNodeProvider::openLink(const ProviderNode& node) {
    for (const Entry& entry : entries_) {
        if (entry.node.id == node.id) {
            return entry.makeLink();
        }
    }
    return nullptr;
}

}  // namespace tunedeck
