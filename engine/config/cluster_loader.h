// Reads a cluster file (Ray's on-prem cluster-launcher YAML) into a validated ClusterSpec.
// Every problem is located (file:line:column) and keyed, all of a file's problems are listed,
// and Ray's keys that Tunedeck does not use come back as warnings, so a Ray file loads as it is.
// Stateless; safe to call from any thread.
#pragma once

#include <QString>

#include "config/problem_list.h"
#include "core/cluster_spec.h"

namespace tunedeck {

// `path` names the file in messages as given; relative paths inside it start from its folder.
LoadResult<ClusterSpec> loadClusterFile(const QString& path);

// The same from text already read; `sourceFile` is used in messages and to resolve relative
// paths (ssh_private_key, known_hosts, file_mounts) against its folder.
LoadResult<ClusterSpec> loadClusterText(const QString& text, const QString& sourceFile);

}  // namespace tunedeck
