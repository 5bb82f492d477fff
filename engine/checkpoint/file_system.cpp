#include "checkpoint/file_system.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace tunedeck::checkpoint {

namespace {

int errnoOr0(int result) {
    return result == 0 ? 0 : errno;
}

class PosixFileSystem final : public FileSystem {
  public:
    int openFile(const std::string& path, int flags, mode_t mode, int* fd) override {
        *fd = ::open(path.c_str(), flags | O_CLOEXEC, mode);
        return *fd >= 0 ? 0 : errno;
    }

    int read(int fd, char* data, std::size_t size, std::size_t* got) override {
        for (;;) {
            const ssize_t n = ::read(fd, data, size);
            if (n >= 0) {
                *got = static_cast<std::size_t>(n);
                return 0;
            }
            if (errno != EINTR) {
                return errno;
            }
        }
    }

    int write(int fd, const char* data, std::size_t size) override {
        std::size_t done = 0;
        while (done < size) {
            const ssize_t n = ::write(fd, data + done, size - done);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0) {
                return errno;
            }
            done += static_cast<std::size_t>(n);
        }
        return 0;
    }

    int sync(int fd) override { return errnoOr0(::fsync(fd)); }
    int close(int fd) override { return errnoOr0(::close(fd)); }
    int makeFolder(const std::string& path, mode_t mode) override {
        return errnoOr0(::mkdir(path.c_str(), mode));
    }
    int rename(const std::string& from, const std::string& to) override {
        return errnoOr0(::rename(from.c_str(), to.c_str()));
    }
    int exchange(const std::string& a, const std::string& b) override {
#ifdef RENAME_EXCHANGE
        return errnoOr0(::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE));
#else
        (void)a;
        (void)b;
        return EINVAL;
#endif
    }
    int removeFile(const std::string& path) override {
        return errnoOr0(::unlink(path.c_str()));
    }
    int status(const std::string& path, struct stat* info) override {
        return errnoOr0(::lstat(path.c_str(), info));
    }

    int list(const std::string& folder, std::vector<std::string>* names) override {
        std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(folder.c_str()), ::closedir);
        if (!dir) {
            return errno;
        }
        return readNames(dir.get(), names);
    }

    int readLink(const std::string& path, std::string* target) override {
        std::string buffer(PATH_MAX, '\0');
        const ssize_t n = ::readlink(path.c_str(), buffer.data(), buffer.size());
        if (n < 0) {
            return errno;
        }
        buffer.resize(static_cast<std::size_t>(n));
        *target = std::move(buffer);
        return 0;
    }

    int makeLink(const std::string& target, const std::string& path) override {
        return errnoOr0(::symlink(target.c_str(), path.c_str()));
    }

    int realPath(const std::string& path, std::string* resolved) override {
        std::unique_ptr<char, void (*)(void*)> result(::realpath(path.c_str(), nullptr), std::free);
        if (!result) {
            return errno;
        }
        *resolved = result.get();
        return 0;
    }

    int openFolderAt(int at, const std::string& name, int* fd) override {
        *fd = ::openat(at, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        return *fd >= 0 ? 0 : errno;
    }

    int statusAt(int at, const std::string& name, struct stat* info) override {
        return errnoOr0(::fstatat(at, name.c_str(), info, AT_SYMLINK_NOFOLLOW));
    }

    int listAt(int folderFd, std::vector<std::string>* names) override {
        // fdopendir takes the descriptor over; a duplicate leaves the caller's open.
        const int own = ::fcntl(folderFd, F_DUPFD_CLOEXEC, 0);
        if (own < 0) {
            return errno;
        }
        std::unique_ptr<DIR, int (*)(DIR*)> dir(::fdopendir(own), ::closedir);
        if (!dir) {
            const int error = errno;
            ::close(own);
            return error;
        }
        ::rewinddir(dir.get());
        return readNames(dir.get(), names);
    }

    int removeAt(int at, const std::string& name, bool folder) override {
        return errnoOr0(::unlinkat(at, name.c_str(), folder ? AT_REMOVEDIR : 0));
    }

  private:
    static int readNames(DIR* dir, std::vector<std::string>* names) {
        errno = 0;
        while (const dirent* entry = ::readdir(dir)) {
            if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) {
                names->emplace_back(entry->d_name);
            }
            errno = 0;
        }
        return errno;
    }
};

}  // namespace

FileSystem& posixFileSystem() {
    static PosixFileSystem instance;
    return instance;
}

}  // namespace tunedeck::checkpoint
