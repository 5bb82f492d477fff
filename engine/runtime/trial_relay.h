// The trials' side of the worker agents: what an agent relays about a trial (its lines, start,
// exit, a broken protocol, a committed checkpoint) becomes the experiment loop's typed input with
// the node's paths made this machine's, and the checkpoints that travel with it: one committed on
// a node without this machine's files is fetched here before the loop hears of it, and a trial
// restored on a node without its checkpoint gets it pushed there before its launch. It keeps
// which checkpoints each node holds a copy of (NodeCheckpoints).
// Not thread-safe: the runtime's event loop only.
#pragma once

#include <QString>
#include <functional>

#include "cluster/node_link.h"
#include "core/experiment_loop.h"
#include "runtime/node_checkpoints.h"
#include "runtime/trial_command.h"

namespace tunedeck {

class GangRanks;

class TrialRelay {
  public:
    // `linkOf` gives a node's link (null when it is not up); `elastic` says whether the cluster
    // is autoscaled (an exit there waits a moment for its node's loss).
    TrialRelay(ExperimentLoop& loop, std::function<NodeLink*(const QString&)> linkOf,
               std::function<bool()> elastic);

    // Needed once the gangs exist (they push checkpoints through this relay's copies).
    void attach(GangRanks* gangs) { gangs_ = gangs; }
    NodeCheckpoints& checkpoints() { return checkpoints_; }

    // An agent's message about one trial (rank 0 of a gang, or a trial of its own); ignored when
    // the trial is not, or no longer, on `nodeId`.
    void onTrialEvent(const QString& nodeId, const node::Event& event);
    // Sends the trial's launch to its node, its checkpoint copied there first when it lacks it.
    void launch(const QString& trialId, int attempt, TrialLaunch launch);
    void nodeLost(const QString& nodeId) { checkpoints_.nodeLost(nodeId); }
    // The link to the node a trial is placed on; null when it is not up (or not placed).
    NodeLink* linkOn(const Placement& placement) const;

  private:
    void onCommitted(const LoopTrial& live, const node::Committed& committed);
    void sendLaunch(const QString& trialId, int attempt, const TrialLaunch& launch);

    ExperimentLoop& loop_;
    std::function<NodeLink*(const QString&)> linkOf_;
    std::function<bool()> elastic_;
    NodeCheckpoints checkpoints_;
    GangRanks* gangs_ = nullptr;
};

}  // namespace tunedeck
