#include "editors/algorithm_catalog.h"

#include <QCoreApplication>

#include "core/algorithm_catalog.h"

namespace tunedeck::app {

namespace {

// Core's texts are English; the translations are keyed by them under "AlgorithmCatalog" (the
// .ts files keep them: lupdate does not scan engine/core, so update_translations must not drop
// them, see translations/README.md).
QString translated(const QString& text) {
    return QCoreApplication::translate("AlgorithmCatalog", text.toUtf8().constData());
}

QList<AlgorithmInfo> shown(const std::vector<tunedeck::AlgorithmInfo>& catalog) {
    QList<AlgorithmInfo> list;
    for (const tunedeck::AlgorithmInfo& entry : catalog) {
        AlgorithmInfo info{entry.name, translated(entry.description), {}, entry.isDefault};
        for (const AlgorithmOptionInfo& option : entry.options) {
            info.options.append({option.name, option.isLiteral ? option.defaultValue
                                                               : translated(option.defaultValue)});
        }
        list.append(info);
    }
    return list;
}

}  // namespace

QList<AlgorithmInfo> searchAlgorithms() {
    return shown(searchAlgorithmCatalog());
}

QList<AlgorithmInfo> schedulerTypes() {
    return shown(schedulerCatalog());
}

QString optionsSummary(const AlgorithmInfo& info) {
    if (info.options.isEmpty()) {
        return QCoreApplication::translate("AlgorithmCatalog", "no options");
    }
    QStringList parts;
    for (const AlgorithmOption& option : info.options) {
        parts << QCoreApplication::translate("AlgorithmCatalog", "%1 = %2")
                     .arg(option.name, option.defaultValue);
    }
    return parts.join(QStringLiteral(", "));
}

}  // namespace tunedeck::app
