#include "runtime/node_pool.h"

#include <algorithm>

namespace tunedeck {

namespace {

// A lost node is tried again after 1 s, then 2, 4, 8 and every 10 s: a preempted machine that
// comes back within minutes is re-admitted without flooding its sshd.
constexpr int kFirstRetryMs = 1000;
constexpr int kLongestRetryMs = 10000;

int retryDelayMs(int failuresInARow) {
    const int doublings = std::clamp(failuresInARow - 1, 0, 4);
    return std::min(kFirstRetryMs << doublings, kLongestRetryMs);
}

}  // namespace

NodeCapacity nodeCapacityFromHello(const QString& nodeId, const node::Hello& hello,
                                   const NodeResources& overrides) {
    NodeCapacity node;
    node.nodeId = nodeId;
    node.cpuTotalMilli = toMilli(overrides.cpu.value_or(double(hello.cpus)));
    std::size_t offered = hello.gpus.size();
    if (overrides.gpu) {
        offered = std::min(offered, std::size_t(std::max(0, int(*overrides.gpu))));
    }
    for (std::size_t i = 0; i < offered; ++i) {
        const node::HelloGpu& gpu = hello.gpus[i];
        node.gpuUsedMilli.push_back(0);
        node.gpuIds.push_back(QString::fromStdString(gpu.uuid));
        node.gpuMemoryTotalMb.push_back(gpu.memoryMb);
    }
    return node;
}

NodePool::NodePool(std::vector<NodePlan> plans, double nodeTimeoutS, QObject* parent)
    : QObject(parent), nodeTimeoutS_(nodeTimeoutS) {
    for (NodePlan& plan : plans) {
        adopt(std::move(plan));
    }
}

NodePool::Node& NodePool::adopt(NodePlan plan) {
    auto node = std::make_unique<Node>();
    node->plan = std::move(plan);
    node->retry.setSingleShot(true);
    Node* raw = node.get();
    connect(&node->retry, &QTimer::timeout, this, [this, raw] {
        if (!shuttingDown_) {
            openNode(*raw);
        }
    });
    nodes_.push_back(std::move(node));
    return *raw;
}

void NodePool::addNode(NodePlan plan) {
    Node& node = adopt(std::move(plan));
    if (!shuttingDown_) {
        openNode(node);
    }
}

void NodePool::removeNode(const QString& nodeId) {
    for (auto& node : nodes_) {
        if (node->plan.id != nodeId) {
            continue;
        }
        node->retry.stop();
        std::erase_if(capacities_, [&](const NodeCapacity& c) { return c.nodeId == nodeId; });
        if (node->link) {
            // The agent exits once its stdin closes; the link goes when its stream has ended.
            NodeLink* link = node->link.release();
            link->disconnect(this);
            connect(link, &NodeLink::closed, link, &QObject::deleteLater);
            link->shutdown();
            if (!link->isOpen()) {
                link->deleteLater();
            }
        }
        break;
    }
    forget(nodeId);
}

void NodePool::forget(const QString& nodeId) {
    for (auto it = nodes_.begin(); it != nodes_.end(); ++it) {
        if ((*it)->plan.id == nodeId) {
            dropLink(**it);
            // The node may be inside one of its own timers' or link's signals.
            Node* node = it->release();
            nodes_.erase(it);
            node->retry.stop();
            QMetaObject::invokeMethod(
                this, [node] { delete node; }, Qt::QueuedConnection);
            return;
        }
    }
}

bool NodePool::contains(const QString& nodeId) const {
    return std::any_of(nodes_.begin(), nodes_.end(),
                       [&](const auto& n) { return n->plan.id == nodeId; });
}

bool NodePool::isReady(const QString& nodeId) const {
    return std::any_of(nodes_.begin(), nodes_.end(),
                       [&](const auto& n) { return n->plan.id == nodeId && n->ready; });
}

NodePool::~NodePool() {
    for (auto& node : nodes_) {
        if (node->link) {
            node->link->disconnect(this);
        }
    }
}

void NodePool::open() {
    for (auto& node : nodes_) {
        openNode(*node);
    }
}

void NodePool::openNode(Node& node) {
    dropLink(node);
    node.problem = tr("connecting");
    node.link = node.plan.makeLink();
    NodeLink* link = node.link.get();
    connect(link, &NodeLink::messageReceived, this, [this, &node](const node::Event& event) {
        node.silence.start();
        if (std::holds_alternative<node::Heartbeat>(event)) {
            return;
        }
        if (const auto* hello = std::get_if<node::Hello>(&event)) {
            onHello(node, *hello);
            return;
        }
        if (node.ready) {
            emit this->message(node.plan.id, event);
        }
    });
    connect(link, &NodeLink::closed, this,
            [this, &node](const QString& reason) { onClosed(node, reason); });
    node.silence.start();
    link->open();
}

void NodePool::onHello(Node& node, const node::Hello& hello) {
    node.ready = true;
    node.heardFrom = true;
    node.failuresInARow = 0;
    node.problem.clear();
    std::erase_if(capacities_, [&](const NodeCapacity& c) { return c.nodeId == node.plan.id; });
    capacities_.push_back(nodeCapacityFromHello(node.plan.id, hello, node.plan.overrides));
    emit nodeUp(node.plan.id, hello);
}

void NodePool::onClosed(Node& node, const QString& reason) {
    const bool wasReady = node.ready;
    node.ready = false;
    node.heardFrom = true;
    ++node.failuresInARow;
    node.problem = wasReady ? tr("lost: %1").arg(reason) : reason;
    dropLink(node);
    // Gone from placement before anyone hears of the loss: trials sent back to PENDING by the
    // loss must not be placed on this node again.
    std::erase_if(capacities_, [&](const NodeCapacity& c) { return c.nodeId == node.plan.id; });
    if (wasReady) {
        emit nodeLost(node.plan.id, reason);
    } else {
        emit nodeUnreachable(node.plan.id, reason);
    }
    if (!node.plan.reopenAfterLoss) {
        const QString id = node.plan.id;
        forget(id);
        emit nodeGone(id, reason);
        return;
    }
    if (!shuttingDown_) {
        node.retry.start(retryDelayMs(node.failuresInARow));
    }
}

void NodePool::dropLink(Node& node) {
    if (!node.link) {
        return;
    }
    node.link->disconnect(this);
    // The link may be inside one of its own signals: it goes once that returns.
    NodeLink* link = node.link.release();
    link->abort();
    link->deleteLater();
}

NodeLink* NodePool::link(const QString& nodeId) const {
    for (const auto& node : nodes_) {
        if (node->plan.id == nodeId) {
            return node->ready ? node->link.get() : nullptr;
        }
    }
    return nullptr;
}

bool NodePool::anyReady() const {
    return std::any_of(nodes_.begin(), nodes_.end(), [](const auto& n) { return n->ready; });
}

bool NodePool::allHeardFrom() const {
    return std::all_of(nodes_.begin(), nodes_.end(), [](const auto& n) { return n->heardFrom; });
}

QString NodePool::describeUnavailable() const {
    QStringList parts;
    for (const auto& node : nodes_) {
        if (!node->ready) {
            parts << QStringLiteral("%1 (%2)").arg(node->plan.id, node->problem);
        }
    }
    return parts.join(QStringLiteral("; "));
}

void NodePool::checkLiveness() {
    std::vector<Node*> silent;  // onClosed may forget a node: not while iterating nodes_
    for (auto& node : nodes_) {
        if (node->ready && node->silence.elapsed() > nodeTimeoutS_ * 1000) {
            silent.push_back(node.get());
        }
    }
    for (Node* node : silent) {
        onClosed(
            *node,
            tr("no heartbeat from its worker agent for %1 s (node_timeout_s)").arg(nodeTimeoutS_));
    }
}

void NodePool::shutdown() {
    shuttingDown_ = true;
    for (auto& node : nodes_) {
        node->retry.stop();
        if (node->link) {
            node->link->shutdown();
        }
    }
}

void NodePool::abort() {
    shuttingDown_ = true;
    for (auto& node : nodes_) {
        node->retry.stop();
        if (node->link) {
            node->link->disconnect(this);
            node->link->abort();
        }
    }
}

}  // namespace tunedeck
