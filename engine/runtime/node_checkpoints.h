// Which checkpoints the nodes without this machine's files hold a copy of (this machine's paths),
// and the copy that puts one there before a trial restores from it: a trial restored on such a
// node, and every rank of a gang, gets the checkpoint pushed first (SFTP, written under a staging
// name and renamed). Nodes that share the files need none of it. A node's copies are forgotten
// when it is lost. Not thread-safe: the runtime's event loop only.
#pragma once

#include <QString>
#include <functional>
#include <map>
#include <set>

#include "cluster/node_link.h"

namespace tunedeck {

class NodeCheckpoints {
  public:
    // `linkOf` gives a node's link (null when it is not up).
    explicit NodeCheckpoints(std::function<NodeLink*(const QString&)> linkOf);

    // Whether a process on `nodeId` restoring from `checkpoint` needs it copied there first.
    bool missingOn(const QString& nodeId, const QString& checkpoint) const;
    // Copies it there; `done` runs when the copy ends, the checkpoint remembered as on the node
    // when it succeeded.
    void push(const QString& nodeId, const QString& checkpoint, NodeFiles::Done done);
    // The node has this checkpoint (fetched from it); forget: no longer (true when it had).
    void held(const QString& nodeId, const QString& checkpoint);
    bool forget(const QString& nodeId, const QString& checkpoint);
    void nodeLost(const QString& nodeId);

  private:
    std::function<NodeLink*(const QString&)> linkOf_;
    std::map<QString, std::set<QString>> held_;
};

}  // namespace tunedeck
