#include "views/experiment_clone.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include "editors/yaml_text.h"

namespace tunedeck::app {

QString renamedSpecText(const QString& specText, const QString& name) {
    static const QRegularExpression topLevelName(QStringLiteral("^name:[^\\n]*$"),
                                                 QRegularExpression::MultilineOption);
    const QString line = QStringLiteral("name: ") + yamlString(name);
    const QRegularExpressionMatch match = topLevelName.match(specText);
    if (!match.hasMatch()) {
        return line + '\n' + specText;
    }
    QString text = specText;
    return text.replace(match.capturedStart(), match.capturedLength(), line);
}

QString cloneFilePath(const QString& specFile, const QString& name, const QString& fallbackFolder,
                      const QString& resultsRoot, QString* newName) {
    const QFileInfo original(specFile);
    const QFileInfo folder(original.absolutePath());
    const QString parent = !specFile.isEmpty() && folder.isDir() && folder.isWritable()
                               ? folder.absoluteFilePath()
                               : fallbackFolder;
    // "asha-2" cloned again is "asha-3", not "asha-2-2".
    static const QRegularExpression numbered(QStringLiteral("^(.*)-([0-9]+)$"));
    const QRegularExpressionMatch match = numbered.match(name);
    const QString stem = match.hasMatch() ? match.captured(1) : name;
    for (int n = 2;; ++n) {
        const QString candidate = QStringLiteral("%1-%2").arg(stem).arg(n);
        const QString path = QDir(parent).filePath(candidate + QStringLiteral(".yaml"));
        if (!QFileInfo::exists(path) &&
            (resultsRoot.isEmpty() || !QFileInfo::exists(QDir(resultsRoot).filePath(candidate)))) {
            *newName = candidate;
            return path;
        }
    }
}

}  // namespace tunedeck::app
