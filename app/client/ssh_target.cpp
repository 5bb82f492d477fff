#include "client/ssh_target.h"

#include <QCoreApplication>
#include <QUrl>

namespace tunedeck::client {

bool RemoteEngine::parse(const QString& text, RemoteEngine* out, QString* error) {
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || trimmed == QLatin1String("default")) {
        *out = RemoteEngine{};
        return true;
    }
    if (trimmed.startsWith(QLatin1String("unix:")) && trimmed.size() > 5) {
        *out = RemoteEngine{Kind::Socket, trimmed.mid(5), {}, 0};
        return true;
    }
    if (trimmed.startsWith(QLatin1String("tcp:"))) {
        const QString rest = trimmed.mid(4);
        const qsizetype colon = rest.lastIndexOf(':');
        QString host = rest.left(colon);
        if (host.startsWith('[') && host.endsWith(']')) {
            host = host.mid(1, host.size() - 2);
        }
        bool numeric = false;
        const uint port = rest.mid(colon + 1).toUInt(&numeric);
        if (colon > 0 && !host.isEmpty() && numeric && port >= 1 && port <= 65535) {
            *out = RemoteEngine{Kind::Tcp, {}, host, quint16(port)};
            return true;
        }
    }
    *error = QCoreApplication::translate(
                 "SshTarget",
                 "'%1' is not an engine address on the server: write unix:PATH or tcp:HOST:PORT "
                 "(or nothing, for the default socket)")
                 .arg(text);
    return false;
}

QString RemoteEngine::toString() const {
    switch (kind) {
        case Kind::DefaultSocket:
            return {};
        case Kind::Socket:
            return QStringLiteral("unix:") + path;
        case Kind::Tcp:
            return QStringLiteral("tcp:%1:%2")
                .arg(host.contains(':') ? '[' + host + ']' : host)
                .arg(port);
    }
    return {};
}

QString RemoteEngine::describe() const {
    return kind == Kind::DefaultSocket
               ? QCoreApplication::translate("SshTarget", "the default engine socket")
               : toString();
}

bool SshTarget::parse(const QString& text, SshTarget* out, QString* error) {
    QString spec = text.trimmed();
    if (!spec.startsWith(QLatin1String("ssh://"))) {
        spec.prepend(QLatin1String("ssh://"));
    }
    const QUrl url(spec, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() || !url.path().isEmpty() || url.hasQuery() ||
        url.hasFragment() || !url.password().isEmpty()) {
        *error = QCoreApplication::translate(
                     "SshTarget", "'%1' is not an SSH address: write ssh://USER@HOST[:PORT]")
                     .arg(text);
        return false;
    }
    SshTarget target = *out;
    target.host = url.host();
    target.port = url.port(22);
    target.user = url.userName();
    if (target.user.isEmpty()) {
        target.user = qEnvironmentVariable("USER");
    }
    if (target.user.isEmpty()) {
        *error = QCoreApplication::translate("SshTarget",
                                             "'%1' names no user: write ssh://USER@HOST[:PORT]")
                     .arg(text);
        return false;
    }
    *out = target;
    return true;
}

QString SshTarget::toString() const {
    const QString shownHost = host.contains(':') ? '[' + host + ']' : host;
    return port == 22 ? QStringLiteral("ssh://%1@%2").arg(user, shownHost)
                      : QStringLiteral("ssh://%1@%2:%3").arg(user, shownHost).arg(port);
}

ssh::SshEndpoint SshTarget::endpoint() const {
    ssh::SshEndpoint endpoint;
    endpoint.host = host;
    endpoint.port = port;
    endpoint.user = user;
    endpoint.privateKeyFile = privateKeyFile;
    endpoint.knownHostsFile = knownHostsFile;
    endpoint.acceptNewHostKey = acceptNewHostKey;
    return endpoint;
}

bool RemoteEngine::needsAccount() const {
    return kind == Kind::DefaultSocket || (kind == Kind::Socket && !path.startsWith('/'));
}

QString RemoteAccount::query() {
    // printenv prints nothing for an unset variable: echo keeps the line.
    return QStringLiteral("id -u; printenv XDG_RUNTIME_DIR || echo; printenv HOME || echo");
}

bool RemoteAccount::parse(const QByteArray& output, RemoteAccount* out, QString* error) {
    QList<QByteArray> lines = output.split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty()) {
        lines.removeLast();
    }
    bool numeric = false;
    if (lines.size() >= 3) {
        lines = lines.mid(lines.size() - 3);
        lines.first().toUInt(&numeric);
    }
    if (!numeric) {
        *error =
            QCoreApplication::translate("SshTarget", "unexpected answer to '%1' on the server: %2")
                .arg(query(), QString::fromUtf8(output.left(200)).trimmed());
        return false;
    }
    out->uid = QString::fromUtf8(lines.at(0).trimmed());
    out->runtimeDir = QString::fromUtf8(lines.at(1));
    out->home = QString::fromUtf8(lines.at(2));
    return true;
}

QList<ssh::ForwardTarget> forwardTargets(const RemoteEngine& engine, const RemoteAccount& account) {
    using ssh::ForwardTarget;
    switch (engine.kind) {
        case RemoteEngine::Kind::Tcp:
            return {ForwardTarget::tcp(engine.host, engine.port)};
        case RemoteEngine::Kind::Socket: {
            QString path = engine.path;
            if (path == QLatin1String("~")) {
                path = account.home;
            } else if (path.startsWith(QLatin1String("~/"))) {
                path = account.home + path.mid(1);
            } else if (!path.startsWith('/')) {
                // sshd connects from no particular folder; the SSH user's shell starts at home.
                path = account.home + '/' + path;
            }
            return {ForwardTarget::unixSocket(path)};
        }
        case RemoteEngine::Kind::DefaultSocket:
            break;
    }
    QStringList paths;
    if (account.runtimeDir.startsWith('/')) {
        paths << account.runtimeDir + QStringLiteral("/tunedeck/engine.sock");
    }
    paths << QStringLiteral("/run/user/%1/tunedeck/engine.sock").arg(account.uid)
          << QStringLiteral("/tmp/tunedeck-%1/engine.sock").arg(account.uid);
    paths.removeDuplicates();
    QList<ForwardTarget> targets;
    for (const QString& path : paths) {
        targets << ForwardTarget::unixSocket(path);
    }
    return targets;
}

}  // namespace tunedeck::client
