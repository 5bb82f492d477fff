// One operation of `tunedeck-engine cluster` on a loaded cluster file, whatever its provider:
// the launcher's up, down, status, exec and rsync on SSH nodes; for Slurm, `down` cancels the
// cluster's jobs; for the command provider, `down` terminates every node its list command
// prints and `up`/`status` show them. Shared by `cluster` and `submit --start --stop`.
// Main thread only; runs the event loop until the operation ends (Ctrl-C ends it early).
#pragma once

#include <QString>
#include <QStringList>

#include "cluster/cluster_launcher.h"
#include "core/cluster_spec.h"

namespace tunedeck::cli {

// Prints each node's output and a summary; returns the exit code (kExitInterrupted after
// Ctrl-C). `operands` are the verb's own arguments (exec's command, rsync's paths).
int clusterOperation(const ClusterSpec& spec, const QString& verb, const LauncherOptions& options,
                     const QStringList& operands = {});

}  // namespace tunedeck::cli
