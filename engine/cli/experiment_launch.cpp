#include "cli/experiment_launch.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRandomGenerator>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "cli/code_version.h"
#include "cli/unix_signals.h"
#include "runtime/experiment_lock.h"
#include "runtime/install_layout.h"
#include "runtime/run_control.h"

namespace tunedeck::cli {

namespace {

Status makeFolder(const QString& path) {
    std::error_code error;
    std::filesystem::create_directories(path.toStdString(), error);
    if (error) {
        return Status::ioError(QStringLiteral("cannot create %1: %2")
                                   .arg(path, QString::fromStdString(error.message())));
    }
    return Status::ok();
}

// <root>/<name>, or <root>/<name>-2, -3, ... when taken: every run keeps its own history.
QString newExperimentFolder(const QString& root, const QString& name) {
    QString folder = root + '/' + name;
    for (int n = 2; QFileInfo::exists(folder); ++n) {
        folder = QStringLiteral("%1/%2-%3").arg(root, name).arg(n);
    }
    return folder;
}

// Runs the event loop until the runner finishes; Ctrl-C once stops trials gracefully.
int drive(ExperimentRunner& runner) {
    UnixSignals unixSignals;
    int interrupts = 0;
    QObject::connect(&unixSignals, &UnixSignals::interrupted, &runner, [&](int) {
        if (++interrupts == 1) {
            std::fprintf(stderr, "\nInterrupted: stopping trials (again to quit at once)...\n");
            runner.interrupt();
        } else {
            runner.quitNow();
            QCoreApplication::exit(kExitInterrupted);
        }
    });
    QObject::connect(
        &runner, &ExperimentRunner::finished, QCoreApplication::instance(),
        [](int code) { QCoreApplication::exit(code); }, Qt::QueuedConnection);
    runner.start();
    const int code = QCoreApplication::exec();
    return interrupts > 1 ? code : runner.exitCode();
}

RunnerOptions runnerOptions(const QCommandLineParser& parser, const QString& folder) {
    RunnerOptions options;
    options.experimentDir = folder;
    options.quiet = parser.isSet(QStringLiteral("quiet"));
    options.eventsFile = parser.value(QStringLiteral("events"));
    options.workerPath = workerBinaryPath();
    options.pythonSdkDir = pythonSdkDir();
    options.acceptNewHostKeys = parser.isSet(QStringLiteral("accept-new-host-keys"));
    options.sharedSlots = parser.isSet(QStringLiteral("shared-slots"));
    return options;
}

// The code version of the run (code_version.h). A record that cannot be written is a warning:
// the run itself does not depend on it.
void recordCode(const ExperimentSpec& spec, const QString& resultsRoot, const QString& folder,
                bool quiet) {
    const QString workingDir = spec.trainable.workingDir;
    QStringList excluded;
    if (resultsRoot.startsWith(workingDir + QLatin1Char('/'))) {
        excluded << resultsRoot.mid(workingDir.size() + 1);
    }
    QJsonObject version;
    if (Status s = recordCodeVersion(workingDir, folder, excluded, &version); !s) {
        std::fprintf(stderr, "warning: the code version was not recorded: %s\n",
                     qPrintable(s.message()));
    } else if (!quiet) {
        std::printf("Code: %s\n", qPrintable(codeVersionText(version)));
    }
}

}  // namespace

int fail(const QString& message, int code) {
    std::fprintf(stderr, "%s\n", qPrintable(message));
    return code;
}

void printWarnings(const LoadProblems& loaded) {
    for (const Problem& warning : loaded.warnings()) {
        std::fprintf(stderr, "warning: %s\n", qPrintable(warning.text()));
    }
}

void addRunOptions(QCommandLineParser& parser) {
    parser.addOption({QStringLiteral("quiet"), QStringLiteral("Print only the final summary.")});
    parser.addOption({QStringLiteral("accept-new-host-keys"),
                      QStringLiteral("Trust cluster nodes whose host key is not in known_hosts "
                                     "yet, and add it there (a changed key is always refused).")});
    parser.addOption({QStringLiteral("control-stdin"),
                      QStringLiteral("Take orders as JSON lines on stdin and answer them on "
                                     "stdout (used by `serve`).")});
    parser.addOption({QStringLiteral("shared-slots"),
                      QStringLiteral("With --control-stdin: start trials only as the server's "
                                     "fair queue grants room (used by `serve`).")});
    parser.addOption({QStringLiteral("events"),
                      QStringLiteral("Also write every event as a JSON line to FILE."),
                      QStringLiteral("FILE")});
}

int startExperiment(ExperimentSpec spec, const QString& resultsRoot,
                    const QCommandLineParser& parser) {
    if (!spec.seedGiven) {
        spec.seed = QRandomGenerator::system()->generate64() >> 1;  // fits SQLite's int64
        spec.seedGiven = true;
    }
    const QString root = QDir::cleanPath(QDir::current().absoluteFilePath(resultsRoot));
    if (Status s = makeFolder(root); !s) {
        return fail(QStringLiteral("results folder: %1").arg(s.message()));
    }
    const QString folder = newExperimentFolder(root, spec.name);
    if (Status s = makeFolder(folder); !s) {
        return fail(QStringLiteral("results folder: %1").arg(s.message()));
    }
    ExperimentLock lock;
    if (Status s = lock.acquire(folder); !s) {
        return fail(s.message());
    }
    std::unique_ptr<ExperimentStore> store;
    if (Status s = ExperimentStore::open(folder + QStringLiteral("/experiment.sqlite"),
                                         ExperimentStore::Mode::ReadWrite, &store);
        !s) {
        return fail(QStringLiteral("cannot create the history: %1").arg(s.message()));
    }
    ExperimentRecord record;
    record.name = spec.name;
    record.specText = spec.sourceText;
    record.specFile = spec.sourceFile;
    record.seed = spec.seed;
    record.status = QStringLiteral("running");
    record.createdAt = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    store->saveExperiment(record);
    if (Status s = store->flush(); !s) {
        return fail(QStringLiteral("cannot write the history: %1").arg(s.message()));
    }
    std::printf("Experiment '%s' in %s (seed %llu)\n", qPrintable(spec.name), qPrintable(folder),
                static_cast<unsigned long long>(spec.seed));
    recordCode(spec, root, folder, parser.isSet(QStringLiteral("quiet")));
    std::fflush(stdout);
    return runExperiment(std::move(spec), std::move(store), folder, parser);
}

int runExperiment(ExperimentSpec spec, std::unique_ptr<ExperimentStore> store,
                  const QString& folder, const QCommandLineParser& parser) {
    const QString name = spec.name;
    ExperimentRunner runner(std::move(spec), std::move(store), runnerOptions(parser, folder));
    std::unique_ptr<RunControl> control;
    if (parser.isSet(QStringLiteral("control-stdin"))) {
        control = std::make_unique<RunControl>(&runner, name, folder);
    }
    return drive(runner);
}

}  // namespace tunedeck::cli
