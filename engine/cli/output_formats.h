// How the CLI writes configs and results for people and other tools: a config as YAML, JSON or
// command-line flags; a Pareto front the same ways. (The summary of a stored experiment's spec it
// uses is config/spec_summary.h.) Pure functions; thread-safe.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <utility>
#include <vector>

#include "config/spec_summary.h"
#include "core/config_json.h"
#include "core/experiment_spec.h"

namespace tunedeck::cli {

// "score (max), loss (min)"
QString objectivesText(const std::vector<Objective>& objectives);

// `floats`: the numbers of the config that are floats (core/config_json.h), written 1.0 not 1.
QByteArray configAsYaml(const QJsonObject& config, const QString& headerComment,
                        const FloatPaths& floats = {});
QByteArray configAsJson(const QJsonObject& config, const FloatPaths& floats = {});
// --lr=0.01 --model.depth=3 ... (nested groups as dotted names), each quoted for a POSIX shell.
QByteArray configAsFlags(const QJsonObject& config, const FloatPaths& floats = {});
// One trial of a Pareto front: its objective values (in the experiment's order) and config.
struct ParetoMember {
    QString trialId;
    std::vector<std::pair<QString, double>> objectives;
    QJsonObject config;
};
// pareto_front: a list of {trial_id, objectives, config}, in the order given.
QByteArray paretoFrontAsYaml(const std::vector<ParetoMember>& front, const QString& headerComment);
QByteArray paretoFrontAsJson(const std::vector<ParetoMember>& front);
// One line of flags per trial, in the order given.
QByteArray paretoFrontAsFlags(const std::vector<ParetoMember>& front);

// Config flattened to "path" -> value with dotted paths (for tables and CSV columns).
QJsonObject flattenConfig(const QJsonObject& config);

}  // namespace tunedeck::cli
