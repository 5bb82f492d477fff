#include "core/experiment_spec.h"

namespace tunedeck {

QString metricModeName(MetricMode mode) {
    return mode == MetricMode::Min ? QStringLiteral("min") : QStringLiteral("max");
}

QString SourceLocation::toString() const {
    QStringList parts;
    if (!file.isEmpty()) {
        parts.append(file);
    }
    if (line > 0) {
        parts.append(QString::number(line));
        if (column > 0) {
            parts.append(QString::number(column));
        }
    }
    return parts.join(QLatin1Char(':'));
}

SourceLocation nearestLocation(const QMap<QString, SourceLocation>& locations,
                               const QString& keyPath, const QString& file) {
    QString path = keyPath;
    while (!path.isEmpty()) {
        const auto it = locations.constFind(path);
        if (it != locations.constEnd()) {
            return it.value();
        }
        const qsizetype cut =
            std::max(path.lastIndexOf(QLatin1Char('.')), path.lastIndexOf(QLatin1Char('[')));
        if (cut < 0) {
            break;
        }
        path.truncate(cut);
    }
    SourceLocation fileOnly;
    fileOnly.file = file;
    return fileOnly;
}

SourceLocation ExperimentSpec::locationOf(const QString& keyPath) const {
    return nearestLocation(locations, keyPath, sourceFile);
}

}  // namespace tunedeck
