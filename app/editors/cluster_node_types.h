// The node types of an elastic cluster (`available_node_types`, Ray's key; slurm and command
// providers) as the cluster form's table shows them, read from the YAML text, and the edits that
// change one type key by key, so that the rest stays as written: comments, the spelling `CPU` or
// `cpu`, the keys of node_config that did not change. Pure functions over YamlText; thread-safe.
#pragma once

#include <QList>
#include <QString>
#include <optional>

#include "editors/yaml_text.h"

namespace tunedeck::app {

// One type as written; an empty value is "not written": SCHEMA.md's default applies.
struct NodeTypeRow {
    QString name;
    QString cpu;  // resources.CPU (or cpu)
    QString gpu;
    QString minWorkers;
    QString maxWorkers;
    // node_config on one line, as a flow mapping: {partition: cpu, mem: 16G}.
    QString nodeConfig;
    bool operator==(const NodeTypeRow&) const = default;
};

QList<NodeTypeRow> readNodeTypes(const YamlText& yaml);

// The edit that turns type `row` into `type` (renamed when the name differs and is free); nullopt
// when nothing changes or the text cannot take it (node_config that is not a flow mapping).
std::optional<TextEdit> nodeTypeEdit(const YamlText& yaml, int row, const NodeTypeRow& type);
// A new type `name` offering one CPU, at most one node; nullopt when the name is taken.
std::optional<TextEdit> addNodeTypeEdit(const YamlText& yaml, const QString& name);
std::optional<TextEdit> removeNodeTypeEdit(const YamlText& yaml, int row);

}  // namespace tunedeck::app
