// Where an engine on a server is and how to reach it over SSH: the user, host and key of the
// connection, and the engine's endpoint as seen from the server (its user's default local socket,
// another socket, or a loopback TCP port with a token). Parsed from what users type
// ("ssh://alice@gpu1:2222", "tcp:127.0.0.1:7788"). Thread-safety: plain values.
#pragma once

#include <QList>
#include <QString>

#include "cluster/ssh/forward_channel.h"
#include "cluster/ssh/ssh_endpoint.h"

namespace tunedeck::client {

// The engine as the server sees it.
struct RemoteEngine {
    enum class Kind {
        // `serve`'s default for the SSH user: $XDG_RUNTIME_DIR/tunedeck/engine.sock, or
        // /run/user/UID/... when the SSH session has no runtime folder set, or /tmp/tunedeck-UID/.
        DefaultSocket,
        Socket,
        Tcp
    };
    Kind kind = Kind::DefaultSocket;
    QString path;  // Socket; "~/" and relative paths start at the SSH user's home
    QString host;  // Tcp
    quint16 port = 0;

    // "" or "default", "unix:PATH", "tcp:HOST:PORT". False with a message in `error`.
    static bool parse(const QString& text, RemoteEngine* out, QString* error);
    // What parse() reads back; "" for the default socket.
    QString toString() const;
    // For messages: "the default engine socket", "unix:/srv/e.sock", "tcp:127.0.0.1:7788".
    QString describe() const;
    bool needsToken() const { return kind == Kind::Tcp; }
    // Whether reaching it needs the SSH user's account details (RemoteAccount): the default
    // socket, or a path that is not absolute.
    bool needsAccount() const;
};

// What the server says about the SSH user, asked once per SSH session when the engine's address
// depends on it: its uid, the session's $XDG_RUNTIME_DIR (may be empty) and $HOME.
struct RemoteAccount {
    QString uid;
    QString runtimeDir;
    QString home;

    // The command that asks (run over one exec channel; `id` and `printenv` only). It prints
    // three lines, the last three of its output whatever a login script printed before.
    static QString query();
    // False (with why in `error`) when `output` is not the query's answer.
    static bool parse(const QByteArray& output, RemoteAccount* out, QString* error);
};

// Where the server's sshd is asked to connect, in the order tried: one target, or for the
// default socket the places `serve` puts it ($XDG_RUNTIME_DIR/tunedeck/engine.sock,
// /run/user/UID/tunedeck/engine.sock, /tmp/tunedeck-UID/engine.sock). `account` is used only when
// engine.needsAccount().
QList<ssh::ForwardTarget> forwardTargets(const RemoteEngine& engine, const RemoteAccount& account);

struct SshTarget {
    QString user;
    QString host;
    int port = 22;
    // Empty: the keys of the ssh-agent that SSH_AUTH_SOCK names.
    QString privateKeyFile;
    // Empty: ~/.ssh/known_hosts.
    QString knownHostsFile;
    // The user's word, given in advance (--accept-new-host-key): an unknown key is recorded.
    // A changed key is refused whatever this says.
    bool acceptNewHostKey = false;
    RemoteEngine engine;
    // The engine's token when it listens on TCP (the first line of its --token-file).
    QString token;

    // Sets user, host and port from "ssh://USER@HOST[:PORT]" or "USER@HOST[:PORT]" (without
    // USER, the local user name, as ssh does; IPv6 literals in brackets), leaving the other
    // fields as they are. False with a message in `error`.
    static bool parse(const QString& text, SshTarget* out, QString* error);
    // "ssh://user@host:port" (the port only when not 22).
    QString toString() const;
    ssh::SshEndpoint endpoint() const;
};

}  // namespace tunedeck::client
