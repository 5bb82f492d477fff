// A real OpenSSH server on 127.0.0.1 (or in a network namespace) for a test, and an ssh-agent
// beside it.
//
// SshdFixture runs Debian's /usr/sbin/sshd (`sshd -D -e -f CONFIG`) from a temporary folder that
// holds everything it needs: an ed25519 host key, an ed25519 user key pair whose public half is
// the only line of `authorized_keys`, the config, the pid file and sshd's log. Only the user
// running the test can log in, with that key (PasswordAuthentication no, StrictModes no). As root
// (CI): UsePAM no, PermitRootLogin prohibit-password, and /run/sshd, the privilege separation
// folder, is created when missing. As an ordinary user sshd runs without privilege separation
// and with UsePAM yes (without PAM it refuses the account as locked: it cannot read
// /etc/shadow).
//
// By default the session's $HOME (sshd_config SetEnv) and the SFTP start folder (internal-sftp
// -d) are homeDir(), a folder of the fixture: a test never writes into the real home folder, and
// what it creates "remotely" can be checked on the local file system. Commands still start in
// the user's real home folder (sshd's choice): use "$HOME"/... paths.
//
// Node failures for chaos tests:
//   stop()            kills the listener and every process it spawned (the sessions, and the
//                     commands they run), with SIGKILL: the node went away; clients see their
//                     connections close.
//   start() again     the node comes back: the SAME port and the SAME host key.
//   dropConnections() kills the sessions only; the listener keeps accepting.
//   freezeSessions()  SIGSTOPs the sessions: a hung node whose kernel still acknowledges
//                     packets; thawSessions() lets them go on.
//   regenerateHostKey() gives the node a new host key (a reinstalled host, or an impostor).
//
// A server of its own on the network: runIn(namespace) before start() starts sshd inside that
// NetworkNamespace (netns_fixture.h), listening on the namespace's address instead of 127.0.0.1.
//
// Use: `if (QString why; !sshdAvailable(&why)) QSKIP(qPrintable(why));`, then
// `SshdFixture sshd; QVERIFY2(sshd.start(&error), qPrintable(error));`.
// Thread-safety: none; use it from the test's thread. It needs no event loop.
#pragma once

#include <memory>

#include <QList>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

class NetworkNamespace;

// Whether sshd and ssh-keygen are installed; `why` says what is missing.
bool sshdAvailable(QString* why);

class SshdFixture {
  public:
    SshdFixture();
    ~SshdFixture();
    SshdFixture(const SshdFixture&) = delete;
    SshdFixture& operator=(const SshdFixture&) = delete;

    // sshd_config lines written at every start(), e.g. "PubkeyAcceptedAlgorithms +ssh-rsa" or
    // "MaxSessions 1". They come before the fixture's own lines, so they override them (sshd
    // keeps the first value of a keyword); a Match block would swallow those lines: none here.
    QString extraConfig;
    // $HOME and the SFTP start folder are homeDir() (see above). Set before start().
    bool isolatedHome = true;
    // sshd runs inside `space` (which must outlive it) and listens on its address. Before start().
    void runIn(const NetworkNamespace& space);

    // The first start generates the keys and picks a free port; later starts reuse both.
    // Returns once sshd listens; false (with sshd's log in `error`) if it did not.
    bool start(QString* error);
    // SIGKILL to the listener and to every process it spawned. Idempotent.
    void stop();
    // SIGKILL to the session processes only.
    void dropConnections();
    // SIGSTOP / SIGCONT to the session processes (and the commands they run).
    void freezeSessions();
    void thawSessions();
    // A new host key; restarts sshd (same port) when it runs.
    bool regenerateHostKey(QString* error);
    bool isRunning() const;

    // The address sshd listens on: 127.0.0.1, or the namespace's.
    QString host() const { return host_; }
    quint16 port() const { return port_; }
    // The user tests log in as: the one running the test.
    QString user() const;
    QString userKeyPath() const;
    QString dir() const { return dir_.path(); }
    QString homeDir() const;
    // "[HOST]:PORT ssh-ed25519 AAAA...": what known_hosts holds for this server.
    QString knownHostsLine() const;
    // "SHA256:...", as `ssh-keygen -l -E sha256` prints it for the host key.
    QString hostKeyFingerprint() const;
    // Writes a known_hosts file that trusts this server (and nothing else).
    bool writeKnownHosts(const QString& path) const;
    // sshd's stderr (LogLevel VERBOSE) so far.
    QString log() const;

    // Another user key, `dir()/name` (+ ".pub"), made by ssh-keygen with `keygenArguments`
    // (e.g. {"-t", "rsa", "-b", "2048", "-m", "PEM"}) and no passphrase unless the arguments
    // give one; added to authorized_keys when `authorize`. Returns its path, empty on failure.
    QString addUserKey(const QString& name, const QStringList& keygenArguments, bool authorize,
                       QString* error);
    // Processes spawned by the listener (sessions, and the commands they run).
    QList<qint64> sessionPids() const;

  private:
    bool generateKeys(QString* error);
    bool generateHostKey(QString* error);
    bool writeConfig(QString* error) const;
    QString hostKeyPath() const;
    QString configPath() const;
    QString logPath() const;

    QTemporaryDir dir_;
    quint16 port_ = 0;
    QString host_ = QStringLiteral("127.0.0.1");
    QStringList launchPrefix_;  // `ip netns exec NAME` when in a namespace
    bool keysReady_ = false;
    std::unique_ptr<QProcess> sshd_;
};

// An ssh-agent of the test's own (`ssh-agent -D -a SOCKET`), killed by the destructor.
class SshAgentFixture {
  public:
    SshAgentFixture();
    ~SshAgentFixture();
    SshAgentFixture(const SshAgentFixture&) = delete;
    SshAgentFixture& operator=(const SshAgentFixture&) = delete;

    bool start(QString* error);
    // ssh-add of a private key file (no passphrase).
    bool addKey(const QString& privateKeyPath, QString* error);
    // The value for SSH_AUTH_SOCK.
    QString socketPath() const;
    void stop();

  private:
    QTemporaryDir dir_;
    std::unique_ptr<QProcess> agent_;
};
