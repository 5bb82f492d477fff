#include "editors/yaml_scan.h"

#include <climits>

namespace tunedeck::app {

namespace {

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}
bool isSpace(char c) {
    return isBlank(c) || c == '\n';
}
bool isFlowIndicator(char c) {
    return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
}

}  // namespace

YamlScan::YamlScan(const QString& text) : utf8_(text.toUtf8()) {
    if (utf8_.size() == text.size()) {
        return;
    }
    charPos_.reserve(utf8_.size() + 1);
    qsizetype chars = 0;
    for (qsizetype i = 0; i < utf8_.size(); ++i) {
        charPos_.append(chars);
        const auto byte = static_cast<unsigned char>(utf8_[i]);
        if ((byte & 0xC0) != 0x80) {        // a lead byte starts a character
            chars += byte >= 0xF0 ? 2 : 1;  // four-byte sequences are UTF-16 surrogate pairs
        }
    }
    charPos_.append(chars);
}

qsizetype YamlScan::charPos(int bytePos) const {
    if (charPos_.isEmpty()) {
        return bytePos;
    }
    return charPos_[qBound(0, bytePos, int(utf8_.size()))];
}

int YamlScan::lineStart(int pos) const {
    while (pos > 0 && utf8_[pos - 1] != '\n') {
        --pos;
    }
    return pos;
}

int YamlScan::lineEnd(int pos) const {
    const int newline = int(utf8_.indexOf('\n', pos));
    return newline < 0 ? int(utf8_.size()) : newline;
}

int YamlScan::skipBlanks(int pos) const {
    while (pos < utf8_.size() && isBlank(utf8_[pos])) {
        ++pos;
    }
    return pos;
}

int YamlScan::indentAt(int lineStartPos) const {
    int pos = lineStartPos;
    while (pos < utf8_.size() && utf8_[pos] == ' ') {
        ++pos;
    }
    return pos - lineStartPos;
}

int YamlScan::scalarEnd(int start, bool inFlow, int parentIndent) const {
    if (start >= utf8_.size()) {
        return int(utf8_.size());
    }
    const char first = utf8_[start];
    if (first == '\'' || first == '"') {
        return quotedEnd(start);
    }
    if (!inFlow && (first == '|' || first == '>')) {
        return blockScalarEnd(start, parentIndent);
    }
    return plainEnd(start, inFlow, parentIndent);
}

int YamlScan::quotedEnd(int start) const {
    const char quote = utf8_[start];
    for (int i = start + 1; i < utf8_.size(); ++i) {
        if (quote == '"' && utf8_[i] == '\\') {
            ++i;
        } else if (utf8_[i] == quote) {
            if (quote == '\'' && i + 1 < utf8_.size() && utf8_[i + 1] == '\'') {
                ++i;  // '' is an escaped quote
            } else {
                return i + 1;
            }
        }
    }
    return int(utf8_.size());
}

int YamlScan::blockScalarEnd(int start, int parentIndent) const {
    const int indent =
        parentIndent >= 0 && parentIndent != INT_MAX ? parentIndent : indentAt(lineStart(start));
    int end = lineEnd(start);  // the header (| or >, maybe a comment) ends its line
    for (int pos = end; pos < utf8_.size();) {
        const int from = pos + 1;
        if (from >= utf8_.size()) {
            break;
        }
        const int to = lineEnd(from);
        const int content = skipBlanks(from);
        if (content < to && indentAt(from) <= indent) {
            break;
        }
        if (content < to) {
            end = to;
        }
        pos = to;
    }
    return end;
}

int YamlScan::plainEnd(int start, bool inFlow, int parentIndent) const {
    int end = start;
    // One line of a plain scalar; returns true when it ran to the line's end.
    auto scanLine = [&](int from) {
        for (int i = from; i < utf8_.size(); ++i) {
            const char c = utf8_[i];
            if (c == '\n' || (c == '#' && i > from && isBlank(utf8_[i - 1]))) {
                return c == '\n';
            }
            const char next = i + 1 < utf8_.size() ? utf8_[i + 1] : '\n';
            if ((c == ':' && (isSpace(next) || (inFlow && isFlowIndicator(next)))) ||
                (inFlow && isFlowIndicator(c))) {
                return false;
            }
            if (!isBlank(c)) {
                end = i + 1;
            }
        }
        return true;
    };
    if (!scanLine(start) || inFlow || parentIndent == INT_MAX) {
        return end;
    }
    // Continuation lines: more indented than the collection holding the scalar; a comment line
    // ends it, blank lines do not.
    for (int pos = lineEnd(start); pos < utf8_.size();) {
        const int from = pos + 1;
        if (from >= utf8_.size()) {
            break;
        }
        const int to = lineEnd(from);
        const int content = skipBlanks(from);
        if (content < to) {
            if (indentAt(from) <= parentIndent || utf8_[content] == '#') {
                break;
            }
            if (!scanLine(content)) {
                break;
            }
        }
        pos = to;
    }
    return end;
}

int YamlScan::blockSequenceEnd(int itemsEnd, int column) const {
    int end = itemsEnd;
    for (int pos = lineEnd(itemsEnd); pos < utf8_.size();) {
        const int from = pos + 1;
        if (from >= utf8_.size()) {
            break;
        }
        const int to = lineEnd(from);
        const int content = skipBlanks(from);
        pos = to;
        if (content == to || utf8_[content] == '#') {
            continue;  // blank lines and comments may sit between items
        }
        if (indentAt(from) != column || utf8_[content] != '-') {
            break;
        }
        const int after = skipBlanks(content + 1);
        if (after != to && utf8_[after] != '#') {
            break;  // an item with content would have ended later than itemsEnd
        }
        end = content + 1;
    }
    return end;
}

int YamlScan::flowEnd(int start) const {
    int depth = 0;
    char previous = '[';  // the last significant character: a quote after it opens a string
    for (int i = start; i < utf8_.size(); ++i) {
        const char c = utf8_[i];
        if ((c == '\'' || c == '"') && (isFlowIndicator(previous) || previous == ':')) {
            i = quotedEnd(i) - 1;
            previous = c;
            continue;
        }
        if (c == '#' && i > 0 && isSpace(utf8_[i - 1])) {
            i = lineEnd(i) - 1;
            continue;
        }
        if (c == '[' || c == '{') {
            ++depth;
        } else if (c == ']' || c == '}') {
            if (--depth == 0) {
                return i + 1;
            }
        }
        if (!isSpace(c)) {
            previous = c;
        }
    }
    return int(utf8_.size());
}

}  // namespace tunedeck::app
