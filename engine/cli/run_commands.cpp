// validate, run and resume: the commands that load an experiment and drive the runtime.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <cstdio>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/experiment_launch.h"
#include "cli/script_driver.h"
#include "config/cluster_loader.h"
#include "config/experiment_loader.h"
#include "core/counted.h"
#include "core/searcher.h"
#include "runtime/experiment_lock.h"
#include "runtime/experiment_runner.h"
#include "runtime/install_layout.h"
#include "runtime/resource_check.h"
#include "store/experiment_store.h"

namespace tunedeck::cli {

namespace {

// --as, for run and validate: serve and tunedeck.run (Python) send experiments as text.
QCommandLineOption asFileOption() {
    return {QStringLiteral("as"),
            QStringLiteral("Resolve the experiment's relative paths as if its file were FILE "
                           "(serve and Python's tunedeck.run use it for experiments sent as "
                           "text)."),
            QStringLiteral("FILE")};
}

// The experiment file named by the first positional argument, read as if it were --as FILE.
LoadResult<ExperimentSpec> loadExperiment(const QCommandLineParser& parser) {
    const QString file = parser.positionalArguments().first();
    if (!parser.isSet(QStringLiteral("as"))) {
        return loadExperimentFile(file);
    }
    QFile text(file);
    if (!text.open(QIODevice::ReadOnly)) {
        LoadResult<ExperimentSpec> unread;
        static_cast<LoadProblems&>(unread) =
            LoadProblems::unreadable(file, Status::ioError(text.errorString()));
        return unread;
    }
    return loadExperimentText(QString::fromUtf8(text.readAll()),
                              parser.value(QStringLiteral("as")));
}

// Whether `path` is a cluster file (Ray's cluster-launcher shape) rather than an experiment: it
// names cluster_name or provider at the top, and no trainable.
bool isClusterFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return false;
    }
    const QString text = QString::fromUtf8(file.read(1 << 20));
    static const QRegularExpression clusterKey(QStringLiteral("^(cluster_name|provider)\\s*:"),
                                               QRegularExpression::MultilineOption);
    static const QRegularExpression trainableKey(QStringLiteral("^trainable\\s*:"),
                                                 QRegularExpression::MultilineOption);
    return text.contains(clusterKey) && !text.contains(trainableKey);
}

// `validate CLUSTER.yaml`: checks it as the cluster file it is, instead of listing its keys as
// unknown experiment keys.
int validateCluster(const QString& path) {
    const LoadResult<ClusterSpec> loaded = loadClusterFile(path);
    printWarnings(loaded);
    if (!loaded) {
        std::fprintf(stderr, "%s is a cluster file (not an experiment); its problems:\n",
                     qPrintable(path));
        return fail(loaded.status().message());
    }
    const ClusterSpec& cluster = *loaded.spec;
    const char* provider = cluster.provider == ClusterProvider::Local   ? "local"
                           : cluster.provider == ClusterProvider::Ssh   ? "ssh"
                           : cluster.provider == ClusterProvider::Slurm ? "slurm"
                                                                        : "command";
    std::printf(
        "%s: ok. A cluster file (not an experiment): cluster '%s', provider %s, %s. "
        "An experiment uses it with `cluster: %s`.\n",
        qPrintable(path), qPrintable(cluster.clusterName), provider,
        cluster.elastic() ? qPrintable(counted(qint64(cluster.nodeTypes.size()), "node type"))
                          : qPrintable(counted(qint64(cluster.nodes.size()), "node")),
        qPrintable(QFileInfo(path).fileName()));
    return 0;
}

}  // namespace

int validate(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Check an experiment file."));
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT"), QStringLiteral("experiment YAML"));
    parser.addOption({QStringLiteral("file-only"),
                      QStringLiteral("Check the file only, not whether a node (this machine, or "
                                     "the cluster file's) can hold a trial's resources.")});
    parser.addOption(asFileOption());
    if (!parseArguments(parser, QStringLiteral("validate"), args, 1)) {
        return kExitBadInput;
    }
    if (!parser.isSet(QStringLiteral("as")) &&
        isClusterFile(parser.positionalArguments().first())) {
        return validateCluster(parser.positionalArguments().first());
    }
    const LoadResult<ExperimentSpec> loaded = loadExperiment(parser);
    printWarnings(loaded);
    if (!loaded) {
        return fail(loaded.status().message());
    }
    const ExperimentSpec& spec = *loaded.spec;
    if (!parser.isSet(QStringLiteral("file-only"))) {
        if (Status s = checkResourcesFit(spec, workerBinaryPath()); !s) {
            return fail(s.message());
        }
    }
    const std::unique_ptr<Searcher> searcher = makeSearcher(spec);
    const std::optional<std::int64_t> total = searcher->totalTrials();
    std::printf("%s: ok. Experiment '%s': %s, search %s, scheduler %s, %s\n",
                qPrintable(spec.sourceFile), qPrintable(spec.name),
                qPrintable(counted(qint64(spec.searchSpace.flatDomains().size()), "parameter")),
                qPrintable(spec.search.name), qPrintable(spec.scheduler.name),
                total ? qPrintable(counted(*total, "trial")) : "an open number of trials");
    return 0;
}

int run(const QStringList& args) {
    if (const std::optional<int> driven = runPythonDriver(args)) {
        return *driven;  // a Ray Tune script or an NNI config: its Python driver ran the run
    }
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Run an experiment on this machine."));
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT"), QStringLiteral("experiment YAML"));
    parser.addOption(
        {QStringLiteral("results"), QStringLiteral("Results root folder."), QStringLiteral("DIR")});
    parser.addOption(asFileOption());
    addRunOptions(parser);
    if (!parseArguments(parser, QStringLiteral("run"), args, 1)) {
        return kExitBadInput;
    }
    LoadResult<ExperimentSpec> loaded = loadExperiment(parser);
    printWarnings(loaded);
    if (!loaded) {
        return fail(loaded.status().message());
    }
    return startExperiment(std::move(*loaded.spec),
                           parser.isSet(QStringLiteral("results"))
                               ? parser.value(QStringLiteral("results"))
                               : defaultResultsRoot(),
                           parser);
}

int resume(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Continue an interrupted experiment."));
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT_DIR"),
                                 QStringLiteral("experiment folder"));
    addRunOptions(parser);
    if (!parseArguments(parser, QStringLiteral("resume"), args, 1)) {
        return kExitBadInput;
    }
    const QString folder =
        QDir::cleanPath(QDir::current().absoluteFilePath(parser.positionalArguments().first()));
    const QString database = folder + QStringLiteral("/experiment.sqlite");
    if (!QFileInfo::exists(database)) {
        return fail(QStringLiteral("%1 is not a Tunedeck experiment folder (no experiment.sqlite)")
                        .arg(folder));
    }
    ExperimentLock lock;
    if (Status s = lock.acquire(folder); !s) {
        return fail(s.message());
    }
    std::unique_ptr<ExperimentStore> store;
    if (Status s = ExperimentStore::open(database, ExperimentStore::Mode::ReadWrite, &store); !s) {
        return fail(QStringLiteral("cannot open the history: %1").arg(s.message()));
    }
    ExperimentRecord record;
    if (Status s = store->loadExperiment(&record); !s) {
        return fail(QStringLiteral("cannot read the history: %1").arg(s.message()));
    }
    // Recovery reads only what it needs (each trial's latest checkpoint; nothing of a finished
    // run), so a damaged value anywhere else went unseen, and the run wrote on into the file.
    if (const Status s = store->checkStoredValues(); !s) {
        return fail(QStringLiteral("cannot resume %1: %2").arg(folder, s.message()));
    }
    LoadResult<ExperimentSpec> loaded = loadExperimentText(record.specText, record.specFile);
    printWarnings(loaded);
    if (!loaded) {
        return fail(loaded.status().message());
    }
    ExperimentSpec spec = std::move(*loaded.spec);
    spec.seed = record.seed;
    spec.seedGiven = true;
    std::printf("Resuming experiment '%s' in %s\n", qPrintable(spec.name), qPrintable(folder));
    std::fflush(stdout);
    return runExperiment(std::move(spec), std::move(store), folder, parser);
}

}  // namespace tunedeck::cli
