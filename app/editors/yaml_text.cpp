#include "editors/yaml_text.h"

#include <yaml-cpp/yaml.h>

#include <QRegularExpression>
#include <algorithm>
#include <climits>
#include <optional>

#include "editors/yaml_scan.h"
#include "editors/yaml_walk_bounds.h"

namespace tunedeck::app {

namespace {

bool isNullToken(const QByteArray& utf8, int pos) {
    for (const char* token : {"~", "null", "Null", "NULL"}) {
        const int length = int(qstrlen(token));
        if (utf8.mid(pos, length) == token) {
            const int after = pos + length;
            if (after >= utf8.size() || QByteArrayView(" \t\n\r,]}#").contains(utf8[after])) {
                return true;
            }
        }
    }
    return false;
}

QString spaces(int count) {
    return QString(std::max(0, count), QLatin1Char(' '));
}

}  // namespace

QString applyEdits(QString text, QList<TextEdit> edits) {
    std::sort(edits.begin(), edits.end(),
              [](const TextEdit& a, const TextEdit& b) { return a.start > b.start; });
    for (const TextEdit& edit : edits) {
        text.replace(edit.start, edit.end - edit.start, edit.text);
    }
    return text;
}

bool looksLikeYamlNumber(const QString& text) {
    static const QRegularExpression number(QStringLiteral(
        "^([-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?|0x[0-9a-fA-F]+|0o[0-7]+|"
        "[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN))$"));
    return number.match(text).hasMatch();
}

QString yamlString(const QString& value, bool inFlow) {
    static const QStringList special{
        QStringLiteral("true"),  QStringLiteral("false"), QStringLiteral("True"),
        QStringLiteral("False"), QStringLiteral("TRUE"),  QStringLiteral("FALSE"),
        QStringLiteral("null"),  QStringLiteral("Null"),  QStringLiteral("NULL"),
        QStringLiteral("~"),     QStringLiteral("yes"),   QStringLiteral("no"),
        QStringLiteral("on"),    QStringLiteral("off"),   QStringLiteral("y"),
        QStringLiteral("n")};
    const QString flowIndicators = QStringLiteral(",[]{}");
    bool plain = !value.isEmpty() && value == value.trimmed() && !looksLikeYamlNumber(value) &&
                 !special.contains(value, Qt::CaseInsensitive);
    if (plain) {
        const QChar first = value[0];
        const QChar second = value.size() > 1 ? value[1] : QChar();
        if (QStringLiteral("#&*!|>'\"%@`,[]{}").contains(first)) {
            plain = false;
        } else if (QStringLiteral("-?:").contains(first) &&
                   (second.isNull() || second.isSpace() ||
                    (inFlow && flowIndicators.contains(second)))) {
            plain = false;
        }
    }
    for (qsizetype i = 0; plain && i < value.size(); ++i) {
        const QChar c = value[i];
        const QChar next = i + 1 < value.size() ? value[i + 1] : QChar(QLatin1Char(' '));
        if (c.category() == QChar::Other_Control || (inFlow && flowIndicators.contains(c)) ||
            (c == QLatin1Char(':') &&
             (next.isSpace() || (inFlow && flowIndicators.contains(next)))) ||
            (c == QLatin1Char('#') && i > 0 && value[i - 1].isSpace())) {
            plain = false;
        }
    }
    if (plain) {
        return value;
    }
    QString quoted = QStringLiteral("\"");
    for (const QChar c : value) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\')) {
            quoted += QLatin1Char('\\') + QString(c);
        } else if (c == QLatin1Char('\n')) {
            quoted += QStringLiteral("\\n");
        } else if (c == QLatin1Char('\t')) {
            quoted += QStringLiteral("\\t");
        } else if (c.category() == QChar::Other_Control) {
            quoted += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        } else {
            quoted += c;
        }
    }
    return quoted + QLatin1Char('"');
}

// Where a path leads: the node and its key when found, else the deepest value that exists.
struct Located {
    YAML::Node node;        // the value at path[0 .. depth)
    YAML::Node key;         // its key (undefined at the root)
    int depth = 0;          // how many components of the path were found
    int parentIndent = -1;  // the column of the block mapping holding it
    bool inFlow = false;    // inside [...] or {...}
};

// The items of the sequence at `at` as byte spans, and whether it is written in [...].
struct SequenceItems {
    std::vector<std::pair<int, int>> spans;
    std::vector<bool> empty;  // `-` alone: yaml-cpp gives no usable position for it
    bool flow = false;
    int column = 0;  // of the dashes
};

// The start of the line of a block item when that line holds only its dash before it.
static std::optional<int> dashLineStart(const YamlScan& scan, int itemStart) {
    const int line = scan.lineStart(itemStart);
    const int dash = scan.skipBlanks(line);
    if (dash >= itemStart || scan.utf8()[dash] != '-' || scan.skipBlanks(dash + 1) != itemStart) {
        return std::nullopt;
    }
    return line;
}

struct YamlText::Impl {
    QString text;
    YamlScan scan;
    YAML::Node root;
    bool parsed = false;
    QString error;
    int errorLine = 0;

    Located locate(const QStringList& path) const {
        Located at;
        at.node.reset(root);
        for (const QString& name : path) {
            if (!at.node.IsMap()) {
                return at;
            }
            bool found = false;
            for (auto it = at.node.begin(); it != at.node.end(); ++it) {
                if (it->first.IsScalar() && QString::fromStdString(it->first.Scalar()) == name) {
                    const bool flow = at.node.Style() == YAML::EmitterStyle::Flow;
                    at.parentIndent = flow ? at.parentIndent : at.node.Mark().column;
                    at.inFlow = at.inFlow || flow;
                    at.key.reset(it->first);
                    at.node.reset(it->second);
                    found = true;
                    break;
                }
            }
            if (!found) {
                return at;
            }
            ++at.depth;
        }
        return at;
    }

    SequenceItems sequenceItems(const Located& at) const {
        SequenceItems items;
        items.flow = at.inFlow || at.node.Style() == YAML::EmitterStyle::Flow;
        items.column = at.node.Mark().column;
        for (auto it = at.node.begin(); it != at.node.end(); ++it) {
            items.spans.push_back(byteSpan(*it, items.flow ? -1 : items.column, items.flow));
            items.empty.push_back(it->IsNull() && !isNullToken(scan.utf8(), it->Mark().pos));
        }
        return items;
    }

    // A null written as nothing (`key:` alone) has the Mark of the token after it.
    bool isEmptyValue(const Located& at) const {
        if (!at.node.IsNull()) {
            return false;
        }
        if (at.key.IsDefined() && at.node.Mark().line != at.key.Mark().line) {
            return true;
        }
        return !isNullToken(scan.utf8(), at.node.Mark().pos);
    }

    // Byte span of `node` written in a block mapping or sequence indented at `parentIndent`.
    std::pair<int, int> byteSpan(const YAML::Node& node, int parentIndent, bool inFlow) const {
        const int start = node.Mark().pos;
        if (node.IsScalar()) {
            return {start, scan.scalarEnd(start, inFlow, parentIndent)};
        }
        if (node.IsNull()) {
            return {start, isNullToken(scan.utf8(), start) ? scan.scalarEnd(start, inFlow, INT_MAX)
                                                           : start};
        }
        if (node.Style() == YAML::EmitterStyle::Flow || inFlow) {
            return {start, scan.flowEnd(start)};
        }
        const int indent = node.Mark().column;
        int end = start;
        for (auto it = node.begin(); it != node.end(); ++it) {
            if (node.IsMap()) {
                end = std::max(end, keyEnd(it->first));
                if (!(it->second.IsNull() && !isNullToken(scan.utf8(), it->second.Mark().pos))) {
                    end = std::max(end, byteSpan(it->second, indent, false).second);
                }
            } else if (!(it->IsNull() && !isNullToken(scan.utf8(), it->Mark().pos))) {
                end = std::max(end, byteSpan(*it, indent, false).second);
            }
        }
        return {start,
                node.IsSequence() ? scan.blockSequenceEnd(std::max(end, start + 1), indent) : end};
    }

    // The end of a key, past its ':' when one follows.
    int keyEnd(const YAML::Node& key) const {
        const int end = scan.scalarEnd(key.Mark().pos, false, INT_MAX);
        const int colon = scan.skipBlanks(end);
        return colon < scan.utf8().size() && scan.utf8()[colon] == ':' ? colon + 1 : end;
    }

    TextSpan toText(std::pair<int, int> bytes) const {
        return {scan.charPos(bytes.first), scan.charPos(bytes.second)};
    }

    TextSpan spanOf(const Located& at) const {
        if (!at.node.IsDefined() || isEmptyValue(at)) {
            return {};
        }
        return toText(byteSpan(at.node, at.parentIndent, at.inFlow));
    }

    // Where a new entry goes in the mapping `map` (found at `at`), and the text for `key: value`
    // nested through `rest` (the keys still missing, the first of which goes into `map`).
    std::optional<TextEdit> insertInto(const Located& at, const QStringList& rest,
                                       const QString& value) const {
        const YAML::Node& map = at.node;
        const bool flow = map.Style() == YAML::EmitterStyle::Flow || at.inFlow;
        if (flow) {
            QString entry = value;
            for (qsizetype i = rest.size() - 1; i >= 0; --i) {
                entry = yamlString(rest[i], true) + QStringLiteral(": ") + entry;
                if (i > 0) {
                    entry = QStringLiteral("{") + entry + QStringLiteral("}");
                }
            }
            if (map.size() == 0) {
                const int open = map.Mark().pos + 1;
                return TextEdit{scan.charPos(open), scan.charPos(open), entry};
            }
            int end = 0;
            for (auto it = map.begin(); it != map.end(); ++it) {
                end = std::max({end, keyEnd(it->first), byteSpan(it->second, -1, true).second});
            }
            return TextEdit{scan.charPos(end), scan.charPos(end), QStringLiteral(", ") + entry};
        }
        const int indent = map.IsMap() && map.size() > 0 ? map.Mark().column : 0;
        QString lines;
        for (qsizetype i = 0; i < rest.size(); ++i) {
            lines += spaces(indent + 2 * int(i)) + yamlString(rest[i]) + QLatin1Char(':');
            lines += i + 1 < rest.size() ? QStringLiteral("\n") : QLatin1Char(' ') + value;
        }
        if (!map.IsMap() || map.size() == 0) {  // an empty document
            return TextEdit{0, 0, lines + QLatin1Char('\n')};
        }
        const int end = scan.lineEnd(byteSpan(map, at.parentIndent, false).second);
        if (end >= scan.utf8().size()) {
            return TextEdit{scan.charPos(end), scan.charPos(end), QLatin1Char('\n') + lines};
        }
        return TextEdit{scan.charPos(end + 1), scan.charPos(end + 1), lines + QLatin1Char('\n')};
    }
};

YamlText::YamlText(QString text) : d_(std::make_unique<Impl>()) {
    d_->text = std::move(text);
    d_->scan = YamlScan(d_->text);
    try {
        d_->root = YAML::Load(d_->scan.utf8().toStdString());
        int values = 0;
        std::optional<QString> why = unwalkable(d_->root, 0, values);
        if (!why && holdsTextButNoValue(d_->root, d_->text)) {
            why = QStringLiteral("no value could be read (a stray ','?)");
        }
        if (why) {
            d_->root = YAML::Node();
            d_->error = *why;
            d_->errorLine = 1;
            return;
        }
        d_->parsed = true;
    } catch (const YAML::Exception& e) {
        d_->error = QString::fromStdString(e.msg);
        d_->errorLine = e.mark.line + 1;
    }
}

YamlText::~YamlText() = default;
YamlText::YamlText(YamlText&&) noexcept = default;
YamlText& YamlText::operator=(YamlText&&) noexcept = default;

const QString& YamlText::text() const {
    return d_->text;
}
bool YamlText::isParsed() const {
    return d_->parsed;
}
QString YamlText::parseError() const {
    return d_->error;
}
int YamlText::parseErrorLine() const {
    return d_->errorLine;
}

YamlText::Kind YamlText::kind(const QStringList& path) const {
    if (!d_->parsed) {
        return Kind::Missing;
    }
    const Located at = d_->locate(path);
    if (at.depth < path.size() || !at.node.IsDefined()) {
        return Kind::Missing;
    }
    switch (at.node.Type()) {
        case YAML::NodeType::Scalar:
            return Kind::Scalar;
        case YAML::NodeType::Sequence:
            return Kind::Sequence;
        case YAML::NodeType::Map:
            return Kind::Mapping;
        default:
            return Kind::Null;
    }
}

QString YamlText::scalar(const QStringList& path) const {
    if (kind(path) != Kind::Scalar) {
        return {};
    }
    return QString::fromStdString(d_->locate(path).node.Scalar());
}

QStringList YamlText::keys(const QStringList& path) const {
    QStringList names;
    if (kind(path) == Kind::Mapping) {
        const YAML::Node map = d_->locate(path).node;
        for (auto it = map.begin(); it != map.end(); ++it) {
            names << QString::fromStdString(it->first.IsScalar() ? it->first.Scalar() : "");
        }
    }
    return names;
}

QStringList YamlText::items(const QStringList& path) const {
    QStringList values;
    if (kind(path) == Kind::Sequence) {
        const YAML::Node list = d_->locate(path).node;
        for (auto it = list.begin(); it != list.end(); ++it) {
            values << QString::fromStdString(it->IsScalar() ? it->Scalar() : "");
        }
    }
    return values;
}

bool YamlText::isFlow(const QStringList& path) const {
    if (!d_->parsed) {
        return false;
    }
    const Located at = d_->locate(path);
    return at.depth == path.size() && (at.inFlow || at.node.Style() == YAML::EmitterStyle::Flow);
}

TextSpan YamlText::span(const QStringList& path) const {
    if (!d_->parsed) {
        return {};
    }
    const Located at = d_->locate(path);
    return at.depth == path.size() ? d_->spanOf(at) : TextSpan{};
}

TextSpan YamlText::keySpan(const QStringList& path) const {
    if (!d_->parsed || path.isEmpty()) {
        return {};
    }
    const Located at = d_->locate(path);
    if (at.depth < path.size()) {
        return {};
    }
    const int start = at.key.Mark().pos;
    return d_->toText({start, d_->scan.scalarEnd(start, at.inFlow, INT_MAX)});
}

QList<TextSpan> YamlText::itemSpans(const QStringList& path) const {
    QList<TextSpan> spans;
    if (kind(path) != Kind::Sequence) {
        return spans;
    }
    const Located at = d_->locate(path);
    const bool flow = at.inFlow || at.node.Style() == YAML::EmitterStyle::Flow;
    for (auto it = at.node.begin(); it != at.node.end(); ++it) {
        spans << d_->toText(d_->byteSpan(*it, flow ? -1 : at.node.Mark().column, flow));
    }
    return spans;
}

QString YamlText::source(TextSpan span) const {
    return span.isValid() ? d_->text.mid(span.start, span.end - span.start) : QString();
}

std::optional<TextEdit> YamlText::setValue(const QStringList& path,
                                           const QString& yamlValue) const {
    if (!d_->parsed) {
        return std::nullopt;
    }
    const Located at = d_->locate(path);
    if (at.depth == path.size()) {
        if (d_->isEmptyValue(at) && at.key.IsDefined()) {
            const int colon = d_->keyEnd(at.key);
            return TextEdit{d_->scan.charPos(colon), d_->scan.charPos(colon),
                            QLatin1Char(' ') + yamlValue};
        }
        const TextSpan where = d_->spanOf(at);
        // A block collection replaced by one line moves up beside its key, unless a comment
        // sits there.
        const bool block = !at.inFlow && (at.node.IsMap() || at.node.IsSequence()) &&
                           at.node.Style() != YAML::EmitterStyle::Flow;
        if (block && at.key.IsDefined() && !yamlValue.contains(QLatin1Char('\n'))) {
            const int colon = d_->keyEnd(at.key);
            const int after = d_->scan.skipBlanks(colon);
            if (after < d_->scan.utf8().size() && d_->scan.utf8()[after] == '\n') {
                return TextEdit{d_->scan.charPos(colon), where.end, QLatin1Char(' ') + yamlValue};
            }
        }
        return TextEdit{where.start, where.end, yamlValue};
    }
    const QStringList rest = path.mid(at.depth);
    if (at.node.IsMap() || (at.depth == 0 && at.node.IsNull())) {
        return d_->insertInto(at, rest, yamlValue);
    }
    if (at.node.IsNull() && at.depth > 0) {  // `failure:` with nothing yet
        QString value = yamlValue;
        for (qsizetype i = rest.size() - 1; i >= 0; --i) {
            value = QStringLiteral("{%1: %2}").arg(yamlString(rest[i], true), value);
        }
        return setValue(path.mid(0, at.depth), value);
    }
    return std::nullopt;
}

std::optional<TextEdit> YamlText::remove(const QStringList& path) const {
    if (!d_->parsed || path.isEmpty()) {
        return std::nullopt;
    }
    const Located at = d_->locate(path);
    if (at.depth < path.size()) {
        return std::nullopt;
    }
    const Located parent = d_->locate(path.mid(0, path.size() - 1));
    if (parent.node.size() == 1 && path.size() > 1) {
        return remove(path.mid(0, path.size() - 1));
    }
    const YamlScan& scan = d_->scan;
    const int keyStart = at.key.Mark().pos;
    const auto [valueStart, valueEnd] = d_->isEmptyValue(at)
                                            ? std::pair{keyStart, d_->keyEnd(at.key)}
                                            : d_->byteSpan(at.node, at.parentIndent, at.inFlow);
    (void)valueStart;
    const int end = std::max(valueEnd, d_->keyEnd(at.key));
    if (!(parent.node.Style() == YAML::EmitterStyle::Flow || parent.inFlow)) {
        const int lineStart = scan.lineStart(keyStart);
        if (scan.skipBlanks(lineStart) != keyStart) {
            return std::nullopt;  // `- key: value`: the line holds more than this entry
        }
        const int lineEnd = scan.lineEnd(end);
        const int cut = lineEnd < scan.utf8().size() ? lineEnd + 1 : lineEnd;
        return TextEdit{scan.charPos(lineStart), scan.charPos(cut), QString()};
    }
    // In {a: 1, b: 2}: take the comma after the entry, or the one before the last entry.
    int cutStart = keyStart;
    int cutEnd = scan.skipBlanks(end);
    if (cutEnd < scan.utf8().size() && scan.utf8()[cutEnd] == ',') {
        cutEnd = scan.skipBlanks(cutEnd + 1);
    } else {
        cutEnd = end;
        int previous = -1;
        for (auto it = parent.node.begin(); it != parent.node.end(); ++it) {
            if (it->first.Mark().pos < keyStart) {
                previous = std::max(
                    {previous, d_->keyEnd(it->first), d_->byteSpan(it->second, -1, true).second});
            }
        }
        if (previous >= 0) {
            cutStart = previous;
        }
    }
    return TextEdit{scan.charPos(cutStart), scan.charPos(cutEnd), QString()};
}

std::optional<TextEdit> YamlText::insertItem(const QStringList& path, int index,
                                             const QString& yamlValue) const {
    if (kind(path) != Kind::Sequence) {
        return std::nullopt;
    }
    const Located at = d_->locate(path);
    const SequenceItems items = d_->sequenceItems(at);
    const int count = int(items.spans.size());
    if (index < 0 || index > count) {
        return std::nullopt;
    }
    const YamlScan& scan = d_->scan;
    auto insertAt = [&scan](int pos, const QString& text) {
        return TextEdit{scan.charPos(pos), scan.charPos(pos), text};
    };
    if (items.flow) {
        if (count == 0) {
            return insertAt(at.node.Mark().pos + 1, yamlValue);
        }
        if (index < count) {
            return insertAt(items.spans[index].first, yamlValue + QStringLiteral(", "));
        }
        return insertAt(items.spans.back().second, QStringLiteral(", ") + yamlValue);
    }
    const QString line = spaces(items.column) + QStringLiteral("- ") + yamlValue;
    if (index < count) {
        const std::optional<int> start =
            items.empty[index] ? std::nullopt : dashLineStart(scan, items.spans[index].first);
        if (!start) {
            return std::nullopt;
        }
        return insertAt(*start, line + QLatin1Char('\n'));
    }
    const int end = scan.lineEnd(d_->byteSpan(at.node, at.parentIndent, false).second);
    return insertAt(end, QLatin1Char('\n') + line);
}

std::optional<TextEdit> YamlText::removeItem(const QStringList& path, int index) const {
    if (kind(path) != Kind::Sequence) {
        return std::nullopt;
    }
    const Located at = d_->locate(path);
    const SequenceItems items = d_->sequenceItems(at);
    const int count = int(items.spans.size());
    if (index < 0 || index >= count || items.empty[index]) {
        return std::nullopt;
    }
    const YamlScan& scan = d_->scan;
    auto cut = [&scan](int start, int end) {
        return TextEdit{scan.charPos(start), scan.charPos(end), QString()};
    };
    if (items.flow) {
        if (count == 1) {
            return cut(items.spans[0].first, items.spans[0].second);
        }
        if (index + 1 < count) {
            return cut(items.spans[index].first, items.spans[index + 1].first);
        }
        return cut(items.spans[index - 1].second, items.spans[index].second);
    }
    if (count == 1) {
        return setValue(path, QStringLiteral("[]"));
    }
    const std::optional<int> start = dashLineStart(scan, items.spans[index].first);
    if (!start) {
        return std::nullopt;
    }
    const int end = scan.lineEnd(items.spans[index].second);
    return cut(*start, end < scan.utf8().size() ? end + 1 : end);
}

}  // namespace tunedeck::app
