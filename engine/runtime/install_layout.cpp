#include "runtime/install_layout.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace tunedeck {

namespace {

QString fromEnvOr(const char* variable, const QString& fallback) {
    const QString value = qEnvironmentVariable(variable);
    return value.isEmpty() ? fallback : value;
}

QString shareDir() {
    return QDir::cleanPath(QCoreApplication::applicationDirPath() + "/../share/tunedeck");
}

}  // namespace

QString workerBinaryPath() {
    return fromEnvOr("TUNEDECK_WORKER",
                     QCoreApplication::applicationDirPath() + QStringLiteral("/tunedeck-worker"));
}

QString pythonSdkDir() {
    return fromEnvOr("TUNEDECK_PYTHON_SDK", shareDir() + QStringLiteral("/sdk/python"));
}

QString defaultResultsRoot() {
    return fromEnvOr("TUNEDECK_RESULTS", QDir::homePath() + QStringLiteral("/tunedeck-results"));
}

}  // namespace tunedeck
