#include "cli/script_driver.h"

#include <unistd.h>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/experiment_runner.h"
#include "runtime/install_layout.h"

namespace tunedeck::cli {

namespace {

// An NNI v2 experiment config names its trial command and tuner; a Tunedeck experiment file
// names `trainable`. Only the top-level keys are looked at.
bool isNniConfig(const QString& path) {
    if (!path.endsWith(QLatin1String(".yml")) && !path.endsWith(QLatin1String(".yaml"))) {
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return false;
    }
    const QString text = QString::fromUtf8(file.read(1 << 20));
    static const QRegularExpression nniKey(
        QStringLiteral("^(trialCommand|trial_command|searchSpaceFile|trainingService)\\s*:"),
        QRegularExpression::MultilineOption);
    static const QRegularExpression tunedeckKey(QStringLiteral("^trainable\\s*:"),
                                                QRegularExpression::MultilineOption);
    return text.contains(nniKey) && !text.contains(tunedeckKey);
}

// Debian's packages (python3-cloudpickle) are for /usr/bin/python3, which may not be the first
// python3 on PATH; $TUNEDECK_PYTHON names another.
QString pythonInterpreter() {
    const QString chosen = qEnvironmentVariable("TUNEDECK_PYTHON");
    if (!chosen.isEmpty()) {
        return chosen;
    }
    return QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable()
               ? QStringLiteral("/usr/bin/python3")
               : QStringLiteral("python3");
}

// Replaces this process with the driver: its signals (Ctrl-C) and exit code are the run's.
int execDriver(const QStringList& pythonArgs) {
    const QString sdk = pythonSdkDir();
    QString path = sdk + QStringLiteral("/compat:") + sdk;
    const QString inherited = qEnvironmentVariable("PYTHONPATH");
    if (!inherited.isEmpty()) {
        path += ':' + inherited;
    }
    ::setenv("PYTHONPATH", path.toLocal8Bit().constData(), 1);
    // The driver's tunedeck.run finds this engine, whatever is on PATH.
    ::setenv("TUNEDECK_ENGINE", QCoreApplication::applicationFilePath().toLocal8Bit().constData(),
             1);
    std::vector<std::string> storage;
    storage.push_back(pythonInterpreter().toStdString());
    for (const QString& arg : pythonArgs) {
        storage.push_back(arg.toLocal8Bit().toStdString());
    }
    std::vector<char*> argv;
    for (std::string& arg : storage) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    std::fflush(stdout);
    ::execvp(argv[0], argv.data());
    std::fprintf(stderr, "tunedeck-engine run: cannot start %s: %s (set TUNEDECK_PYTHON)\n",
                 argv[0], std::strerror(errno));
    return kExitBadInput;
}

}  // namespace

std::optional<int> runPythonDriver(const QStringList& args) {
    if (args.isEmpty()) {
        return std::nullopt;
    }
    const QString first = args.first();
    if (first.endsWith(QLatin1String(".py"))) {
        if (!QFileInfo(first).isFile()) {
            std::fprintf(stderr, "tunedeck-engine run: %s: no such script\n", qPrintable(first));
            return kExitBadInput;
        }
        return execDriver(args);  // the script, then its own arguments
    }
    if (isNniConfig(first)) {
        return execDriver(QStringList{QStringLiteral("-m"), QStringLiteral("nni")} + args);
    }
    return std::nullopt;
}

}  // namespace tunedeck::cli
