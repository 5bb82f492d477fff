// The Slurm node provider: each node is one allocation, started as
// `srun --job-name=PREFIX.slurm-N --nodes=1 --ntasks=1 --cpus-per-task=... tunedeck-worker`, and
// the agent's link is srun's stdin and stdout (srun forwards both), so nothing listens on a port
// and no SSH reaches the compute nodes. srun waits in the queue until Slurm grants the
// allocation; when the allocation ends (scancel, its time limit, preemption, a failed node) srun
// exits and the link closes: node loss. Jobs are found again by their name prefix, unique per
// engine and experiment (squeue --name), and given back with scancel; `cluster down` finds a
// cluster's jobs by their comment, which names the cluster exactly.
// Thread-safety: lives on the thread of the event loop that created it.
#pragma once

#include <QStringList>
#include <map>

#include "cluster/node_provider.h"

namespace tunedeck {

// The words after `srun` that start one node of `type` under `jobName` (exposed for tests); the
// job's comment is slurmClusterComment(clusterName), which `cluster down` matches exactly.
QStringList srunArguments(const ClusterNodeType& type, const QString& jobName,
                          const QString& workerPath, const QString& clusterName);
QString slurmClusterComment(const QString& clusterName);

class SlurmNodeProvider : public NodeProvider {
  public:
    // `jobPrefix` names this engine's jobs; nodes are "slurm-1", "slurm-2", ... in order.
    SlurmNodeProvider(ClusterSpec cluster, QString jobPrefix);
    ~SlurmNodeProvider() override;

    bool elastic() const override { return true; }
    std::optional<ProviderNode> createNode(const QString& type, QString* error) override;
    std::vector<ProviderNode> listNodes() override;
    void terminateNode(const QString& id) override;
    std::unique_ptr<NodeLink> openLink(const ProviderNode& node) override;

    // Every job of this engine still known to Slurm is cancelled (the experiment ended).
    void terminateAll();
    QString jobName(const QString& nodeId) const;
    // A job prefix unique to this engine: "tunedeck-CLUSTER-EXPERIMENT-XXXXXX".
    static QString uniqueJobPrefix(const QString& clusterName, const QString& experimentName);
    // `cluster down`: cancels every job in squeue named as a node of a run ("tunedeck-...") whose
    // comment names exactly `clusterName`, whichever engine started it; `cancelled` gets their
    // names.
    // False, and `failure` says why, when squeue or scancel failed. Blocking.
    static bool cancelClusterJobs(const QString& clusterName, QStringList* cancelled,
                                  QString* failure);

  private:
    ClusterSpec cluster_;
    QString jobPrefix_;
    int nextNode_ = 1;
    std::map<QString, QString> typeOf_;  // node id -> its type
};

}  // namespace tunedeck
