#include "namespace_nodes.h"

#include <unistd.h>

#include <QFile>
#include <QProcess>

#include "netns_fixture.h"

namespace {

// create NODE TYPE, terminate ID, list. @...@ are filled in by writeCluster(). A node's
// addresses are the /30 number N of 10.SUBNET.0.0/16, N a slot taken with mkdir (atomic, so
// creates that run at the same time get different ones); its namespace is named after the node.
// clang-format off
constexpr char kNodesScript[] = R"sh(#!/bin/sh
cd "$(dirname "$0")" || exit 1
case "$1" in
create)
    if [ "@QUOTA@" = yes ] && mkdir quota-used 2>/dev/null; then
        echo "error: quota exceeded for instances of type $3" >&2
        exit 3
    fi
    mkdir -p slots nodes
    n=1
    while ! mkdir "slots/$n" 2>/dev/null; do n=$((n + 1)); done
    outer="tdn@TAG@x$n"
    block=$((n * 4))
    prefix="10.@SUBNET@.$((block / 256))."
    mine="$prefix$((block % 256 + 1))"
    node="$prefix$((block % 256 + 2))"
    echo "$2" >> created.log
    if ! { ip netns add "$2" &&
           ip link add "$outer" type veth peer name eth0 netns "$2" &&
           ip addr add "$mine/30" dev "$outer" && ip link set "$outer" up &&
           ip -n "$2" addr add "$node/30" dev eth0 && ip -n "$2" link set eth0 up &&
           ip -n "$2" link set lo up; }; then
        echo "error: cannot make the network of $2" >&2
        ip netns del "$2" 2>/dev/null
        exit 4
    fi
    echo "$outer" > "nodes/$2.link"
    if ! ip netns exec "$2" /usr/sbin/sshd -f '@SSHD_CONFIG@' -o "ListenAddress=$node" \
            -o Port=22 -o "PidFile=$PWD/nodes/$2.pid" -E "$PWD/nodes/$2.log"; then
        echo "error: sshd did not start in $2" >&2
        ip netns del "$2"
        exit 5
    fi
    i=0
    while [ ! -s "nodes/$2.pid" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    echo "$2 $node"
    ;;
terminate)
    ip netns pids "$2" 2>/dev/null | xargs -r kill -9
    ip netns del "$2" 2>/dev/null
    echo "$2" >> terminated.log
    ;;
list)
    ip netns list | while read -r name rest; do
        case "$name" in tunedeck-@CLUSTER@-*) echo "$name" ;; esac
    done
    ;;
esac
)sh";
// clang-format on

bool run(const QString& program, const QStringList& arguments, QString* output, QString* error) {
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(10000) || process.exitStatus() != QProcess::NormalExit ||
        process.exitCode() != 0) {
        if (error) {
            *error = QStringLiteral("%1 %2 failed: %3")
                         .arg(program, arguments.join(' '),
                              QString::fromLocal8Bit(process.readAllStandardError()).trimmed());
        }
        return false;
    }
    if (output) {
        *output = QString::fromLocal8Bit(process.readAllStandardOutput());
    }
    return true;
}

bool writeText(const QString& path, const QString& text, QFile::Permissions permissions) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text.toUtf8()) < 0) {
        return false;
    }
    file.close();
    return file.setPermissions(permissions);
}

}  // namespace

NamespaceNodes::NamespaceNodes(QString dir) : dir_(std::move(dir)) {}

NamespaceNodes::~NamespaceNodes() {
    for (const QString& node : liveNodes()) {
        run(QStringLiteral("/bin/sh"),
            {dir_ + QStringLiteral("/nodes.sh"), QStringLiteral("terminate"), node}, nullptr,
            nullptr);
    }
}

QString NamespaceNodes::unavailableBecause() {
    QString why;
    if (!NetworkNamespace::available(&why) || !sshdAvailable(&why)) {
        return why;
    }
    return {};
}

QString NamespaceNodes::writeCluster(const Options& options, QString* error) {
    clusterName_ = options.clusterName;
    // Keys, config, and a first start on loopback: sshd works here, and /run/sshd exists.
    if (!sshd_.start(error)) {
        return {};
    }
    sshd_.stop();
    const int pid = int(::getpid());
    const QString subnet = QString::number(220 + pid % 30);
    const QString script =
        QString::fromLatin1(kNodesScript)
            .replace(QLatin1String("@QUOTA@"),
                     options.firstCreateFails ? QStringLiteral("yes") : QStringLiteral("no"))
            .replace(QLatin1String("@TAG@"), QString::number(pid % 100000))
            .replace(QLatin1String("@SUBNET@"), subnet)
            .replace(QLatin1String("@SSHD_CONFIG@"), sshd_.dir() + QStringLiteral("/sshd_config"))
            .replace(QLatin1String("@CLUSTER@"), options.clusterName);
    // The nodes share one host key (one machine image): known_hosts trusts it for their subnet.
    const QStringList hostKey = sshd_.knownHostsLine().split(' ');
    if (hostKey.size() < 3 ||
        !writeText(dir_ + QStringLiteral("/nodes.sh"), script,
                   QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner) ||
        !writeText(dir_ + QStringLiteral("/known_hosts"),
                   QStringLiteral("10.%1.* %2 %3\n").arg(subnet, hostKey[1], hostKey[2]),
                   QFile::ReadOwner | QFile::WriteOwner)) {
        *error = QStringLiteral("cannot write the node script in ") + dir_;
        return {};
    }
    // ServerAlive: a node whose cable is cut ends its connect within ~3 s even before `list`
    // misses it.
    const QString connect =
        QStringLiteral(
            "ssh -F /dev/null -T -i %1 -o BatchMode=yes -o UserKnownHostsFile=%2 "
            "-o StrictHostKeyChecking=yes -o ServerAliveInterval=1 -o ServerAliveCountMax=3 "
            "-o ConnectTimeout=5 -o LogLevel=ERROR %3@{address} {worker}")
            .arg(sshd_.userKeyPath(), dir_ + QStringLiteral("/known_hosts"), sshd_.user());
    const QString cluster = QStringLiteral(
                                "cluster_name: %1\n"
                                "provider:\n"
                                "  type: command\n"
                                "  create: ./nodes.sh create {node} {type}\n"
                                "  terminate: ./nodes.sh terminate {id}\n"
                                "  list: ./nodes.sh list\n"
                                "  connect: %2\n"
                                "  list_interval_s: 0.5\n"
                                "available_node_types:\n"
                                "  %3:\n"
                                "    resources: {CPU: %4}\n"
                                "    max_workers: %5\n"
                                "upscaling_speed: %6\n"
                                "idle_timeout_minutes: %7\n")
                                .arg(options.clusterName, connect, options.nodeType)
                                .arg(options.cpusPerNode)
                                .arg(options.maxWorkers)
                                .arg(options.upscalingSpeed)
                                .arg(options.idleTimeoutMinutes);
    const QString path = dir_ + QStringLiteral("/cluster.yaml");
    if (!writeText(path, cluster, QFile::ReadOwner | QFile::WriteOwner)) {
        *error = QStringLiteral("cannot write ") + path;
        return {};
    }
    return path;
}

QStringList NamespaceNodes::liveNodes() const {
    QString output;
    if (clusterName_.isEmpty() ||
        !run(QStringLiteral("/usr/sbin/ip"), {QStringLiteral("netns"), QStringLiteral("list")},
             &output, nullptr)) {
        return {};
    }
    QStringList nodes;
    for (const QString& line : output.split('\n', Qt::SkipEmptyParts)) {
        const QString name = line.section(' ', 0, 0);
        if (name.startsWith(QStringLiteral("tunedeck-%1-").arg(clusterName_))) {
            nodes << name;
        }
    }
    return nodes;
}

bool NamespaceNodes::reclaim(const QString& node, QString* error) {
    QFile link(dir_ + QStringLiteral("/nodes/") + node + QStringLiteral(".link"));
    if (!link.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("no such node: ") + node;
        return false;
    }
    const QString outer = QString::fromUtf8(link.readAll()).trimmed();
    return run(QStringLiteral("/usr/sbin/ip"),
               {QStringLiteral("link"), QStringLiteral("del"), outer}, nullptr, error) &&
           run(QStringLiteral("/bin/sh"),
               {QStringLiteral("-c"),
                // A process that is gone by the time its turn comes (a trial ended by its
                // agent's death) is what the kill wanted: its "No such process" is no failure.
                QStringLiteral("ip netns pids \"$0\" | xargs -r kill -9 2>/dev/null; "
                               "ip netns del \"$0\""),
                node},
               nullptr, error);
}
