// Every trial of a run as the experiment loop holds it, in creation order, found by id or by
// creation index in constant time, with the trials whose row changed since it was last saved
// kept aside, so that no event and no tick walks every trial. (Keyed by id in a std::map, a run
// paid a string-compared tree walk per lookup and a walk of every trial per tick.)
// Pure; not thread-safe (the loop's thread only).
#pragma once

#include <QHash>
#include <QString>
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "core/checkpoint_policy.h"
#include "core/gang_placement.h"
#include "core/placement.h"
#include "core/trial.h"
#include "core/trial_attempt.h"

namespace tunedeck {

// A trial as the loop holds it: the Trial value, its current attempt, where it runs and its
// committed checkpoints.
struct LoopTrial {
    Trial trial;
    TrialAttempt attempt;
    Placement placement;  // rank 0's for a gang
    GangPlacement gang;   // every rank's place, for a gang trial's running attempt
    std::vector<CheckpointRecord> checkpoints;
    std::map<std::int64_t, QString> checkpointPaths;
    double startedAt = 0;  // first start, seconds since the epoch
    double finishedAt = 0;
    double lastActivityAt = 0;  // its last line (or start): silence beyond the heartbeat is a hang
    double lastReportAt = 0;    // its last report (or start): the time of an iteration
    bool dirty = false;         // trial row changed since last saved (see TrialTable::markDirty)
    bool heldByUser = false;    // paused by the user: not started until resumed
    // A PBT exploit of this waiting trial waits for its source's checkpoint: not started until
    // the copy is made (core/exploit_copies.h).
    bool awaitsExploitCopy = false;
};

class TrialTable {
  public:
    using Trials = std::deque<LoopTrial>;  // references stay valid as trials are added

    // Adds a trial (its id and index set); the returned reference lives as long as the table.
    LoopTrial& add(LoopTrial live);

    LoopTrial* find(const QString& id);
    const LoopTrial* find(const QString& id) const;
    // The trial of creation `index`; it must exist.
    LoopTrial& byIndex(std::int64_t index);

    // The trial's row changed: remembered until takeDirty().
    void markDirty(LoopTrial& live);
    // The trials marked since the last call, in the order they were marked (each once), their
    // marks cleared. The caller saves them.
    std::vector<LoopTrial*> takeDirty();

    std::size_t size() const { return trials_.size(); }
    Trials::iterator begin() { return trials_.begin(); }
    Trials::iterator end() { return trials_.end(); }
    Trials::const_iterator begin() const { return trials_.begin(); }
    Trials::const_iterator end() const { return trials_.end(); }

  private:
    Trials trials_;
    QHash<QString, std::size_t> positionOfId_;
    std::vector<std::int64_t> dirty_;  // creation indexes
};

}  // namespace tunedeck
