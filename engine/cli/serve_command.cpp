// serve: the control API for the desktop app (api/control_server.h, experiment_supervisor.h),
// on a local socket (private to this user, or shared with a group: --socket-group) or on TCP with
// a token (--token-file) or a token per user (--token-dir). Runs until SIGINT or SIGTERM,
// then pauses the experiments it runs (each resumable) and exits 0. The experiments on this
// machine share it through a fair queue (slot_broker.h): --capacity, --quota, --starvation-s.
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
#include "runtime/resource_check.h"

namespace tunedeck::cli {

namespace {

constexpr int kShutdownGraceMs = 30000;

// "cpu=N[,gpu=M]" (--capacity) or "cpu:N[,gpu:M]" (a --quota's amounts): the amounts, or an
// error naming the part that is wrong.
bool parseAmounts(const QString& text, QChar separator, double* cpu, double* gpu, QString* error) {
    for (const QString& part : text.split(',')) {
        const QString key = part.section(separator, 0, 0).trimmed();
        bool ok = false;
        const double value = part.section(separator, 1).trimmed().toDouble(&ok);
        if (!ok || value < 0 || value > 1e6 ||
            (key != QLatin1String("cpu") && key != QLatin1String("gpu"))) {
            *error = QStringLiteral("'%1': expected cpu%2N or gpu%2N with N a number from 0")
                         .arg(part, separator);
            return false;
        }
        *(key == QLatin1String("cpu") ? cpu : gpu) = value;
    }
    return true;
}

// The room serve's fair queue shares: --capacity, or what this machine's agent lists.
bool sharedCapacity(const QCommandLineParser& parser, NodeCapacity* machine, QString* error) {
    if (!parser.isSet(QStringLiteral("capacity"))) {
        const std::optional<NodeCapacity> local = localNodeCapacity(workerBinaryPath());
        if (!local) {
            *error = QStringLiteral(
                         "cannot run this machine's agent (%1) to learn its CPUs and "
                         "GPUs; give --capacity")
                         .arg(workerBinaryPath());
            return false;
        }
        *machine = *local;
        return true;
    }
    double cpu = 0;
    double gpu = 0;
    if (!parseAmounts(parser.value(QStringLiteral("capacity")), '=', &cpu, &gpu, error)) {
        *error = QStringLiteral("--capacity %1").arg(*error);
        return false;
    }
    machine->nodeId = QStringLiteral("local");
    machine->cpuTotalMilli = std::int64_t(cpu * double(kMilliPerUnit));
    machine->gpuUsedMilli.assign(std::size_t(gpu), 0);
    for (std::size_t i = 0; i < machine->gpuUsedMilli.size(); ++i) {
        machine->gpuIds.push_back(QStringLiteral("gpu%1").arg(i));
    }
    return true;
}

// --quota USER=cpu:N,gpu:M (repeated) and --starvation-s.
bool sharePolicy(const QCommandLineParser& parser, SharePolicy* policy, QString* error) {
    for (const QString& quota : parser.values(QStringLiteral("quota"))) {
        const QString user = quota.section('=', 0, 0).trimmed();
        UserQuota amounts;
        if (user.isEmpty() || !quota.contains('=') ||
            !parseAmounts(quota.section('=', 1), ':', &amounts.cpu, &amounts.gpu, error)) {
            *error = QStringLiteral("--quota %1: expected USER=cpu:N[,gpu:M]%2")
                         .arg(quota, error->isEmpty()
                                         ? QString()
                                         : QStringLiteral(" (") + *error + QStringLiteral(")"));
            return false;
        }
        policy->quotas.insert(user, amounts);
    }
    if (parser.isSet(QStringLiteral("starvation-s"))) {
        bool ok = false;
        policy->starvationS = parser.value(QStringLiteral("starvation-s")).toDouble(&ok);
        if (!ok || policy->starvationS < 0) {
            *error = QStringLiteral("--starvation-s wants seconds (a number from 0)");
            return false;
        }
    }
    return true;
}

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
    parser.addOption({QStringLiteral("token-dir"),
                      QStringLiteral("Folder of one token file per user, named by the user: a "
                                     "client is the user whose token it sends."),
                      QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("socket-group"),
                      QStringLiteral("Let this group's members reach the local socket (0660); "
                                     "each is known by their own uid."),
                      QStringLiteral("GROUP")});
    parser.addOption({QStringLiteral("admin-group"),
                      QStringLiteral("Members of this group may act on every experiment."),
                      QStringLiteral("GROUP")});
    parser.addOption(
        {QStringLiteral("results"), QStringLiteral("Results root folder."), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("capacity"),
                      QStringLiteral("The CPUs and GPUs the experiments share, e.g. cpu=16,gpu=2 "
                                     "(default: this machine's)."),
                      QStringLiteral("cpu=N,gpu=M")});
    parser.addOption({QStringLiteral("quota"),
                      QStringLiteral("The most one user's trials hold at once, e.g. "
                                     "alice=cpu:8,gpu:1 (repeat for each user)."),
                      QStringLiteral("USER=cpu:N,gpu:M")});
    parser.addOption({QStringLiteral("starvation-s"),
                      QStringLiteral("Seconds an experiment may wait with nothing running before "
                                     "nothing is backfilled ahead of it (default 600)."),
                      QStringLiteral("S")});
    if (!parseArguments(parser, QStringLiteral("serve"), args, 0)) {
        return kExitBadInput;
    }
    NodeCapacity machine;
    SharePolicy policy;
    if (QString error;
        !sharedCapacity(parser, &machine, &error) || !sharePolicy(parser, &policy, &error)) {
        return fail(error, kExitBadInput);
    }
    api::ListenAddress address;
    const QString listen = parser.isSet(QStringLiteral("listen"))
                               ? parser.value(QStringLiteral("listen"))
                               : QStringLiteral("unix:") + api::defaultSocketPath();
    if (Status s = api::parseListenAddress(listen, &address); !s) {
        return fail(s.message());
    }
    api::ServerAccess access;
    if (parser.isSet(QStringLiteral("token-file"))) {
        if (Status s =
                api::readTokenFile(parser.value(QStringLiteral("token-file")), &access.token);
            !s) {
            return fail(s.message());
        }
    }
    if (parser.isSet(QStringLiteral("token-dir"))) {
        if (Status s =
                api::readTokenFolder(parser.value(QStringLiteral("token-dir")), &access.userTokens);
            !s) {
            return fail(s.message());
        }
    }
    access.socketGroup = parser.value(QStringLiteral("socket-group"));
    access.adminGroup = parser.value(QStringLiteral("admin-group"));
    if (!access.adminGroup.isEmpty() && !api::groupId(access.adminGroup)) {
        return fail(QStringLiteral("--admin-group %1: no such group").arg(access.adminGroup),
                    kExitBadInput);
    }
    const QString root = QDir::cleanPath(QDir::current().absoluteFilePath(
        parser.isSet(QStringLiteral("results")) ? parser.value(QStringLiteral("results"))
                                                : defaultResultsRoot()));
    if (!QDir().mkpath(root)) {
        return fail(QStringLiteral("cannot create the results folder %1").arg(root));
    }
    SlotBroker broker(machine, policy);
    ExperimentSupervisor supervisor(root, QCoreApplication::applicationFilePath(), &broker);
    api::ControlServer server([&supervisor](api::ControlConnection& c, const api::Request& r) {
        supervisor.handle(c, r);
    });
    QObject::connect(&server, &api::ControlServer::connectionClosed, &supervisor,
                     [&supervisor](api::ControlConnection* c) { supervisor.forget(c); });
    if (Status s = server.listen(address, access); !s) {
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
