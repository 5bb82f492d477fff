// Running an experiment from the command line: a new one gets its folder under the results root
// and its history, then the runner is driven by the event loop until it ends (Ctrl-C once stops
// trials gracefully). Shared by run, resume and pbt-replay. Main thread only.
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <memory>

#include "config/problem_list.h"
#include "core/experiment_spec.h"
#include "runtime/experiment_runner.h"
#include "store/experiment_store.h"

namespace tunedeck::cli {

// Prints `message` on stderr and returns `code`.
int fail(const QString& message, int code = kExitBadInput);

// The warnings of a load, each on stderr as "warning: file:line:column: key: ..." (keys of a Ray
// cluster file that Tunedeck ignores, ...).
void printWarnings(const LoadProblems& loaded);

// --quiet and --events FILE, read by runExperiment.
void addRunOptions(QCommandLineParser& parser);

// Records `spec` as a new experiment in <resultsRoot>/<name> (or <name>-2, -3, ... when taken),
// picking a seed when the spec has none, and runs it. Returns the exit code.
int startExperiment(ExperimentSpec spec, const QString& resultsRoot,
                    const QCommandLineParser& parser);

// Runs the experiment whose history is `store` in `folder` (already locked by the caller).
int runExperiment(ExperimentSpec spec, std::unique_ptr<ExperimentStore> store,
                  const QString& folder, const QCommandLineParser& parser);

}  // namespace tunedeck::cli
