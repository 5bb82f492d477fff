#include "cli/output_formats.h"

#include <yaml-cpp/yaml.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

#include "config/config_yaml.h"
#include "runtime/trial_command.h"

namespace tunedeck::cli {

QString objectivesText(const std::vector<Objective>& objectives) {
    QStringList parts;
    for (const Objective& objective : objectives) {
        parts << QStringLiteral("%1 (%2)").arg(objective.metric, metricModeName(objective.mode));
    }
    return parts.join(QStringLiteral(", "));
}

namespace {

void flattenInto(const QJsonObject& object, const QString& prefix, QJsonObject* out) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + '.' + it.key();
        if (it.value().isObject()) {
            flattenInto(it.value().toObject(), path, out);
        } else {
            out->insert(path, it.value());
        }
    }
}

QString shellQuoted(const QString& text) {
    static const QString safe =
        QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:/+=@%");
    const bool plain = !text.isEmpty() && std::all_of(text.begin(), text.end(),
                                                      [](QChar c) { return safe.contains(c); });
    if (plain) {
        return text;
    }
    QString quoted = text;
    quoted.replace('\'', QStringLiteral("'\\''"));
    return '\'' + quoted + '\'';
}

}  // namespace

QByteArray configAsYaml(const QJsonObject& config, const QString& headerComment,
                        const FloatPaths& floats) {
    QByteArray text;
    for (const QString& line : headerComment.split('\n', Qt::SkipEmptyParts)) {
        text += "# " + line.toUtf8() + '\n';
    }
    return text + configYamlDocument(config, floats);
}

QByteArray configAsJson(const QJsonObject& config, const FloatPaths& floats) {
    return configJsonText(config, floats, JsonLayout::Indented);
}

QByteArray configAsFlags(const QJsonObject& config, const FloatPaths& floats) {
    const QJsonObject flat = flattenConfig(config);
    QStringList flags;
    for (auto it = flat.begin(); it != flat.end(); ++it) {
        flags << shellQuoted(QStringLiteral("--%1=%2").arg(
            it.key(), formatConfigValue(*it, floatPathsBelow(floats, it.key()))));
    }
    return flags.join(' ').toUtf8() + '\n';
}

QByteArray paretoFrontAsYaml(const std::vector<ParetoMember>& front, const QString& headerComment) {
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "pareto_front" << YAML::Value << YAML::BeginSeq;
    for (const ParetoMember& member : front) {
        out << YAML::BeginMap;
        out << YAML::Key << "trial_id" << YAML::Value << member.trialId.toStdString();
        out << YAML::Key << "objectives" << YAML::Value << YAML::BeginMap;
        for (const auto& [metric, value] : member.objectives) {
            out << YAML::Key << metric.toStdString() << YAML::Value;
            emitConfigValue(out, QJsonValue(value));
        }
        out << YAML::EndMap;
        out << YAML::Key << "config" << YAML::Value;
        emitConfigValue(out, member.config);
        out << YAML::EndMap;
    }
    out << YAML::EndSeq << YAML::EndMap;
    QByteArray text;
    for (const QString& line : headerComment.split('\n', Qt::SkipEmptyParts)) {
        text += "# " + line.toUtf8() + '\n';
    }
    text += QByteArray(out.c_str()) + '\n';
    return text;
}

QByteArray paretoFrontAsJson(const std::vector<ParetoMember>& front) {
    QJsonArray members;
    for (const ParetoMember& member : front) {
        QJsonObject objectives;
        for (const auto& [metric, value] : member.objectives) {
            objectives.insert(metric, value);
        }
        members.append(QJsonObject{{QStringLiteral("trial_id"), member.trialId},
                                   {QStringLiteral("objectives"), objectives},
                                   {QStringLiteral("config"), member.config}});
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("pareto_front"), members}})
        .toJson(QJsonDocument::Indented);
}

QByteArray paretoFrontAsFlags(const std::vector<ParetoMember>& front) {
    QByteArray text;
    for (const ParetoMember& member : front) {
        text += configAsFlags(member.config);
    }
    return text;
}

QJsonObject flattenConfig(const QJsonObject& config) {
    QJsonObject flat;
    flattenInto(config, {}, &flat);
    return flat;
}

}  // namespace tunedeck::cli
