// serve: the control API for the desktop app (api/control_server.h, experiment_supervisor.h),
// on a local socket private to this user or on TCP with a token. Runs until SIGINT or SIGTERM,
// then pauses the experiments it runs (each resumable) and exits 0.
#include <QCoreApplication>
#include <QDir>
#include <cstdio>

#include "api/control_server.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/experiment_launch.h"
#include "cli/experiment_supervisor.h"
#include "cli/unix_signals.h"
#include "runtime/install_layout.h"

namespace tunedeck::cli {

namespace {

constexpr int kShutdownGraceMs = 30000;

}  // namespace

int serve(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Serve the control API."));
    parser.addOption({QStringLiteral("listen"),
                      QStringLiteral("unix:PATH or tcp:HOST:PORT (default unix:%1).")
                          .arg(api::defaultSocketPath()),
                      QStringLiteral("ADDRESS")});
    parser.addOption({QStringLiteral("token-file"),
                      QStringLiteral("File whose first line is the token clients must send "
                                     "(required for TCP)."),
                      QStringLiteral("FILE")});
    parser.addOption(
        {QStringLiteral("results"), QStringLiteral("Results root folder."), QStringLiteral("DIR")});
    if (!parseArguments(parser, QStringLiteral("serve"), args, 0)) {
        return kExitBadInput;
    }
    api::ListenAddress address;
    const QString listen = parser.isSet(QStringLiteral("listen"))
                               ? parser.value(QStringLiteral("listen"))
                               : QStringLiteral("unix:") + api::defaultSocketPath();
    if (Status s = api::parseListenAddress(listen, &address); !s) {
        return fail(s.message());
    }
    QString token;
    if (parser.isSet(QStringLiteral("token-file"))) {
        if (Status s = api::readTokenFile(parser.value(QStringLiteral("token-file")), &token); !s) {
            return fail(s.message());
        }
    }
    const QString root = QDir::cleanPath(QDir::current().absoluteFilePath(
        parser.isSet(QStringLiteral("results")) ? parser.value(QStringLiteral("results"))
                                                : defaultResultsRoot()));
    if (!QDir().mkpath(root)) {
        return fail(QStringLiteral("cannot create the results folder %1").arg(root));
    }
    ExperimentSupervisor supervisor(root, QCoreApplication::applicationFilePath());
    api::ControlServer server([&supervisor](api::ControlConnection& c, const api::Request& r) {
        supervisor.handle(c, r);
    });
    QObject::connect(&server, &api::ControlServer::connectionClosed, &supervisor,
                     [&supervisor](api::ControlConnection* c) { supervisor.forget(c); });
    if (Status s = server.listen(address, token); !s) {
        return fail(s.message());
    }
    if (!address.isLoopback()) {
        std::fprintf(stderr,
                     "warning: %s is reachable from other machines and the traffic is not "
                     "encrypted; prefer loopback and an SSH tunnel\n",
                     qPrintable(server.address()));
    }
    std::printf("Listening on %s (results in %s)\n", qPrintable(server.address()),
                qPrintable(root));
    std::fflush(stdout);

    UnixSignals unixSignals;
    bool stopping = false;
    QObject::connect(&unixSignals, &UnixSignals::interrupted, &supervisor, [&](int) {
        if (stopping) {
            QCoreApplication::exit(0);
            return;
        }
        stopping = true;
        std::fprintf(stderr, "Stopping: pausing the experiments this server runs...\n");
        supervisor.shutdown(kShutdownGraceMs, [] { QCoreApplication::exit(0); });
    });
    return QCoreApplication::exec();
}

}  // namespace tunedeck::cli
