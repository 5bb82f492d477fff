#include "core/trial_table.h"

namespace tunedeck {

LoopTrial& TrialTable::add(LoopTrial live) {
    const std::size_t position = trials_.size();
    positionOfId_.insert(live.trial.id, position);
    trials_.push_back(std::move(live));
    LoopTrial& added = trials_.back();
    if (added.dirty) {
        added.dirty = false;
        markDirty(added);
    }
    return added;
}

LoopTrial* TrialTable::find(const QString& id) {
    const auto it = positionOfId_.constFind(id);
    return it == positionOfId_.constEnd() ? nullptr : &trials_[*it];
}

const LoopTrial* TrialTable::find(const QString& id) const {
    const auto it = positionOfId_.constFind(id);
    return it == positionOfId_.constEnd() ? nullptr : &trials_[*it];
}

LoopTrial& TrialTable::byIndex(std::int64_t index) {
    // Trials are created with consecutive indexes, so the position is the index; a history
    // with gaps (trials removed by hand) falls back to the id.
    if (index >= 0 && std::size_t(index) < trials_.size() &&
        trials_[std::size_t(index)].trial.index == index) {
        return trials_[std::size_t(index)];
    }
    return trials_.at(positionOfId_.value(trialIdForIndex(index), trials_.size()));
}

void TrialTable::markDirty(LoopTrial& live) {
    if (!live.dirty) {
        live.dirty = true;
        dirty_.push_back(live.trial.index);
    }
}

std::vector<LoopTrial*> TrialTable::takeDirty() {
    std::vector<LoopTrial*> marked;
    marked.reserve(dirty_.size());
    for (const std::int64_t index : dirty_) {
        LoopTrial& live = byIndex(index);
        if (live.dirty) {
            live.dirty = false;
            marked.push_back(&live);
        }
    }
    dirty_.clear();
    return marked;
}

}  // namespace tunedeck
