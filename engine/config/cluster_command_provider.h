// Readers for the command provider (provider: {type: command}): the user's create, terminate,
// list and connect commands with their {placeholders}, checked when the file is read so a typo
// is reported with its place instead of when the first node is started.
// Internal to engine/config; one set of readers per load, not shared between threads.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "config/yaml_reader.h"
#include "core/cluster_spec.h"

namespace tunedeck {

// Splits `text` into literal text and placeholders: `{name}` (a lower-case name, optionally
// `node_config.KEY`) is a placeholder and must be one of `allowed` (a `node_config.*` entry allows
// every KEY); `{{` is a literal brace (`{{node}` is the text {node}); any other brace is text,
// `}` always (JSON's `}}` stays as written). Nothing, and
// `problem` says why, when a placeholder is not allowed in `command` ("create").
std::optional<CommandTemplate> parseCommandTemplate(const QString& text, const QString& command,
                                                    const QStringList& allowed, QString* problem);

// provider: {type: command, create, terminate, list, connect, list_interval_s}; `entries` are
// the provider's keys, `provider` its entry (missing keys are reported at it).
void readCommandProvider(YamlReader& reader, const std::vector<YamlEntry>& entries,
                         const YamlEntry& provider, ClusterSpec* spec);

// Every {node_config.KEY} that create or connect uses must be given by every node type.
void checkNodeConfigKeys(YamlReader& reader, const ClusterSpec& spec);

}  // namespace tunedeck
