// Which folders a trial may hand over as a checkpoint, and whether the engine may move one or must
// copy it. The rule: the engine never moves or deletes a folder it did not create. A folder inside
// the trial's own directory may be moved (the trial directory is the engine's); any other folder
// is copied and left as it was; a folder that is, or contains, the trial directory, the working
// directory, the experiment folder or the results root is refused, because taking it would take
// the user's project or the run's own history with it (`checkpoint="."` once did).
// Pure functions over resolved paths (realpath's, no "..", no links); thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tunedeck::checkpoint {

enum class Handover { Move, Copy };

struct ProtectedFolder {
    std::string path;  // resolved
    std::string what;  // in the user's words: "the experiment folder"
};

struct HandoverPlaces {
    std::string trialDir;                  // resolved; folders strictly inside may be moved
    std::vector<ProtectedFolder> folders;  // never taken: neither these nor what contains them
};

struct HandoverChoice {
    std::optional<Handover> how;  // empty: refused
    std::string refusal;          // why, when refused
};

// `folder` is resolved; `isCheckpoint` says it already holds a checkpoint manifest (a folder of
// the engine's store, such as the one get_checkpoint() returned), which is copied, never moved.
HandoverChoice chooseHandover(const std::string& folder, const HandoverPlaces& places,
                              bool isCheckpoint);

// Whether `inner` is `outer` or lies below it (both resolved).
bool isSameOrInside(const std::string& inner, const std::string& outer);

}  // namespace tunedeck::checkpoint
