#include "core/cluster_spec.h"

#include <algorithm>

namespace tunedeck {

QString ClusterNodeSpec::name() const {
    if (port == 22) {
        return host;
    }
    // An IPv6 address holds colons itself, so its port needs the brackets to be told apart.
    const QString shown = host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host;
    return QStringLiteral("%1:%2").arg(shown).arg(port);
}

SourceLocation ClusterSpec::locationOf(const QString& keyPath) const {
    // A key that was not recorded (a list item, a default) is reported at the closest key above
    // it that was, so the user still lands near the problem.
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
    fileOnly.file = sourceFile;
    return fileOnly;
}

}  // namespace tunedeck
