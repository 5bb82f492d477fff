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

}  // namespace tunedeck::cli
