// A cluster file (Ray's on-prem cluster-launcher shape) as a value: the nodes to reach over SSH,
// how to log in, what to copy and run on them, and per-node resource overrides; or, for an
// elastic provider (Slurm, the user's commands), the node types the autoscaler starts and stops.
// The engine is the head of the cluster: it runs where the user starts it, and every node listed
// (head_ip first, then worker_ips) is a worker node reached over SSH. Value type.
#pragma once

#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "core/source_location.h"

namespace tunedeck {

struct NodeResources {
    std::optional<double> cpu;  // overrides what the node's agent counts
    std::optional<double> gpu;  // whole cards offered (the first N the agent finds)
};

struct ClusterNodeSpec {
    QString host;             // a hostname or an IP address (IPv6 without brackets)
    int port = 22;            // the cluster's `auth.ssh_port` unless the entry names its own
    bool isHead = false;      // `provider.head_ip`
    NodeResources resources;  // the cluster's `resources`, overridden by the entry's own
    SourceLocation location;  // of the entry, for errors naming the node

    // "host" or "host:port" when the port is not 22 ("[v6]:port" for IPv6): how messages and
    // `status` name the node.
    QString name() const;
};

struct FileMount {
    QString remotePath;  // as written (may start with "~/"); relative paths are under the home
    QString localPath;   // absolute, resolved against the cluster file's folder
    SourceLocation location;
};

// Local: this machine. Ssh: a fixed list of machines. Slurm: nodes are Slurm allocations the
// autoscaler asks for and gives back (each one `srun ... tunedeck-worker`), of the node types
// below. Command: nodes are made, listed and ended by the user's own commands (a cloud's CLI,
// kubectl), and each node's agent is reached through a command whose stdin/stdout is its link.
enum class ClusterProvider { Local, Ssh, Slurm, Command };

// One command of the command provider as written, split into literal text and {placeholders}
// when the file is read (CLUSTER.md lists the placeholders). The provider runs it with /bin/sh,
// each placeholder's value inserted as one shell word.
struct CommandTemplate {
    struct Part {
        QString text;  // literal text, or a placeholder's name ("node", "node_config.zone")
        bool placeholder = false;
    };
    std::vector<Part> parts;
    bool isEmpty() const { return parts.empty(); }
    bool uses(const QString& placeholder) const {
        for (const Part& part : parts) {
            if (part.placeholder && part.text == placeholder) {
                return true;
            }
        }
        return false;
    }
};

// provider: {type: command, create, terminate, list, connect, list_interval_s}.
struct CommandProviderConfig {
    CommandTemplate create;     // starts a node; prints "ID [ADDRESS]" as its last line
    CommandTemplate terminate;  // ends node {id}
    CommandTemplate list;       // prints the ids of the cluster's live nodes
    CommandTemplate connect;    // its stdin and stdout are the agent's link
    double listIntervalS = 5;   // how often `list` looks for nodes gone behind the engine's back
};

// How one allocation of a node type is asked of Slurm: srun's options (CLUSTER.md).
struct SlurmNodeConfig {
    QString partition;        // --partition; empty: the cluster's default
    int cpusPerTask = 1;      // --cpus-per-task
    int gpus = 0;             // --gres=gpu:N
    QString mem;              // --mem ("4G"); empty: Slurm's default
    QString time;             // --time ("1:00:00"); empty: the partition's limit
    QString account;          // --account
    QString qos;              // --qos
    QStringList srunOptions;  // passed to srun as written, one argument each
};

// One of `available_node_types` (Ray's key): what a node of this type offers trials and how many
// the autoscaler may have.
struct ClusterNodeType {
    QString name;
    double cpu = 1;
    int gpu = 0;
    int minWorkers = 0;
    int maxWorkers = 0;
    SlurmNodeConfig slurm;
    QMap<QString, QString> nodeConfig;  // command provider: the values of {node_config.KEY}
    SourceLocation location;
};
// Copy: checkpoints travel over SFTP to the head. Shared: every node sees the head's experiment
// folder at the same path (NFS), so nothing is copied.
enum class ClusterStorage { Copy, Shared };

struct ClusterSpec {
    QString sourceFile;  // absolute path of the YAML
    QString clusterName;
    ClusterProvider provider = ClusterProvider::Local;
    std::vector<ClusterNodeSpec> nodes;  // head first; workers capped at max_workers
    int minWorkers = 0;
    int maxWorkers = 0;

    // Elastic providers (slurm): the node types, and Ray's autoscaling keys.
    std::vector<ClusterNodeType> nodeTypes;
    double upscalingSpeed = 1.0;
    double idleTimeoutS = 300;                               // idle_timeout_minutes: 5, as Ray
    QString workerPath = QStringLiteral("tunedeck-worker");  // on the compute nodes
    CommandProviderConfig commands;                          // provider command
    bool elastic() const {
        return provider == ClusterProvider::Slurm || provider == ClusterProvider::Command;
    }

    QString sshUser;
    QString sshPrivateKey;  // absolute; empty: keys from ssh-agent
    int sshPort = 22;
    QString knownHosts;  // absolute; default ~/.ssh/known_hosts

    std::vector<FileMount> fileMounts;
    QStringList rsyncExclude;  // glob patterns, matched against paths relative to a mount
    QStringList initializationCommands;
    QStringList setupCommands;
    QStringList workerSetupCommands;  // run on worker nodes after setup_commands (not the head)

    ClusterStorage storage = ClusterStorage::Copy;
    double nodeTimeoutS = 15;  // heartbeat silence after which a node is declared dead
    // Where Tunedeck keeps its files on a node: `<remoteRoot>/<cluster_name>/<node name>/`.
    QString remoteRoot = QStringLiteral("~/.tunedeck");

    QMap<QString, SourceLocation> locations;  // key path ("auth.ssh_user") -> where it was written
    SourceLocation locationOf(const QString& keyPath) const;
};

}  // namespace tunedeck
