// Argument parsing shared by the subcommands: a QCommandLineParser per subcommand, with errors
// printed the same way everywhere. Main thread only.
#pragma once

#include <QCommandLineParser>
#include <QStringList>

namespace tunedeck::cli {

// Parses `args` (after the subcommand) with `parser`; prints the problem and returns false when
// the arguments are wrong or the number of positional arguments is not `positional`.
bool parseArguments(QCommandLineParser& parser, const QString& command, const QStringList& args,
                    int positional);

}  // namespace tunedeck::cli
