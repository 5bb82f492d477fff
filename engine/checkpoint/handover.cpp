#include "checkpoint/handover.h"

namespace tunedeck::checkpoint {

bool isSameOrInside(const std::string& inner, const std::string& outer) {
    if (outer == "/") {
        return !inner.empty() && inner.front() == '/';
    }
    return inner.size() >= outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
           (inner.size() == outer.size() || inner[outer.size()] == '/');
}

HandoverChoice chooseHandover(const std::string& folder, const HandoverPlaces& places,
                              bool isCheckpoint) {
    const auto refuse = [&](const ProtectedFolder& place) {
        const bool same = folder == place.path;
        return HandoverChoice{std::nullopt,
                              "refusing to take '" + folder + "' as a checkpoint: it " +
                                  (same ? "is " : "contains ") + place.what + " ('" + place.path +
                                  "'); write the checkpoint into a folder of its own (a "
                                  "subfolder of the trial directory, or tempfile.mkdtemp())"};
    };
    const ProtectedFolder trial{places.trialDir, "the trial's own directory"};
    if (!places.trialDir.empty() && isSameOrInside(places.trialDir, folder)) {
        return refuse(trial);
    }
    for (const ProtectedFolder& place : places.folders) {
        if (!place.path.empty() && isSameOrInside(place.path, folder)) {
            return refuse(place);
        }
    }
    const bool insideTrial = !places.trialDir.empty() && isSameOrInside(folder, places.trialDir);
    return {insideTrial && !isCheckpoint ? Handover::Move : Handover::Copy, {}};
}

}  // namespace tunedeck::checkpoint
