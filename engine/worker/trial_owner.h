// Whose trial it is, on an agent that runs as root: `serve`, run as the system service, starts
// each experiment with TUNEDECK_TRIAL_USER set to the experiment's owner, and the agent then runs
// that experiment's trials as the owner (uid, primary group and supplementary groups, as slurmd
// does), so they read and write what the owner may and nothing of anyone else's. An agent that
// is not root runs every trial as its own user and ignores the variable. Call from the event
// loop's thread; the switch itself (becomeOwner) runs in the forked child.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "checkpoint/file_identity.h"

namespace tunedeck::worker {

// The experiment's owner (checkpoint/file_identity.h): who the trials run as.
using TrialOwner = checkpoint::FileIdentity;
using checkpoint::kTrialUserVariable;

// Gives `trialDir` and everything under it to `owner` (symlinks themselves, never their
// targets), so a trial running as the owner can write its checkpoints and files there. The
// experiment folder above stays the engine's. Empty on success, else why not.
std::string handTrialFolderTo(const TrialOwner& owner, const std::string& trialDir);

// In the child, between fork and exec: takes the owner's groups, group and user for good.
// Async-signal-safe; false (errno set) when the kernel refuses.
bool becomeOwner(const TrialOwner& owner);

}  // namespace tunedeck::worker
