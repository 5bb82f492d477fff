// `tunedeck-engine submit CLUSTER.yaml EXPERIMENT.yaml [--start] [--stop]`: Ray's `ray submit
// --start --stop` in one command; `submit [OPTIONS] CLUSTER.yaml SCRIPT.py [ARGS...]` runs a Ray
// Tune or Optuna script (or an NNI config) whose experiment goes to the cluster
// (cli/script_driver.h). The experiment runs on CLUSTER.yaml as if its file said `cluster:
// CLUSTER.yaml` (that is what its history records, so `resume` runs on it too);
// --start first does what `cluster up` does, --stop afterwards what `cluster down` does, also
// when the run failed or was interrupted (Ctrl-C), so no node is left running (and billed).
#include <QFile>
#include <QFileInfo>
#include <cstdio>
#include <optional>

#include "cli/arguments.h"
#include "cli/cluster_operation.h"
#include "cli/commands.h"
#include "cli/experiment_launch.h"
#include "cli/script_driver.h"
#include "config/cluster_loader.h"
#include "config/experiment_loader.h"
#include "runtime/install_layout.h"

namespace tunedeck::cli {

namespace {

// A YAML single-quoted scalar.
QString yamlQuoted(const QString& text) {
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

// The experiment of `experimentFile` with its cluster set to `clusterFile`; an experiment that
// names another cluster is refused (moving it silently could start nodes it never meant).
LoadResult<ExperimentSpec> loadOnCluster(const QString& experimentFile, const QString& clusterFile,
                                         QString* refusal) {
    LoadResult<ExperimentSpec> alone = loadExperimentFile(experimentFile);
    if (!alone) {
        return alone;
    }
    const QString cluster = QFileInfo(clusterFile).absoluteFilePath();
    if (!alone.spec->cluster.isEmpty()) {
        if (QFileInfo(alone.spec->cluster).canonicalFilePath() !=
            QFileInfo(cluster).canonicalFilePath()) {
            *refusal = QStringLiteral(
                           "%1: cluster: names %2, but submit runs it on %3; remove "
                           "the key or name the same file")
                           .arg(alone.spec->locationOf(QStringLiteral("cluster")).toString(),
                                alone.spec->cluster, clusterFile);
        }
        return alone;
    }
    QFile file(experimentFile);
    if (!file.open(QIODevice::ReadOnly)) {
        return alone;  // read a moment ago; loading it again reports what changed
    }
    QString text = QString::fromUtf8(file.readAll());
    if (!text.endsWith(QLatin1Char('\n'))) {
        text += QLatin1Char('\n');
    }
    text += QStringLiteral("cluster: %1  # tunedeck-engine submit\n").arg(yamlQuoted(cluster));
    return loadExperimentText(text, experimentFile);
}

// Where the file after CLUSTER stands in `args` when a Python driver runs it (a Ray Tune or
// Optuna script, an NNI config), whose own arguments follow it; submit's options come before.
std::optional<qsizetype> drivenFileAt(const QStringList& args) {
    int positional = 0;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& arg = args.at(i);
        if (arg == QLatin1String("--results") || arg == QLatin1String("--events")) {
            ++i;  // its value
            continue;
        }
        if (arg.startsWith(QLatin1Char('-'))) {
            continue;
        }
        if (++positional == 2) {
            return drivenByPython(arg) ? std::optional(i) : std::nullopt;
        }
    }
    return std::nullopt;
}

}  // namespace

int submit(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Run an experiment on a cluster; with --start set the cluster up first, "
                       "with --stop take it down afterwards, whatever the run's end."));
    parser.addPositionalArgument(QStringLiteral("CLUSTER"), QStringLiteral("cluster YAML"));
    parser.addPositionalArgument(
        QStringLiteral("EXPERIMENT"),
        QStringLiteral("experiment YAML; or a Ray Tune or Optuna script (SCRIPT.py [ARGS...]) or "
                       "an NNI config, with submit's options before CLUSTER"));
    parser.addOption({QStringLiteral("start"),
                      QStringLiteral("Set the cluster up first, as `cluster up` does.")});
    parser.addOption({QStringLiteral("stop"),
                      QStringLiteral("Take the cluster down afterwards, as `cluster down` does, "
                                     "also when the run fails or is interrupted.")});
    parser.addOption(
        {QStringLiteral("results"), QStringLiteral("Results root folder."), QStringLiteral("DIR")});
    addRunOptions(parser);
    const std::optional<qsizetype> driven = drivenFileAt(args);
    if (!parseArguments(parser, QStringLiteral("submit"), driven ? args.mid(0, *driven) : args,
                        driven ? 1 : 2)) {
        return kExitBadInput;
    }
    const QString clusterFile = parser.positionalArguments().at(0);
    const QString experimentFile = driven ? args.at(*driven) : parser.positionalArguments().at(1);
    if (driven) {
        for (const char* option : {"events", "control-stdin", "shared-slots"}) {
            if (parser.isSet(QLatin1String(option))) {
                return fail(QStringLiteral("--%1 is for experiment files; %2 is run by its own "
                                           "driver, which shows its progress itself")
                                .arg(QLatin1String(option), experimentFile));
            }
        }
    }

    const LoadResult<ClusterSpec> cluster = loadClusterFile(clusterFile);
    if (!cluster) {
        // The two files the other way round is the likely mistake: say so rather than list
        // every experiment key as unknown in a cluster file.
        if (loadExperimentFile(clusterFile)) {
            return fail(QStringLiteral("%1 is an experiment file; submit takes the cluster file "
                                       "first: tunedeck-engine submit CLUSTER.yaml "
                                       "EXPERIMENT.yaml")
                            .arg(clusterFile));
        }
        printWarnings(cluster);
        return fail(cluster.status().message());
    }
    std::optional<ExperimentSpec> experiment;
    if (!driven) {
        QString refusal;
        LoadResult<ExperimentSpec> loaded = loadOnCluster(experimentFile, clusterFile, &refusal);
        printWarnings(loaded);
        if (!loaded) {
            return fail(loaded.status().message());
        }
        if (!refusal.isEmpty()) {
            return fail(refusal);
        }
        experiment = std::move(*loaded.spec);
    }
    const QString resultsRoot = parser.isSet(QStringLiteral("results"))
                                    ? parser.value(QStringLiteral("results"))
                                    : QString();

    LauncherOptions options;
    options.workerBinary = workerBinaryPath();
    options.pythonSdkDir = pythonSdkDir();
    options.acceptNewHostKeys = parser.isSet(QStringLiteral("accept-new-host-keys"));
    const bool stop = parser.isSet(QStringLiteral("stop"));
    int code = 0;
    if (parser.isSet(QStringLiteral("start"))) {
        code = clusterOperation(*cluster.spec, QStringLiteral("up"), options);
        std::fflush(stdout);
        if (code != 0) {
            std::fprintf(stderr, "%s: the cluster did not come up; the experiment was not run\n",
                         qPrintable(clusterFile));
        }
    }
    if (code == 0 && driven) {
        code = runPythonDriverOnCluster(
            {QFileInfo(clusterFile).absoluteFilePath(), resultsRoot, options.acceptNewHostKeys},
            args.mid(*driven));
    } else if (code == 0) {
        code = startExperiment(std::move(*experiment),
                               resultsRoot.isEmpty() ? defaultResultsRoot() : resultsRoot, parser);
        std::fflush(stdout);
    }
    if (stop) {
        const int down = clusterOperation(*cluster.spec, QStringLiteral("down"), options);
        if (down != 0) {
            std::fprintf(stderr, "%s: the cluster was not taken down completely; check it\n",
                         qPrintable(clusterFile));
        }
        code = code != 0 ? code : down;
    }
    return code;
}

}  // namespace tunedeck::cli
