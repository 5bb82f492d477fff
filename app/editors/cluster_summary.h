// The one-line summary the cluster editor shows under a file that loads: what the file really
// defines, read from the cluster loader's spec, for each provider kind (this machine; the SSH
// nodes by name; for Slurm and command clusters the node types with their resources and worker
// limits, and the cluster-wide limit where it binds). Pure function; call once the translators
// are installed.
#pragma once

#include <QString>

namespace tunedeck {
struct ClusterSpec;
}

namespace tunedeck::app {

// "aws-lab: nodes made by your commands as trials wait; cpu-spot (4 CPUs) up to 8 workers, ...".
QString clusterSummary(const ClusterSpec& spec);

}  // namespace tunedeck::app
