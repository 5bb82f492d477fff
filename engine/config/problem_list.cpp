#include "config/problem_list.h"

#include <algorithm>

namespace tunedeck {

QString formatLocation(const SourceLocation& location) {
    if (!location.isKnown()) {
        return location.file;
    }
    return QStringLiteral("%1:%2:%3").arg(location.file).arg(location.line).arg(location.column);
}

QString printableText(const QString& text) {
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        const char16_t code = c.unicode();
        if (code == u'\n') {
            out += QStringLiteral("\\n");
        } else if (code == u'\t') {
            out += QStringLiteral("\\t");
        } else if (code == u'\r') {
            out += QStringLiteral("\\r");
        } else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
            out += QStringLiteral("\\x%1").arg(int(code), 2, 16, QLatin1Char('0'));
        } else {
            out += c;
        }
    }
    return out;
}

TextPositions::TextPositions(QString file, const QByteArray& utf8Text)
    : file_(std::move(file)), text_(utf8Text) {
    lineStarts_.push_back(0);
    for (qsizetype i = 0; i < text_.size(); ++i) {
        if (text_[i] == '\n') {
            lineStarts_.push_back(i + 1);
        }
    }
}

SourceLocation TextPositions::at(int zeroBasedLine, int zeroBasedByteColumn) const {
    if (zeroBasedLine < 0 || zeroBasedByteColumn < 0) {
        return {file_, 0, 0};
    }
    if (zeroBasedLine >= int(lineStarts_.size())) {
        return {file_, zeroBasedLine + 1, zeroBasedByteColumn + 1};
    }
    const qsizetype start = lineStarts_[size_t(zeroBasedLine)];
    const qsizetype length = std::min<qsizetype>(zeroBasedByteColumn, text_.size() - start);
    const int characters = int(QString::fromUtf8(text_.constData() + start, length).size());
    return {file_, zeroBasedLine + 1, characters + 1};
}

SourceLocation TextPositions::atOffset(qsizetype byteOffset) const {
    byteOffset = std::clamp<qsizetype>(byteOffset, 0, text_.size());
    const auto next = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), byteOffset);
    const int line = int(next - lineStarts_.begin()) - 1;
    return at(line, int(byteOffset - lineStarts_[size_t(line)]));
}

void ProblemList::add(const SourceLocation& at, const QString& key, const QString& problem) {
    QString text = formatLocation(at);
    if (!text.isEmpty()) {
        text += QStringLiteral(": ");
    }
    if (!key.isEmpty()) {
        text += key + QStringLiteral(": ");
    }
    problems_.push_back({at.line, at.column, printableText(text + problem)});
}

void ProblemList::addLine(const SourceLocation& sortAt, const QString& line) {
    problems_.push_back({sortAt.line, sortAt.column, printableText(line)});
}

void ProblemList::append(const ProblemList& other, const SourceLocation& sortAt) {
    for (const QString& line : other.lines()) {
        problems_.push_back({sortAt.line, sortAt.column, line});
    }
}

QString ProblemList::text() const {
    return lines().join(QLatin1Char('\n'));
}

QStringList ProblemList::lines() const {
    std::vector<Entry> sorted = problems_;
    std::stable_sort(sorted.begin(), sorted.end(), [](const Entry& a, const Entry& b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    QStringList lines;
    for (const Entry& entry : sorted) {
        if (!lines.contains(entry.text)) {
            lines << entry.text;
        }
    }
    return lines;
}

namespace {

int editDistance(const QString& a, const QString& b) {
    std::vector<int> previous(size_t(b.size()) + 1);
    std::vector<int> current(previous.size());
    for (size_t j = 0; j < previous.size(); ++j) {
        previous[j] = int(j);
    }
    for (qsizetype i = 1; i <= a.size(); ++i) {
        current[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int substitution = previous[size_t(j - 1)] + (a[i - 1] == b[j - 1] ? 0 : 1);
            current[size_t(j)] =
                std::min({previous[size_t(j)] + 1, current[size_t(j - 1)] + 1, substitution});
        }
        std::swap(previous, current);
    }
    return previous.back();
}

}  // namespace

QString closestKey(const QString& key, const QStringList& known) {
    constexpr int kMaxTypoDistance = 2;  // beyond this, suggestions are more confusing than useful
    QString best;
    int bestDistance = kMaxTypoDistance + 1;
    for (const QString& candidate : known) {
        const int distance = editDistance(key.toLower(), candidate.toLower());
        if (distance < bestDistance) {
            best = candidate;
            bestDistance = distance;
        }
    }
    return best;
}

QString didYouMean(const QString& key, const QStringList& known) {
    const QString best = closestKey(key, known);
    return best.isEmpty() ? QString() : QStringLiteral(" (did you mean '%1'?)").arg(best);
}

}  // namespace tunedeck
