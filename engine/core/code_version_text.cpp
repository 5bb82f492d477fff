#include "core/code_version_text.h"

#include <QJsonArray>
#include <QStringList>

#include "core/counted.h"

namespace tunedeck {

QString codeVersionText(const QJsonObject& version) {
    const QString kind = version.value("kind").toString();
    if (kind == QLatin1String("files")) {
        return QStringLiteral("files %1 (%2, not a git repository)")
            .arg(version.value("content_hash").toString(),
                 counted(version.value("files").toInt(), "file"));
    }
    if (kind != QLatin1String("git")) {
        return {};
    }
    const QString branch = version.value("branch").toString();
    QString text =
        QStringLiteral("git %1 %2")
            .arg(version.value("commit").toString().left(12),
                 branch.isEmpty() ? QStringLiteral("(detached)") : QStringLiteral("on ") + branch);
    if (!version.value("dirty").toBool()) {
        return text + QStringLiteral(", clean");
    }
    QStringList parts;
    if (const auto bytes = qint64(version.value("diff_bytes").toDouble()); bytes > 0) {
        parts << QStringLiteral("diff ") + counted(bytes, "byte");
    }
    if (const auto n = version.value("untracked").toArray().size(); n > 0) {
        parts << counted(n, "untracked file") + QStringLiteral(" kept");
    }
    if (const auto n = version.value("untracked_links").toArray().size(); n > 0) {
        parts << counted(n, "untracked link") + QStringLiteral(" kept");
    }
    if (const auto n = version.value("untracked_skipped").toArray().size(); n > 0) {
        parts << QStringLiteral("%1 too large, not kept").arg(n);
    }
    return text + QStringLiteral(", dirty (%1)").arg(parts.join(QStringLiteral(", ")));
}

}  // namespace tunedeck
