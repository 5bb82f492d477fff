#include "runtime/trial_command.h"

#include <QJsonArray>
#include <QRegularExpression>

#include "core/checkpoint_policy.h"
#include "core/search_space.h"

namespace tunedeck {

QString formatConfigValue(const QJsonValue& value, const FloatPaths& floats) {
    switch (value.type()) {
        case QJsonValue::String:
            return value.toString();
        case QJsonValue::Bool:
            return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        case QJsonValue::Double:
            return numberText(value.toDouble(), floats.contains(QString()));
        case QJsonValue::Array:
        case QJsonValue::Object:
            return QString::fromUtf8(configJsonText(value, floats));
        case QJsonValue::Null:
            return QStringLiteral("null");
        case QJsonValue::Undefined:
            break;
    }
    return {};
}

namespace {

// Calls `onPlaceholder(name)` for each {name}; `onText` for literal text. False on a lone brace.
template <typename Text, typename Placeholder>
bool scanTemplate(const QString& element, Text&& onText, Placeholder&& onPlaceholder) {
    qsizetype i = 0;
    while (i < element.size()) {
        const QChar c = element.at(i);
        const bool doubled = i + 1 < element.size() && element.at(i + 1) == c;
        if ((c == '{' || c == '}') && doubled) {
            onText(QString(c));
            i += 2;
        } else if (c == '{') {
            const qsizetype end = element.indexOf('}', i + 1);
            if (end < 0) {
                return false;
            }
            if (!onPlaceholder(element.mid(i + 1, end - i - 1).trimmed())) {
                return false;
            }
            i = end + 1;
        } else {
            onText(QString(c));
            ++i;
        }
    }
    return true;
}

}  // namespace

Status expandPlaceholders(const QString& element, const QJsonObject& config, QString* out,
                          const FloatPaths& floats) {
    QString result;
    QString missing;
    const bool ok = scanTemplate(
        element, [&](const QString& text) { result += text; },
        [&](const QString& name) {
            const QJsonValue value = valueAtPath(config, name);
            if (value.isUndefined()) {
                missing = name;
                return false;
            }
            result += formatConfigValue(value, floatPathsBelow(floats, name));
            return true;
        });
    if (!ok) {
        return Status::invalid(
            missing.isEmpty()
                ? QStringLiteral("unmatched brace in command argument '%1'").arg(element)
                : QStringLiteral("command placeholder {%1} names no parameter of this trial's "
                                 "config")
                      .arg(missing));
    }
    *out = result;
    return Status::ok();
}

QStringList placeholdersIn(const QStringList& commandTemplate) {
    QStringList names;
    for (const QString& element : commandTemplate) {
        scanTemplate(
            element, [](const QString&) {},
            [&](const QString& name) {
                names.append(name);
                return true;
            });
    }
    return names;
}

Status buildTrialLaunch(const ExperimentSpec& spec, const Trial& trial,
                        const TrialLaunchContext& context, TrialLaunch* out) {
    TrialLaunch launch;
    const FloatPaths floats = floatPathsOf(spec.searchSpace, trial.config);
    for (const QString& element : spec.trainable.command) {
        QString argument;
        if (Status s = expandPlaceholders(element, trial.config, &argument, floats); !s) {
            return s;
        }
        launch.argv.append(argument);
    }
    launch.env = spec.trainable.env;
    launch.env.insert("TUNEDECK_TRIAL_ID", trial.id);
    launch.env.insert("TUNEDECK_EXPERIMENT", context.experimentName);
    launch.env.insert("TUNEDECK_CONFIG", QString::fromUtf8(configJsonText(trial.config, floats)));
    launch.env.insert("TUNEDECK_TRIAL_DIR", context.trialDir);
    launch.env.insert("TUNEDECK_RESTORE", context.restoreDir);
    launch.env.insert("TUNEDECK_ITERATION", QString::number(context.iteration));
    launch.env.insert("TUNEDECK_REPORT_WINDOW", QString::number(reportWindowLimit(spec)));
    launch.env.insert("CUDA_VISIBLE_DEVICES", context.cudaVisibleDevices);
    QString pythonPath = context.pythonSdkDir;
    const QString userPath = spec.trainable.env.value("PYTHONPATH", context.inheritedPythonPath);
    if (!userPath.isEmpty()) {
        pythonPath += ':' + userPath;
    }
    launch.env.insert("PYTHONPATH", pythonPath);
    launch.cwd = spec.trainable.workingDir;
    launch.trialDir = context.trialDir;
    *out = std::move(launch);
    return Status::ok();
}

node::StartOp nodeStartOp(const NodeLink& link, const QString& id, const TrialLaunch& launch) {
    const PathMap& paths = link.paths();
    node::StartOp op;
    op.trial = id.toStdString();
    for (auto it = launch.env.cbegin(); it != launch.env.cend(); ++it) {
        // Search paths (PYTHONPATH) are lists: each folder in them is mapped on its own.
        QStringList parts = it.value().split(QLatin1Char(':'));
        for (QString& part : parts) {
            part = paths.toNode(part);
        }
        op.env.emplace_back(it.key().toStdString(), parts.join(QLatin1Char(':')).toStdString());
    }
    for (const QString& argument : launch.argv) {
        op.argv.push_back(paths.toNode(argument).toStdString());
    }
    op.cwd = paths.toNode(launch.cwd).toStdString();
    op.trialDir = paths.toNode(launch.trialDir).toStdString();
    return op;
}

}  // namespace tunedeck
