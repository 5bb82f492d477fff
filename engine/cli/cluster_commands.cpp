// `tunedeck-engine cluster up|down|status|exec|rsync-up|rsync-down CLUSTER.yaml`: the cluster
// launcher on the command line, each node's output streamed under its name; for an elastic
// cluster, what its provider can do without a run (cluster_operation.h).
#include <QCoreApplication>
#include <QDir>
#include <cstdio>

#include "cli/arguments.h"
#include "cli/cluster_operation.h"
#include "cli/commands.h"
#include "cli/experiment_launch.h"
#include "cli/unix_signals.h"
#include "cluster/cluster_launcher.h"
#include "cluster/command_provider.h"
#include "cluster/slurm_provider.h"
#include "config/cluster_loader.h"
#include "core/counted.h"
#include "runtime/experiment_runner.h"
#include "runtime/install_layout.h"

namespace tunedeck::cli {

namespace {

struct ClusterVerb {
    const char* name;
    int positional;  // after CLUSTER.yaml
    const char* description;
};

constexpr ClusterVerb kVerbs[] = {
    {"up", 0, "Set up every node: copy the agent and file mounts, run the setup commands."},
    {"down", 0, "Stop the agents and trials on every node."},
    {"status", 0, "Show each node's health and what runs on it."},
    {"exec", 1, "Run a shell command on every node (or --node)."},
    {"rsync-up", 2, "Copy SOURCE of this machine to TARGET on every node, only what changed."},
    {"rsync-down", 2, "Copy SOURCE of the head node (or --node) to TARGET here."},
};

// A command provider's cluster: its nodes exist while a run has them, made by its create
// command; `down` gives back every node its list command prints (a run that was killed may
// have left some), `up` and `status` check that list works and show what it prints.
int commandCluster(const ClusterSpec& spec, const QString& verb) {
    CommandNodeProvider provider(spec, workerBinaryPath(),
                                 CommandNodeProvider::uniqueNamePrefix(spec.clusterName));
    if (verb == QLatin1String("down")) {
        QStringList terminated;
        QStringList problems;
        const bool ok = provider.terminateEveryListedNode(&terminated, &problems);
        for (const QString& id : terminated) {
            std::printf("[%s] terminated\n", qPrintable(id));
        }
        std::printf("%s down: %s terminated, %lld failed%s\n", qPrintable(spec.clusterName),
                    qPrintable(counted(terminated.size(), "node")), qlonglong(problems.size()),
                    ok ? "." : ":");
        for (const QString& problem : problems) {
            std::printf("  %s\n", qPrintable(problem));
        }
        return ok ? 0 : kExitTrialErrors;
    }
    if (verb != QLatin1String("up") && verb != QLatin1String("status")) {
        return fail(QStringLiteral("%1: provider command: its nodes are reached only through its "
                                   "connect command while a run has them; there is no %2")
                        .arg(spec.clusterName, verb));
    }
    QString failure;
    const std::optional<QStringList> ids = provider.listedIds(&failure);
    if (!ids) {
        return fail(QStringLiteral("%1: %2").arg(spec.clusterName, failure), kExitTrialErrors);
    }
    for (const QString& id : *ids) {
        std::printf("[%s] live\n", qPrintable(id));
    }
    std::printf(
        "%s: provider command: %s live; a run creates nodes as its trials "
        "wait and terminates them when idle.\n",
        qPrintable(spec.clusterName), qPrintable(counted(ids->size(), "node")));
    return 0;
}

// A Slurm cluster's nodes are allocations a run asks for; `down` cancels every job of this
// cluster's runs still in squeue (a run that was killed may have left some).
int slurmCluster(const ClusterSpec& spec, const QString& verb) {
    if (verb != QLatin1String("down")) {
        std::printf(
            "%s: provider slurm: nodes are Slurm allocations that a run asks for and "
            "gives back; there is nothing to %s (squeue shows them while a run has "
            "them).\n",
            qPrintable(spec.clusterName), qPrintable(verb));
        return 0;
    }
    QStringList cancelled;
    QString failure;
    const bool ok = SlurmNodeProvider::cancelClusterJobs(spec.clusterName, &cancelled, &failure);
    for (const QString& job : cancelled) {
        std::printf("[%s] cancelled\n", qPrintable(job));
    }
    std::printf("%s down: %s cancelled%s\n", qPrintable(spec.clusterName),
                qPrintable(counted(cancelled.size(), "job")),
                ok ? "." : qPrintable(QStringLiteral("; ") + failure));
    return ok ? 0 : kExitTrialErrors;
}

}  // namespace

int cluster(const QStringList& args) {
    const QString verbName = args.value(0);
    const ClusterVerb* verb = nullptr;
    for (const ClusterVerb& v : kVerbs) {
        if (verbName == QLatin1String(v.name)) {
            verb = &v;
        }
    }
    if (verb == nullptr) {
        return fail(QStringLiteral("tunedeck-engine cluster: expected up, down, status, exec, "
                                   "rsync-up or rsync-down, not '%1'")
                        .arg(verbName));
    }
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromLatin1(verb->description));
    parser.addPositionalArgument(QStringLiteral("CLUSTER"), QStringLiteral("cluster YAML"));
    parser.addOption({QStringLiteral("accept-new-host-keys"),
                      QStringLiteral("Trust nodes whose host key is not in known_hosts yet, and "
                                     "add it there (a changed key is always refused).")});
    parser.addOption({QStringLiteral("node"),
                      QStringLiteral("Only this node (as `status` names it); may repeat."),
                      QStringLiteral("NAME")});
    if (!parseArguments(parser, QStringLiteral("cluster ") + verbName, args.mid(1),
                        1 + verb->positional)) {
        return kExitBadInput;
    }
    const QStringList positional = parser.positionalArguments();
    const LoadResult<ClusterSpec> loaded = loadClusterFile(positional.first());
    printWarnings(loaded);
    if (!loaded) {
        return fail(loaded.status().message());
    }
    const ClusterSpec& spec = *loaded.spec;
    LauncherOptions options;
    options.workerBinary = workerBinaryPath();
    options.pythonSdkDir = pythonSdkDir();
    options.acceptNewHostKeys = parser.isSet(QStringLiteral("accept-new-host-keys"));
    options.onlyNodes = parser.values(QStringLiteral("node"));
    return clusterOperation(spec, verbName, options, positional.mid(1));
}

int clusterOperation(const ClusterSpec& spec, const QString& verbName,
                     const LauncherOptions& options, const QStringList& operands) {
    if (spec.provider == ClusterProvider::Local) {
        std::printf("%s: provider local: trials run on this machine; there is nothing to %s.\n",
                    qPrintable(spec.clusterName), qPrintable(verbName));
        return 0;
    }
    if (spec.provider == ClusterProvider::Slurm) {
        return slurmCluster(spec, verbName);
    }
    if (spec.provider == ClusterProvider::Command) {
        return commandCluster(spec, verbName);
    }

    ClusterLauncher launcher(spec, options, [](const QString& node, const QString& line, bool err) {
        std::fprintf(err ? stderr : stdout, "[%s] %s\n", qPrintable(node), qPrintable(line));
        std::fflush(err ? stderr : stdout);
    });
    int exitCode = 0;
    // Ctrl-C ends the operation (its sessions close with the launcher); submit --stop then
    // still takes the cluster down.
    UnixSignals unixSignals;
    QObject::connect(&unixSignals, &UnixSignals::interrupted, &launcher, [&exitCode](int) {
        std::fprintf(stderr, "\nInterrupted.\n");
        exitCode = kExitInterrupted;
        QCoreApplication::exit(kExitInterrupted);
    });
    QObject::connect(&launcher, &ClusterLauncher::finished, &launcher,
                     [&](const std::vector<NodeOutcome>& outcomes) {
                         int failed = 0;
                         int workersUp = 0;
                         for (const NodeOutcome& outcome : outcomes) {
                             failed += outcome.ok ? 0 : 1;
                             const bool head =
                                 !spec.nodes.empty() && spec.nodes.front().name() == outcome.node;
                             workersUp += outcome.ok && !head ? 1 : 0;
                         }
                         std::printf("%s %s: %s ok, %d failed%s\n", qPrintable(spec.clusterName),
                                     qPrintable(verbName),
                                     qPrintable(counted(qint64(outcomes.size()) - failed, "node")),
                                     failed, failed ? ":" : ".");
                         for (const NodeOutcome& outcome : outcomes) {
                             if (!outcome.ok) {
                                 std::printf("  %s: %s\n", qPrintable(outcome.node),
                                             qPrintable(outcome.message));
                             }
                         }
                         exitCode = failed ? kExitTrialErrors : 0;
                         if (verbName == QLatin1String("up") && options.onlyNodes.isEmpty() &&
                             workersUp < spec.minWorkers) {
                             std::printf("only %s %s up; min_workers is %d\n",
                                         qPrintable(counted(workersUp, "worker node")),
                                         workersUp == 1 ? "is" : "are", spec.minWorkers);
                             exitCode = kExitTrialErrors;
                         }
                         QCoreApplication::exit(exitCode);
                     });
    if (verbName == QLatin1String("up")) {
        launcher.up();
    } else if (verbName == QLatin1String("down")) {
        launcher.down();
    } else if (verbName == QLatin1String("status")) {
        launcher.status();
    } else if (verbName == QLatin1String("exec")) {
        launcher.exec(operands.at(0));
    } else if (verbName == QLatin1String("rsync-up")) {
        launcher.rsyncUp(QDir::current().absoluteFilePath(operands.at(0)), operands.at(1));
    } else {
        launcher.rsyncDown(operands.at(0), QDir::current().absoluteFilePath(operands.at(1)));
    }
    QCoreApplication::exec();
    return exitCode;
}

}  // namespace tunedeck::cli
