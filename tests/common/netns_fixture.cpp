#include "netns_fixture.h"

#include <unistd.h>

#include <QFile>
#include <QProcess>
#include <QStringList>
#include <atomic>
#include <csignal>

namespace {

const QString kIp = QStringLiteral("/usr/sbin/ip");
constexpr int kToolTimeoutMs = 10000;

bool ip(const QStringList& arguments, QString* error) {
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(kIp, arguments);
    if (!process.waitForFinished(kToolTimeoutMs) || process.exitStatus() != QProcess::NormalExit ||
        process.exitCode() != 0) {
        if (error) {
            *error =
                QStringLiteral("ip %1 failed: %2")
                    .arg(arguments.join(' '), QString::fromLocal8Bit(process.readAll()).trimmed());
        }
        return false;
    }
    return true;
}

// A /30 of 10.213.0.0/16 per fixture: the process id spreads test processes apart, the counter
// the fixtures of one process.
int nextSubnet() {
    static std::atomic<int> counter{0};
    return int((getpid() * 7 + counter++) % 16000);
}

}  // namespace

bool NetworkNamespace::available(QString* why) {
    static int verdict = -1;  // -1 unknown, 0 no, 1 yes
    static QString reason;
    if (verdict < 0) {
        if (geteuid() != 0) {
            reason = QStringLiteral("network namespaces need root");
        } else if (!QFile::exists(kIp)) {
            reason = QStringLiteral("%1 is not installed (Debian package iproute2)").arg(kIp);
        } else {
            NetworkNamespace probe;
            if (!probe.create(&reason)) {
                reason = QStringLiteral("cannot make a network namespace here: ") + reason;
            }
        }
        verdict = reason.isEmpty() ? 1 : 0;
    }
    if (why) {
        *why = reason;
    }
    return verdict == 1;
}

bool NetworkNamespace::create(QString* error) {
    const int subnet = nextSubnet();
    const QString tag = QStringLiteral("%1").arg(subnet, 5, 10, QLatin1Char('0'));
    name_ = QStringLiteral("tunedeck-test-") + tag;
    const QString outerLink = QStringLiteral("tdo") + tag;
    innerLink_ = QStringLiteral("tdi") + tag;
    // 16,000 /30 blocks of 10.213.0.0/16 ... 10.216.x.x.
    const int block = subnet * 4;
    const QString prefix =
        QStringLiteral("10.%1.%2.").arg(213 + block / 65536).arg(block / 256 % 256);
    const QString outer = prefix + QString::number(block % 256 + 1);
    address_ = prefix + QString::number(block % 256 + 2);
    outerAddress_ = outer;
    ip({"netns", "del", name_}, nullptr);  // a leftover of a killed run
    if (!ip({"netns", "add", name_}, error) ||
        !ip({"link", "add", outerLink, "type", "veth", "peer", "name", innerLink_, "netns", name_},
            error) ||
        !ip({"addr", "add", outer + "/30", "dev", outerLink}, error) ||
        !ip({"link", "set", outerLink, "up"}, error) ||
        !ip({"-n", name_, "addr", "add", address_ + "/30", "dev", innerLink_}, error) ||
        !ip({"-n", name_, "link", "set", innerLink_, "up"}, error) ||
        !ip({"-n", name_, "link", "set", "lo", "up"}, error)) {
        ip({"netns", "del", name_}, nullptr);
        name_.clear();
        return false;
    }
    return true;
}

bool NetworkNamespace::routeToOtherNamespaces(QString* error) {
    QFile forwarding(QStringLiteral("/proc/sys/net/ipv4/ip_forward"));
    if (!forwarding.open(QIODevice::WriteOnly) || forwarding.write("1\n") != 2) {
        if (error) {
            *error =
                QStringLiteral("cannot turn on IPv4 forwarding: %1").arg(forwarding.errorString());
        }
        return false;
    }
    routed_ = true;
    return ip({"-n", name_, "route", "add", "default", "via", outerAddress_}, error);
}

bool NetworkNamespace::setLinkUp(bool up, QString* error) {
    if (!ip({"-n", name_, "link", "set", innerLink_, up ? "up" : "down"}, error)) {
        return false;
    }
    // The link going down took its default route with it.
    return !up || !routed_ ||
           ip({"-n", name_, "route", "replace", "default", "via", outerAddress_}, error);
}

QStringList NetworkNamespace::execPrefix() const {
    return {kIp, QStringLiteral("netns"), QStringLiteral("exec"), name_};
}

NetworkNamespace::~NetworkNamespace() {
    if (name_.isEmpty()) {
        return;
    }
    QProcess pids;
    pids.start(kIp, {"netns", "pids", name_});
    if (pids.waitForFinished(kToolTimeoutMs)) {
        for (const QByteArray& pid : pids.readAllStandardOutput().split('\n')) {
            if (const int value = pid.trimmed().toInt(); value > 0) {
                ::kill(value, SIGKILL);
            }
        }
    }
    ip({"netns", "del", name_}, nullptr);  // also deletes both ends of the pair
}
