#include "sshd_fixture.h"

#include "netns_fixture.h"

#include <cerrno>
#include <csignal>
#include <map>
#include <set>

#include <netinet/in.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>

namespace {

const QString kSshd = QStringLiteral("/usr/sbin/sshd");
const QString kSshKeygen = QStringLiteral("/usr/bin/ssh-keygen");
// How long sshd may take to listen, and a key to be generated.
constexpr int kStartTimeoutMs = 15000;

bool runTool(const QString& program, const QStringList& arguments, QString* output,
             QString* error) {
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    if (!process.waitForFinished(kStartTimeoutMs)) {
        process.kill();
        process.waitForFinished();
        *error = QStringLiteral("%1 did not finish").arg(program);
        return false;
    }
    const QString text = QString::fromLocal8Bit(process.readAll());
    if (output) {
        *output = text;
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        *error = QStringLiteral("%1 %2 failed: %3").arg(program, arguments.join(' '), text);
        return false;
    }
    return true;
}

// A test that crashes must not leave a listening sshd (or an agent) behind.
void dieWithTheTest(QProcess* process) {
    process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
}

quint16 freeLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return 0;
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    quint16 port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
        port = ntohs(address.sin_port);
    }
    ::close(fd);
    return port;
}

// pid -> parent pid, for every process (from /proc).
std::map<qint64, qint64> parentsOfAll() {
    std::map<qint64, qint64> parents;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString& entry : entries) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid) {
            continue;
        }
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly)) {
            continue;
        }
        // "pid (comm) state ppid ...": comm may hold spaces, so parse after the last ')'.
        const QByteArray line = stat.readAll();
        const qsizetype close = line.lastIndexOf(')');
        if (close < 0) {
            continue;
        }
        const QList<QByteArray> fields = line.mid(close + 2).split(' ');
        if (fields.size() > 1) {
            parents[pid] = fields.at(1).toLongLong();
        }
    }
    return parents;
}

std::set<qint64> descendantsOf(qint64 root) {
    const std::map<qint64, qint64> parents = parentsOfAll();
    std::set<qint64> found;
    bool grew = true;
    while (grew) {
        grew = false;
        for (const auto& [pid, parent] : parents) {
            if ((parent == root || found.count(parent)) && !found.count(pid)) {
                found.insert(pid);
                grew = true;
            }
        }
    }
    return found;
}

// Freezes, then kills, every descendant of `root` (twice: one may have forked meanwhile).
void killDescendants(qint64 root) {
    std::set<qint64> all;
    for (int round = 0; round < 2; ++round) {
        for (const qint64 pid : descendantsOf(root)) {
            if (all.insert(pid).second) {
                ::kill(static_cast<pid_t>(pid), SIGSTOP);
            }
        }
    }
    for (const qint64 pid : all) {
        ::kill(static_cast<pid_t>(pid), SIGKILL);
    }
}

}  // namespace

bool sshdAvailable(QString* why) {
    for (const QString& tool : {kSshd, kSshKeygen}) {
        if (!QFileInfo(tool).isExecutable()) {
            *why = QStringLiteral(
                       "%1 is not installed (Debian package openssh-server / "
                       "openssh-client)")
                       .arg(tool);
            return false;
        }
    }
    return true;
}

SshdFixture::SshdFixture() = default;

SshdFixture::~SshdFixture() {
    stop();
}

QString SshdFixture::user() const {
    if (const passwd* pw = getpwuid(getuid())) {
        return QString::fromLocal8Bit(pw->pw_name);
    }
    return qEnvironmentVariable("USER");
}

QString SshdFixture::userKeyPath() const {
    return dir_.filePath(QStringLiteral("user_ed25519"));
}

QString SshdFixture::homeDir() const {
    return dir_.filePath(QStringLiteral("home"));
}

QString SshdFixture::hostKeyPath() const {
    return dir_.filePath(QStringLiteral("host_ed25519"));
}

QString SshdFixture::configPath() const {
    return dir_.filePath(QStringLiteral("sshd_config"));
}

QString SshdFixture::logPath() const {
    return dir_.filePath(QStringLiteral("sshd.log"));
}

bool SshdFixture::generateHostKey(QString* error) {
    QFile::remove(hostKeyPath());
    QFile::remove(hostKeyPath() + QStringLiteral(".pub"));
    return runTool(kSshKeygen,
                   {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                    QStringLiteral("-N"), QString(), QStringLiteral("-C"),
                    QStringLiteral("tunedeck-test-host"), QStringLiteral("-f"), hostKeyPath()},
                   nullptr, error);
}

bool SshdFixture::generateKeys(QString* error) {
    if (!dir_.isValid()) {
        *error = QStringLiteral("cannot create a temporary folder");
        return false;
    }
    if (!QDir().mkpath(homeDir())) {
        *error = QStringLiteral("cannot create ") + homeDir();
        return false;
    }
    if (!generateHostKey(error)) {
        return false;
    }
    QFile::remove(dir_.filePath(QStringLiteral("authorized_keys")));
    return !addUserKey(QStringLiteral("user_ed25519"),
                       {QStringLiteral("-t"), QStringLiteral("ed25519")}, true, error)
                .isEmpty();
}

QString SshdFixture::addUserKey(const QString& name, const QStringList& keygenArguments,
                                bool authorize, QString* error) {
    const QString path = dir_.filePath(name);
    QFile::remove(path);
    QFile::remove(path + QStringLiteral(".pub"));
    QStringList arguments = {QStringLiteral("-q")};
    arguments += keygenArguments;
    if (!keygenArguments.contains(QStringLiteral("-N"))) {
        arguments += {QStringLiteral("-N"), QString()};
    }
    arguments +=
        {QStringLiteral("-C"), QStringLiteral("tunedeck-test-") + name, QStringLiteral("-f"), path};
    if (!runTool(kSshKeygen, arguments, nullptr, error)) {
        return {};
    }
    if (authorize) {
        QFile publicKey(path + QStringLiteral(".pub"));
        QFile authorized(dir_.filePath(QStringLiteral("authorized_keys")));
        if (!publicKey.open(QIODevice::ReadOnly) ||
            !authorized.open(QIODevice::WriteOnly | QIODevice::Append)) {
            *error = QStringLiteral("cannot authorize key %1").arg(path);
            return {};
        }
        authorized.write(publicKey.readAll().trimmed() + '\n');
    }
    return path;
}

bool SshdFixture::writeConfig(QString* error) const {
    // sshd keeps the first value it reads for a keyword: the test's lines go first.
    QStringList lines;
    if (!extraConfig.isEmpty()) {
        lines += extraConfig;
    }
    lines += QStringList{
        QStringLiteral("ListenAddress %1").arg(host_),
        QStringLiteral("Port %1").arg(port_),
        QStringLiteral("HostKey %1").arg(hostKeyPath()),
        QStringLiteral("AuthorizedKeysFile %1")
            .arg(dir_.filePath(QStringLiteral("authorized_keys"))),
        QStringLiteral("PidFile %1").arg(dir_.filePath(QStringLiteral("sshd.pid"))),
        QStringLiteral("StrictModes no"),
        // As root, no PAM (nothing outside the fixture is consulted). An ordinary user's sshd
        // cannot read /etc/shadow and, without PAM, refuses the account as "locked".
        geteuid() == 0 ? QStringLiteral("UsePAM no") : QStringLiteral("UsePAM yes"),
        QStringLiteral("PasswordAuthentication no"),
        QStringLiteral("KbdInteractiveAuthentication no"),
        QStringLiteral("PubkeyAuthentication yes"),
        QStringLiteral("PermitRootLogin prohibit-password"),
        QStringLiteral("LogLevel VERBOSE"),
        QStringLiteral("PrintMotd no"),
        // Tests open many sessions and channels at once.
        QStringLiteral("MaxStartups 200"),
        QStringLiteral("MaxSessions 100"),
    };
    if (isolatedHome) {
        lines += QStringLiteral("SetEnv HOME=%1").arg(homeDir());
        lines += QStringLiteral("Subsystem sftp internal-sftp -d %1").arg(homeDir());
    } else {
        lines += QStringLiteral("Subsystem sftp internal-sftp");
    }
    QFile config(configPath());
    if (!config.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        config.write((lines.join('\n') + '\n').toUtf8()) < 0) {
        *error = QStringLiteral("cannot write %1").arg(configPath());
        return false;
    }
    return true;
}

bool SshdFixture::start(QString* error) {
    if (isRunning()) {
        return true;
    }
    if (!keysReady_) {
        if (!generateKeys(error)) {
            return false;
        }
        keysReady_ = true;
    }
    if (geteuid() == 0) {
        // sshd's privilege separation folder (normally made by its systemd unit).
        ::mkdir("/run/sshd", 0755);
    }
    const bool choosePort = port_ == 0;
    const QDeadlineTimer deadline(kStartTimeoutMs);
    for (;;) {
        if (choosePort) {
            port_ = freeLoopbackPort();
        }
        if (!writeConfig(error)) {
            return false;
        }
        QFile::remove(logPath());
        sshd_ = std::make_unique<QProcess>();
        dieWithTheTest(sshd_.get());
        sshd_->setStandardOutputFile(logPath(), QIODevice::Append);
        sshd_->setStandardErrorFile(logPath(), QIODevice::Append);
        QStringList command = launchPrefix_;
        command << kSshd << QStringLiteral("-D") << QStringLiteral("-e") << QStringLiteral("-f")
                << configPath();
        sshd_->start(command.takeFirst(), command);
        if (!sshd_->waitForStarted(kStartTimeoutMs)) {
            *error = QStringLiteral("cannot start %1: %2").arg(kSshd, sshd_->errorString());
            sshd_.reset();
            return false;
        }
        const QString listening =
            QStringLiteral("Server listening on %1 port %2").arg(host_).arg(port_);
        while (!deadline.hasExpired() && sshd_->state() == QProcess::Running &&
               !log().contains(listening)) {
            sshd_->waitForFinished(20);
        }
        if (sshd_->state() == QProcess::Running && log().contains(listening)) {
            return true;
        }
        const QString output = log();
        stop();
        // The port was taken between the probe and sshd's bind (or, on a restart, is still
        // held): try again until the deadline.
        if (output.contains(QStringLiteral("Address already in use")) && !deadline.hasExpired()) {
            QThread::msleep(100);
            continue;
        }
        *error = QStringLiteral("sshd did not start listening on %1:%2:\n%3")
                     .arg(host_)
                     .arg(port_)
                     .arg(output);
        return false;
    }
}

void SshdFixture::runIn(const NetworkNamespace& space) {
    host_ = space.address();
    launchPrefix_ = space.execPrefix();
}

bool SshdFixture::isRunning() const {
    return sshd_ && sshd_->state() == QProcess::Running;
}

void SshdFixture::stop() {
    if (!sshd_) {
        return;
    }
    const qint64 listener = sshd_->processId();
    if (listener > 0 && sshd_->state() == QProcess::Running) {
        ::kill(static_cast<pid_t>(listener), SIGSTOP);  // no new sessions while we look
        killDescendants(listener);
        ::kill(static_cast<pid_t>(listener), SIGKILL);
    }
    sshd_->waitForFinished(kStartTimeoutMs);
    sshd_.reset();
}

void SshdFixture::dropConnections() {
    if (isRunning()) {
        killDescendants(sshd_->processId());
    }
}

void SshdFixture::freezeSessions() {
    for (const qint64 pid : sessionPids()) {
        ::kill(static_cast<pid_t>(pid), SIGSTOP);
    }
}

void SshdFixture::thawSessions() {
    for (const qint64 pid : sessionPids()) {
        ::kill(static_cast<pid_t>(pid), SIGCONT);
    }
}

QList<qint64> SshdFixture::sessionPids() const {
    QList<qint64> pids;
    if (isRunning()) {
        for (const qint64 pid : descendantsOf(sshd_->processId())) {
            pids.append(pid);
        }
    }
    return pids;
}

bool SshdFixture::regenerateHostKey(QString* error) {
    const bool wasRunning = isRunning();
    stop();
    if (!generateHostKey(error)) {
        return false;
    }
    return !wasRunning || start(error);
}

QString SshdFixture::knownHostsLine() const {
    QFile publicKey(hostKeyPath() + QStringLiteral(".pub"));
    if (!publicKey.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QList<QByteArray> fields = publicKey.readAll().trimmed().split(' ');
    if (fields.size() < 2) {
        return {};
    }
    return QStringLiteral("[%1]:%2 %3 %4")
        .arg(host_)
        .arg(port_)
        .arg(QString::fromLatin1(fields.at(0)), QString::fromLatin1(fields.at(1)));
}

QString SshdFixture::hostKeyFingerprint() const {
    QString output;
    QString error;
    if (!runTool(kSshKeygen,
                 {QStringLiteral("-l"), QStringLiteral("-E"), QStringLiteral("sha256"),
                  QStringLiteral("-f"), hostKeyPath() + QStringLiteral(".pub")},
                 &output, &error)) {
        return {};
    }
    const QStringList fields = output.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return fields.size() > 1 ? fields.at(1) : QString();
}

bool SshdFixture::writeKnownHosts(const QString& path) const {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        return false;
    }
    return file.write((knownHostsLine() + '\n').toUtf8()) > 0;
}

QString SshdFixture::log() const {
    QFile file(logPath());
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromLocal8Bit(file.readAll());
}

// --- ssh-agent -----------------------------------------------------------------------------

SshAgentFixture::SshAgentFixture() = default;

SshAgentFixture::~SshAgentFixture() {
    stop();
}

QString SshAgentFixture::socketPath() const {
    return dir_.filePath(QStringLiteral("agent.sock"));
}

bool SshAgentFixture::start(QString* error) {
    agent_ = std::make_unique<QProcess>();
    dieWithTheTest(agent_.get());
    agent_->setProcessChannelMode(QProcess::MergedChannels);
    agent_->start(QStringLiteral("/usr/bin/ssh-agent"),
                  {QStringLiteral("-D"), QStringLiteral("-a"), socketPath()});
    if (!agent_->waitForStarted(kStartTimeoutMs)) {
        *error = QStringLiteral("cannot start ssh-agent: %1").arg(agent_->errorString());
        return false;
    }
    const QDeadlineTimer deadline(kStartTimeoutMs);
    while (!QFileInfo::exists(socketPath()) && !deadline.hasExpired() &&
           agent_->state() == QProcess::Running) {
        agent_->waitForFinished(20);
    }
    if (!QFileInfo::exists(socketPath())) {
        *error = QStringLiteral("ssh-agent did not create %1: %2")
                     .arg(socketPath(), QString::fromLocal8Bit(agent_->readAll()));
        return false;
    }
    return true;
}

bool SshAgentFixture::addKey(const QString& privateKeyPath, QString* error) {
    QProcess add;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("SSH_AUTH_SOCK"), socketPath());
    add.setProcessEnvironment(environment);
    add.setProcessChannelMode(QProcess::MergedChannels);
    add.start(QStringLiteral("/usr/bin/ssh-add"), {privateKeyPath});
    if (!add.waitForFinished(kStartTimeoutMs) || add.exitCode() != 0) {
        *error = QStringLiteral("ssh-add %1 failed: %2")
                     .arg(privateKeyPath, QString::fromLocal8Bit(add.readAll()));
        return false;
    }
    return true;
}

void SshAgentFixture::stop() {
    if (!agent_) {
        return;
    }
    agent_->kill();
    agent_->waitForFinished(kStartTimeoutMs);
    agent_.reset();
}
