// Reads a cluster file (Ray's on-prem cluster-launcher YAML) into a validated ClusterSpec.
// Every problem is "file:line:column: key: problem", all of a file's problems are listed, and
// Ray's keys that Tunedeck does not use come back as warnings, so a Ray file loads as it is.
// Stateless; safe to call from any thread.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

#include "core/cluster_spec.h"

namespace tunedeck {

struct ClusterLoadResult {
    std::optional<ClusterSpec> spec;  // set when `errors` is empty
    QStringList errors;               // "file:line:column: key: problem", in the file's order
    QStringList warnings;             // the same shape; set whether or not the file loaded
};

// `path` names the file in messages as given; relative paths inside it start from its folder.
ClusterLoadResult loadClusterFile(const QString& path);

// The same from text already read; `sourceFile` is used in messages and to resolve relative
// paths (ssh_private_key, known_hosts, file_mounts) against its folder.
ClusterLoadResult loadClusterText(const QString& text, const QString& sourceFile);

}  // namespace tunedeck
