#include "cli/script_driver.h"

#include <sys/wait.h>
#include <unistd.h>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <cerrno>
#include <csignal>
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

// The driver's command line (python3, then `pythonArgs`); sets the environment it needs:
// Tunedeck's compatibility packages first on PYTHONPATH, and this engine as the one to run.
std::vector<std::string> driverCommand(const QStringList& pythonArgs) {
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
    std::vector<std::string> command;
    command.push_back(pythonInterpreter().toStdString());
    for (const QString& arg : pythonArgs) {
        command.push_back(arg.toLocal8Bit().toStdString());
    }
    std::fflush(stdout);
    std::fflush(stderr);
    return command;
}

// execvp's argument vector over `command` (which must outlive it).
std::vector<char*> argvOf(std::vector<std::string>& command) {
    std::vector<char*> argv;
    for (std::string& arg : command) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    return argv;
}

void reportCannotStart(const char* program) {
    std::fprintf(stderr, "tunedeck-engine: cannot start %s: %s (set TUNEDECK_PYTHON)\n", program,
                 std::strerror(errno));
}

// Replaces this process with the driver: its signals (Ctrl-C) and exit code are the run's.
int execDriver(const QStringList& pythonArgs) {
    std::vector<std::string> command = driverCommand(pythonArgs);
    std::vector<char*> argv = argvOf(command);
    ::execvp(argv[0], argv.data());
    reportCannotStart(argv[0]);
    return kExitBadInput;
}

// The pythonArgs that run `path` (and its own arguments after it).
QStringList driverArguments(const QStringList& args) {
    if (args.first().endsWith(QLatin1String(".py"))) {
        return args;
    }
    return QStringList{QStringLiteral("-m"), QStringLiteral("nni")} + args;
}

volatile sig_atomic_t childPid = 0;

// SIGTERM and SIGHUP sent to this process are the driver's too (Ctrl-C reaches it already: it is
// in the terminal's foreground process group).
void forwardToDriver(int signal) {
    if (childPid > 0) {
        ::kill(childPid, signal);
    }
}

}  // namespace

bool drivenByPython(const QString& path) {
    return path.endsWith(QLatin1String(".py")) || isNniConfig(path);
}

int runPythonDriverOnCluster(const DriverOnCluster& where, const QStringList& args) {
    if (!QFileInfo(args.first()).isFile()) {
        std::fprintf(stderr, "tunedeck-engine submit: %s: no such file\n",
                     qPrintable(args.first()));
        return kExitBadInput;
    }
    ::setenv("TUNEDECK_CLUSTER", where.clusterFile.toLocal8Bit().constData(), 1);
    if (!where.resultsRoot.isEmpty()) {
        ::setenv("TUNEDECK_RESULTS",
                 QDir::current().absoluteFilePath(where.resultsRoot).toLocal8Bit().constData(), 1);
    }
    if (where.acceptNewHostKeys) {
        ::setenv("TUNEDECK_ACCEPT_NEW_HOST_KEYS", "1", 1);
    }
    std::vector<std::string> command = driverCommand(driverArguments(args));
    std::vector<char*> argv = argvOf(command);
    const pid_t pid = ::fork();
    if (pid < 0) {
        reportCannotStart(argv[0]);
        return kExitBadInput;
    }
    if (pid == 0) {
        ::execvp(argv[0], argv.data());
        reportCannotStart(argv[0]);
        ::_exit(kExitBadInput);
    }
    childPid = pid;
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    struct sigaction forward {};
    forward.sa_handler = forwardToDriver;
    struct sigaction oldInt {};
    struct sigaction oldTerm {};
    struct sigaction oldHup {};
    ::sigaction(SIGINT, &ignore, &oldInt);
    ::sigaction(SIGTERM, &forward, &oldTerm);
    ::sigaction(SIGHUP, &forward, &oldHup);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    ::sigaction(SIGINT, &oldInt, nullptr);
    ::sigaction(SIGTERM, &oldTerm, nullptr);
    ::sigaction(SIGHUP, &oldHup, nullptr);
    childPid = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::optional<int> runPythonDriver(const QStringList& args) {
    if (args.isEmpty()) {
        return std::nullopt;
    }
    const QString first = args.first();
    if (first.endsWith(QLatin1String(".py")) && !QFileInfo(first).isFile()) {
        std::fprintf(stderr, "tunedeck-engine run: %s: no such script\n", qPrintable(first));
        return kExitBadInput;
    }
    if (!drivenByPython(first)) {
        return std::nullopt;
    }
    return execDriver(driverArguments(args));  // the script (or config), then its arguments
}

}  // namespace tunedeck::cli
