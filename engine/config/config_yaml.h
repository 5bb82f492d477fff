// A trial's config as a YAML document, as `tunedeck-engine best --format yaml` and the app's
// "Copy config as YAML" write it: nested groups as maps, lists in flow style, strings
// double-quoted, every number in full with its floats written as floats (`1.0`, not `1`).
// Pure; thread-safe.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include "core/config_json.h"

namespace YAML {
class Emitter;
}

namespace tunedeck {

// Writes `value` into a document being emitted (a config inside another document: a Pareto
// front's members). `path`: the value's dotted path in the config, which `floats` names.
void emitConfigValue(YAML::Emitter& out, const QJsonValue& value, const FloatPaths& floats = {},
                     const QString& path = {});

// The document, ending in a newline. `floats`: the numbers of `config` that are floats.
QByteArray configYamlDocument(const QJsonObject& config, const FloatPaths& floats = {});

}  // namespace tunedeck
