#include "faulty_file_system.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

namespace {

std::string parentOf(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

std::string nameOf(const std::string& path) {
    return path.substr(path.find_last_of('/') + 1);
}

bool startsWithFolder(const std::string& path, const std::string& folder) {
    return path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 &&
           path[folder.size()] == '/';
}

}  // namespace

void FaultyFileSystem::failAt(Call kind, int nth, int error, bool andAfter) {
    m_failKind = kind;
    m_failAt = (kind == Call::Any ? m_calls : m_counts[kind]) + nth;
    m_failError = error;
    m_failAfter = andAfter;
}

int FaultyFileSystem::fault(Call kind) {
    ++m_calls;
    const int count = ++m_counts[kind];
    if (m_failing) {
        return m_failError;
    }
    if (m_failAt == 0) {
        return 0;
    }
    const int reached = m_failKind == Call::Any ? m_calls : (kind == m_failKind ? count : 0);
    if (reached == m_failAt) {
        m_failing = m_failAfter;
        return m_failError;
    }
    return 0;
}

void FaultyFileSystem::appeared(const std::string& path) {
    m_newNames[parentOf(path)].insert(nameOf(path));
}

void FaultyFileSystem::renamed(const std::string& from, const std::string& to) {
    // What is known of the tree under `from` now belongs to `to`.
    std::map<std::string, long long> synced;
    for (auto& [path, size] : m_synced) {
        if (path == from || startsWithFolder(path, from)) {
            synced[to + path.substr(from.size())] = size;
        } else {
            synced[path] = size;
        }
    }
    m_synced = std::move(synced);
    std::map<std::string, std::set<std::string>> names;
    for (auto& [folder, set] : m_newNames) {
        if (folder == from || startsWithFolder(folder, from)) {
            names[to + folder.substr(from.size())] = set;
        } else {
            names[folder].insert(set.begin(), set.end());
        }
    }
    m_newNames = std::move(names);
    if (m_newNames[parentOf(from)].erase(nameOf(from)) != 0) {
        appeared(to);  // renamed before its creation was durable: still not durable
    }
}

int FaultyFileSystem::openFile(const std::string& path, int flags, mode_t mode, int* fd) {
    if (const int error = fault(Call::Any)) {
        return error;
    }
    struct stat info {};
    const bool existed = ::lstat(path.c_str(), &info) == 0;
    const int error = m_real.openFile(path, flags, mode, fd);
    if (error == 0) {
        m_paths[*fd] = path;
        if (flags & (O_WRONLY | O_RDWR)) {
            if (!existed || (flags & O_TRUNC)) {
                m_synced[path] = 0;
            } else if (!m_synced.count(path)) {
                m_synced[path] = info.st_size;
            }
        }
        if (!existed) {
            appeared(path);
        }
    }
    return error;
}

int FaultyFileSystem::read(int fd, char* data, std::size_t size, std::size_t* got) {
    if (const int error = fault(Call::Any)) {
        return error;
    }
    return m_real.read(fd, data, size, got);
}

int FaultyFileSystem::write(int fd, const char* data, std::size_t size) {
    if (const int error = fault(Call::Write)) {
        return error;
    }
    return m_real.write(fd, data, size);
}

int FaultyFileSystem::sync(int fd) {
    if (const int error = fault(Call::Sync)) {
        return error;
    }
    const int error = m_real.sync(fd);
    if (error == 0) {
        const std::string& path = m_paths[fd];
        struct stat info {};
        if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
            m_newNames.erase(path);
            std::erase_if(m_renames, [&](const Rename& r) { return parentOf(r.to) == path; });
        } else if (::fstat(fd, &info) == 0) {
            m_synced[path] = info.st_size;
        }
    }
    return error;
}

int FaultyFileSystem::close(int fd) {
    m_paths.erase(fd);
    return m_real.close(fd);
}

int FaultyFileSystem::makeFolder(const std::string& path, mode_t mode) {
    if (const int error = fault(Call::Any)) {
        return error;
    }
    const int error = m_real.makeFolder(path, mode);
    if (error == 0) {
        appeared(path);
    }
    return error;
}

int FaultyFileSystem::rename(const std::string& from, const std::string& to) {
    if (const int error = fault(Call::Rename)) {
        return error;
    }
    const int error = m_real.rename(from, to);
    if (error == 0) {
        renamed(from, to);
        m_renames.push_back({from, to, false});
    }
    return error;
}

int FaultyFileSystem::exchange(const std::string& a, const std::string& b) {
    if (const int error = fault(Call::Rename)) {
        return error;
    }
    const int error = m_real.exchange(a, b);
    if (error == 0) {
        const std::string aside = a + "\x01";
        renamed(a, aside);
        renamed(b, a);
        renamed(aside, b);
        m_renames.push_back({a, b, true});
    }
    return error;
}

int FaultyFileSystem::removeFile(const std::string& path) {
    if (const int error = fault(Call::Any)) {
        return error;
    }
    m_synced.erase(path);
    return m_real.removeFile(path);
}

int FaultyFileSystem::status(const std::string& path, struct stat* info) {
    const int error = m_real.status(path, info);  // a look is not a write: never fails here
    if (afterLook) {
        afterLook(path);
    }
    return error;
}

std::string FaultyFileSystem::pathAt(int at, const std::string& name) const {
    const auto folder = m_paths.find(at);
    return folder == m_paths.end() ? name : folder->second + "/" + name;
}

int FaultyFileSystem::openFolderAt(int at, const std::string& name, int* fd) {
    if (const int error = fault(Call::Any)) {
        return error;
    }
    const int error = m_real.openFolderAt(at, name, fd);
    if (error == 0) {
        m_paths[*fd] = pathAt(at, name);
    }
    return error;
}

int FaultyFileSystem::statusAt(int at, const std::string& name, struct stat* info) {
    const int error = m_real.statusAt(at, name, info);
    if (afterLook) {
        afterLook(pathAt(at, name));
    }
    return error;
}

int FaultyFileSystem::listAt(int folderFd, std::vector<std::string>* names) {
    return m_real.listAt(folderFd, names);
}

int FaultyFileSystem::removeAt(int at, const std::string& name, bool folder) {
    if (const int error = fault(Call::Any)) {
        return error;
    }
    m_synced.erase(pathAt(at, name));
    return m_real.removeAt(at, name, folder);
}

int FaultyFileSystem::list(const std::string& folder, std::vector<std::string>* names) {
    return m_real.list(folder, names);
}

int FaultyFileSystem::readLink(const std::string& path, std::string* target) {
    return m_real.readLink(path, target);
}

int FaultyFileSystem::makeLink(const std::string& target, const std::string& path) {
    if (const int error = fault(Call::Any)) {
        return error;
    }
    const int error = m_real.makeLink(target, path);
    if (error == 0) {
        appeared(path);
    }
    return error;
}

int FaultyFileSystem::realPath(const std::string& path, std::string* resolved) {
    return m_real.realPath(path, resolved);
}

void FaultyFileSystem::notSynced(const std::string& path) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
        m_synced[path] = 0;
    }
    appeared(path);
}

void FaultyFileSystem::dropUnsyncedData() {
    for (const auto& [path, size] : m_synced) {
        if (::truncate(path.c_str(), size) != 0 && errno != ENOENT) {
            continue;
        }
    }
    // Deepest folders first, so a name dropped inside a folder that itself goes is harmless.
    for (auto it = m_newNames.rbegin(); it != m_newNames.rend(); ++it) {
        for (const std::string& name : it->second) {
            std::error_code ignored;
            std::filesystem::remove_all(it->first + "/" + name, ignored);
        }
    }
    for (auto it = m_renames.rbegin(); it != m_renames.rend(); ++it) {
        if (it->exchange) {
            m_real.exchange(it->from, it->to);
        } else if (::access(it->to.c_str(), F_OK) == 0 && ::access(it->from.c_str(), F_OK) != 0) {
            m_real.rename(it->to, it->from);
        }
    }
    m_renames.clear();
    m_synced.clear();
    m_newNames.clear();
    m_failing = false;
    m_failAt = 0;
}
