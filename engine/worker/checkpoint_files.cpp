#include "worker/checkpoint_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

namespace tunedeck::worker {

namespace {

// A system call's failure on a path, kept as errno so the message ends in strerror's words.
struct Failure {
    std::string what;
    int error = 0;
};
using Status = std::optional<Failure>;

Status failure(std::string what, int error) {
    return Failure{std::move(what), error};
}

class Fd {
  public:
    explicit Fd(int fd) : m_fd(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
    }
    int get() const { return m_fd; }
    explicit operator bool() const { return m_fd >= 0; }

  private:
    int m_fd;
};

std::string withoutTrailingSlashes(std::string path) {
    while (path.size() > 1 && path.back() == '/') {
        path.pop_back();
    }
    return path;
}

std::string parentOf(const std::string& path) {
    const std::string parent = std::filesystem::path(path).parent_path().string();
    return parent.empty() ? "." : parent;
}

std::string join(const std::string& dir, const char* name) {
    return dir + "/" + name;
}

Status fsyncPath(const std::string& path, int flags) {
    Fd fd(::open(path.c_str(), flags | O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
    if (!fd) {
        return failure("cannot open '" + path + "' to sync it", errno);
    }
    if (::fsync(fd.get()) != 0) {
        return failure("cannot sync '" + path + "'", errno);
    }
    return std::nullopt;
}

Status writeWholeFile(const std::string& path, const std::string& content, mode_t mode) {
    Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode));
    if (!fd) {
        return failure("cannot create '" + path + "'", errno);
    }
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd.get(), content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return failure("cannot write '" + path + "'", errno);
        }
        done += static_cast<std::size_t>(n);
    }
    return std::nullopt;
}

// One folder's entries with their types (lstat semantics: links are not followed).
struct Entry {
    std::string name;
    mode_t type;
};

Status listFolder(const std::string& dir, std::vector<Entry>& entries) {
    std::unique_ptr<DIR, int (*)(DIR*)> handle(::opendir(dir.c_str()), ::closedir);
    if (!handle) {
        return failure("cannot read the folder '" + dir + "'", errno);
    }
    errno = 0;
    while (dirent* entry = ::readdir(handle.get())) {
        if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) {
            continue;
        }
        struct stat info {};
        const std::string path = join(dir, entry->d_name);
        if (::lstat(path.c_str(), &info) != 0) {
            return failure("cannot inspect '" + path + "'", errno);
        }
        entries.push_back({entry->d_name, static_cast<mode_t>(info.st_mode & S_IFMT)});
        errno = 0;
    }
    if (errno != 0) {
        return failure("cannot read the folder '" + dir + "'", errno);
    }
    return std::nullopt;
}

// fsync of every regular file and folder below `dir`, then of `dir`: after this a rename is the
// only thing left that can make the checkpoint visible, and it cannot expose half a file.
Status syncTree(const std::string& dir) {
    std::vector<Entry> entries;
    if (Status s = listFolder(dir, entries)) {
        return s;
    }
    for (const Entry& entry : entries) {
        const std::string path = join(dir, entry.name.c_str());
        Status s;
        if (entry.type == S_IFDIR) {
            s = syncTree(path);
        } else if (entry.type == S_IFREG) {
            s = fsyncPath(path, 0);
        }
        if (s) {
            return s;
        }
    }
    return fsyncPath(dir, O_DIRECTORY);
}

Status copyFile(const std::string& from, const std::string& to, mode_t mode) {
    Fd in(::open(from.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
    if (!in) {
        return failure("cannot open '" + from + "'", errno);
    }
    Fd out(::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode & 07777));
    if (!out) {
        return failure("cannot create '" + to + "'", errno);
    }
    std::vector<char> buffer(std::size_t{1} << 20);
    for (;;) {
        const ssize_t got = ::read(in.get(), buffer.data(), buffer.size());
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            return failure("cannot read '" + from + "'", errno);
        }
        if (got == 0) {
            break;
        }
        ssize_t done = 0;
        while (done < got) {
            const ssize_t n =
                ::write(out.get(), buffer.data() + done, static_cast<std::size_t>(got - done));
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0) {
                return failure("cannot write '" + to + "'", errno);
            }
            done += n;
        }
    }
    if (::fsync(out.get()) != 0) {
        return failure("cannot sync '" + to + "'", errno);
    }
    return std::nullopt;
}

// A synced copy of the folder `from` as `to` (regular files, folders and symbolic links).
Status copyTree(const std::string& from, const std::string& to) {
    struct stat info {};
    if (::stat(from.c_str(), &info) != 0) {
        return failure("cannot inspect '" + from + "'", errno);
    }
    if (::mkdir(to.c_str(), info.st_mode & 07777) != 0) {
        return failure("cannot create the folder '" + to + "'", errno);
    }
    std::vector<Entry> entries;
    if (Status s = listFolder(from, entries)) {
        return s;
    }
    for (const Entry& entry : entries) {
        const std::string source = join(from, entry.name.c_str());
        const std::string target = join(to, entry.name.c_str());
        Status s;
        if (entry.type == S_IFDIR) {
            s = copyTree(source, target);
        } else if (entry.type == S_IFREG) {
            struct stat fileInfo {};
            ::lstat(source.c_str(), &fileInfo);
            s = copyFile(source, target, fileInfo.st_mode);
        } else if (entry.type == S_IFLNK) {
            std::error_code ec;
            const auto linkTarget = std::filesystem::read_symlink(source, ec);
            if (ec || ::symlink(linkTarget.c_str(), target.c_str()) != 0) {
                s = failure("cannot copy the link '" + source + "'", ec ? ec.value() : errno);
            }
        }
        if (s) {
            return s;
        }
    }
    return fsyncPath(to, O_DIRECTORY);
}

void removeTree(const std::string& path) {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
}

FileOutcome outcomeOf(const Status& status) {
    if (!status) {
        return {};
    }
    return {false, status->what + ": " + std::strerror(status->error)};
}

Status moveIntoPlace(const std::string& from, const std::string& to) {
    struct stat info {};
    if (::lstat(from.c_str(), &info) != 0) {
        return failure("cannot find the checkpoint folder '" + from + "'", errno);
    }
    if (!S_ISDIR(info.st_mode)) {
        return failure("'" + from + "' is not a folder", ENOTDIR);
    }
    if (Status s = syncTree(from)) {
        return s;
    }
    if (::rename(from.c_str(), to.c_str()) == 0) {
        // The old name's removal is made durable too, so a crash cannot resurrect `from`.
        fsyncPath(parentOf(from), O_DIRECTORY);
        return fsyncPath(parentOf(to), O_DIRECTORY);
    }
    if (errno != EXDEV) {
        return failure("cannot move '" + from + "' to '" + to + "'", errno);
    }
    const std::string staging = to + ".tmp";
    if (staging == from) {
        // Same folder as `to`, so the same file system: EXDEV here means a bind mount in between.
        return failure("cannot move '" + from + "' to '" + to + "'", EXDEV);
    }
    removeTree(staging);  // a leftover of an earlier attempt
    if (Status s = copyTree(from, staging)) {
        return s;
    }
    if (::rename(staging.c_str(), to.c_str()) != 0) {
        return failure("cannot move '" + staging + "' to '" + to + "'", errno);
    }
    if (Status s = fsyncPath(parentOf(to), O_DIRECTORY)) {
        return s;
    }
    removeTree(from);
    fsyncPath(parentOf(from), O_DIRECTORY);
    return std::nullopt;
}

}  // namespace

FileOutcome commitCheckpoint(const std::string& fromPath, const std::string& toPath,
                             const std::string& manifestJson) {
    const std::string from = withoutTrailingSlashes(fromPath);
    const std::string to = withoutTrailingSlashes(toPath);
    if (from.empty() || to.empty()) {
        return {false, "the checkpoint's 'from' and 'to' must be paths"};
    }
    if (from == to) {
        return {false, "'from' and 'to' are the same folder: '" + from + "'"};
    }
    struct stat info {};
    Status status;
    if (::lstat(from.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
        status = writeWholeFile(join(from, kManifestName), manifestJson, 0644);
    }
    if (!status) {
        status = moveIntoPlace(from, to);
    }
    if (status) {
        removeTree(from);
        removeTree(to + ".tmp");
    }
    return outcomeOf(status);
}

FileOutcome deleteCheckpoint(const std::string& rawPath) {
    const std::string path = withoutTrailingSlashes(rawPath);
    struct stat info {};
    if (path.empty()) {
        return {false, "delete_checkpoint needs a path"};
    }
    if (::lstat(path.c_str(), &info) != 0) {
        if (errno == ENOENT) {
            return {};
        }
        return outcomeOf(failure("cannot inspect '" + path + "'", errno));
    }
    const bool leftover = path.size() > 4 && path.compare(path.size() - 4, 4, ".tmp") == 0;
    struct stat manifest {};
    const bool checkpoint = ::lstat(join(path, kManifestName).c_str(), &manifest) == 0;
    if (!S_ISDIR(info.st_mode) || (!leftover && !checkpoint)) {
        return {false, "refusing to delete '" + path + "': it is not a checkpoint folder (no " +
                           kManifestName + " inside, and its name does not end in .tmp)"};
    }
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
    if (ec) {
        return {false, "cannot delete '" + path + "': " + ec.message()};
    }
    return {};
}

FileOutcome prepareScratchFolder(const std::string& rawPath) {
    const std::string path = withoutTrailingSlashes(rawPath);
    if (path.size() <= 4 || path.compare(path.size() - 4, 4, ".tmp") != 0) {
        return {false, "refusing to prepare '" + path +
                           "' for a checkpoint: its name does not "
                           "end in .tmp"};
    }
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
    if (!ec) {
        std::filesystem::create_directories(path, ec);
    }
    if (ec) {
        return {false, "cannot prepare '" + path + "' for a checkpoint: " + ec.message()};
    }
    return {};
}

}  // namespace tunedeck::worker
