#include "editors/yaml_walk_bounds.h"

#include <QRegularExpression>

namespace tunedeck::app {

std::optional<QString> unwalkable(const YAML::Node& node, int depth, int& values) {
    if (depth > kMaxEditorDepth) {
        return QStringLiteral(
                   "nesting deeper than %1 levels (an alias inside the value it "
                   "names?)")
            .arg(kMaxEditorDepth);
    }
    if (++values > kMaxEditorValues) {
        return QStringLiteral("more than %1 values once aliases are expanded")
            .arg(kMaxEditorValues);
    }
    if (!node.IsMap() && !node.IsSequence()) {
        return std::nullopt;
    }
    for (auto it = node.begin(); it != node.end(); ++it) {
        const YAML::Node child = node.IsMap() ? it->second : *it;
        if (std::optional<QString> why = unwalkable(child, depth + 1, values)) {
            return why;
        }
    }
    return std::nullopt;
}

bool holdsTextButNoValue(const YAML::Node& root, const QString& text) {
    if (!root.IsNull()) {
        return false;
    }
    static const QRegularExpression comments(QStringLiteral("(^|\\s)#[^\\n]*"));
    QString rest = text;
    rest.remove(comments);
    rest = rest.simplified();
    for (const char* empty : {"", "~", "null", "Null", "NULL", "---", "--- ~", "...", "--- ..."}) {
        if (rest == QLatin1String(empty)) {
            return false;
        }
    }
    return true;
}

}  // namespace tunedeck::app
