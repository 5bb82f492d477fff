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
    return nearestLocation(locations, keyPath, sourceFile);
}

}  // namespace tunedeck
