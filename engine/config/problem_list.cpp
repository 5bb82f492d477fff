#include "config/problem_list.h"

#include <algorithm>
#include <iterator>

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

namespace {

constexpr qsizetype kUnitStride = 256;  // bytes between two stored character counts

// The UTF-16 code units a byte of UTF-8 text adds: one for each character's first byte, two for
// a four-byte character's (a surrogate pair), none for a continuation byte.
qsizetype unitsOf(char byte) {
    const auto b = static_cast<unsigned char>(byte);
    return (b & 0xC0) == 0x80 ? 0 : (b >= 0xF0 ? 2 : 1);
}

}  // namespace

TextPositions::TextPositions(QString file, const QByteArray& utf8Text)
    : file_(std::move(file)), text_(utf8Text) {
    lineStarts_.push_back(0);
    strideUnits_.reserve(std::size_t(text_.size() / kUnitStride) + 1);
    qsizetype units = 0;
    for (qsizetype i = 0; i < text_.size(); ++i) {
        if (i % kUnitStride == 0) {
            strideUnits_.push_back(units);
        }
        units += unitsOf(text_[i]);
        if (text_[i] == '\n') {
            lineStarts_.push_back(i + 1);
        }
    }
    strideUnits_.push_back(units);
}

qsizetype TextPositions::unitsBefore(qsizetype byte) const {
    const qsizetype stride = byte / kUnitStride;
    qsizetype units = strideUnits_[std::size_t(stride)];
    for (qsizetype i = stride * kUnitStride; i < byte; ++i) {
        units += unitsOf(text_[i]);
    }
    return units;
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
    const int characters = int(unitsBefore(start + length) - unitsBefore(start));
    return {file_, zeroBasedLine + 1, characters + 1};
}

SourceLocation TextPositions::atOffset(qsizetype byteOffset) const {
    byteOffset = std::clamp<qsizetype>(byteOffset, 0, text_.size());
    const auto next = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), byteOffset);
    const int line = int(next - lineStarts_.begin()) - 1;
    return at(line, int(byteOffset - lineStarts_[size_t(line)]));
}

void ProblemList::add(const SourceLocation& at, const QString& key, const QString& message) {
    add(Problem{at, key, message, severity_}, at);
}

void ProblemList::add(const Problem& problem, const SourceLocation& sortAt) {
    Problem printable = problem;
    printable.location.file = printableText(problem.location.file);
    printable.key = printableText(problem.key);
    printable.message = printableText(problem.message);
    entries_.push_back({sortAt.line, sortAt.column, std::move(printable)});
}

void ProblemList::append(const ProblemList& other, const SourceLocation& sortAt) {
    for (const Problem& problem : other.problems()) {
        entries_.push_back({sortAt.line, sortAt.column, problem});
    }
}

std::vector<Problem> ProblemList::problems() const {
    std::vector<Entry> sorted = entries_;
    std::stable_sort(sorted.begin(), sorted.end(), [](const Entry& a, const Entry& b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    std::vector<Problem> problems;
    for (Entry& entry : sorted) {
        if (std::find(problems.begin(), problems.end(), entry.problem) == problems.end()) {
            problems.push_back(std::move(entry.problem));
        }
    }
    return problems;
}

QString ProblemList::text() const {
    return lines().join(QLatin1Char('\n'));
}

QStringList ProblemList::lines() const {
    QStringList lines;
    for (const Problem& problem : problems()) {
        lines << problem.text();
    }
    return lines;
}

namespace {

std::vector<Problem> ofSeverity(const std::vector<Problem>& problems, Severity severity) {
    std::vector<Problem> chosen;
    std::copy_if(problems.begin(), problems.end(), std::back_inserter(chosen),
                 [&](const Problem& p) { return p.severity == severity; });
    return chosen;
}

QStringList linesOf(const std::vector<Problem>& problems) {
    QStringList lines;
    for (const Problem& problem : problems) {
        lines << problem.text();
    }
    return lines;
}

}  // namespace

LoadProblems LoadProblems::unreadable(const QString& file, const Status& read) {
    ProblemList problems;
    problems.add(SourceLocation{file}, QString(), read.message());
    return {problems.problems(), read.code()};
}

bool LoadProblems::hasErrors() const {
    return std::any_of(problems.begin(), problems.end(),
                       [](const Problem& p) { return p.isError(); });
}

std::vector<Problem> LoadProblems::errors() const {
    return ofSeverity(problems, Severity::Error);
}

std::vector<Problem> LoadProblems::warnings() const {
    return ofSeverity(problems, Severity::Warning);
}

QStringList LoadProblems::errorLines() const {
    return linesOf(errors());
}

QStringList LoadProblems::warningLines() const {
    return linesOf(warnings());
}

Status LoadProblems::status() const {
    if (!hasErrors()) {
        return Status::ok();
    }
    const QString text = errorLines().join(QLatin1Char('\n'));
    switch (failure) {
        case Status::Code::NotFound:
            return Status::notFound(text);
        case Status::Code::IoError:
            return Status::ioError(text);
        default:
            return Status::invalid(text);
    }
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
