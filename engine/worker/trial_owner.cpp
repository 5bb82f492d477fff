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

constexpr int kMaxGroups = 1024;  // supplementary groups taken along
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

std::optional<TrialOwner> trialOwnerFromEnvironment(std::string* failure) {
    const char* name = std::getenv(kTrialUserVariable);
    if (::geteuid() != 0 || name == nullptr || *name == '\0') {
        return std::nullopt;
    }
    const passwd* entry = ::getpwnam(name);
    if (entry == nullptr) {
        *failure = std::string("the experiment's owner '") + name +
                   "' has no account on this machine, so its trials cannot run as that user";
        return std::nullopt;
    }
    TrialOwner owner;
    owner.name = entry->pw_name;
    owner.uid = entry->pw_uid;
    owner.gid = entry->pw_gid;
    owner.home = entry->pw_dir ? entry->pw_dir : "/";
    owner.groups.resize(kMaxGroups);
    int count = kMaxGroups;
    if (::getgrouplist(entry->pw_name, entry->pw_gid, owner.groups.data(), &count) < 0) {
        count = std::min(count, kMaxGroups);
    }
    owner.groups.resize(std::size_t(std::max(count, 0)));
    return owner;
}

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
