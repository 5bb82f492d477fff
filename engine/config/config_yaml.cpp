#include "config/config_yaml.h"

#include <yaml-cpp/yaml.h>

#include <QJsonArray>

namespace tunedeck {

void emitConfigValue(YAML::Emitter& out, const QJsonValue& value, const FloatPaths& floats,
                     const QString& path) {
    const auto inner = [&path](const QString& key) {
        return path.isEmpty() ? key : path + QLatin1Char('.') + key;
    };
    switch (value.type()) {
        case QJsonValue::Object: {
            out << YAML::BeginMap;
            const QJsonObject object = value.toObject();
            for (auto it = object.begin(); it != object.end(); ++it) {
                out << YAML::Key << it.key().toStdString() << YAML::Value;
                emitConfigValue(out, it.value(), floats, inner(it.key()));
            }
            out << YAML::EndMap;
            break;
        }
        case QJsonValue::Array: {
            out << YAML::Flow << YAML::BeginSeq;
            const QJsonArray array = value.toArray();
            for (qsizetype i = 0; i < array.size(); ++i) {
                emitConfigValue(out, array.at(i), floats, inner(QString::number(i)));
            }
            out << YAML::EndSeq;
            break;
        }
        case QJsonValue::String:
            out << YAML::DoubleQuoted << value.toString().toStdString();
            break;
        case QJsonValue::Bool:
            out << value.toBool();
            break;
        case QJsonValue::Double:
            out << numberText(value.toDouble(), floats.contains(path)).toStdString();
            break;
        case QJsonValue::Null:
        case QJsonValue::Undefined:
            out << YAML::Null;
            break;
    }
}

QByteArray configYamlDocument(const QJsonObject& config, const FloatPaths& floats) {
    YAML::Emitter out;
    emitConfigValue(out, config, floats);
    return QByteArray(out.c_str()) + '\n';
}

}  // namespace tunedeck
