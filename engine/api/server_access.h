// Who may reach a `serve` and who each connection is: on the local socket, the peer's uid as the
// kernel reports it (SO_PEERCRED); on TCP, the user whose token the hello carries. The server
// decides a connection's Caller (core/experiment_access.h) once, from these, and never from what
// a request says. Reading the token files happens once at start; thread-safe afterwards (const).
#pragma once

#include <sys/types.h>

#include <QByteArray>
#include <QString>
#include <optional>
#include <vector>

#include "core/experiment_access.h"
#include "core/status.h"

namespace tunedeck::api {

struct UserToken {
    QString user;
    QByteArray token;
};

struct ServerAccess {
    // --token-file: whoever knows it is the engine's own user (one person's engine, or a lab
    // that shares one identity).
    QString token;
    // --token-dir: one token per user; the hello's token says who the connection is.
    std::vector<UserToken> userTokens;
    // --socket-group: the local socket is 0660 and this group's members may connect, each known
    // by their own uid; empty: the socket is 0600, the engine's own user (and root) only.
    QString socketGroup;
    // --admin-group: its members may act on every experiment, as root and the engine's user do.
    QString adminGroup;

    bool needsToken() const { return !token.isEmpty() || !userTokens.empty(); }
    // The caller a hello's `given` token makes the connection, or none for a wrong token. Takes
    // the same time whichever token (or none) matches.
    std::optional<Caller> callerForToken(const QByteArray& given) const;
};

// The caller with uid `uid` (a socket peer): named by the account database, admin when root,
// the engine's own user, or in `adminGroup`.
Caller callerOfUid(uid_t uid, const QString& adminGroup);
// The caller named `user` (a token's owner); its uid when the account exists, else -1.
Caller callerOfUser(const QString& user, const QString& adminGroup);
// The engine's own user, as a caller (always an admin).
Caller engineUser();

// Whether a user `caller` could read `path` themselves: the file's owner, group and mode bits,
// and search permission on every folder above it, checked as the kernel would for that uid and
// their groups. The server reads a file a request names only when its sender could.
bool callerMayRead(const Caller& caller, const QString& path);

// Reads --token-dir: a folder that belongs to the engine's user and that no one else may enter
// (chmod 700), holding one file per user, named by the user's login name, each not readable by
// others and holding the user's token on its first line. Symlinks, empty tokens and a token used
// twice are refused, naming the file.
Status readTokenFolder(const QString& folder, std::vector<UserToken>* tokens);

// A group's id by name; none when there is no such group.
std::optional<gid_t> groupId(const QString& group);

}  // namespace tunedeck::api
