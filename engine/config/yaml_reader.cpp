#include "config/yaml_reader.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <cmath>
#include <exception>
#include <limits>
#include <new>

#include "config/yaml_limits.h"
#include "core/folder_name.h"

namespace tunedeck {

namespace {

// Core schema scalars (YAML 1.2, section 10.3.2), so `1e-4` is a number and `yes` is text.
const QRegularExpression& integerPattern() {
    static const QRegularExpression re(QStringLiteral("^[-+]?[0-9]+$"));
    return re;
}
const QRegularExpression& floatPattern() {
    static const QRegularExpression re(
        QStringLiteral("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$"));
    return re;
}

bool isNullText(const QString& text) {
    return text.isEmpty() || text == QLatin1String("~") || text == QLatin1String("null") ||
           text == QLatin1String("Null") || text == QLatin1String("NULL");
}

std::optional<bool> parseYamlBool(const QString& text) {
    if (text == QLatin1String("true") || text == QLatin1String("True") ||
        text == QLatin1String("TRUE")) {
        return true;
    }
    if (text == QLatin1String("false") || text == QLatin1String("False") ||
        text == QLatin1String("FALSE")) {
        return false;
    }
    return std::nullopt;
}

QString formatNumber(double value) {
    return QString::number(value, 'g', 17);
}

// A whole number written as an integer or a float that no 64-bit integer holds ("1e300",
// twenty digits): saying "expected an integer" of it would puzzle.
bool beyondInt64(const QString& text) {
    static const QRegularExpression integerForm(
        QStringLiteral("^([-+]?[0-9]+|0x[0-9a-fA-F]+|0o[0-7]+)$"));
    if (integerForm.match(text).hasMatch()) {
        return !parseYamlInteger(text).has_value();
    }
    const std::optional<double> number = parseYamlNumber(text);
    constexpr double kTwoTo63 = 9223372036854775808.0;
    return number && std::isfinite(*number) && std::floor(*number) == *number &&
           (*number >= kTwoTo63 || *number < -kTwoTo63);
}

// Quoting makes a YAML value text; say so, since "expected a number, got '1'" looks absurd.
QString quotedHint(const YAML::Node& node) {
    return node.IsScalar() && isQuoted(node) && parseYamlNumber(yamlText(node))
               ? QStringLiteral(" (quoted, so it is text)")
               : QString();
}

// A {placeholder} inside YAML's inline {...} or [...] syntax ends it early, and yaml-cpp's words
// for that ("end of map flow not found") do not say what to do.
QString flowHint(const std::string& message) {
    return QString::fromStdString(message).contains(QLatin1String("flow"))
               ? QStringLiteral(
                     " (inside {...} or [...], quote values that contain '{', '}', "
                     "'[', ']' or ',')")
               : QString();
}

}  // namespace

void readYamlFile(const TextPositions& positions, const QByteArray& utf8, const YamlFileKind& kind,
                  ProblemList* problems, const std::function<void(const YAML::Node&)>& read) {
    // The bounds first, on the events alone: only a text within them becomes nodes, so the
    // readers below never meet a cycle, a bomb or a depth they could not walk.
    YamlTextShape shape;
    const bool bounded = checkYamlText(positions, utf8, problems, &shape);
    if (shape.secondDocument) {
        problems->add(
            *shape.secondDocument, QString(),
            QStringLiteral("%1 holds one YAML document; this is a second one").arg(kind.article));
    }
    if (!bounded) {
        return;
    }
    try {
        // One document: YAML::LoadAll is what loops for ever on a stray ',' in yaml-cpp 0.7.
        const YAML::Node root = YAML::Load(utf8.toStdString());
        if (root.IsNull()) {
            problems->add({positions.file()}, QString(),
                          QStringLiteral("the file is empty; %1").arg(kind.emptyHint));
            return;
        }
        if (!root.IsMap()) {
            const YAML::Mark mark = root.Mark();
            problems->add(positions.at(mark.line, mark.column), QString(),
                          QStringLiteral("expected a mapping of keys (%1), got %2")
                              .arg(kind.someKeys, describeYaml(root)));
            return;
        }
        read(root);
    } catch (const YAML::Exception& error) {
        problems->add(positions.at(error.mark.line, error.mark.column), QString(),
                      QStringLiteral("invalid YAML: %1%2")
                          .arg(QString::fromStdString(error.msg), flowHint(error.msg)));
    } catch (const std::bad_alloc&) {
        problems->add({positions.file()}, QString(),
                      QStringLiteral("cannot read: out of memory while reading the file"));
    } catch (const std::exception& error) {
        problems->add({positions.file()}, QString(),
                      QStringLiteral("cannot read: %1").arg(QString::fromUtf8(error.what())));
    }
}

std::optional<std::int64_t> parseYamlInteger(const QString& text) {
    bool ok = false;
    std::int64_t value = 0;
    if (integerPattern().match(text).hasMatch()) {
        value = text.toLongLong(&ok, 10);
    } else if (text.startsWith(QLatin1String("0x"))) {
        value = text.mid(2).toLongLong(&ok, 16);
    } else if (text.startsWith(QLatin1String("0o"))) {
        value = text.mid(2).toLongLong(&ok, 8);
    }
    return ok ? std::optional(value) : std::nullopt;
}

std::optional<double> parseYamlNumber(const QString& text) {
    if (const auto integer = parseYamlInteger(text)) {
        return double(*integer);
    }
    if (floatPattern().match(text).hasMatch()) {
        return text.toDouble();
    }
    const QString lower = text.toLower();
    if (lower == QLatin1String(".inf") || lower == QLatin1String("+.inf")) {
        return std::numeric_limits<double>::infinity();
    }
    if (lower == QLatin1String("-.inf")) {
        return -std::numeric_limits<double>::infinity();
    }
    if (lower == QLatin1String(".nan")) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return std::nullopt;
}

QJsonValue yamlScalarToJson(const QString& text, bool quoted) {
    if (quoted) {
        return text;
    }
    if (isNullText(text)) {
        return QJsonValue::Null;
    }
    if (const auto flag = parseYamlBool(text)) {
        return *flag;
    }
    if (const auto integer = parseYamlInteger(text)) {
        return qint64(*integer);
    }
    if (const auto number = parseYamlNumber(text)) {
        return *number;
    }
    return text;
}

QString yamlText(const YAML::Node& node) {
    return QString::fromStdString(node.Scalar());
}

QString nulProblem(const QString& text) {
    // Paths, commands, names and environment values all end at a NUL in the system's calls,
    // and Qt's file functions refuse one with a warning that names no place.
    return QStringLiteral(
               "'%1' holds a NUL character (\\0), which no path, command, name or "
               "environment value can")
        .arg(text.left(80));
}

bool isQuoted(const YAML::Node& node) {
    // yaml-cpp tags quoted scalars "!" and plain ones "?"; an explicit !!str also means text.
    return node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str";
}

bool isText(const YAML::Node& node) {
    return node.IsScalar() && (isQuoted(node) || !isNullText(yamlText(node)));
}

QString describeYaml(const YAML::Node& node) {
    switch (node.Type()) {
        case YAML::NodeType::Sequence:
            return QStringLiteral("a list");
        case YAML::NodeType::Map:
            return QStringLiteral("a mapping");
        case YAML::NodeType::Scalar:
            if (!isQuoted(node) && isNullText(yamlText(node))) {
                return QStringLiteral("nothing");
            }
            return QStringLiteral("'%1'").arg(yamlText(node));
        default:
            return QStringLiteral("nothing");
    }
}

YamlReader::YamlReader(TextPositions positions, ProblemList* problems,
                       QMap<QString, SourceLocation>* locations)
    : positions_(std::move(positions)), problems_(problems), locations_(locations) {}

SourceLocation YamlReader::locationOf(const YAML::Node& node) const {
    const YAML::Mark mark = node.Mark();
    return positions_.at(mark.line, mark.column);
}

SourceLocation YamlReader::itemLocation(const YAML::Node& sequence, std::size_t index) const {
    const YAML::Node item = sequence[index];
    return item.IsNull() ? locationOf(sequence) : locationOf(item);
}

void YamlReader::problem(const SourceLocation& at, const QString& key, const QString& message) {
    problems_->add(at, key, message);
}

std::vector<YamlEntry> YamlReader::entries(const YAML::Node& map, const QString& prefix) {
    std::vector<YamlEntry> result;
    if (!map.IsMap()) {
        return result;
    }
    QMap<QString, SourceLocation> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
        const SourceLocation keyLocation = locationOf(it->first);
        if (!it->first.IsScalar()) {
            problem(keyLocation, prefix,
                    QStringLiteral("keys must be plain text, got %1").arg(describeYaml(it->first)));
            continue;
        }
        YamlEntry entry;
        entry.key = yamlText(it->first);
        entry.path = prefix.isEmpty() ? entry.key : prefix + QLatin1Char('.') + entry.key;
        entry.value = it->second;
        entry.keyLocation = keyLocation;
        // An empty value has no position of its own (yaml-cpp marks the next token).
        entry.valueLocation = it->second.IsNull() || it->second.Mark().line < 0
                                  ? keyLocation
                                  : locationOf(it->second);
        if (seen.contains(entry.key)) {
            const SourceLocation first = seen.value(entry.key);
            problem(keyLocation, entry.path,
                    QStringLiteral("duplicate key (first written at line %1)").arg(first.line));
            continue;
        }
        seen.insert(entry.key, keyLocation);
        if (!locations_->contains(entry.path)) {
            locations_->insert(entry.path, keyLocation);
        }
        result.push_back(std::move(entry));
    }
    return result;
}

void YamlReader::rejectUnknown(const std::vector<YamlEntry>& entries, const QStringList& known) {
    for (const YamlEntry& entry : entries) {
        if (known.contains(entry.key)) {
            continue;
        }
        const QString suggestion = didYouMean(entry.key, known);
        problem(entry.keyLocation, entry.path,
                suggestion.isEmpty()
                    ? QStringLiteral("unknown key (known keys: %1)").arg(known.join(", "))
                    : QStringLiteral("unknown key") + suggestion);
    }
}

void YamlReader::recordLocations(const YAML::Node& node, const QString& prefix) {
    if (!node.IsMap()) {
        return;
    }
    for (auto it = node.begin(); it != node.end(); ++it) {
        if (!it->first.IsScalar()) {
            continue;
        }
        const QString path = prefix + QLatin1Char('.') + yamlText(it->first);
        if (!locations_->contains(path)) {
            locations_->insert(path, locationOf(it->first));
        }
        recordLocations(it->second, path);
    }
}

bool YamlReader::isMap(const YamlEntry& entry) {
    if (entry.value.IsMap()) {
        return true;
    }
    problem(entry.valueLocation, entry.path,
            QStringLiteral("expected a mapping, got %1").arg(describeYaml(entry.value)));
    return false;
}

std::optional<QString> YamlReader::string(const YamlEntry& entry) {
    if (isText(entry.value)) {
        const QString text = yamlText(entry.value);
        if (text.contains(QChar(0))) {
            problem(entry.valueLocation, entry.path, nulProblem(text));
            return std::nullopt;
        }
        return text;
    }
    problem(entry.valueLocation, entry.path,
            QStringLiteral("expected a string, got %1").arg(describeYaml(entry.value)));
    return std::nullopt;
}

std::optional<double> YamlReader::number(const YAML::Node& node, const QString& path) {
    if (node.IsScalar() && !isQuoted(node)) {
        if (const auto value = parseYamlNumber(yamlText(node))) {
            return value;
        }
    }
    problem(
        locationOf(node), path,
        QStringLiteral("expected a number, got %1%2").arg(describeYaml(node), quotedHint(node)));
    return std::nullopt;
}

std::optional<std::int64_t> YamlReader::integer(const YAML::Node& node, const QString& path) {
    if (node.IsScalar() && !isQuoted(node)) {
        if (const auto value = parseYamlInteger(yamlText(node))) {
            return value;
        }
        if (beyondInt64(yamlText(node))) {
            problem(locationOf(node), path,
                    QStringLiteral("'%1' is beyond the range of a 64-bit integer (%2 to %3)")
                        .arg(yamlText(node))
                        .arg(std::numeric_limits<std::int64_t>::min())
                        .arg(std::numeric_limits<std::int64_t>::max()));
            return std::nullopt;
        }
    }
    problem(
        locationOf(node), path,
        QStringLiteral("expected an integer, got %1%2").arg(describeYaml(node), quotedHint(node)));
    return std::nullopt;
}

std::optional<double> YamlReader::number(const YamlEntry& entry) {
    if (entry.value.IsNull()) {
        problem(entry.valueLocation, entry.path, QStringLiteral("expected a number, got nothing"));
        return std::nullopt;
    }
    return number(entry.value, entry.path);
}

std::optional<std::int64_t> YamlReader::integer(const YamlEntry& entry) {
    if (entry.value.IsNull()) {
        problem(entry.valueLocation, entry.path,
                QStringLiteral("expected an integer, got nothing"));
        return std::nullopt;
    }
    return integer(entry.value, entry.path);
}

std::optional<bool> YamlReader::boolean(const YamlEntry& entry) {
    if (entry.value.IsScalar() && !isQuoted(entry.value)) {
        if (const auto flag = parseYamlBool(yamlText(entry.value))) {
            return flag;
        }
    }
    problem(entry.valueLocation, entry.path,
            QStringLiteral("expected true or false, got %1").arg(describeYaml(entry.value)));
    return std::nullopt;
}

std::optional<std::int64_t> YamlReader::integerAtLeast(const YamlEntry& entry, std::int64_t min) {
    const auto value = integer(entry);
    if (value && *value < min) {
        problem(entry.valueLocation, entry.path,
                QStringLiteral("must be >= %1, got %2").arg(min).arg(*value));
        return std::nullopt;
    }
    return value;
}

std::optional<double> YamlReader::numberAbove(const YamlEntry& entry, double exclusiveMin) {
    const auto value = number(entry);
    if (value && !(*value > exclusiveMin)) {
        problem(entry.valueLocation, entry.path,
                QStringLiteral("must be > %1, got %2")
                    .arg(formatNumber(exclusiveMin), formatNumber(*value)));
        return std::nullopt;
    }
    return value;
}

QJsonValue YamlReader::toJson(const YAML::Node& node) const {
    switch (node.Type()) {
        case YAML::NodeType::Scalar:
            return yamlScalarToJson(yamlText(node), isQuoted(node));
        case YAML::NodeType::Sequence: {
            QJsonArray array;
            for (const YAML::Node& item : node) {
                array.append(toJson(item));
            }
            return array;
        }
        case YAML::NodeType::Map: {
            QJsonObject object;
            for (auto it = node.begin(); it != node.end(); ++it) {
                object.insert(yamlText(it->first), toJson(it->second));
            }
            return object;
        }
        default:
            return QJsonValue::Null;
    }
}

const YamlEntry* findEntry(const std::vector<YamlEntry>& entries, const QString& key) {
    for (const YamlEntry& entry : entries) {
        if (entry.key == key) {
            return &entry;
        }
    }
    return nullptr;
}

std::optional<int> readInt(YamlReader& reader, const YamlEntry& entry, int min) {
    const auto value = reader.integerAtLeast(entry, min);
    if (!value) {
        return std::nullopt;
    }
    if (*value > std::numeric_limits<int>::max()) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("must be <= %1, got %2")
                           .arg(std::numeric_limits<int>::max())
                           .arg(*value));
        return std::nullopt;
    }
    return int(*value);
}

std::optional<QString> readFolderName(YamlReader& reader, const YamlEntry* entry,
                                      const SourceLocation& rootLocation, const QString& key,
                                      const QString& missingHint, const QString& becomes) {
    if (!entry) {
        reader.problem(rootLocation, key,
                       QStringLiteral("required key is missing (%1)").arg(missingHint));
        return std::nullopt;
    }
    const auto name = reader.string(*entry);
    if (!name) {
        return std::nullopt;
    }
    if (const QString problem = folderNameProblem(*name); !problem.isEmpty()) {
        reader.problem(entry->valueLocation, entry->path, problem + QStringLiteral("; ") + becomes);
        return std::nullopt;
    }
    return name;
}

}  // namespace tunedeck
