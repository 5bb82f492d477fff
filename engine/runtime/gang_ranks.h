// Gang trials (resources_per_trial.workers > 1): the
// trial's own process is rank 0, started, answered and ended as any trial; ranks 1.. are
// processes beside it (RUNTIME.md, "Gang trials"). All are placed at once (core/gang_placement.h)
// and booked together; rank 0's node picks a free MASTER_PORT when it starts it, and the other
// ranks start with it, each with the environment torchrun would give it. Any rank's failure is
// the trial's: rank 0 is killed with the rank's reason, and the attempt ends as a failure (a
// node lost, as a node loss). When rank 0 ends, for any reason, the other ranks are stopped; a
// rank's place is given back when its own exit arrives, so no next trial lands on a card a
// dying rank still holds.
// Not thread-safe: the runtime's event loop only.
#pragma once

#include <QJsonObject>
#include <QString>
#include <map>

#include "cluster/node_link.h"
#include "core/experiment_loop.h"
#include "core/experiment_spec.h"
#include "core/gang_placement.h"
#include "runtime/node_checkpoints.h"
#include "runtime/node_pool.h"
#include "runtime/trial_command.h"

namespace tunedeck {

class GangRanks {
  public:
    GangRanks(const ExperimentSpec& spec, ExperimentLoop& loop, NodeCheckpoints& checkpoints);
    // The nodes, once they are opened.
    void attach(NodePool* pool) { pool_ = pool; }

    // Books ranks 1.. of the attempt and keeps their launch; `launch` becomes rank 0's, with the
    // gang's environment.
    void book(const QString& trialId, int attempt, const GangPlacement& gang, TrialLaunch& launch);
    // Rank 0 started (its node picked MASTER_PORT): the other ranks start, each once rank 0's
    // checkpoint is on its node.
    void start(const LoopTrial& live, const node::Started& started);
    // Rank 0 ended: the other ranks are stopped; their places return with their exits.
    void stop(const QString& trialId, const QString& reason);
    // An event of a rank other than 0; false when `event` is not one.
    bool onMessage(const QString& nodeId, const node::Event& event);
    void nodeLost(const QString& nodeId, const QString& reason);
    // A usage sample with each rank's own id replaced by its trial's (and `rank` beside it).
    node::Usage withRanksNamed(node::Usage usage) const;
    // Tells the scheduler how many ranks the nodes up hold, when that changed (resource_changing).
    void tellWorkerSlots();
    // The address a rank's node must reach the gang through (its agent then picks the interface
    // gloo and NCCL use): rank 0's node for the others, another rank's node for rank 0; empty on
    // one node.
    QString peerAddress(const GangPlacement& gang, int rank) const;
    // CUDA_VISIBLE_DEVICES of a process placed there: the UUIDs of its cards.
    QString cudaDevicesOf(const Placement& placement) const;

  private:
    // A rank other than 0: a process of its own on its node, started after rank 0 and stopped
    // with it; its place is held until it has exited.
    struct Member {
        QString trialId;
        int attempt = 0;
        int rank = 0;
        Placement placement;
        bool started = false;
    };

    // Starts rank `id` on its node, once rank 0's checkpoint is there.
    void startRank(const QString& checkpoint, const QString& id, TrialLaunch launch,
                   const QString& peer);
    // A node's address as the other nodes reach it (an SSH node's host).
    QString nodeAddress(const QString& nodeId) const;
    QString masterAddress(const GangPlacement& gang) const;

    const ExperimentSpec& spec_;
    ExperimentLoop& loop_;
    NodeCheckpoints& checkpoints_;
    NodePool* pool_ = nullptr;
    std::map<QString, Member> members_;        // by the id their node knows them by
    std::map<QString, TrialLaunch> launches_;  // by trial id: what ranks 1.. start with
    int workerSlotsTold_ = -1;
};

}  // namespace tunedeck
