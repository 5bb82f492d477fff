// Putting checkpoint folders in place, durably, the LevelDB way: every file and folder of a
// checkpoint is written and fsynced under a staging name, its manifest last, and only then renamed
// to its final name, whose parent is fsynced; so after a crash at any instant a checkpoint is
// either whole under its final name or not there. Every path that makes, copies, fetches or
// deletes a checkpoint goes through here: the agent's commit of a trial's save or of a folder
// handed over in a report, retention, the head's exploit copy and its fetch from a remote node.
// Plain blocking functions over a FileSystem (see file_system.h); run them off an event loop.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "checkpoint/file_system.h"
#include "checkpoint/handover.h"

namespace tunedeck::checkpoint {

inline constexpr const char* kManifestName = ".tunedeck_checkpoint.json";

struct FileOutcome {
    bool ok = true;
    std::string error;  // what failed and the system's reason (strerror), when !ok
};

// Makes `from` the checkpoint `to`, with `manifestJson` written as its manifest. Move renames
// `from` (copying across file systems, then removing it); Copy leaves `from` exactly as it was.
// An existing `to` is replaced atomically. The parent folders of `to` are created as needed. On
// failure nothing is left under `to`'s name that was not there before, a moved `from` is left
// where it was, and the staging folder is removed.
FileOutcome commitCheckpoint(FileSystem& fs, const std::string& from, const std::string& to,
                             const std::string& manifestJson, Handover how);

// A folder whose files arrived by another way (SFTP from a node) becomes the checkpoint `to`:
// everything in `staging` is fsynced, then it is renamed over `to`.
FileOutcome publishFolder(FileSystem& fs, const std::string& staging, const std::string& to);

// Removes the folder `path` if it is a checkpoint (holds the manifest) or a leftover (its name
// ends in ".tmp"); refuses anything else. A path that does not exist is already deleted.
FileOutcome deleteCheckpoint(FileSystem& fs, const std::string& path);

// Clears the staging name `path` (it must end in ".tmp") before the engine writes there: a folder
// with all it holds, a file, or a symbolic link as a link; nothing is followed.
FileOutcome removeStaging(FileSystem& fs, const std::string& path);

// Removes the folder `path` with all it holds, following no symbolic link anywhere (a link is
// removed as a link, its target untouched): how a whole experiment is deleted.
FileOutcome removeFolderTree(FileSystem& fs, const std::string& path);

// What sweeping a trial's checkpoints folder did.
struct SweepOutcome {
    std::vector<std::string> removed;    // names in the folder
    std::vector<std::string> leftAlone;  // one line each: the path and why
    std::string error;                   // the first failure, when one happened
};

// Removes from `folder` (a trial's checkpoints folder) what the engine made there and its history
// does not list (`listed`: names in `folder`): a checkpoint whose commit a crash cut off before
// the history took it (a folder named checkpoint_NNNNNN holding a manifest) and a staging
// leftover (checkpoint_NNNNNN followed by a name ending in ".tmp"). Anything else is not the
// engine's and stays; a symbolic link stays and is named in leftAlone, and so does `folder` when
// it is a link itself: what is behind it may not be the experiment's.
SweepOutcome sweepUnlistedCheckpoints(FileSystem& fs, const std::string& folder,
                                      const std::set<std::string>& listed);

// Makes `path` (whose name must end in ".tmp") an empty folder, with its parents, for a trial to
// save into: what an attempt that died while saving left there is removed first.
FileOutcome prepareScratchFolder(FileSystem& fs, const std::string& path);

// How a folder named by a trial (in a report, or as the answer to `save`) is taken over: its path
// and the places' paths resolved on this file system, then handover.h's rule. `resolved` is set
// to the folder's resolved path when it exists.
HandoverChoice chooseHandoverOnDisk(FileSystem& fs, const std::string& folder,
                                    const HandoverPlaces& places, std::string* resolved);

// Whether `folder` holds a checkpoint manifest.
bool holdsManifest(FileSystem& fs, const std::string& folder);

}  // namespace tunedeck::checkpoint
