#include "worker/trial_owner.h"

#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace tunedeck::worker {

namespace {

constexpr int kOpenFolders = 32;  // descriptors nftw may hold while walking

// nftw passes no context; the owner of the walk in progress (one walk at a time, event loop).
uid_t walkUid = 0;
gid_t walkGid = 0;
int walkError = 0;

int chownEntry(const char* path, const struct stat*, int, FTW*) {
    if (::lchown(path, walkUid, walkGid) != 0 && walkError == 0) {
        walkError = errno;
    }
    return 0;
}

}  // namespace

std::string handTrialFolderTo(const TrialOwner& owner, const std::string& trialDir) {
    struct stat info {};
    if (::lstat(trialDir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
        return "the trial directory '" + trialDir + "' is not a folder (a symlink is not followed)";
    }
    walkUid = owner.uid;
    walkGid = owner.gid;
    walkError = 0;
    if (::nftw(trialDir.c_str(), chownEntry, kOpenFolders, FTW_PHYS) != 0 || walkError != 0) {
        return "cannot give the trial directory '" + trialDir + "' to " + owner.name + ": " +
               std::strerror(walkError != 0 ? walkError : errno);
    }
    return {};
}

bool becomeOwner(const TrialOwner& owner) {
    return ::setgroups(owner.groups.size(), owner.groups.data()) == 0 && ::setgid(owner.gid) == 0 &&
           ::setuid(owner.uid) == 0 &&
           (owner.uid == 0 || ::setuid(0) != 0);  // for good: no way back to root
}

}  // namespace tunedeck::worker
