#include "editors/cluster_node_types.h"

#include "editors/cluster_fields.h"

namespace tunedeck::app {

namespace {

const QStringList kTypes{QStringLiteral("available_node_types")};
const QString kResources = QStringLiteral("resources");
const QString kNodeConfig = QStringLiteral("node_config");

// A value as it stands inside a flow mapping: scalars quoted only where flow needs it (numbers
// stay numbers), flow collections as written, block collections in flow style.
QString flowText(const YamlText& yaml, const QStringList& path) {
    switch (yaml.kind(path)) {
        case YamlText::Kind::Scalar: {
            const QString source = yaml.source(yaml.span(path));
            if (source.startsWith(QLatin1Char('"')) || source.startsWith(QLatin1Char('\''))) {
                return source;
            }
            const QString value = yaml.scalar(path);
            return looksLikeYamlNumber(value) ? value : yamlString(value, true);
        }
        case YamlText::Kind::Sequence: {
            if (yaml.isFlow(path)) {
                return yaml.source(yaml.span(path));
            }
            QStringList items;
            for (const QString& item : yaml.items(path)) {
                items << (looksLikeYamlNumber(item) ? item : yamlString(item, true));
            }
            return QLatin1Char('[') + items.join(QStringLiteral(", ")) + QLatin1Char(']');
        }
        case YamlText::Kind::Mapping: {
            if (yaml.isFlow(path)) {
                return yaml.source(yaml.span(path));
            }
            QStringList entries;
            for (const QString& key : yaml.keys(path)) {
                entries << yamlString(key, true) + QStringLiteral(": ") +
                               flowText(yaml, path + QStringList{key});
            }
            return QLatin1Char('{') + entries.join(QStringLiteral(", ")) + QLatin1Char('}');
        }
        default:
            return {};
    }
}

// Which spelling of a resource key the type uses: `CPU` (Ray's, the default) or `cpu`.
QString resourceKey(const YamlText& yaml, const QStringList& at, const QString& upper) {
    const QStringList resources = at + QStringList{kResources};
    if (yaml.kind(resources + QStringList{upper}) != YamlText::Kind::Missing) {
        return upper;
    }
    const QString lower = upper.toLower();
    if (yaml.kind(resources + QStringList{lower}) != YamlText::Kind::Missing) {
        return lower;
    }
    for (const QString& key : yaml.keys(resources)) {
        if (key == key.toLower()) {
            return lower;  // the type writes its keys in lower case
        }
    }
    return upper;
}

QString resource(const YamlText& yaml, const QStringList& at, const QString& upper) {
    return yaml.scalar(at + QStringList{kResources, resourceKey(yaml, at, upper)});
}

// The key by key edits of the type's node_config (read at `readAt`, written at `writeAt`: the
// type's path before and after a rename) from what it holds to the flow mapping `text`.
bool nodeConfigSteps(const YamlText& yaml, const QStringList& readAt, const QStringList& writeAt,
                     const QString& text, QList<ClusterEditStep>* steps) {
    const QStringList old = readAt + QStringList{kNodeConfig};
    const QStringList path = writeAt + QStringList{kNodeConfig};
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) {
        *steps << [path](const YamlText& current) { return current.remove(path); };
        return true;
    }
    const YamlText wanted(trimmed.startsWith(QLatin1Char('{'))
                              ? trimmed
                              : QLatin1Char('{') + trimmed + QLatin1Char('}'));
    if (!wanted.isParsed() || wanted.kind({}) != YamlText::Kind::Mapping) {
        return false;
    }
    if (yaml.kind(old) != YamlText::Kind::Mapping) {
        const QString whole = flowText(wanted, {});
        *steps << [path, whole](const YamlText& current) { return current.setValue(path, whole); };
        return true;
    }
    const QStringList keys = wanted.keys({});
    for (const QString& key : yaml.keys(old)) {
        if (!keys.contains(key)) {
            *steps << [path, key](const YamlText& current) {
                return current.remove(path + QStringList{key});
            };
        }
    }
    for (const QString& key : keys) {
        const QString value = flowText(wanted, {key});
        if (value != flowText(yaml, old + QStringList{key})) {
            *steps << [path, key, value](const YamlText& current) {
                return current.setValue(path + QStringList{key}, value);
            };
        }
    }
    return true;
}

}  // namespace

QList<NodeTypeRow> readNodeTypes(const YamlText& yaml) {
    QList<NodeTypeRow> rows;
    for (const QString& name : yaml.keys(kTypes)) {
        const QStringList at = kTypes + QStringList{name};
        rows << NodeTypeRow{name,
                            resource(yaml, at, QStringLiteral("CPU")),
                            resource(yaml, at, QStringLiteral("GPU")),
                            yaml.scalar(at + QStringList{QStringLiteral("min_workers")}),
                            yaml.scalar(at + QStringList{QStringLiteral("max_workers")}),
                            flowText(yaml, at + QStringList{kNodeConfig})};
    }
    return rows;
}

std::optional<TextEdit> nodeTypeEdit(const YamlText& yaml, int row, const NodeTypeRow& type) {
    const QList<NodeTypeRow> rows = readNodeTypes(yaml);
    if (row < 0 || row >= rows.size() || rows[row] == type) {
        return std::nullopt;
    }
    const NodeTypeRow& old = rows[row];
    QString name = old.name;
    QList<ClusterEditStep> steps;
    if (type.name != old.name) {
        if (type.name.isEmpty() || yaml.keys(kTypes).contains(type.name)) {
            return std::nullopt;  // two types cannot share a name
        }
        const bool inFlow = yaml.isFlow(kTypes);
        steps << [old, type, inFlow](const YamlText& current) -> std::optional<TextEdit> {
            const TextSpan key = current.keySpan(kTypes + QStringList{old.name});
            if (!key.isValid()) {
                return std::nullopt;
            }
            return TextEdit{key.start, key.end, yamlString(type.name, inFlow)};
        };
        name = type.name;
    }
    const QStringList oldAt = kTypes + QStringList{old.name};
    const QStringList at = kTypes + QStringList{name};
    auto number = [&steps](const QStringList& path, const QString& before, const QString& after) {
        if (before == after) {
            return;
        }
        steps << [path, after](const YamlText& current) -> std::optional<TextEdit> {
            if (after.isEmpty()) {
                return current.remove(path);
            }
            const bool inFlow = current.isFlow(path.mid(0, path.size() - 1));
            return current.setValue(path, clusterNumberText(after, inFlow));
        };
    };
    number(at + QStringList{kResources, resourceKey(yaml, oldAt, QStringLiteral("CPU"))}, old.cpu,
           type.cpu);
    number(at + QStringList{kResources, resourceKey(yaml, oldAt, QStringLiteral("GPU"))}, old.gpu,
           type.gpu);
    number(at + QStringList{QStringLiteral("min_workers")}, old.minWorkers, type.minWorkers);
    number(at + QStringList{QStringLiteral("max_workers")}, old.maxWorkers, type.maxWorkers);
    if (type.nodeConfig != old.nodeConfig &&
        !nodeConfigSteps(yaml, oldAt, at, type.nodeConfig, &steps)) {
        return std::nullopt;
    }
    return chainedEdit(yaml, steps);
}

std::optional<TextEdit> addNodeTypeEdit(const YamlText& yaml, const QString& name) {
    if (yaml.keys(kTypes).contains(name)) {
        return std::nullopt;
    }
    return yaml.setValue(kTypes + QStringList{name},
                         QStringLiteral("{resources: {CPU: 1}, max_workers: 1}"));
}

std::optional<TextEdit> removeNodeTypeEdit(const YamlText& yaml, int row) {
    const QStringList names = yaml.keys(kTypes);
    if (row < 0 || row >= names.size()) {
        return std::nullopt;
    }
    return yaml.remove(kTypes + QStringList{names[row]});
}

}  // namespace tunedeck::app
