// Checkpoint work with the file-system identity of the experiment's owner. When the engine runs
// as root for someone else's experiment (`serve` as the system service sets TUNEDECK_TRIAL_USER
// to the experiment's owner for the run and its agents), the trial folders are the owner's, and a
// trial may have put a symbolic link anywhere in them: copies, deletions and sweeps there run on
// a thread that has taken the owner's uid, gid and groups for itself only (setfsuid, setfsgid
// and the kernel's per-thread setgroups), so the kernel checks every step as it would for the
// owner, never as root. Used by the node agent's CheckpointMover and by the head's own
// checkpoint work (exploit copies, retention, recovery's sweep). Plain C++ and POSIX.
// Thread-safety: the functions are thread-safe; takeFileIdentity changes the calling thread.
#pragma once

#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/checkpoint_files.h"

namespace tunedeck::checkpoint {

inline constexpr const char* kTrialUserVariable = "TUNEDECK_TRIAL_USER";

struct FileIdentity {
    std::string name;
    uid_t uid = 0;
    gid_t gid = 0;
    std::vector<gid_t> groups;  // supplementary, as initgroups would set them
    std::string home;
};

// The experiment's owner, when this process is root and TUNEDECK_TRIAL_USER names a user; none
// otherwise (the process's own identity is then the owner's). `failure` is set (and none
// returned) when the variable names no account here.
std::optional<FileIdentity> ownerFromEnvironment(std::string* failure);

// Takes `identity` as the calling thread's file-system identity, for good. Empty on success,
// else why the kernel refused.
std::string takeFileIdentity(const FileIdentity& identity);

// Runs `work` with the owner's file-system identity (ownerFromEnvironment, looked up once per
// process): on a thread of its own that has taken it, waiting for the end; on this thread when
// there is no owner to act as. Empty when `work` ran, else why it could not (it did not run).
std::string runAsExperimentOwner(const std::function<void()>& work);
// The same for file work that says how it went: a refusal to act as the owner is its failure.
FileOutcome asExperimentOwner(const std::function<FileOutcome()>& work);

}  // namespace tunedeck::checkpoint
