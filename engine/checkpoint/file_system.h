// The file system calls that checkpoint folders are made with, as one seam (LevelDB's Env): the
// agent and the head use posixFileSystem(); tests put a fault-injecting one in its place, which
// fails the Nth write, a rename or an fsync, or forgets what was never synced, so that a full
// disk or a power cut is tested without root and without luck.
// Every call returns 0 or an errno value. posixFileSystem() is thread-safe; others say so.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>
#include <string>
#include <vector>

namespace tunedeck::checkpoint {

class FileSystem {
  public:
    virtual ~FileSystem() = default;

    virtual int openFile(const std::string& path, int flags, mode_t mode, int* fd) = 0;
    virtual int read(int fd, char* data, std::size_t size, std::size_t* got) = 0;
    // Writes all of `data` (retrying short writes and EINTR).
    virtual int write(int fd, const char* data, std::size_t size) = 0;
    virtual int sync(int fd) = 0;
    virtual int close(int fd) = 0;

    virtual int makeFolder(const std::string& path, mode_t mode) = 0;
    virtual int rename(const std::string& from, const std::string& to) = 0;
    // Swaps two existing names atomically (renameat2 RENAME_EXCHANGE); EINVAL where the file
    // system cannot.
    virtual int exchange(const std::string& a, const std::string& b) = 0;
    virtual int removeFile(const std::string& path) = 0;
    virtual int removeFolder(const std::string& path) = 0;               // an empty one
    virtual int status(const std::string& path, struct stat* info) = 0;  // lstat
    virtual int list(const std::string& folder, std::vector<std::string>* names) = 0;
    virtual int readLink(const std::string& path, std::string* target) = 0;
    virtual int makeLink(const std::string& target, const std::string& path) = 0;
    virtual int realPath(const std::string& path, std::string* resolved) = 0;
};

FileSystem& posixFileSystem();

}  // namespace tunedeck::checkpoint
