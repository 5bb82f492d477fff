#include "cluster/provider_command.h"

namespace tunedeck {

namespace {

QString lastLine(const QByteArray& text) {
    const QList<QByteArray> lines = text.trimmed().split('\n');
    return lines.isEmpty() ? QString() : QString::fromLocal8Bit(lines.last().trimmed());
}

}  // namespace

bool providerCommandSucceeded(const QProcess& process) {
    return process.error() != QProcess::FailedToStart &&
           process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

QString providerCommandFailure(const QString& what, QProcess& process, bool timedOut) {
    QString why;
    if (timedOut) {
        why = QStringLiteral("the %1 command did not finish in time").arg(what);
    } else if (process.error() == QProcess::FailedToStart ||
               process.exitStatus() == QProcess::CrashExit) {
        why = QStringLiteral("the %1 command could not run: %2").arg(what, process.errorString());
    } else {
        why = QStringLiteral("the %1 command failed (exit status %2)")
                  .arg(what)
                  .arg(process.exitCode());
    }
    const QString error = lastLine(process.readAllStandardError());
    return error.isEmpty() ? why : why + QStringLiteral(": ") + error;
}

ProviderCommandResult runProviderCommand(const QString& what, const QString& program,
                                         const QStringList& arguments, const QString& workingDir,
                                         int timeoutMs) {
    ProviderCommandResult result;
    QProcess process;
    process.setWorkingDirectory(workingDir);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(program, arguments);
    const bool finished = process.waitForFinished(timeoutMs);
    if (!finished || !providerCommandSucceeded(process)) {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(1000);
        }
        result.failure = providerCommandFailure(what, process, !finished);
        return result;
    }
    result.ok = true;
    result.output = process.readAllStandardOutput();
    return result;
}

}  // namespace tunedeck
