#include "cluster/ssh/ssh_auth.h"

#include <QFile>
#include <QFileInfo>
#include <QtEndian>

namespace tunedeck::ssh {
namespace {

// Reads one SSH wire-format string from `data` at `pos`.
bool readSshString(const QByteArray& data, qsizetype& pos, QByteArray* out) {
    if (pos + 4 > data.size()) {
        return false;
    }
    const quint32 length = qFromBigEndian<quint32>(data.constData() + pos);
    pos += 4;
    if (length > static_cast<quint32>(data.size() - pos)) {
        return false;
    }
    if (out) {
        *out = data.mid(pos, length);
    }
    pos += length;
    return true;
}

}  // namespace

QString privateKeyAlgorithm(const QString& file) {
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray text = in.read(1 << 16);
    if (text.startsWith("-----BEGIN RSA PRIVATE KEY-----")) {
        return QStringLiteral("ssh-rsa");
    }
    if (text.startsWith("-----BEGIN EC PRIVATE KEY-----")) {
        return QStringLiteral("ecdsa");
    }
    if (text.startsWith("-----BEGIN DSA PRIVATE KEY-----")) {
        return QStringLiteral("ssh-dss");
    }
    static const QByteArray begin = "-----BEGIN OPENSSH PRIVATE KEY-----";
    static const QByteArray end = "-----END OPENSSH PRIVATE KEY-----";
    if (!text.startsWith(begin)) {
        return {};
    }
    const qsizetype stop = text.indexOf(end);
    if (stop < 0) {
        return {};
    }
    const QByteArray blob = QByteArray::fromBase64(text.mid(begin.size(), stop - begin.size()));
    static const QByteArray magic("openssh-key-v1\0", 15);
    if (!blob.startsWith(magic)) {
        return {};
    }
    qsizetype pos = magic.size();
    // ciphername, kdfname, kdfoptions, then the number of keys and the first public key.
    for (int i = 0; i < 3; ++i) {
        if (!readSshString(blob, pos, nullptr)) {
            return {};
        }
    }
    pos += 4;
    QByteArray publicKey;
    if (!readSshString(blob, pos, &publicKey)) {
        return {};
    }
    qsizetype keyPos = 0;
    QByteArray type;
    if (!readSshString(publicKey, keyPos, &type)) {
        return {};
    }
    return QString::fromLatin1(type);
}

SshAuthenticator::SshAuthenticator(const SshEndpoint& endpoint, LIBSSH2_SESSION* session)
    : endpoint_(endpoint), session_(session), user_(endpoint.user.toUtf8()) {}

QString SshAuthenticator::who() const {
    return QStringLiteral("%1@%2").arg(endpoint_.user, endpoint_.name());
}

SshAuthenticator::Step SshAuthenticator::fail(SshFailureKind kind, const QString& message) {
    failureKind_ = kind;
    failure_ = message;
    stage_ = Stage::Done;
    agent_.reset();
    return Step::Failed;
}

SshAuthenticator::Step SshAuthenticator::failFromLibssh2(int rc, const QString& during) {
    char* text = nullptr;
    libssh2_session_last_error(session_, &text, nullptr, 0);
    const QString detail = text ? QString::fromUtf8(text) : QStringLiteral("error %1").arg(rc);
    return fail(isSessionFatal(rc) ? SshFailureKind::Disconnected : SshFailureKind::Protocol,
                QStringLiteral("%1: %2: %3").arg(who(), during, detail));
}

SshAuthenticator::Step SshAuthenticator::step() {
    for (;;) {
        Step result = Step::Again;
        const Stage before = stage_;
        switch (stage_) {
            case Stage::ListMethods:
                result = stepListMethods();
                break;
            case Stage::KeyFile:
                result = stepKeyFile();
                break;
            case Stage::AgentConnect:
                result = stepAgentConnect();
                break;
            case Stage::AgentNextIdentity:
            case Stage::AgentTry:
                result = stepAgentTry();
                break;
            case Stage::Done:
                return Step::Done;
        }
        if (result != Step::Again || stage_ == before) {
            return result;
        }
    }
}

SshAuthenticator::Step SshAuthenticator::stepListMethods() {
    // Asking for the methods is the "none" attempt: it also tells a host that needs no
    // authentication apart from one that takes no public keys.
    const char* methods =
        libssh2_userauth_list(session_, user_.constData(), static_cast<unsigned>(user_.size()));
    if (!methods) {
        if (libssh2_userauth_authenticated(session_)) {
            stage_ = Stage::Done;
            return Step::Done;
        }
        const int rc = libssh2_session_last_errno(session_);
        if (rc == LIBSSH2_ERROR_EAGAIN) {
            return Step::Again;
        }
        return failFromLibssh2(rc, QStringLiteral("asking for authentication methods"));
    }
    const QByteArrayList offered = QByteArray(methods).split(',');
    if (!offered.contains("publickey")) {
        return fail(SshFailureKind::AuthFailed,
                    QStringLiteral("authentication failed for %1: the host accepts no public key "
                                   "for this user (it offers: %2)")
                        .arg(who(), QString::fromLatin1(methods)));
    }
    stage_ = endpoint_.privateKeyFile.isEmpty() ? Stage::AgentConnect : Stage::KeyFile;
    return Step::Again;
}

SshAuthenticator::Step SshAuthenticator::stepKeyFile() {
    const QString& path = endpoint_.privateKeyFile;
    const QFileInfo info(path);
    if (!info.isFile() || !info.isReadable()) {
        return fail(SshFailureKind::AuthFailed,
                    QStringLiteral("authentication failed for %1: cannot read private key file %2")
                        .arg(who(), path));
    }
    const QByteArray file = QFile::encodeName(path);
    const QByteArray passphrase = endpoint_.privateKeyPassphrase.toUtf8();
    const int rc = libssh2_userauth_publickey_fromfile_ex(
        session_, user_.constData(), static_cast<unsigned>(user_.size()), nullptr, file.constData(),
        passphrase.isEmpty() ? nullptr : passphrase.constData());
    if (rc == LIBSSH2_ERROR_EAGAIN) {
        return Step::Again;
    }
    if (rc == 0) {
        stage_ = Stage::Done;
        return Step::Done;
    }
    if (rc == LIBSSH2_ERROR_FILE) {
        const QString why = endpoint_.privateKeyPassphrase.isEmpty()
                                ? QStringLiteral(
                                      "it is encrypted (no passphrase was given) or its "
                                      "format is not supported")
                                : QStringLiteral(
                                      "the passphrase is wrong or its format is not "
                                      "supported");
        return fail(SshFailureKind::AuthFailed,
                    QStringLiteral("authentication failed for %1: cannot use private key file %2: "
                                   "%3")
                        .arg(who(), path, why));
    }
    if (rc == LIBSSH2_ERROR_AUTHENTICATION_FAILED || rc == LIBSSH2_ERROR_PUBLICKEY_UNVERIFIED ||
        rc == LIBSSH2_ERROR_PUBLICKEY_UNRECOGNIZED) {
        QString message =
            QStringLiteral("authentication failed for %1: the host refused the key in %2")
                .arg(who(), path);
#if LIBSSH2_VERSION_NUM < 0x010b00
        // libssh2 before 1.11 signs with RSA only as "ssh-rsa" (SHA-1), which OpenSSH 8.8 and
        // later refuse unless the server adds it to PubkeyAcceptedAlgorithms.
        if (privateKeyAlgorithm(path) == QLatin1String("ssh-rsa")) {
            message += QStringLiteral(
                " (this libssh2 signs RSA keys with SHA-1 only, which OpenSSH 8.8 and later refuse "
                "by default: use an ed25519 key)");
        }
#endif
        return fail(SshFailureKind::AuthFailed, message);
    }
    return failFromLibssh2(rc, QStringLiteral("authenticating with key file %1").arg(path));
}

SshAuthenticator::Step SshAuthenticator::stepAgentConnect() {
    if (qEnvironmentVariableIsEmpty("SSH_AUTH_SOCK")) {
        return fail(SshFailureKind::AuthFailed,
                    QStringLiteral("authentication failed for %1: no private key file was given "
                                   "and SSH_AUTH_SOCK is not set, so there is no ssh-agent to ask")
                        .arg(who()));
    }
    agent_.reset(libssh2_agent_init(session_));
    if (!agent_ || libssh2_agent_connect(agent_.get()) != 0) {
        return fail(SshFailureKind::AuthFailed,
                    QStringLiteral("authentication failed for %1: cannot reach ssh-agent at %2")
                        .arg(who(), qEnvironmentVariable("SSH_AUTH_SOCK")));
    }
    if (libssh2_agent_list_identities(agent_.get()) != 0) {
        return fail(SshFailureKind::AuthFailed,
                    QStringLiteral("authentication failed for %1: ssh-agent did not list its keys")
                        .arg(who()));
    }
    identity_ = nullptr;
    stage_ = Stage::AgentNextIdentity;
    return Step::Again;
}

SshAuthenticator::Step SshAuthenticator::stepAgentTry() {
    for (;;) {
        if (stage_ == Stage::AgentNextIdentity) {
            libssh2_agent_publickey* next = nullptr;
            const int rc = libssh2_agent_get_identity(agent_.get(), &next, identity_);
            if (rc != 0) {
                const QString what =
                    identitiesTried_ == 0 ? QStringLiteral("ssh-agent holds no key")
                    : identitiesTried_ == 1
                        ? QStringLiteral("the host did not accept the one key in ssh-agent")
                        : QStringLiteral("the host accepted none of the %1 keys in ssh-agent")
                              .arg(identitiesTried_);
                return fail(SshFailureKind::AuthFailed,
                            QStringLiteral("authentication failed for %1: %2").arg(who(), what));
            }
            identity_ = next;
            ++identitiesTried_;
            stage_ = Stage::AgentTry;
        }
        // The same identity is passed again after EAGAIN, as libssh2 requires.
        const int rc = libssh2_agent_userauth(agent_.get(), user_.constData(), identity_);
        if (rc == LIBSSH2_ERROR_EAGAIN) {
            return Step::Again;
        }
        if (rc == 0) {
            stage_ = Stage::Done;
            agent_.reset();
            return Step::Done;
        }
        if (isSessionFatal(rc)) {
            return failFromLibssh2(rc, QStringLiteral("authenticating with ssh-agent"));
        }
        stage_ = Stage::AgentNextIdentity;
    }
}

}  // namespace tunedeck::ssh
