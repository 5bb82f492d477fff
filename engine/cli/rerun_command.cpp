// rerun: re-creates the code a run used (code/version.json, code_version.h) and runs the same
// experiment again with the same seed, or one trial's config alone (--trial). A git record becomes
// a worktree of the repository at the recorded commit, with the recorded diff applied and the kept
// untracked files copied in; a record of a plain folder runs in that folder, and only while its
// content hash is still the recorded one. Main thread only.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <cstdio>

#include "cli/arguments.h"
#include "cli/code_version.h"
#include "cli/commands.h"
#include "cli/experiment_launch.h"
#include "cli/stored_experiment.h"
#include "config/experiment_loader.h"

namespace tunedeck::cli {

namespace {

Status runGit(const QString& folder, const QStringList& args) {
    QProcess process;
    process.setWorkingDirectory(folder);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral("git"), args);
    if (!process.waitForFinished(kGitTimeoutMs * 4) ||
        process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        return Status::ioError(
            QStringLiteral("git %1 (in %2): %3")
                .arg(args.join(' '), folder,
                     QString::fromUtf8(process.readAll()).trimmed() + process.errorString()));
    }
    return Status::ok();
}

// A fresh folder for the re-created code: <experiment>/code/rerun-<n>.
QString newCodeFolder(const QString& experimentDir) {
    QString folder;
    for (int n = 1; folder.isEmpty() || QFileInfo::exists(folder); ++n) {
        folder = QStringLiteral("%1/code/rerun-%2").arg(experimentDir).arg(n);
    }
    return folder;
}

Status copyTree(const QString& from, const QString& to) {
    QDirIterator it(from, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        const QString target = to + QLatin1Char('/') + QDir(from).relativeFilePath(source);
        QDir().mkpath(QFileInfo(target).absolutePath());
        QFile::remove(target);
        if (it.fileInfo().isSymLink()) {  // an untracked link is made again as it was written
            if (!QFile::link(linkText(source), target)) {
                return Status::ioError(QStringLiteral("cannot make the link %1").arg(target));
            }
            continue;
        }
        if (!QFile::copy(source, target)) {
            return Status::ioError(QStringLiteral("cannot copy %1 to %2").arg(source, target));
        }
    }
    return Status::ok();
}

// The recorded git state as a worktree; its working folder (the trainable's) in *workingDir.
Status recreateGitCode(const OpenedExperiment& e, const QJsonObject& version,
                       const QString& repositoryOverride, QString* workingDir) {
    const QString repository = repositoryOverride.isEmpty()
                                   ? version.value("repository").toString()
                                   : QDir(repositoryOverride).absolutePath();
    const QString commit = version.value("commit").toString();
    if (!QFileInfo(repository).isDir()) {
        return Status::notFound(QStringLiteral("the repository %1 is not there: clone it and "
                                               "name it with --repository DIR")
                                    .arg(repository));
    }
    if (Status s = runGit(repository, {QStringLiteral("cat-file"), QStringLiteral("-e"),
                                       commit + QStringLiteral("^{commit}")});
        !s) {
        return Status::notFound(QStringLiteral("commit %1 is not in %2 (fetch it first): %3")
                                    .arg(commit, repository, s.message()));
    }
    const QString code = newCodeFolder(e.folder);
    // A rerun's folder the user deleted stays registered in the repository until pruned, and
    // `worktree add` refuses a registered path: the next rerun would take that very name.
    (void)runGit(repository, {QStringLiteral("worktree"), QStringLiteral("prune")});
    if (Status s = runGit(repository, {QStringLiteral("worktree"), QStringLiteral("add"),
                                       QStringLiteral("--detach"), code, commit});
        !s) {
        return s;
    }
    if (!version.value("diff").toString().isEmpty()) {
        const QString patch =
            e.folder + QStringLiteral("/code/") + version.value("diff").toString();
        if (Status s = runGit(code, {QStringLiteral("apply"), QStringLiteral("--binary"),
                                     QStringLiteral("--whitespace=nowarn"), patch});
            !s) {
            return s;
        }
    }
    if (QFileInfo(e.folder + QStringLiteral("/code/untracked")).isDir()) {
        if (Status s = copyTree(e.folder + QStringLiteral("/code/untracked"), code); !s) {
            return s;
        }
    }
    const QString subdir = version.value("subdir").toString();
    *workingDir = subdir.isEmpty() ? code : code + QLatin1Char('/') + subdir;
    std::printf("Code re-created in %s: %s\n", qPrintable(code),
                qPrintable(codeVersionText(version)));
    return Status::ok();
}

// A plain folder cannot be re-created from a hash: it is used while it still holds that code.
Status checkFolderCode(const QJsonObject& version, const QString& resultsRoot,
                       QString* workingDir) {
    *workingDir = version.value("working_dir").toString();
    QStringList excluded;
    if (resultsRoot.startsWith(*workingDir + QLatin1Char('/'))) {
        excluded << resultsRoot.mid(workingDir->size() + 1);
    }
    const QString now = contentHash(*workingDir, excluded);
    if (now != version.value("content_hash").toString()) {
        return Status::invalid(
            QStringLiteral("the files of %1 have changed since the run (content %2, recorded %3); "
                           "a folder that is not a git repository cannot be re-created")
                .arg(*workingDir, now, version.value("content_hash").toString()));
    }
    std::printf("Code unchanged in %s: %s\n", qPrintable(*workingDir),
                qPrintable(codeVersionText(version)));
    return Status::ok();
}

}  // namespace

int rerun(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Run an experiment again with the code it ran with.\n"
        "The code version recorded at its start (code/version.json) is re-created: a git\n"
        "worktree at the recorded commit with the recorded diff and untracked files, in\n"
        "EXPERIMENT_DIR/code/rerun-N; a folder that was not a git repository is used as it is\n"
        "if its content hash is unchanged. The new experiment, <name>-rerun (or\n"
        "<name>-rerun-<TRIAL>), has the same spec and seed; with --trial it runs that trial's\n"
        "config alone."));
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT_DIR"),
                                 QStringLiteral("experiment folder"));
    parser.addOption({QStringLiteral("trial"), QStringLiteral("Run this trial's config alone."),
                      QStringLiteral("ID")});
    parser.addOption({QStringLiteral("repository"),
                      QStringLiteral("The git repository to take the commit from (default: the "
                                     "recorded one)."),
                      QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("results"),
                      QStringLiteral("Results root folder (default: the one holding "
                                     "EXPERIMENT_DIR)."),
                      QStringLiteral("DIR")});
    addRunOptions(parser);
    if (!parseArguments(parser, QStringLiteral("rerun"), args, 1)) {
        return kExitBadInput;
    }
    OpenedExperiment e;
    if (!openExperiment(parser.positionalArguments().first(), &e)) {
        return kExitBadInput;
    }
    const QJsonObject version = readCodeVersion(e.folder);
    if (version.isEmpty()) {
        return fail(QStringLiteral("rerun: %1 has no code version (code/version.json): it was "
                                   "run before Tunedeck recorded them")
                        .arg(e.folder));
    }
    QJsonObject trialConfig;
    const QString trialId = parser.value(QStringLiteral("trial"));
    if (!trialId.isEmpty()) {
        for (const TrialRecord& t : e.store->loadTrials()) {
            if (t.trial.id == trialId) {
                trialConfig = t.trial.config;
            }
        }
        if (trialConfig.isEmpty()) {
            return fail(QStringLiteral("rerun: no trial %1 in '%2' (see tunedeck-engine show %3)")
                            .arg(trialId, e.record.name, e.folder));
        }
    }
    const QString root = QDir::cleanPath(QDir::current().absoluteFilePath(
        parser.isSet(QStringLiteral("results")) ? parser.value(QStringLiteral("results"))
                                                : QFileInfo(e.folder).absolutePath()));
    QString workingDir;
    const Status code = version.value("kind").toString() == QLatin1String("git")
                            ? recreateGitCode(e, version, parser.value("repository"), &workingDir)
                            : checkFolderCode(version, root, &workingDir);
    if (!code) {
        return fail(QStringLiteral("rerun: %1").arg(code.message()));
    }
    LoadResult<ExperimentSpec> loaded = loadExperimentText(e.record.specText, e.record.specFile);
    printWarnings(loaded);
    if (!loaded) {
        return fail(QStringLiteral("rerun: %1").arg(loaded.status().message()));
    }
    ExperimentSpec spec = std::move(*loaded.spec);
    spec.trainable.workingDir = workingDir;
    spec.seed = e.record.seed;
    spec.seedGiven = true;
    spec.name = e.record.name + QStringLiteral("-rerun");
    if (!trialId.isEmpty()) {
        // One trial, that config: the searcher's first point, and no other sample.
        spec.name += QLatin1Char('-') + trialId;
        spec.numSamples = 1;
        spec.search =
            AlgorithmSpec{QStringLiteral("random"),
                          {{QStringLiteral("points_to_evaluate"), QJsonArray{trialConfig}}},
                          {},
                          {}};
    }
    e.store.reset();  // the original's history is not needed while the rerun runs
    return startExperiment(std::move(spec), root, parser);
}

}  // namespace tunedeck::cli
