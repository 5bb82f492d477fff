#include "checkpoint/file_identity.h"

#include <grp.h>
#include <pwd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>

namespace tunedeck::checkpoint {

namespace {

constexpr int kMaxGroups = 1024;  // supplementary groups taken along

}  // namespace

std::optional<FileIdentity> ownerFromEnvironment(std::string* failure) {
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
    FileIdentity owner;
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

std::string takeFileIdentity(const FileIdentity& identity) {
    // The raw system calls: glibc's setgroups changes every thread of the process, the kernel's
    // only the caller. Leaving fsuid 0 drops the file capabilities (CAP_DAC_OVERRIDE, CAP_FOWNER)
    // from this thread's effective set.
    if (::syscall(SYS_setgroups, identity.groups.size(), identity.groups.data()) != 0) {
        return std::string("setgroups: ") + std::strerror(errno);
    }
    ::syscall(SYS_setfsgid, identity.gid);
    ::syscall(SYS_setfsuid, identity.uid);
    // setfsuid answers with the previous value whatever happened: ask again to know.
    if (uid_t(::syscall(SYS_setfsuid, uid_t(-1))) != identity.uid ||
        gid_t(::syscall(SYS_setfsgid, gid_t(-1))) != identity.gid) {
        return "the kernel kept the process's file-system identity";
    }
    return {};
}

std::string runAsExperimentOwner(const std::function<void()>& work) {
    static std::string lookupFailure;
    static const std::optional<FileIdentity> owner = ownerFromEnvironment(&lookupFailure);
    if (!lookupFailure.empty()) {
        return lookupFailure;
    }
    if (!owner) {
        work();
        return {};
    }
    std::string refused;
    std::thread worker([&] {
        refused = takeFileIdentity(*owner);
        if (refused.empty()) {
            work();
        }
    });
    worker.join();
    return refused.empty() ? std::string() : "cannot act as " + owner->name + ": " + refused;
}

FileOutcome asExperimentOwner(const std::function<FileOutcome()>& work) {
    FileOutcome outcome;
    if (std::string refused = runAsExperimentOwner([&] { outcome = work(); }); !refused.empty()) {
        outcome = {false, std::move(refused)};
    }
    return outcome;
}

}  // namespace tunedeck::checkpoint
