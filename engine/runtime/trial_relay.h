// The trials' side of the worker agents: what an agent relays about a trial (its lines, start,
// exit, a broken protocol, a committed checkpoint) becomes the experiment loop's typed input with
// the node's paths made this machine's, and the checkpoints that travel with it: one committed on
// a node without this machine's files is fetched here before the loop hears of it, and a trial
// restored on a node without its checkpoint gets it pushed there before its launch. It keeps
// which checkpoints each node holds a copy of (NodeCheckpoints). When an attempt on such a node
// ends, what the trial left in its folder there (trial.log, files it wrote) is brought into its
// folder here before the loop hears of the exit, as Ray syncs a trial's folder to the head.
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
    // is autoscaled (an exit there waits a moment for its node's loss). `foldersBackTo` is the
    // experiment folder whose trial folders receive what their trials left on nodes without this
    // machine's files; empty leaves it there (an engine acting for another user writes nothing
    // into that user's folders as itself).
    TrialRelay(ExperimentLoop& loop, std::function<NodeLink*(const QString&)> linkOf,
               std::function<bool()> elastic, QString foldersBackTo);

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
    void onExited(const LoopTrial& live, const node::Exited& exited);
    void sendLaunch(const QString& trialId, int attempt, const TrialLaunch& launch);

    ExperimentLoop& loop_;
    std::function<NodeLink*(const QString&)> linkOf_;
    std::function<bool()> elastic_;
    QString foldersBackTo_;
    NodeCheckpoints checkpoints_;
    GangRanks* gangs_ = nullptr;
};

}  // namespace tunedeck
