// The durable file moves behind `commit_checkpoint` and `delete_checkpoint`: a checkpoint folder
// becomes visible under its final name only once every byte of it, and its manifest, is on disk.
// Plain blocking functions over the file system; run them off the event loop (CheckpointMover).
#pragma once

#include <string>

namespace tunedeck::worker {

inline constexpr const char* kManifestName = ".tunedeck_checkpoint.json";

struct FileOutcome {
    bool ok = true;
    std::string error;  // what failed and the system's reason (strerror), when !ok
};

// Writes `manifestJson` as from/.tunedeck_checkpoint.json, fsyncs every file and folder inside
// `from`, renames `from` to `to` (across file systems: copies to `to`.tmp, fsyncs, renames,
// removes `from`) and fsyncs the parent of `to`. On failure `from` and `to`.tmp are removed and
// a `to` that existed before is left alone.
FileOutcome commitCheckpoint(const std::string& from, const std::string& to,
                             const std::string& manifestJson);

// Removes the folder `path` if it is a checkpoint (holds the manifest) or a leftover (its name
// ends in ".tmp"); refuses anything else. A path that does not exist is already deleted.
FileOutcome deleteCheckpoint(const std::string& path);

// Makes `path` (whose name must end in ".tmp") an empty folder, with its parents, for a trial to
// save into: what an attempt that died while saving left there is removed first.
FileOutcome prepareScratchFolder(const std::string& path);

}  // namespace tunedeck::worker
