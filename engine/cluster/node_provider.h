// Where an experiment's nodes come from (the Ray cluster launcher's NodeProvider): a fixed list
// (this machine, SSH hosts) or a resource manager that starts and stops nodes on request (Slurm).
// The runtime opens each node's agent link through its provider; the autoscaler
// (runtime/autoscaler_driver.h) creates and terminates the nodes of an elastic one.
// Thread-safety: a provider lives on the thread of the event loop that created it.
#pragma once

#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "cluster/node_link.h"
#include "core/cluster_spec.h"

namespace tunedeck {

// One node as its provider knows it.
struct ProviderNode {
    QString id;               // how the engine names the node: "local", "10.0.0.2", "slurm-3"
    QString type;             // its node type; empty for a node of a fixed list
    NodeResources resources;  // overrides of what its agent counts
};

class NodeProvider {
  public:
    virtual ~NodeProvider() = default;

    // Whether nodes can be created and terminated (the autoscaler drives the provider).
    virtual bool elastic() const = 0;
    // Starts one node of `type`; nothing, and `error` says why, when it cannot.
    virtual std::optional<ProviderNode> createNode(const QString& type, QString* error) = 0;
    // The provider's nodes as it sees them now (a fixed list; Slurm: this experiment's jobs in
    // squeue). Blocking for an elastic provider: for cleanups and checks, not the data path.
    virtual std::vector<ProviderNode> listNodes() = 0;
    // Gives a node back (for Slurm: scancel); its link, if open, ends on its own.
    virtual void terminateNode(const QString& id) = 0;
    // Called on the provider's thread once a node given back by terminateNode is gone: its
    // terminate command (scancel, the command provider's terminate) succeeded, or it never came
    // up. Not called when that command failed (the node may still run). Set by its user.
    std::function<void(const QString& id)> onTerminated;
    // The agent link of a node: opening it reaches (or, for Slurm, starts) the node's agent.
    virtual std::unique_ptr<NodeLink> openLink(const ProviderNode& node) = 0;
};

// A fixed list of nodes, each with the way to reach its agent: this machine, or SSH hosts.
class StaticNodeProvider : public NodeProvider {
  public:
    struct Entry {
        ProviderNode node;
        std::function<std::unique_ptr<NodeLink>()> makeLink;
    };
    explicit StaticNodeProvider(std::vector<Entry> entries) : entries_(std::move(entries)) {}

    bool elastic() const override { return false; }
    std::optional<ProviderNode> createNode(const QString& type, QString* error) override;
    std::vector<ProviderNode> listNodes() override;
    void terminateNode(const QString& id) override { (void)id; }
    std::unique_ptr<NodeLink> openLink(const ProviderNode& node) override;

  private:
    std::vector<Entry> entries_;
};

}  // namespace tunedeck
