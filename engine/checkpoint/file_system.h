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
    virtual int status(const std::string& path, struct stat* info) = 0;  // lstat
    virtual int list(const std::string& folder, std::vector<std::string>* names) = 0;
    virtual int readLink(const std::string& path, std::string* target) = 0;
    virtual int makeLink(const std::string& target, const std::string& path) = 0;
    virtual int realPath(const std::string& path, std::string* resolved) = 0;

    // Walks relative to an open folder (openat, fstatat, unlinkat), for deleting: none follows a
    // symbolic link in the name it is given, so a link planted below a folder being deleted, or
    // put in place of one between two calls, is removed as a link and its target is untouched.
    // `at` is an open folder's descriptor, or AT_FDCWD for a path; close what they open with
    // close().
    virtual int openFolderAt(int at, const std::string& name, int* fd) = 0;  // O_NOFOLLOW
    virtual int statusAt(int at, const std::string& name, struct stat* info) = 0;
    virtual int listAt(int folderFd, std::vector<std::string>* names) = 0;
    virtual int removeAt(int at, const std::string& name, bool folder) = 0;
};

FileSystem& posixFileSystem();

}  // namespace tunedeck::checkpoint
