// Host key checking against an OpenSSH known_hosts file, with OpenSSH's rules: a host on another
// port than 22 is written "[host]:port" (and only that name is looked up), hashed names match,
// an unknown key is appended as one plain line, and the file is never rewritten.
// Thread-safety: one KnownHosts belongs to the session (and thread) that loaded it.
#pragma once

#include <vector>

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "cluster/ssh/libssh2_handles.h"

namespace tunedeck::ssh {

struct HostKeyVerdict {
    enum class Kind { Match, Unknown, Changed };
    Kind kind = Kind::Unknown;
    // For Changed: where the other key is, so the message can say which line to remove.
    int line = 0;
    QString knownKeyType;
    QString knownFingerprint;
};

class KnownHosts {
  public:
    // Reads `file`; a missing file is an empty list. Lines libssh2 cannot parse (markers such as
    // @cert-authority, key types it does not know) are skipped, as OpenSSH skips what it ignores.
    bool load(LIBSSH2_SESSION* session, const QString& file, QString* error);

    // The host key algorithms known_hosts already holds for `hostName`, strongest first: offered
    // first in the handshake so that a host known by its ed25519 key is not asked for another.
    QStringList knownKeyAlgorithms(const QByteArray& hostName) const;

    // A key of another type than the one(s) on file counts as Changed: a man in the middle must
    // not get past the check by offering an algorithm known_hosts has no entry for.
    HostKeyVerdict check(const QByteArray& hostName, const QByteArray& keyBlob,
                         int hostKeyType) const;

    // Appends "name type base64" to the file (creating it and its folder if needed).
    bool append(const QByteArray& hostName, const QByteArray& keyBlob, int hostKeyType,
                QString* error);

    // Frees the list; required before the session it was loaded with is freed.
    void clear() {
        lines_.clear();
        hosts_.reset();
    }

    const QString& file() const { return file_; }
    int skippedLines() const { return skippedLines_; }

  private:
    int lineOf(const libssh2_knownhost* entry) const;

    KnownHostsHandle hosts_;
    QString file_;
    // Each entry libssh2 holds, with the file line it came from (a line with several names gives
    // several entries).
    std::vector<std::pair<const libssh2_knownhost*, int>> lines_;
    int skippedLines_ = 0;
};

// "SHA256:" + unpadded base64 of the SHA-256 of the key blob: what `ssh-keygen -l` prints.
QString sha256Fingerprint(const QByteArray& keyBlob);
// libssh2's LIBSSH2_HOSTKEY_TYPE_* as the algorithm name known_hosts uses ("ssh-ed25519").
QString hostKeyTypeName(int hostKeyType);

}  // namespace tunedeck::ssh
