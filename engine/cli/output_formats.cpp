#include "cli/output_formats.h"

#include <yaml-cpp/yaml.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

#include "runtime/trial_command.h"

namespace tunedeck::cli {

SpecSummary summarizeSpec(const QString& specText) {
    SpecSummary summary;
    try {
        const YAML::Node root = YAML::Load(specText.toStdString());
        if (root["name"] && root["name"].IsScalar()) {
            summary.name = QString::fromStdString(root["name"].as<std::string>());
        }
        if (root["metric"] && root["metric"].IsScalar()) {
            summary.metric = QString::fromStdString(root["metric"].as<std::string>());
        }
        if (root["mode"] && root["mode"].IsScalar()) {
            summary.mode =
                root["mode"].as<std::string>() == "min" ? MetricMode::Min : MetricMode::Max;
        }
    } catch (const YAML::Exception&) {
        // A stored spec was valid when it ran; an unreadable one leaves the summary empty.
    }
    return summary;
}

namespace {

void emitValue(YAML::Emitter& out, const QJsonValue& value) {
    switch (value.type()) {
        case QJsonValue::Object: {
            out << YAML::BeginMap;
            const QJsonObject object = value.toObject();
            for (auto it = object.begin(); it != object.end(); ++it) {
                out << YAML::Key << it.key().toStdString() << YAML::Value;
                emitValue(out, it.value());
            }
            out << YAML::EndMap;
            break;
        }
        case QJsonValue::Array:
            out << YAML::Flow << YAML::BeginSeq;
            for (const QJsonValue& item : value.toArray()) {
                emitValue(out, item);
            }
            out << YAML::EndSeq;
            break;
        case QJsonValue::String:
            out << YAML::DoubleQuoted << value.toString().toStdString();
            break;
        case QJsonValue::Bool:
            out << value.toBool();
            break;
        case QJsonValue::Double:
            out << formatConfigValue(value).toStdString();
            break;
        case QJsonValue::Null:
        case QJsonValue::Undefined:
            out << YAML::Null;
            break;
    }
}

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

QByteArray configAsYaml(const QJsonObject& config, const QString& headerComment) {
    YAML::Emitter out;
    emitValue(out, config);
    QByteArray text;
    for (const QString& line : headerComment.split('\n', Qt::SkipEmptyParts)) {
        text += "# " + line.toUtf8() + '\n';
    }
    text += QByteArray(out.c_str()) + '\n';
    return text;
}

QByteArray configAsJson(const QJsonObject& config) {
    return QJsonDocument(config).toJson(QJsonDocument::Indented);
}

QByteArray configAsFlags(const QJsonObject& config) {
    const QJsonObject flat = flattenConfig(config);
    QStringList flags;
    for (auto it = flat.begin(); it != flat.end(); ++it) {
        flags << shellQuoted(QStringLiteral("--%1=%2").arg(it.key(), formatConfigValue(*it)));
    }
    return flags.join(' ').toUtf8() + '\n';
}

QJsonObject flattenConfig(const QJsonObject& config) {
    QJsonObject flat;
    flattenInto(config, {}, &flat);
    return flat;
}

}  // namespace tunedeck::cli
