// A node provider's own commands (squeue and scancel for Slurm; the user's list and terminate
// for the command provider), run to the end with a time limit, and their failure said in the
// user's words: "the list command failed (exit status 1): error: You must be logged in".
// For cleanups, checks and the CLI, not the engine's data path: it blocks. Thread-safe.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace tunedeck {

struct ProviderCommandResult {
    bool ok = false;
    QByteArray output;  // standard output
    QString failure;    // why it failed, with its last line of stderr; empty when ok
};

// Runs `program arguments` in `workingDir` (empty: the engine's), with no stdin.
ProviderCommandResult runProviderCommand(const QString& what, const QString& program,
                                         const QStringList& arguments, const QString& workingDir,
                                         int timeoutMs);

// Why a finished (or killed) command failed: "the WHAT command failed (exit status 3): LAST
// LINE OF STDERR", "... could not run: ...", "... did not finish in time". Reads its stderr.
QString providerCommandFailure(const QString& what, QProcess& process, bool timedOut);

// Whether a finished command succeeded.
bool providerCommandSucceeded(const QProcess& process);

}  // namespace tunedeck
