// Typed, located access to a parsed YAML document for the experiment and cluster loaders: every
// read either
// yields a value or records a "file:line:column: key: problem" and yields nothing.
// Scalars are typed by the YAML 1.2 core schema (quoted text is always a string).
// Internal to engine/config; one reader per load, not shared between threads.
#pragma once

#include <yaml-cpp/yaml.h>

#include <QJsonValue>
#include <QMap>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "config/problem_list.h"
#include "core/source_location.h"

namespace tunedeck {

// One `key: value` of a mapping, with the dotted path of the key ("trainable.command").
struct YamlEntry {
    QString key;
    QString path;
    YAML::Node value;
    SourceLocation keyLocation;
    SourceLocation valueLocation;  // the key's location when the value is empty
};

// The JSON value a plain YAML scalar stands for (null, bool, integer, float or string).
QJsonValue yamlScalarToJson(const QString& text, bool quoted);
std::optional<double> parseYamlNumber(const QString& text);
std::optional<std::int64_t> parseYamlInteger(const QString& text);

class YamlReader {
  public:
    YamlReader(TextPositions positions, ProblemList* problems,
               QMap<QString, SourceLocation>* locations);

    const QString& file() const { return positions_.file(); }
    SourceLocation locationOf(const YAML::Node& node) const;
    // Where item `index` of a sequence is written; an empty item (a bare "-") has no place of
    // its own in yaml-cpp, so the sequence's is used rather than the next token's.
    SourceLocation itemLocation(const YAML::Node& sequence, std::size_t index) const;
    void problem(const SourceLocation& at, const QString& key, const QString& message);

    // The entries of a mapping in written order. Records each key's location under
    // `prefix.key` and reports duplicate and non-text keys (those are left out).
    std::vector<YamlEntry> entries(const YAML::Node& map, const QString& prefix);
    // Reports every entry whose key is not in `known`, suggesting the closest known key.
    void rejectUnknown(const std::vector<YamlEntry>& entries, const QStringList& known);
    // Records the locations of every key below `node` (for options passed on as JSON).
    void recordLocations(const YAML::Node& node, const QString& prefix);

    bool isMap(const YamlEntry& entry);  // reports "expected a mapping" when not
    // Text; a NUL character in it is reported (nulProblem) and yields nothing.
    std::optional<QString> string(const YamlEntry& entry);
    std::optional<double> number(const YamlEntry& entry);
    std::optional<std::int64_t> integer(const YamlEntry& entry);
    std::optional<bool> boolean(const YamlEntry& entry);
    // Checked numeric reads, reporting "must be >= min, got x".
    std::optional<std::int64_t> integerAtLeast(const YamlEntry& entry, std::int64_t min);
    std::optional<double> numberAbove(const YamlEntry& entry, double exclusiveMin);

    // The same checks for an element that is not a mapping value (a list item).
    std::optional<double> number(const YAML::Node& node, const QString& path);
    std::optional<std::int64_t> integer(const YAML::Node& node, const QString& path);

    QJsonValue toJson(const YAML::Node& node) const;

  private:
    TextPositions positions_;
    ProblemList* problems_;
    QMap<QString, SourceLocation>* locations_;
};

// The entry named `key`, or null.
const YamlEntry* findEntry(const std::vector<YamlEntry>& entries, const QString& key);
// An `int` field: an integer >= min that fits in an int.
std::optional<int> readInt(YamlReader& reader, const YamlEntry& entry, int min);
// A name that becomes a folder (core/folder_name.h): a missing `entry` is reported at
// `rootLocation` under `key` with "required key is missing (`missingHint`)", a name that cannot
// be a folder with "; `becomes`" after the reason ("it becomes the results folder's name").
std::optional<QString> readFolderName(YamlReader& reader, const YamlEntry* entry,
                                      const SourceLocation& rootLocation, const QString& key,
                                      const QString& missingHint, const QString& becomes);

// The words a kind of file uses when its text is not one mapping of keys.
struct YamlFileKind {
    QString article;    // "an experiment file"
    QString emptyHint;  // after "the file is empty; ": "an experiment needs at least name ..."
    QString someKeys;   // "name, trainable, search_space, ..."
};

// Parses `utf8` as a file of `kind` and hands its root mapping to `read`. An empty file, a
// second document, a root that is no mapping, invalid YAML and any yaml-cpp exception thrown
// while `read` runs are recorded in `problems` with their place.
void readYamlFile(const TextPositions& positions, const QByteArray& utf8, const YamlFileKind& kind,
                  ProblemList* problems, const std::function<void(const YAML::Node&)>& read);

// How a value reads in a message: "'abc'", "a list", "a mapping", "nothing".
QString describeYaml(const YAML::Node& node);
bool isQuoted(const YAML::Node& node);
bool isText(const YAML::Node& node);       // a scalar that is not null: quoted, or any plain text
QString yamlText(const YAML::Node& node);  // the scalar as written, UTF-8 decoded
// "'a\0b' holds a NUL character ...": what every text read as a path, command or name says of
// one (YamlReader::string refuses them).
QString nulProblem(const QString& text);

}  // namespace tunedeck
