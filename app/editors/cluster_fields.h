// The values the cluster form shows, read from a cluster file's YAML text, and the edits that set
// each one so that the rest of the text stays as written: comments, styles, the keys the form does
// not show. Lists are changed item by item and nodes written as mappings key by key, so a comment
// beside one command or node survives an edit of another. Defaults are SCHEMA.md's.
// Pure functions over YamlText; thread-safe.
#pragma once

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>
#include <utility>

#include "editors/yaml_text.h"

namespace tunedeck::app {

// The cluster's single values. An empty value means "not written": the default applies.
enum class ClusterField {
    Name,
    Provider,  // local, ssh, slurm or command
    User,
    PrivateKey,
    SshPort,
    KnownHosts,
    MinWorkers,
    MaxWorkers,
    Cpu,  // `resources` of every node
    Gpu,
    Storage,  // copy or shared
    NodeTimeout,
    RemoteRoot,
    // Elastic clusters (slurm, command): the autoscaler's keys and the provider's own.
    UpscalingSpeed,
    IdleTimeoutMinutes,
    WorkerPath,     // slurm
    CreateCommand,  // command
    TerminateCommand,
    ListCommand,
    ConnectCommand,
};

// The lists of strings, in the order the launcher runs them.
enum class ClusterList { InitializationCommands, SetupCommands, WorkerSetupCommands, RsyncExclude };

// A node as the table shows it: `provider.head_ip` (row 0) or an entry of `worker_ips`.
struct ClusterNode {
    QString host;  // as written: a hostname, an IPv4 address, or an IPv6 address in brackets
    QString port;  // empty: auth.ssh_port
    QString cpu;   // empty: the cluster's `resources`, else what the node's agent counts
    QString gpu;
    bool operator==(const ClusterNode&) const = default;
};

// One entry of `file_mounts`: copied from `local` (on this machine) to `remote` on every node.
struct ClusterMount {
    QString remote;
    QString local;
    bool operator==(const ClusterMount&) const = default;
};

struct ClusterFields {
    QMap<ClusterField, QString> values;
    bool hasHead = false;
    QList<ClusterNode> nodes;  // the head first (empty when not written), then the workers
    QMap<ClusterList, QStringList> lists;
    QList<ClusterMount> mounts;

    QString value(ClusterField field) const { return values.value(field); }
    QStringList list(ClusterList list) const { return lists.value(list); }
};

ClusterFields readClusterFields(const YamlText& yaml);

// Each edit below is nullopt when there is nothing to change or the text cannot take the change
// (it does not parse, or a key on the way holds something other than a mapping); several changes
// at once come back as one edit, one undo step.

// An empty value removes the key. Numbers are written as typed, other values as strings.
std::optional<TextEdit> clusterFieldEdit(const YamlText& yaml, ClusterField field,
                                         const QString& value);
// The list becomes `items`: changed items are replaced in place, the others stay as written.
std::optional<TextEdit> clusterListEdit(const YamlText& yaml, ClusterList list,
                                        const QStringList& items);
// Row 0 is provider.head_ip, row n the n-th of worker_ips. A node with resources is written as a
// mapping; one written as a mapping stays one.
std::optional<TextEdit> nodeEdit(const YamlText& yaml, int row, const ClusterNode& node);
std::optional<TextEdit> addWorkerEdit(const YamlText& yaml, const ClusterNode& node);
std::optional<TextEdit> removeWorkerEdit(const YamlText& yaml, int row);
std::optional<TextEdit> mountEdit(const YamlText& yaml, int row, const ClusterMount& mount);
std::optional<TextEdit> addMountEdit(const YamlText& yaml, const ClusterMount& mount);
std::optional<TextEdit> removeMountEdit(const YamlText& yaml, int row);

// Several edits, each computed on the text the previous one left, as one edit of `yaml` (one undo
// step); nullopt when one of them cannot be made. Shared with cluster_node_types.h.
using ClusterEditStep = std::function<std::optional<TextEdit>(const YamlText&)>;
std::optional<TextEdit> chainedEdit(const YamlText& yaml, const QList<ClusterEditStep>& steps);
// A number as typed; anything else as a string, so the loader names the mistake.
QString clusterNumberText(const QString& value, bool inFlow);

// "host", "host:port" or "[v6]:port" as {host, port}; the port is empty when none is written.
std::pair<QString, QString> splitHostPort(const QString& entry);

}  // namespace tunedeck::app
