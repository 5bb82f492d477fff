// A FileSystem for tests that is the real one underneath, plus the faults a disk and a power cut
// bring (LevelDB's FaultInjectionTestEnv): the Nth write, an fsync or a rename fails with a given
// errno, every call after the Nth fails (a crash at that instant), and dropUnsyncedData() undoes
// what a power cut would: files lose what was written after their last fsync, renames whose
// target folder was not fsynced since are undone, and names created in a folder since that
// folder's last fsync disappear.
// Not thread-safe: one test at a time.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "checkpoint/file_system.h"

class FaultyFileSystem : public tunedeck::checkpoint::FileSystem {
  public:
    enum class Call { Write, Sync, Rename, Any };

    // The `nth` call of `kind` (counted from 1 after this call) fails with `error`; with
    // `andAfter` every later call fails too (the machine is gone).
    void failAt(Call kind, int nth, int error, bool andAfter = false);
    int callsMade() const { return m_calls; }  // every call so far
    void dropUnsyncedData();
    // `path` (a file or a folder) was written by someone else (a trial) and not synced yet: a
    // power cut loses it unless the code under test syncs it.
    void notSynced(const std::string& path);

    int openFile(const std::string& path, int flags, mode_t mode, int* fd) override;
    int read(int fd, char* data, std::size_t size, std::size_t* got) override;
    int write(int fd, const char* data, std::size_t size) override;
    int sync(int fd) override;
    int close(int fd) override;
    int makeFolder(const std::string& path, mode_t mode) override;
    int rename(const std::string& from, const std::string& to) override;
    int exchange(const std::string& a, const std::string& b) override;
    int removeFile(const std::string& path) override;
    int status(const std::string& path, struct stat* info) override;
    int list(const std::string& folder, std::vector<std::string>* names) override;
    int readLink(const std::string& path, std::string* target) override;
    int makeLink(const std::string& target, const std::string& path) override;
    int realPath(const std::string& path, std::string* resolved) override;
    int openFolderAt(int at, const std::string& name, int* fd) override;
    int statusAt(int at, const std::string& name, struct stat* info) override;
    int listAt(int folderFd, std::vector<std::string>* names) override;
    int removeAt(int at, const std::string& name, bool folder) override;

    // Called with the path of every entry looked at (status, statusAt) just after the look: a
    // test changes the tree there to stand for another process racing the code under test.
    std::function<void(const std::string& path)> afterLook;

  private:
    int fault(Call kind);
    std::string pathAt(int at, const std::string& name) const;
    void appeared(const std::string& path);
    void renamed(const std::string& from, const std::string& to);

    tunedeck::checkpoint::FileSystem& m_real = tunedeck::checkpoint::posixFileSystem();
    Call m_failKind = Call::Any;
    int m_failAt = 0;  // 0: no fault
    int m_failError = 0;
    bool m_failAfter = false;
    bool m_failing = false;
    std::map<Call, int> m_counts;
    int m_calls = 0;

    std::map<int, std::string> m_paths;                       // open fd -> path
    std::map<std::string, long long> m_synced;                // written file -> bytes known durable
    std::map<std::string, std::set<std::string>> m_newNames;  // folder -> names not yet durable
    struct Rename {
        std::string from, to;
        bool exchange;
    };
    std::vector<Rename> m_renames;  // not yet durable (the target's folder not synced since)
};
