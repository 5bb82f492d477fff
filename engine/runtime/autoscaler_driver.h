// Carries out the autoscaler's policy (core/autoscaler.h) for an elastic provider (Slurm): once a
// second, and soon after the demand changed, it gives planScaling the waiting trials and the
// nodes as they are, then creates nodes (added to the NodePool, whose links start them) and
// terminates idle ones. Every decision is recorded through `record` (an event in the history and
// a line on the console): "launching 2 x cpu-node for t00012..t00015", "terminating slurm-3:
// idle for 60 s". A node that fails to start is retried with a growing delay.
// Thread-safety: lives on the runtime's event loop thread.
#pragma once

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QTimer>
#include <functional>
#include <map>
#include <vector>

#include "cluster/node_provider.h"
#include "core/autoscaler.h"
#include "core/status.h"
#include "runtime/node_pool.h"

namespace tunedeck {

class AutoscalerDriver : public QObject {
    Q_OBJECT
  public:
    struct Hooks {
        // The trials that wait for a node now, and those the searcher will add (RUNTIME.md).
        std::function<std::vector<WaitingTrial>()> demand;
        // One decision: `message` for the console, `details` for the event.
        std::function<void(const QString& nodeId, const QString& state, const QString& message,
                           const QJsonObject& details)>
            record;
        // A trial no node type can hold: the run cannot go on.
        std::function<void(const ScalingPlan::Infeasible& infeasible)> infeasible;
    };

    AutoscalerDriver(AutoscalerSpec spec, NodeProvider& provider, NodePool& pool, Hooks hooks,
                     QObject* parent = nullptr);
    ~AutoscalerDriver() override;

    void start();
    // The waiting trials changed: a step on the next pass of the event loop.
    void demandChanged();
    // The experiment ended: every node is given back, and no more are started.
    void shutdown();
    // A new max_workers for node type `type` while the run goes on (the control API): recorded
    // as a `node` event (state `max_workers`) and a console line. Nodes above a lowered cap are
    // not stopped; they go when idle, and none is launched while the type is at its cap.
    Status setMaxWorkers(const QString& type, int maxWorkers);

  private:
    struct Managed {
        ProviderNode node;
        ScaledNode::State state = ScaledNode::State::Launching;
        double launchedAtS = 0;
        double idleSinceS = -1;  // ready and empty since then; -1 while busy
    };

    void step();
    double nowS() const;
    std::vector<ScaledNode> scaledNodes();
    void launch(const ScalingPlan::Launch& launch);
    void terminate(const ScalingPlan::Termination& termination);
    void onNodeUp(const QString& nodeId);
    void onNodeGone(const QString& nodeId, const QString& reason);
    // The provider says a node this driver terminated is gone: a `terminated` event.
    void onNodeTerminated(const QString& nodeId);

    AutoscalerSpec spec_;
    NodeProvider& provider_;
    NodePool& pool_;
    Hooks hooks_;
    std::map<QString, Managed> nodes_;
    std::map<QString, QString> terminating_;  // node -> its type, until the provider says gone
    QTimer timer_;
    QElapsedTimer clock_;
    bool stepQueued_ = false;
    bool stopped_ = false;
    bool infeasibleReported_ = false;
    int failedStartsInARow_ = 0;
    double noLaunchBeforeS_ = 0;  // after failed starts
};

}  // namespace tunedeck
