#include "checkpoint/checkpoint_files.h"

#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

namespace tunedeck::checkpoint {

namespace {

// A failed call on a path, kept as errno so the message ends in strerror's words.
struct Failure {
    std::string what;
    int error = 0;
};
// What a step returns: the failure when it failed, nothing when it worked, so `if (MaybeFailure
// failure = step(...)) return failure;` reads as what it does.
using MaybeFailure = std::optional<Failure>;

MaybeFailure check(int error, std::string what) {
    if (error == 0) {
        return std::nullopt;
    }
    return Failure{std::move(what), error};
}

FileOutcome outcomeOf(const MaybeFailure& failure) {
    if (!failure) {
        return {};
    }
    return {false, failure->what + ": " + std::strerror(failure->error)};
}

std::string withoutTrailingSlashes(std::string path) {
    while (path.size() > 1 && path.back() == '/') {
        path.pop_back();
    }
    return path;
}

std::string parentOf(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) {
        return ".";
    }
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string join(const std::string& dir, const std::string& name) {
    return dir + "/" + name;
}

bool endsWith(const std::string& text, const char* suffix) {
    const std::size_t n = std::strlen(suffix);
    return text.size() > n && text.compare(text.size() - n, n, suffix) == 0;
}

class OpenFile {
  public:
    OpenFile(FileSystem& fs, const std::string& path, int flags, mode_t mode) : m_fs(fs) {
        m_error = fs.openFile(path, flags, mode, &m_fd);
    }
    OpenFile(const OpenFile&) = delete;
    OpenFile& operator=(const OpenFile&) = delete;
    ~OpenFile() {
        if (m_error == 0) {
            m_fs.close(m_fd);
        }
    }
    int error() const { return m_error; }
    int fd() const { return m_fd; }

  private:
    FileSystem& m_fs;
    int m_fd = -1;
    int m_error = 0;
};

// A file is opened without following a link; a folder may be reached through one (a trial's
// checkpoints moved to another disk and linked back): syncing it changes nothing there.
MaybeFailure syncPath(FileSystem& fs, const std::string& path, int flags) {
    const int follow = (flags & O_DIRECTORY) != 0 ? 0 : O_NOFOLLOW;
    OpenFile file(fs, path, flags | O_RDONLY | follow, 0);
    if (MaybeFailure s = check(file.error(), "cannot open '" + path + "' to sync it")) {
        return s;
    }
    return check(fs.sync(file.fd()), "cannot sync '" + path + "'");
}

MaybeFailure syncFolder(FileSystem& fs, const std::string& path) {
    return syncPath(fs, path, O_DIRECTORY);
}

std::optional<struct stat> statusOf(FileSystem& fs, const std::string& path) {
    struct stat info {};
    if (fs.status(path, &info) != 0) {
        return std::nullopt;
    }
    return info;
}

MaybeFailure listFolder(FileSystem& fs, const std::string& dir, std::vector<std::string>& names) {
    return check(fs.list(dir, &names), "cannot read the folder '" + dir + "'");
}

// fsync of every regular file and folder below `dir`, then of `dir`: after this a rename is the
// only thing left that can make the folder visible, and it cannot expose half a file.
MaybeFailure syncTree(FileSystem& fs, const std::string& dir) {
    std::vector<std::string> names;
    if (MaybeFailure s = listFolder(fs, dir, names)) {
        return s;
    }
    for (const std::string& name : names) {
        const std::string path = join(dir, name);
        const std::optional<struct stat> info = statusOf(fs, path);
        MaybeFailure s;
        if (info && S_ISDIR(info->st_mode)) {
            s = syncTree(fs, path);
        } else if (info && S_ISREG(info->st_mode)) {
            s = syncPath(fs, path, 0);
        }
        if (s) {
            return s;
        }
    }
    return syncFolder(fs, dir);
}

MaybeFailure writeWholeFile(FileSystem& fs, const std::string& path, const std::string& content) {
    OpenFile file(fs, path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
    if (MaybeFailure s = check(file.error(), "cannot create '" + path + "'")) {
        return s;
    }
    if (MaybeFailure s = check(fs.write(file.fd(), content.data(), content.size()),
                               "cannot write '" + path + "'")) {
        return s;
    }
    return check(fs.sync(file.fd()), "cannot sync '" + path + "'");
}

MaybeFailure copyFile(FileSystem& fs, const std::string& from, const std::string& to, mode_t mode) {
    OpenFile in(fs, from, O_RDONLY | O_NOFOLLOW, 0);
    if (MaybeFailure s = check(in.error(), "cannot open '" + from + "'")) {
        return s;
    }
    OpenFile out(fs, to, O_WRONLY | O_CREAT | O_EXCL, mode & 07777);
    if (MaybeFailure s = check(out.error(), "cannot create '" + to + "'")) {
        return s;
    }
    std::vector<char> buffer(std::size_t{1} << 20);
    for (;;) {
        std::size_t got = 0;
        if (MaybeFailure s = check(fs.read(in.fd(), buffer.data(), buffer.size(), &got),
                                   "cannot read '" + from + "'")) {
            return s;
        }
        if (got == 0) {
            break;
        }
        if (MaybeFailure s =
                check(fs.write(out.fd(), buffer.data(), got), "cannot write '" + to + "'")) {
            return s;
        }
    }
    return check(fs.sync(out.fd()), "cannot sync '" + to + "'");
}

// A synced copy of the folder `from` as `to`: regular files, folders and symbolic links (as
// links); sockets and pipes have no content to keep and are left out.
MaybeFailure copyTree(FileSystem& fs, const std::string& from, const std::string& to) {
    const std::optional<struct stat> info = statusOf(fs, from);
    if (!info) {
        return Failure{"cannot inspect '" + from + "'", errno ? errno : ENOENT};
    }
    if (MaybeFailure s = check(fs.makeFolder(to, (info->st_mode & 07777) | 0700),
                               "cannot create the folder '" + to + "'")) {
        return s;
    }
    std::vector<std::string> names;
    if (MaybeFailure s = listFolder(fs, from, names)) {
        return s;
    }
    for (const std::string& name : names) {
        const std::string source = join(from, name);
        const std::string target = join(to, name);
        const std::optional<struct stat> entry = statusOf(fs, source);
        if (!entry) {
            return Failure{"cannot inspect '" + source + "'", ENOENT};
        }
        MaybeFailure s;
        if (S_ISDIR(entry->st_mode)) {
            s = copyTree(fs, source, target);
        } else if (S_ISREG(entry->st_mode)) {
            s = copyFile(fs, source, target, entry->st_mode);
        } else if (S_ISLNK(entry->st_mode)) {
            std::string linkTarget;
            s = check(fs.readLink(source, &linkTarget), "cannot read the link '" + source + "'");
            if (!s) {
                s = check(fs.makeLink(linkTarget, target),
                          "cannot create the link '" + target + "'");
            }
        }
        if (s) {
            return s;
        }
    }
    return syncFolder(fs, to);
}

MaybeFailure removeEntry(FileSystem& fs, int at, const std::string& name, const std::string& path);

// Removes everything in the open folder `folderFd` (`path` names it in messages), depth first.
// Goes on past failures and returns the first.
MaybeFailure removeContents(FileSystem& fs, int folderFd, const std::string& path) {
    std::vector<std::string> names;
    MaybeFailure first =
        check(fs.listAt(folderFd, &names), "cannot read the folder '" + path + "'");
    for (const std::string& name : names) {
        MaybeFailure s = removeEntry(fs, folderFd, name, join(path, name));
        if (s && !first) {
            first = s;
        }
    }
    return first;
}

// Removes the entry `name` of the open folder `at`: a folder with all it holds, anything else (a
// symbolic link included) as a name. Every step is relative to an open folder and follows no
// link, so a link planted anywhere below, or swapped in for a folder between the look and the
// open, is removed and what it points at is untouched. A name that is not there is removed.
MaybeFailure removeEntry(FileSystem& fs, int at, const std::string& name, const std::string& path) {
    struct stat info {};
    if (fs.statusAt(at, name, &info) != 0) {
        return std::nullopt;
    }
    if (S_ISDIR(info.st_mode)) {
        int fd = -1;
        const int opened = fs.openFolderAt(at, name, &fd);
        if (opened == 0) {
            const MaybeFailure first = removeContents(fs, fd, path);
            fs.close(fd);
            const MaybeFailure s =
                check(fs.removeAt(at, name, true), "cannot delete the folder '" + path + "'");
            return first ? first : s;
        }
        if (opened != ELOOP && opened != ENOTDIR) {
            return Failure{"cannot open the folder '" + path + "'", opened};
        }
        // No longer a folder (a link took its place): removed as a name.
    }
    return check(fs.removeAt(at, name, false), "cannot delete '" + path + "'");
}

// Removes a file or a whole folder; a symbolic link is removed, never followed (removeEntry).
MaybeFailure removeTree(FileSystem& fs, const std::string& path) {
    return removeEntry(fs, AT_FDCWD, path, path);
}

// Creates `dir` and its missing parents, each made durable in its own parent.
// A link to a folder counts as the folder: a user may move a trial's checkpoints to another disk
// and link them back (creating goes through the link; deleting never does).
MaybeFailure makeFolders(FileSystem& fs, const std::string& dir) {
    if (std::optional<struct stat> info = statusOf(fs, dir)) {
        std::string target;
        if (S_ISLNK(info->st_mode) && fs.realPath(dir, &target) == 0) {
            info = statusOf(fs, target);
        }
        return info && S_ISDIR(info->st_mode)
                   ? std::nullopt
                   : MaybeFailure(Failure{"'" + dir + "' is not a folder", ENOTDIR});
    }
    const std::string parent = parentOf(dir);
    if (parent != dir) {
        if (MaybeFailure s = makeFolders(fs, parent)) {
            return s;
        }
    }
    const int made = fs.makeFolder(dir, 0755);
    if (made == EEXIST) {
        return std::nullopt;
    }
    if (MaybeFailure s = check(made, "cannot create the folder '" + dir + "'")) {
        return s;
    }
    return syncFolder(fs, parent);
}

// Renames the complete folder `staging` to `to`, replacing a `to` that exists in one atomic step,
// then makes the new name durable. What `to` held before is removed afterwards.
MaybeFailure swapIntoPlace(FileSystem& fs, const std::string& staging, const std::string& to) {
    const std::string parent = parentOf(to);
    // The staging name is made durable first: a crash then leaves the rename done or undone,
    // never a folder whose own creation was lost while its new name survived.
    if (MaybeFailure s = syncFolder(fs, parentOf(staging))) {
        return s;
    }
    if (!statusOf(fs, to)) {
        if (MaybeFailure s =
                check(fs.rename(staging, to), "cannot move '" + staging + "' to '" + to + "'")) {
            return s;
        }
        return syncFolder(fs, parent);
    }
    std::string old = staging;  // after the exchange, the old `to` is under the staging name
    const int swapped = fs.exchange(staging, to);
    if (swapped == EINVAL || swapped == ENOSYS || swapped == ENOTSUP) {
        old = to + ".old.tmp";
        removeTree(fs, old);
        if (MaybeFailure s = check(fs.rename(to, old), "cannot move '" + to + "' aside")) {
            return s;
        }
        if (MaybeFailure s =
                check(fs.rename(staging, to), "cannot move '" + staging + "' to '" + to + "'")) {
            fs.rename(old, to);
            return s;
        }
    } else if (MaybeFailure s =
                   check(swapped, "cannot put '" + staging + "' in place of '" + to + "'")) {
        return s;
    }
    if (MaybeFailure s = syncFolder(fs, parent)) {
        return s;
    }
    removeTree(fs, old);
    syncFolder(fs, parent);
    return std::nullopt;
}

MaybeFailure moveCheckpoint(FileSystem& fs, const std::string& from, const std::string& to,
                            const std::string& manifestJson) {
    const std::string manifest = join(from, kManifestName);
    MaybeFailure s = syncTree(fs, from);
    if (!s) {
        s = writeWholeFile(fs, manifest, manifestJson);
    }
    if (!s) {
        s = syncFolder(fs, from);
    }
    if (s) {
        fs.removeFile(manifest);
        return s;
    }
    s = swapIntoPlace(fs, from, to);
    if (!s) {
        syncFolder(fs, parentOf(from));  // the old name's removal, durable too
        return std::nullopt;
    }
    if (s->error != EXDEV) {
        fs.removeFile(manifest);
        return s;
    }
    // Another file system: copy in, then remove `from`, which a Move may do because the folder
    // is the engine's own.
    const std::string copy = to + ".copy.tmp";
    removeTree(fs, copy);
    s = copyTree(fs, from, copy);
    if (!s) {
        s = swapIntoPlace(fs, copy, to);
    }
    if (s) {
        removeTree(fs, copy);
        fs.removeFile(manifest);
        return s;
    }
    removeTree(fs, from);
    syncFolder(fs, parentOf(from));
    return std::nullopt;
}

MaybeFailure copyCheckpoint(FileSystem& fs, const std::string& from, const std::string& to,
                            const std::string& manifestJson) {
    const std::string staging = to + ".copy.tmp";
    removeTree(fs, staging);  // a leftover of an attempt that died
    MaybeFailure s = copyTree(fs, from, staging);
    if (!s) {
        s = writeWholeFile(fs, join(staging, kManifestName), manifestJson);
    }
    if (!s) {
        s = syncFolder(fs, staging);
    }
    if (!s) {
        s = swapIntoPlace(fs, staging, to);
    }
    if (s) {
        removeTree(fs, staging);
    }
    return s;
}

}  // namespace

bool holdsManifest(FileSystem& fs, const std::string& folder) {
    const std::optional<struct stat> info = statusOf(fs, join(folder, kManifestName));
    return info && S_ISREG(info->st_mode);
}

HandoverChoice chooseHandoverOnDisk(FileSystem& fs, const std::string& folder,
                                    const HandoverPlaces& places, std::string* resolved) {
    if (const int error = fs.realPath(folder, resolved)) {
        return {std::nullopt,
                "cannot find the checkpoint folder '" + folder + "': " + std::strerror(error)};
    }
    HandoverPlaces real;
    const auto resolve = [&fs](const std::string& path) {
        std::string result;
        // A place that does not exist cannot be inside the folder; keep its name as given.
        return path.empty() || fs.realPath(path, &result) != 0 ? path : result;
    };
    real.trialDir = resolve(places.trialDir);
    for (const ProtectedFolder& place : places.folders) {
        real.folders.push_back({resolve(place.path), place.what});
    }
    return chooseHandover(*resolved, real, holdsManifest(fs, *resolved));
}

FileOutcome commitCheckpoint(FileSystem& fs, const std::string& fromPath, const std::string& toPath,
                             const std::string& manifestJson, Handover how) {
    const std::string from = withoutTrailingSlashes(fromPath);
    const std::string to = withoutTrailingSlashes(toPath);
    if (from.empty() || to.empty()) {
        return {false, "the checkpoint's 'from' and 'to' must be paths"};
    }
    if (isSameOrInside(to, from) || isSameOrInside(from, to)) {
        return {false, "'" + from + "' and '" + to + "' are the same folder or inside each other"};
    }
    const std::optional<struct stat> info = statusOf(fs, from);
    if (!info) {
        return outcomeOf(Failure{"cannot find the checkpoint folder '" + from + "'", ENOENT});
    }
    if (!S_ISDIR(info->st_mode)) {
        return outcomeOf(Failure{"'" + from + "' is not a folder", ENOTDIR});
    }
    if (MaybeFailure s = makeFolders(fs, parentOf(to))) {
        return outcomeOf(s);
    }
    return outcomeOf(how == Handover::Move ? moveCheckpoint(fs, from, to, manifestJson)
                                           : copyCheckpoint(fs, from, to, manifestJson));
}

FileOutcome publishFolder(FileSystem& fs, const std::string& stagingPath,
                          const std::string& toPath) {
    const std::string staging = withoutTrailingSlashes(stagingPath);
    const std::string to = withoutTrailingSlashes(toPath);
    MaybeFailure s = syncTree(fs, staging);
    if (!s) {
        s = makeFolders(fs, parentOf(to));
    }
    if (!s) {
        s = swapIntoPlace(fs, staging, to);
    }
    if (s) {
        removeTree(fs, staging);
    }
    return outcomeOf(s);
}

FileOutcome deleteCheckpoint(FileSystem& fs, const std::string& rawPath) {
    const std::string path = withoutTrailingSlashes(rawPath);
    if (path.empty()) {
        return {false, "delete_checkpoint needs a path"};
    }
    const std::optional<struct stat> info = statusOf(fs, path);
    if (!info) {
        return {};
    }
    if (S_ISLNK(info->st_mode)) {
        return {false, "left '" + path +
                           "' alone: it is a symbolic link, not a folder the engine made, and "
                           "what it points at is not the experiment's to delete"};
    }
    if (!S_ISDIR(info->st_mode) || (!endsWith(path, ".tmp") && !holdsManifest(fs, path))) {
        return {false, "refusing to delete '" + path + "': it is not a checkpoint folder (no " +
                           kManifestName + " inside, and its name does not end in .tmp)"};
    }
    if (MaybeFailure s = removeTree(fs, path)) {
        return outcomeOf(s);
    }
    return outcomeOf(syncFolder(fs, parentOf(path)));
}

FileOutcome removeStaging(FileSystem& fs, const std::string& rawPath) {
    const std::string path = withoutTrailingSlashes(rawPath);
    if (!endsWith(path, ".tmp")) {
        return {false, "refusing to clear '" + path + "': its name does not end in .tmp"};
    }
    return outcomeOf(removeTree(fs, path));
}

FileOutcome removeFolderTree(FileSystem& fs, const std::string& path) {
    return outcomeOf(removeTree(fs, withoutTrailingSlashes(path)));
}

namespace {

// checkpoint_ and six or more digits (checkpointFolder's names), then `rest`.
bool isCheckpointName(const std::string& name, std::string* rest) {
    static const std::string prefix = "checkpoint_";
    if (name.compare(0, prefix.size(), prefix) != 0) {
        return false;
    }
    std::size_t end = prefix.size();
    while (end < name.size() && name[end] >= '0' && name[end] <= '9') {
        ++end;
    }
    if (end - prefix.size() < 6) {
        return false;
    }
    *rest = name.substr(end);
    return true;
}

}  // namespace

SweepOutcome sweepUnlistedCheckpoints(FileSystem& fs, const std::string& rawFolder,
                                      const std::set<std::string>& listed) {
    SweepOutcome outcome;
    const std::string folder = withoutTrailingSlashes(rawFolder);
    const std::optional<struct stat> info = statusOf(fs, folder);
    if (!info) {
        return outcome;
    }
    if (S_ISLNK(info->st_mode)) {
        outcome.leftAlone.push_back(folder +
                                    " is a symbolic link: folders in it that the history does not "
                                    "list are left as they are");
        return outcome;
    }
    int fd = -1;
    if (const int error = fs.openFolderAt(AT_FDCWD, folder, &fd)) {
        outcome.error = outcomeOf(Failure{"cannot open the folder '" + folder + "'", error}).error;
        return outcome;
    }
    std::vector<std::string> names;
    if (MaybeFailure s = check(fs.listAt(fd, &names), "cannot read the folder '" + folder + "'")) {
        outcome.error = outcomeOf(s).error;
    }
    for (const std::string& name : names) {
        std::string rest;
        if (listed.count(name) != 0 || !isCheckpointName(name, &rest)) {
            continue;
        }
        struct stat entry {};
        if (fs.statusAt(fd, name, &entry) != 0) {
            continue;
        }
        const std::string path = join(folder, name);
        if (S_ISLNK(entry.st_mode)) {
            outcome.leftAlone.push_back(path + " is a symbolic link, not a folder the engine made");
            continue;
        }
        const bool staging = endsWith(rest, ".tmp") || rest == ".tmp";
        if (!S_ISDIR(entry.st_mode) || (!staging && (!rest.empty() || !holdsManifest(fs, path)))) {
            continue;
        }
        if (MaybeFailure s = removeEntry(fs, fd, name, path)) {
            if (outcome.error.empty()) {
                outcome.error = outcomeOf(s).error;
            }
            continue;
        }
        outcome.removed.push_back(name);
    }
    if (!outcome.removed.empty()) {
        syncFolder(fs, folder);
    }
    fs.close(fd);
    return outcome;
}

FileOutcome prepareScratchFolder(FileSystem& fs, const std::string& rawPath) {
    const std::string path = withoutTrailingSlashes(rawPath);
    if (!endsWith(path, ".tmp")) {
        return {false, "refusing to prepare '" + path +
                           "' for a checkpoint: its name does not end in .tmp"};
    }
    MaybeFailure s = removeTree(fs, path);
    if (!s) {
        s = makeFolders(fs, path);
    }
    if (s) {
        return {false, "cannot prepare '" + path + "' for a checkpoint: " + s->what + ": " +
                           std::strerror(s->error)};
    }
    return {};
}

}  // namespace tunedeck::checkpoint
