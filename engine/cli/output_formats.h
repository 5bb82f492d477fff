// How the CLI writes configs and results for people and other tools: a config as YAML, JSON or
// command-line flags; a summary of a stored experiment's spec. Pure functions; thread-safe.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include "core/experiment_spec.h"

namespace tunedeck::cli {

// The stored spec's name, metric and mode, read without checking the trainable (an experiment
// folder copied off a server must still open here).
struct SpecSummary {
    QString name;
    QString metric;
    MetricMode mode = MetricMode::Max;
};
SpecSummary summarizeSpec(const QString& specText);

QByteArray configAsYaml(const QJsonObject& config, const QString& headerComment);
QByteArray configAsJson(const QJsonObject& config);
// --lr=0.01 --model.depth=3 ... (nested groups as dotted names), each quoted for a POSIX shell.
QByteArray configAsFlags(const QJsonObject& config);
// Config flattened to "path" -> value with dotted paths (for tables and CSV columns).
QJsonObject flattenConfig(const QJsonObject& config);

}  // namespace tunedeck::cli
