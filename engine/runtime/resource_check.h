// Whether this machine could ever hold one trial's resources_per_trial, asked before anything
// runs (`validate`): its agent tells what it has (`tunedeck-worker --inventory`, the same
// inventory a run's hello carries). SSH nodes are judged when the file is loaded, by what the
// cluster file states of them (config/experiment_loader.cpp); a run checks every node again once
// they have answered. Starts a short child process; call from one thread at a time.
#pragma once

#include <QString>
#include <optional>

#include "core/experiment_spec.h"
#include "core/placement.h"
#include "core/status.h"

namespace tunedeck {

// InvalidArgument, located at resources_per_trial and naming the node, when this machine (the
// experiment's node without `cluster:`, or with a `local` one) could never fit a trial; Ok when
// it could, when the experiment runs on SSH nodes, or when the agent cannot be run here (the run
// then says why in its own words).
Status checkResourcesFit(const ExperimentSpec& spec, const QString& workerPath);

// This machine's CPUs and GPUs as its agent lists them (node "local", nothing placed), or
// nothing when the agent cannot be run.
std::optional<NodeCapacity> localNodeCapacity(const QString& workerPath);

}  // namespace tunedeck
