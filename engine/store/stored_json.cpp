#include "store/stored_json.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <cstdint>

namespace tunedeck::store {

namespace {

// QJsonDocument refuses deeper nesting than this; so does the check, to agree with it.
constexpr int kMaxDepth = 1024;

// A checking reader of one JSON text (RFC 8259, as QJsonDocument accepts it). Every method
// returns false at text that breaks the grammar; the position is then of no use.
class JsonCheck {
  public:
    explicit JsonCheck(std::string_view text) : s_(text) {}

    bool object(std::vector<JsonMember>* members) {
        space();
        if (!take('{')) {
            return false;
        }
        space();
        if (take('}')) {
            return end();
        }
        while (true) {
            JsonMember member;
            if (!string(&member.key, &member.escaped)) {
                return false;
            }
            space();
            if (!take(':')) {
                return false;
            }
            space();
            if (!value(&member, 1)) {
                return false;
            }
            if (members) {
                members->push_back(member);
            }
            space();
            if (take('}')) {
                return end();
            }
            if (!take(',')) {
                return false;
            }
            space();
        }
    }

  private:
    bool at(char c) const { return i_ < s_.size() && s_[i_] == c; }
    bool take(char c) {
        if (!at(c)) {
            return false;
        }
        ++i_;
        return true;
    }
    bool digit() const { return i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9'; }
    void space() {
        while (i_ < s_.size() &&
               (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) {
            ++i_;
        }
    }
    bool end() {
        space();
        return i_ == s_.size();
    }

    bool value(JsonMember* member, int depth) {
        const std::size_t start = i_;
        if (at('"')) {
            member->kind = JsonKind::String;
            bool escaped = false;
            if (!string(&member->value, &escaped)) {
                return false;
            }
            member->escaped = member->escaped || escaped;
            return true;
        }
        bool ok = false;
        if (at('{') || at('[')) {
            member->kind = at('{') ? JsonKind::Object : JsonKind::Array;
            ok = nested(depth + 1);
        } else if (at('-') || digit()) {
            member->kind = JsonKind::Number;
            ok = number();
        } else {
            ok = literal("true", JsonKind::True, member) ||
                 literal("false", JsonKind::False, member) ||
                 literal("null", JsonKind::Null, member);
        }
        member->value = s_.substr(start, i_ - start);
        return ok;
    }

    bool literal(std::string_view word, JsonKind kind, JsonMember* member) {
        if (s_.substr(i_, word.size()) != word) {
            return false;
        }
        i_ += word.size();
        member->kind = kind;
        return true;
    }

    // An object or an array below the top.
    bool nested(int depth) {
        if (depth > kMaxDepth) {
            return false;
        }
        const bool isObject = at('{');
        const char close = isObject ? '}' : ']';
        ++i_;
        space();
        if (take(close)) {
            return true;
        }
        while (true) {
            JsonMember inner;
            if (isObject) {
                if (!string(&inner.key, &inner.escaped)) {
                    return false;
                }
                space();
                if (!take(':')) {
                    return false;
                }
                space();
            }
            if (!value(&inner, depth)) {
                return false;
            }
            space();
            if (take(close)) {
                return true;
            }
            if (!take(',')) {
                return false;
            }
            space();
        }
    }

    bool number() {
        take('-');
        if (take('0')) {
            // no leading zeros
        } else if (digit()) {
            while (digit()) {
                ++i_;
            }
        } else {
            return false;
        }
        if (take('.')) {
            if (!digit()) {
                return false;
            }
            while (digit()) {
                ++i_;
            }
        }
        if (take('e') || take('E')) {
            if (!take('+')) {
                take('-');
            }
            if (!digit()) {
                return false;
            }
            while (digit()) {
                ++i_;
            }
        }
        return true;
    }

    // At a '"': the raw text up to the closing quote, which it moves past.
    bool string(std::string_view* raw, bool* escaped) {
        if (!take('"')) {
            return false;
        }
        const std::size_t start = i_;
        while (i_ < s_.size()) {
            const auto c = static_cast<unsigned char>(s_[i_]);
            if (c == '"') {
                *raw = s_.substr(start, i_ - start);
                ++i_;
                return true;
            }
            if (c < 0x20) {
                return false;
            }
            if (c == '\\') {
                *escaped = true;
                if (!escape()) {
                    return false;
                }
            } else if (c >= 0x80) {
                if (!utf8()) {
                    return false;
                }
            } else {
                ++i_;
            }
        }
        return false;
    }

    bool escape() {
        ++i_;
        if (i_ >= s_.size()) {
            return false;
        }
        const char c = s_[i_++];
        if (c != 'u') {
            return c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' ||
                   c == 'r' || c == 't';
        }
        for (int k = 0; k < 4; ++k, ++i_) {
            const char h = i_ < s_.size() ? s_[i_] : '\0';
            if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) {
                return false;
            }
        }
        return true;
    }

    // One UTF-8 sequence of two to four bytes: no overlong form, no surrogate, at most U+10FFFF.
    bool utf8() {
        const auto lead = static_cast<unsigned char>(s_[i_]);
        int more = 0;
        std::uint32_t code = 0;
        if ((lead & 0xE0) == 0xC0) {
            more = 1;
            code = lead & 0x1F;
        } else if ((lead & 0xF0) == 0xE0) {
            more = 2;
            code = lead & 0x0F;
        } else if ((lead & 0xF8) == 0xF0) {
            more = 3;
            code = lead & 0x07;
        } else {
            return false;
        }
        if (i_ + std::size_t(more) >= s_.size()) {
            return false;
        }
        for (int k = 1; k <= more; ++k) {
            const auto c = static_cast<unsigned char>(s_[i_ + std::size_t(k)]);
            if ((c & 0xC0) != 0x80) {
                return false;
            }
            code = (code << 6) | (c & 0x3F);
        }
        static constexpr std::uint32_t kSmallest[] = {0, 0x80, 0x800, 0x10000};
        if (code < kSmallest[more] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
            return false;
        }
        i_ += std::size_t(more) + 1;
        return true;
    }

    std::string_view s_;
    std::size_t i_ = 0;
};

}  // namespace

bool readJsonMembers(std::string_view text, std::vector<JsonMember>* members) {
    members->clear();
    return text.empty() || JsonCheck(text).object(members);
}

bool isJsonObjectText(std::string_view text) {
    return text.empty() || JsonCheck(text).object(nullptr);
}

QJsonValue jsonMemberValue(const JsonMember& member) {
    // The value alone inside an array: QJsonDocument reads only objects and arrays.
    QByteArray text;
    text.reserve(qsizetype(member.value.size()) + 4);
    text.append('[');
    if (member.kind == JsonKind::String) {
        text.append('"');
    }
    text.append(member.value.data(), qsizetype(member.value.size()));
    if (member.kind == JsonKind::String) {
        text.append('"');
    }
    text.append(']');
    const QJsonArray array = QJsonDocument::fromJson(text).array();
    return array.isEmpty() ? QJsonValue(QJsonValue::Undefined) : array.first();
}

}  // namespace tunedeck::store
