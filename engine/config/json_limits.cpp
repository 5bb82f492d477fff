#include "config/json_limits.h"

#include <QByteArrayView>
#include <algorithm>
#include <optional>
#include <vector>

namespace tunedeck {

namespace {

struct Refusal {
    qsizetype offset;
    QString message;
};

std::int64_t decimalDigits(std::int64_t n) {
    std::int64_t digits = 1;
    for (; n >= 10; n /= 10) {
        ++digits;
    }
    return digits;
}

// Walks the tokens of a JSON text without building a value: strings are skipped whole, so a
// '{' inside one opens nothing. A key is the first string of an object or one after a ','.
class JsonBounds {
  public:
    JsonBounds(const QByteArray& text, const InputLimits& limits) : text_(text), limits_(limits) {}

    std::optional<Refusal> check() {
        const qsizetype n = text_.size();
        qsizetype i = 0;
        while (i < n) {
            const char c = text_[i];
            if (QByteArrayView(" \t\r\n:").contains(c)) {
                ++i;
            } else if (c == '{' || c == '[') {
                const std::int64_t path = countValue(i);
                if (refusal_) {
                    return refusal_;
                }
                if (qsizetype(open_.size()) >= limits_.maxDepth) {
                    return Refusal{i, QStringLiteral("nested deeper than %1 levels of objects and "
                                                     "arrays (the limit for %2)")
                                          .arg(limits_.maxDepth)
                                          .arg(inputLimitsScope())};
                }
                open_.push_back({c == '{', path, 0, c == '{', 0});
                ++i;
            } else if (c == '}' || c == ']') {
                if (!open_.empty()) {
                    open_.pop_back();
                }
                ++i;
            } else if (c == ',') {
                if (!open_.empty()) {
                    Frame& frame = open_.back();
                    frame.keyNext = frame.object;
                    ++frame.index;
                }
                ++i;
            } else if (c == '"') {
                const qsizetype end = endOfString(i);
                if (!open_.empty() && open_.back().keyNext) {
                    const qsizetype bytes = std::max<qsizetype>(0, end - i - 2);
                    if (bytes > limits_.maxKeyBytes) {
                        return Refusal{i, QStringLiteral("a key of %1 bytes; keys may hold at "
                                                         "most %2 bytes (the limit for %3)")
                                              .arg(bytes)
                                              .arg(limits_.maxKeyBytes)
                                              .arg(inputLimitsScope())};
                    }
                    open_.back().keyBytes = bytes;
                    open_.back().keyNext = false;
                } else {
                    countValue(i);
                }
                i = end;
            } else {
                countValue(i);
                // The token itself is no delimiter, so this moves on by one byte at least.
                do {
                    ++i;
                } while (i < n && !QByteArrayView(" \t\r\n:,[]{}\"").contains(text_[i]));
            }
            if (refusal_) {
                return refusal_;
            }
        }
        return std::nullopt;
    }

  private:
    struct Frame {
        bool object;
        std::int64_t pathBytes;  // of the object or array itself
        std::int64_t index;      // of the element being read, in an array
        bool keyNext;            // in an object, the next string is a key
        qsizetype keyBytes;      // of the member being read, in an object
    };

    // Counts the value starting at `offset` and its path; returns the path's length.
    std::int64_t countValue(qsizetype offset) {
        std::int64_t path = 0;
        if (!open_.empty()) {
            const Frame& parent = open_.back();
            path = parent.pathBytes + (parent.pathBytes > 0 ? 1 : 0) +
                   (parent.object ? parent.keyBytes : decimalDigits(parent.index));
        }
        if (++values_ > limits_.maxValues) {
            refusal_ = Refusal{offset, QStringLiteral("the file holds more than %1 values (the "
                                                      "limit for %2)")
                                           .arg(limits_.maxValues)
                                           .arg(inputLimitsScope())};
        } else if ((pathBytes_ += path) > limits_.maxPathBytes) {
            refusal_ = Refusal{offset, inputPathsProblem(limits_)};
        }
        return path;
    }

    // Just past the closing quote of the string opening at `quote`, or the end of the text.
    qsizetype endOfString(qsizetype quote) const {
        qsizetype i = quote + 1;
        while (i < text_.size()) {
            if (text_[i] == '\\') {
                i += 2;
            } else if (text_[i] == '"') {
                return i + 1;
            } else {
                ++i;
            }
        }
        return text_.size();
    }

    const QByteArray& text_;
    const InputLimits& limits_;
    std::vector<Frame> open_;
    std::int64_t values_ = 0;
    std::int64_t pathBytes_ = 0;  // no overflow: a value adds at most 64 * 1025 bytes
    std::optional<Refusal> refusal_;
};

}  // namespace

bool checkJsonText(const TextPositions& positions, const QByteArray& utf8, ProblemList* problems,
                   const InputLimits& limits) {
    if (const auto tooLarge = inputSizeProblem(utf8.size(), limits)) {
        problems->add({positions.file()}, QString(), *tooLarge);
        return false;
    }
    if (const auto refusal = JsonBounds(utf8, limits).check()) {
        problems->add(positions.atOffset(refusal->offset), QString(), refusal->message);
        return false;
    }
    return true;
}

}  // namespace tunedeck
