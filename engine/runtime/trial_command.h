// Turns a trainable's command template and a trial's config into the argv and environment the
// worker starts. Each template element stays exactly one argument, so no config value can reach
// a shell or split into extra arguments. Pure; thread-safe.
#pragma once

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include "cluster/node_link.h"
#include "core/config_json.h"
#include "core/experiment_spec.h"
#include "core/status.h"
#include "core/trial.h"

namespace tunedeck {

// How a config value is written into an argument: strings as they are, integers without a
// decimal point, floats in their shortest exact form with a point (1.0, 0.25, 1e-05), booleans
// as true/false, lists and groups as compact JSON. `floats` names the numbers of the value that
// are floats ("" for the value itself; core/config_json.h); the others are written as integers
// when whole.
QString formatConfigValue(const QJsonValue& value, const FloatPaths& floats = {});

// Replaces every {dotted.path} of `element` by the config value; "{{" and "}}" are literal braces.
// InvalidArgument names the placeholder when the config has no such value. `floats`: the float
// numbers of `config` (floatPathsOf).
Status expandPlaceholders(const QString& element, const QJsonObject& config, QString* out,
                          const FloatPaths& floats = {});

// Every {placeholder} named in the template (for validation).
QStringList placeholdersIn(const QStringList& commandTemplate);

struct TrialLaunch {
    QStringList argv;
    QMap<QString, QString> env;  // TUNEDECK_* and the trainable's env; the worker adds the channel
    QString cwd;
    QString trialDir;
};

struct TrialLaunchContext {
    QString experimentName;
    QString trialDir;
    QString restoreDir;          // empty when starting fresh
    std::int64_t iteration = 0;  // training_iteration of restoreDir
    QString pythonSdkDir;
    QString inheritedPythonPath;  // the engine's own PYTHONPATH, kept after the SDK's folder
    QString cudaVisibleDevices;
};

Status buildTrialLaunch(const ExperimentSpec& spec, const Trial& trial,
                        const TrialLaunchContext& context, TrialLaunch* out);

// The agent's start op for one process of a trial on `link` (the trial itself, or a rank of its
// gang, by the id the node knows it by), paths mapped to that node. A gang's rank adds its
// log_prefix, free_ports and interface_for.
node::StartOp nodeStartOp(const NodeLink& link, const QString& id, const TrialLaunch& launch);

}  // namespace tunedeck
