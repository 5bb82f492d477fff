// Readers for the keys of an elastic cluster (provider slurm or command): Ray's
// `available_node_types` (resources, min_workers, max_workers, node_config), `max_workers`,
// `upscaling_speed` and `idle_timeout_minutes`. Each reports its problems with their place and
// leaves the field at its default when a value is wrong.
// Internal to engine/config; one set of readers per load, not shared between threads.
#pragma once

#include <vector>

#include "config/yaml_reader.h"
#include "core/cluster_spec.h"

namespace tunedeck {

// available_node_types: NAME -> {resources, min_workers, max_workers, node_config}; node_config
// is srun's options for Slurm and free KEY: text for the command provider's placeholders.
std::vector<ClusterNodeType> readNodeTypes(YamlReader& reader, const YamlEntry& entry,
                                           ClusterProvider provider);

// The cluster's max_workers and each type's against it; `written` is the top-level max_workers
// entry, if any. Ray's default is 2; when every type states its own, their sum.
void readElasticWorkerCounts(YamlReader& reader, const YamlEntry* written, ClusterSpec* spec);

// upscaling_speed (> 0) and idle_timeout_minutes (> 0; fractions allowed).
void readScalingKeys(YamlReader& reader, const YamlEntry* upscalingSpeed,
                     const YamlEntry* idleTimeoutMinutes, ClusterSpec* spec);

}  // namespace tunedeck
