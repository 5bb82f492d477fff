// The subcommands of tunedeck-engine. Each takes its own arguments (after the subcommand name)
// and returns the process exit code (see runtime/experiment_runner.h). Main thread only.
#pragma once

#include <QStringList>

namespace tunedeck::cli {

int validate(const QStringList& args);
int run(const QStringList& args);
int resume(const QStringList& args);
int list(const QStringList& args);
int show(const QStringList& args);
int best(const QStringList& args);
int exportResults(const QStringList& args);
int pbtReplay(const QStringList& args);
int rerun(const QStringList& args);
int cluster(const QStringList& args);
int submit(const QStringList& args);
int serve(const QStringList& args);
int queue(const QStringList& args);
int setMaxWorkers(const QStringList& args);
int setLimits(const QStringList& args);
int note(const QStringList& args);
int recover(const QStringList& args);

// Writes `text` to `path`, or to stdout when `path` is empty; false (with a message on stderr)
// when the file cannot be written.
bool writeOutput(const QString& path, const QByteArray& text);

}  // namespace tunedeck::cli
