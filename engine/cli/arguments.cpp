#include "cli/arguments.h"

#include <cstdio>

#include "core/counted.h"

namespace tunedeck::cli {

bool parseArguments(QCommandLineParser& parser, const QString& command, const QStringList& args,
                    int positional) {
    parser.addHelpOption();
    QStringList argv{QStringLiteral("tunedeck-engine ") + command};
    argv << args;
    if (!parser.parse(argv)) {
        std::fprintf(stderr, "tunedeck-engine %s: %s\n", qPrintable(command),
                     qPrintable(parser.errorText()));
        return false;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        std::exit(0);
    }
    if (parser.positionalArguments().size() != positional) {
        std::fprintf(stderr, "tunedeck-engine %s: expected %s, got %lld (see --help)\n",
                     qPrintable(command), qPrintable(counted(positional, "argument")),
                     static_cast<long long>(parser.positionalArguments().size()));
        return false;
    }
    return true;
}

}  // namespace tunedeck::cli
