#include "api/server_access.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <cerrno>
#include <cstring>

namespace tunedeck::api {

namespace {

constexpr int kMaxGroups = 1024;         // supplementary groups looked at per user
constexpr qint64 kMaxTokenBytes = 4096;  // a token file longer than this is not one

// Compares without an early exit, so the time taken says nothing about the token.
bool sameToken(const QByteArray& given, const QByteArray& expected) {
    if (expected.isEmpty()) {
        return false;
    }
    unsigned char difference = given.size() == expected.size() ? 0 : 1;
    for (qsizetype i = 0; i < given.size(); ++i) {
        difference |= static_cast<unsigned char>(given[i] ^ expected[i % expected.size()]);
    }
    return difference == 0;
}

// The groups of account `name` (primary `gid` included).
std::vector<gid_t> groupsOf(const char* name, gid_t gid) {
    std::vector<gid_t> groups(kMaxGroups);
    int count = kMaxGroups;
    if (::getgrouplist(name, gid, groups.data(), &count) < 0) {
        count = std::min(count, kMaxGroups);
    }
    groups.resize(std::size_t(std::max(count, 0)));
    return groups;
}

bool inGroup(const std::vector<gid_t>& groups, const QString& group) {
    const std::optional<gid_t> id = groupId(group);
    return id && std::find(groups.begin(), groups.end(), *id) != groups.end();
}

Caller fromAccount(const passwd* entry, const QString& adminGroup) {
    Caller caller;
    caller.user = QString::fromLocal8Bit(entry->pw_name);
    caller.uid = entry->pw_uid;
    caller.admin =
        entry->pw_uid == 0 || entry->pw_uid == ::geteuid() ||
        (!adminGroup.isEmpty() && inGroup(groupsOf(entry->pw_name, entry->pw_gid), adminGroup));
    return caller;
}

// Whether a process of `uid` with `groups` has `want` (a mask over rwx: 4, 2, 1) on `info`.
bool permits(const struct stat& info, qint64 uid, const std::vector<gid_t>& groups, int want) {
    if (uid == 0) {
        return (want & 1) == 0 || (info.st_mode & 0111) != 0 || S_ISDIR(info.st_mode);
    }
    int bits = int(info.st_mode & 07);
    if (qint64(info.st_uid) == uid) {
        bits = int((info.st_mode >> 6) & 07);
    } else if (std::find(groups.begin(), groups.end(), info.st_gid) != groups.end()) {
        bits = int((info.st_mode >> 3) & 07);
    }
    return (bits & want) == want;
}

}  // namespace

std::optional<Caller> ServerAccess::callerForToken(const QByteArray& given) const {
    std::optional<Caller> found;
    if (sameToken(given, token.toUtf8())) {
        found = engineUser();
    }
    for (const UserToken& t : userTokens) {
        if (sameToken(given, t.token) && !found) {
            found = callerOfUser(t.user, adminGroup);
        }
    }
    return found;
}

Caller callerOfUid(uid_t uid, const QString& adminGroup) {
    if (const passwd* entry = ::getpwuid(uid)) {
        return fromAccount(entry, adminGroup);
    }
    return Caller{QStringLiteral("uid %1").arg(uid), qint64(uid), uid == 0 || uid == ::geteuid()};
}

Caller callerOfUser(const QString& user, const QString& adminGroup) {
    if (const passwd* entry = ::getpwnam(QFile::encodeName(user).constData())) {
        return fromAccount(entry, adminGroup);
    }
    return Caller{user, -1, false};
}

Caller engineUser() {
    Caller caller = callerOfUid(::geteuid(), QString());
    caller.admin = true;
    return caller;
}

bool callerMayRead(const Caller& caller, const QString& path) {
    if (caller.admin) {
        return true;
    }
    std::vector<gid_t> groups;
    if (caller.uid >= 0) {
        if (const passwd* entry = ::getpwuid(uid_t(caller.uid))) {
            groups = groupsOf(entry->pw_name, entry->pw_gid);
        }
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    struct stat info {};
    if (::stat(QFile::encodeName(absolute).constData(), &info) != 0 || !S_ISREG(info.st_mode) ||
        !permits(info, caller.uid, groups, 4)) {
        return false;
    }
    for (QString folder = QFileInfo(absolute).path();; folder = QFileInfo(folder).path()) {
        if (::stat(QFile::encodeName(folder).constData(), &info) != 0 ||
            !permits(info, caller.uid, groups, 1)) {
            return false;
        }
        if (folder == QLatin1String("/")) {
            return true;
        }
    }
}

std::optional<gid_t> groupId(const QString& group) {
    if (const struct group* entry = ::getgrnam(QFile::encodeName(group).constData())) {
        return entry->gr_gid;
    }
    return std::nullopt;
}

Status readTokenFolder(const QString& folder, std::vector<UserToken>* tokens) {
    const QByteArray path = QFile::encodeName(folder);
    struct stat info {};
    if (::lstat(path.constData(), &info) != 0 || !S_ISDIR(info.st_mode)) {
        return Status::invalid(
            QStringLiteral("--token-dir %1: not a folder (a symlink is not taken)").arg(folder));
    }
    if (info.st_uid != ::geteuid() || (info.st_mode & 0077) != 0) {
        return Status::invalid(QStringLiteral("--token-dir %1: it must belong to the engine's "
                                              "user and be closed to everyone else (chmod 700)")
                                   .arg(folder));
    }
    QSet<QByteArray> seen;
    for (const QString& name :
         QDir(folder).entryList(QDir::Files | QDir::System | QDir::Hidden, QDir::Name)) {
        const QString file = folder + '/' + name;
        const int fd = ::open(QFile::encodeName(file).constData(),
                              O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) {
            return Status::invalid(QStringLiteral("--token-dir: %1: cannot read it: %2")
                                       .arg(file, QString::fromLocal8Bit(std::strerror(errno))));
        }
        QFile in;
        in.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle);
        if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || (info.st_mode & 0077) != 0) {
            return Status::invalid(
                QStringLiteral("--token-dir: %1: must be a file only the engine's user may read "
                               "(chmod 600)")
                    .arg(file));
        }
        const QByteArray token = in.read(kMaxTokenBytes).split('\n').value(0).trimmed();
        if (token.isEmpty()) {
            return Status::invalid(
                QStringLiteral("--token-dir: %1: the first line is empty").arg(file));
        }
        if (seen.contains(token)) {
            return Status::invalid(
                QStringLiteral("--token-dir: %1: this token is also another user's; give each "
                               "user a token of their own")
                    .arg(file));
        }
        seen.insert(token);
        tokens->push_back({name, token});
    }
    if (tokens->empty()) {
        return Status::invalid(
            QStringLiteral("--token-dir %1: no token files (one per user, named by the user)")
                .arg(folder));
    }
    return Status::ok();
}

}  // namespace tunedeck::api
