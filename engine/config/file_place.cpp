#include "config/file_place.h"

#include <QDir>
#include <QFileInfo>

namespace tunedeck {

QString FilePlace::resolve(const QString& path) const {
    return QDir::cleanPath(QDir(folder).absoluteFilePath(path));
}

QString FilePlace::display(const QString& path) const {
    const QString dir = QFileInfo(displayFile).path();
    if (QDir::isAbsolutePath(path) || dir == QLatin1String(".")) {
        return QDir::cleanPath(path);
    }
    return QDir::cleanPath(dir + QLatin1Char('/') + path);
}

QString FilePlace::resolveHome(const QString& path) const {
    if (path == QLatin1String("~")) {
        return QDir::cleanPath(QDir::homePath());
    }
    if (path.startsWith(QLatin1String("~/"))) {
        return QDir::cleanPath(QDir::homePath() + path.mid(1));
    }
    if (path.startsWith(QLatin1Char('~'))) {
        return QString();
    }
    return resolve(path);
}

}  // namespace tunedeck
