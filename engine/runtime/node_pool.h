// The experiment's nodes: one link per node, opened at start, declared lost when its stream ends
// or its agent is silent for node_timeout_s, and opened again on its own after a loss (a node
// that comes back is re-admitted). Each ready node's capacity is what its agent counted, with
// the cluster file's overrides applied. Thread-safety: lives on its event loop's thread.
#pragma once

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QTimer>
#include <functional>
#include <memory>
#include <vector>

#include "cluster/node_link.h"
#include "core/cluster_spec.h"
#include "core/placement.h"

namespace tunedeck {

// One node the experiment may use, and how to reach it.
struct NodePlan {
    QString id;
    std::function<std::unique_ptr<NodeLink>()> makeLink;
    NodeResources overrides;
    // A machine of a fixed list is tried again after a loss; an allocation that ended (Slurm) is
    // gone: the pool forgets it (nodeGone) and the autoscaler starts another when trials wait.
    bool reopenAfterLoss = true;
};

// What a node offers, from its agent's hello with the cluster file's overrides applied (the first
// `gpu` cards of those the agent lists).
NodeCapacity nodeCapacityFromHello(const QString& nodeId, const node::Hello& hello,
                                   const NodeResources& overrides);

class NodePool : public QObject {
    Q_OBJECT
  public:
    NodePool(std::vector<NodePlan> plans, double nodeTimeoutS, QObject* parent = nullptr);
    ~NodePool() override;

    void open();
    // A node started while the experiment runs (the autoscaler's); opened at once.
    void addNode(NodePlan plan);
    // Lets a node go: its agent is asked to exit and the node is forgotten without a loss
    // (the autoscaler terminates only nodes without trials).
    void removeNode(const QString& nodeId);
    bool contains(const QString& nodeId) const;
    bool isReady(const QString& nodeId) const;
    // The link of a ready node, else null (the node is connecting, or lost).
    NodeLink* link(const QString& nodeId) const;
    bool anyReady() const;
    // Whether every node has either said hello or failed once: until then, a request that fits
    // no ready node may still fit one that is connecting.
    bool allHeardFrom() const;
    // Ready nodes only.
    std::vector<NodeCapacity>& capacities() { return capacities_; }
    const std::vector<NodeCapacity>& capacities() const { return capacities_; }
    // Nodes not ready, with why: "lab2 (lost: no heartbeat for 15 s)", for waiting trials.
    QString describeUnavailable() const;
    // Called about once a second: a ready node silent for node_timeout_s is declared lost.
    void checkLiveness();
    // The experiment ends: agents stop their trials and exit; nothing is reopened.
    void shutdown();
    // Ends every link now, without waiting for trials.
    void abort();

  signals:
    void nodeUp(const QString& nodeId, const tunedeck::node::Hello& hello);
    // The node's trials are gone (its agent kills them when its stream ends).
    void nodeLost(const QString& nodeId, const QString& reason);
    void message(const QString& nodeId, const tunedeck::node::Event& event);
    // An attempt to open a node failed before its agent said hello (it is tried again later).
    void nodeUnreachable(const QString& nodeId, const QString& reason);
    // A node that is not reopened ended (after nodeLost when it was ready); it is forgotten.
    void nodeGone(const QString& nodeId, const QString& reason);

  private:
    struct Node {
        NodePlan plan;
        std::unique_ptr<NodeLink> link;
        bool ready = false;
        bool heardFrom = false;
        int failuresInARow = 0;
        QString problem;  // why it is not ready
        QElapsedTimer silence;
        QTimer retry;
    };

    // A node of `plan` in the pool, not opened yet; its retry timer opens it again.
    Node& adopt(NodePlan plan);
    void openNode(Node& node);
    void onHello(Node& node, const node::Hello& hello);
    void onClosed(Node& node, const QString& reason);
    void dropLink(Node& node);
    void forget(const QString& nodeId);

    std::vector<std::unique_ptr<Node>> nodes_;
    std::vector<NodeCapacity> capacities_;
    double nodeTimeoutS_;
    bool shuttingDown_ = false;
};

}  // namespace tunedeck
