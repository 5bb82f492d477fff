// Readers for the parts of a cluster file (node addresses, resources, auth, file mounts, lists
// of commands) into ClusterSpec fields. Each reports its problems through the YamlReader and
// leaves the field at its default when a value is wrong.
// Internal to engine/config; one set of readers per load, not shared between threads.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "config/file_place.h"
#include "config/yaml_reader.h"
#include "core/cluster_spec.h"

namespace tunedeck {

// A node as written in head_ip or worker_ips, before the cluster's port and resources apply.
struct WrittenNode {
    QString host;             // IPv6 without brackets
    std::optional<int> port;  // when the entry names one
    NodeResources resources;  // the entry's own `resources`
    QString path;             // "provider.head_ip", "provider.worker_ips[1]"
    SourceLocation location;
};

// "host", "host:port", "[v6]:port" or {host, port, resources}, written at `at`; nothing (and a
// problem) else.
std::optional<WrittenNode> readNode(YamlReader& reader, const YAML::Node& value,
                                    const QString& path, const SourceLocation& at);

// `resources: {cpu, gpu}`, for the whole cluster or one node: only what is written is set.
void readNodeResources(YamlReader& reader, const YamlEntry& entry, NodeResources* out);

// auth: ssh_user, ssh_private_key, ssh_port, known_hosts (its default is set by the caller).
void readAuth(YamlReader& reader, const YamlEntry& entry, const FilePlace& place,
              bool sshUserRequired, ClusterSpec* out);

// file_mounts: remote path -> local path (resolved; must exist).
void readFileMounts(YamlReader& reader, const YamlEntry& entry, const FilePlace& place,
                    std::vector<FileMount>* out);

// A list of strings (commands, patterns); empty when the value is empty.
std::optional<QStringList> readStringList(YamlReader& reader, const YamlEntry& entry);

// remote_root: a path on every node, written where the launcher's commands can use it safely.
std::optional<QString> readRemoteRoot(YamlReader& reader, const YamlEntry& entry);

}  // namespace tunedeck
