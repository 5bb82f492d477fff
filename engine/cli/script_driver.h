// `tunedeck-engine run SCRIPT.py` and `run config.yml` (an NNI experiment): the driver is a Python
// program with Tunedeck's `ray` and `nni` compatibility packages on its path (and `optuna`, the
// real Optuna with Study.optimize handed over), which hands the experiment back to this engine
// (engine/sdk/python/README.md, "Ray Tune scripts", "Optuna scripts"). Main thread.
#pragma once

#include <QStringList>
#include <optional>

namespace tunedeck::cli {

// The exit code of the Python driver when `args` (run's arguments) name a Python script or an
// NNI experiment config; nullopt when they name a Tunedeck experiment file.
std::optional<int> runPythonDriver(const QStringList& args);

// Whether `path` is run by a Python driver: a script (.py) or an NNI experiment config.
bool drivenByPython(const QString& path);

// `submit CLUSTER SCRIPT.py`: the driver in a child process, with TUNEDECK_CLUSTER naming the
// cluster file (the experiment it hands over runs there: engine/sdk/python/README.md), and
// TUNEDECK_RESULTS / TUNEDECK_ACCEPT_NEW_HOST_KEYS when given. This process waits for it, Ctrl-C
// going to the driver (which stops its trials), so the caller may take the cluster down after.
// Returns the driver's exit code (128 + the signal that ended it).
struct DriverOnCluster {
    QString clusterFile;  // absolute
    QString resultsRoot;  // empty: the driver's default
    bool acceptNewHostKeys = false;
};
int runPythonDriverOnCluster(const DriverOnCluster& where, const QStringList& args);

}  // namespace tunedeck::cli
