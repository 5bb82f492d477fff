#include "cluster/ssh/known_hosts.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace tunedeck::ssh {
namespace {

struct KeyType {
    int hostKeyType;    // LIBSSH2_HOSTKEY_TYPE_*
    int knownHostBits;  // LIBSSH2_KNOWNHOST_KEY_*
    const char* name;
};

// Strongest first: the order known algorithms are offered in.
constexpr KeyType kKeyTypes[] = {
    {LIBSSH2_HOSTKEY_TYPE_ED25519, LIBSSH2_KNOWNHOST_KEY_ED25519, "ssh-ed25519"},
    {LIBSSH2_HOSTKEY_TYPE_ECDSA_521, LIBSSH2_KNOWNHOST_KEY_ECDSA_521, "ecdsa-sha2-nistp521"},
    {LIBSSH2_HOSTKEY_TYPE_ECDSA_384, LIBSSH2_KNOWNHOST_KEY_ECDSA_384, "ecdsa-sha2-nistp384"},
    {LIBSSH2_HOSTKEY_TYPE_ECDSA_256, LIBSSH2_KNOWNHOST_KEY_ECDSA_256, "ecdsa-sha2-nistp256"},
    {LIBSSH2_HOSTKEY_TYPE_RSA, LIBSSH2_KNOWNHOST_KEY_SSHRSA, "ssh-rsa"},
    {LIBSSH2_HOSTKEY_TYPE_DSS, LIBSSH2_KNOWNHOST_KEY_SSHDSS, "ssh-dss"},
};

int knownHostBits(int hostKeyType) {
    for (const KeyType& type : kKeyTypes) {
        if (type.hostKeyType == hostKeyType) {
            return type.knownHostBits;
        }
    }
    return LIBSSH2_KNOWNHOST_KEY_UNKNOWN;
}

QString knownHostTypeName(int typemask) {
    const int bits = typemask & LIBSSH2_KNOWNHOST_KEY_MASK;
    for (const KeyType& type : kKeyTypes) {
        if (type.knownHostBits == bits) {
            return QString::fromLatin1(type.name);
        }
    }
    return QStringLiteral("unknown key type");
}

constexpr int kPlainRaw = LIBSSH2_KNOWNHOST_TYPE_PLAIN | LIBSSH2_KNOWNHOST_KEYENC_RAW;

}  // namespace

QString sha256Fingerprint(const QByteArray& keyBlob) {
    const QByteArray digest = QCryptographicHash::hash(keyBlob, QCryptographicHash::Sha256);
    return QStringLiteral("SHA256:") +
           QString::fromLatin1(digest.toBase64(QByteArray::OmitTrailingEquals));
}

QString hostKeyTypeName(int hostKeyType) {
    for (const KeyType& type : kKeyTypes) {
        if (type.hostKeyType == hostKeyType) {
            return QString::fromLatin1(type.name);
        }
    }
    return QStringLiteral("unknown key type");
}

bool KnownHosts::load(LIBSSH2_SESSION* session, const QString& file, QString* error) {
    file_ = file;
    lines_.clear();
    skippedLines_ = 0;
    hosts_.reset(libssh2_knownhost_init(session));
    if (!hosts_) {
        *error = QStringLiteral("cannot allocate a known_hosts list");
        return false;
    }
    QFile in(file);
    if (!in.exists()) {
        return true;
    }
    if (!in.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read known_hosts file %1: %2").arg(file, in.errorString());
        return false;
    }
    // Read line by line (not libssh2_knownhost_readfile, which gives up on the first line it
    // does not understand) so that every entry keeps its line number.
    const libssh2_knownhost* last = nullptr;
    int lineNumber = 0;
    while (!in.atEnd()) {
        QByteArray line = in.readLine();
        ++lineNumber;
        while (!line.isEmpty() && (line.endsWith('\n') || line.endsWith('\r'))) {
            line.chop(1);
        }
        const QByteArray trimmed = line.trimmed();
        if (trimmed.isEmpty() || trimmed.startsWith('#')) {
            continue;
        }
        if (trimmed.startsWith('@')) {  // @cert-authority, @revoked: not understood by libssh2
            ++skippedLines_;
            continue;
        }
        if (libssh2_knownhost_readline(hosts_.get(), trimmed.constData(),
                                       static_cast<size_t>(trimmed.size()),
                                       LIBSSH2_KNOWNHOST_FILE_OPENSSH) != 0) {
            ++skippedLines_;
            continue;
        }
        libssh2_knownhost* entry = nullptr;
        auto* prev = const_cast<libssh2_knownhost*>(last);
        while (libssh2_knownhost_get(hosts_.get(), &entry, prev) == 0) {
            lines_.emplace_back(entry, lineNumber);
            last = entry;
            prev = entry;
        }
    }
    return true;
}

int KnownHosts::lineOf(const libssh2_knownhost* entry) const {
    for (const auto& [known, line] : lines_) {
        if (known == entry) {
            return line;
        }
    }
    return 0;
}

QStringList KnownHosts::knownKeyAlgorithms(const QByteArray& hostName) const {
    QStringList algorithms;
    if (!hosts_) {
        return algorithms;
    }
    // Asking with a key that matches nothing answers "mismatch" exactly when an entry of that
    // type exists for the name, hashed or not.
    static const char probe[] = {'\0'};
    for (const KeyType& type : kKeyTypes) {
        const int rc = libssh2_knownhost_checkp(hosts_.get(), hostName.constData(), -1, probe, 1,
                                                kPlainRaw | type.knownHostBits, nullptr);
        if (rc == LIBSSH2_KNOWNHOST_CHECK_MISMATCH) {
            algorithms.append(QString::fromLatin1(type.name));
        }
    }
    return algorithms;
}

HostKeyVerdict KnownHosts::check(const QByteArray& hostName, const QByteArray& keyBlob,
                                 int hostKeyType) const {
    HostKeyVerdict verdict;
    if (!hosts_) {
        return verdict;
    }
    libssh2_knownhost* found = nullptr;
    int rc = libssh2_knownhost_checkp(hosts_.get(), hostName.constData(), -1, keyBlob.constData(),
                                      static_cast<size_t>(keyBlob.size()),
                                      kPlainRaw | knownHostBits(hostKeyType), &found);
    if (rc == LIBSSH2_KNOWNHOST_CHECK_MATCH) {
        verdict.kind = HostKeyVerdict::Kind::Match;
        return verdict;
    }
    if (rc != LIBSSH2_KNOWNHOST_CHECK_MISMATCH) {
        // Key type 0 compares against entries of every type: any entry for this name is then a
        // key the host no longer presents.
        found = nullptr;
        rc = libssh2_knownhost_checkp(hosts_.get(), hostName.constData(), -1, keyBlob.constData(),
                                      static_cast<size_t>(keyBlob.size()), kPlainRaw, &found);
    }
    if (rc == LIBSSH2_KNOWNHOST_CHECK_MISMATCH && found) {
        verdict.kind = HostKeyVerdict::Kind::Changed;
        verdict.line = lineOf(found);
        verdict.knownKeyType = knownHostTypeName(found->typemask);
        if (found->key) {
            verdict.knownFingerprint = sha256Fingerprint(QByteArray::fromBase64(found->key));
        }
        return verdict;
    }
    if (rc == LIBSSH2_KNOWNHOST_CHECK_MATCH) {
        verdict.kind = HostKeyVerdict::Kind::Match;
    }
    return verdict;
}

bool KnownHosts::append(const QByteArray& hostName, const QByteArray& keyBlob, int hostKeyType,
                        QString* error) {
    libssh2_knownhost* entry = nullptr;
    if (libssh2_knownhost_addc(hosts_.get(), hostName.constData(), nullptr, keyBlob.constData(),
                               static_cast<size_t>(keyBlob.size()), nullptr, 0,
                               kPlainRaw | knownHostBits(hostKeyType), &entry) != 0) {
        *error = QStringLiteral("cannot add the key of %1 to the known hosts list")
                     .arg(QString::fromUtf8(hostName));
        return false;
    }
    char line[16384];
    size_t length = 0;
    if (libssh2_knownhost_writeline(hosts_.get(), entry, line, sizeof line, &length,
                                    LIBSSH2_KNOWNHOST_FILE_OPENSSH) != 0) {
        *error = QStringLiteral("cannot format the known_hosts line for %1")
                     .arg(QString::fromUtf8(hostName));
        return false;
    }
    const QFileInfo info(file_);
    if (!info.absoluteDir().exists() && !QDir().mkpath(info.absolutePath())) {
        *error = QStringLiteral("cannot create folder %1 for known_hosts").arg(info.absolutePath());
        return false;
    }
    if (!info.exists()) {
        // A new ~/.ssh is private, as ssh creates it.
        QFile::setPermissions(info.absolutePath(),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    QFile out(file_);
    if (!out.open(QIODevice::ReadWrite | QIODevice::Append)) {
        *error =
            QStringLiteral("cannot write known_hosts file %1: %2").arg(file_, out.errorString());
        return false;
    }
    QByteArray text(line, static_cast<qsizetype>(length));
    if (out.size() > 0) {
        out.seek(out.size() - 1);
        char lastChar = '\n';
        out.getChar(&lastChar);
        if (lastChar != '\n') {
            text.prepend('\n');
        }
    }
    if (out.write(text) != text.size() || !out.flush()) {
        *error =
            QStringLiteral("cannot write known_hosts file %1: %2").arg(file_, out.errorString());
        return false;
    }
    lines_.emplace_back(entry, 0);
    return true;
}

}  // namespace tunedeck::ssh
