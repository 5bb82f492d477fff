#include "worker/json_line.h"

#include <chrono>

#include "core/trial_line_rule.h"

namespace tunedeck::worker {

double unixSeconds() {
    const auto sinceEpoch = std::chrono::system_clock::now().time_since_epoch();
    return static_cast<double>(
               std::chrono::duration_cast<std::chrono::milliseconds>(sinceEpoch).count()) /
           1000.0;
}

std::string toLine(const nlohmann::json& value) {
    std::string line = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    line.push_back('\n');
    return line;
}

namespace {

// A SAX consumer that accepts any JSON but refuses to go deeper than its limit.
class DepthLimitedAcceptor {
  public:
    using json = nlohmann::json;
    explicit DepthLimitedAcceptor(int maxDepth) : m_maxDepth(maxDepth) {}

    bool null() { return true; }
    bool boolean(bool) { return true; }
    bool number_integer(json::number_integer_t) { return true; }
    bool number_unsigned(json::number_unsigned_t) { return true; }
    bool number_float(json::number_float_t value, const json::string_t& text) {
        if (trial_line::numberIsReadable(value, text)) {
            return true;
        }
        m_unreadableNumber = text;
        return false;
    }
    bool string(json::string_t&) { return true; }
    bool binary(json::binary_t&) { return true; }
    bool key(json::string_t&) { return true; }
    bool start_object(std::size_t) { return enter(); }
    bool start_array(std::size_t) { return enter(); }
    bool end_object() { return leave(); }
    bool end_array() { return leave(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
        return false;
    }

    bool tooDeep() const { return m_tooDeep; }
    // The text of a number the engine could not read, when that stopped the parse.
    const std::string& unreadableNumber() const { return m_unreadableNumber; }

  private:
    bool enter() {
        m_tooDeep = ++m_depth > m_maxDepth;
        return !m_tooDeep;
    }
    bool leave() {
        --m_depth;
        return true;
    }

    int m_maxDepth;
    int m_depth = 0;
    bool m_tooDeep = false;
    std::string m_unreadableNumber;
};

}  // namespace

LineCheck checkObjectLine(std::string_view text, int maxDepth, std::string* detail) {
    // Before parsing: the parser would take a NUL byte for the end of the text.
    if (const std::optional<trial_line::ForbiddenByte> byte =
            trial_line::firstForbiddenByte(text)) {
        if (detail) {
            *detail = trial_line::describe(*byte);
        }
        return LineCheck::ForbiddenByte;
    }
    const std::string_view body = trimmed(text);
    DepthLimitedAcceptor acceptor(maxDepth);
    const bool valid = nlohmann::json::sax_parse(body.begin(), body.end(), &acceptor);
    if (acceptor.tooDeep()) {
        return LineCheck::TooDeep;
    }
    if (!acceptor.unreadableNumber().empty()) {
        if (detail) {
            *detail = "the number " + std::string(preview(acceptor.unreadableNumber(), 40)) +
                      ", which a double cannot hold";
        }
        return LineCheck::UnreadableNumber;
    }
    if (!valid) {
        return LineCheck::NotJson;
    }
    return body.front() == '{' ? LineCheck::Object : LineCheck::NotAnObject;
}

std::string_view preview(std::string_view text, std::size_t maxBytes) {
    if (text.size() <= maxBytes) {
        return text;
    }
    std::size_t cut = maxBytes;
    // Step back over UTF-8 continuation bytes (10xxxxxx) so no character is split.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
        --cut;
    }
    return text.substr(0, cut);
}

std::string_view trimmed(std::string_view text) {
    constexpr std::string_view kWhitespace = " \t\r\n";
    const std::size_t first = text.find_first_not_of(kWhitespace);
    if (first == std::string_view::npos) {
        return {};
    }
    const std::size_t last = text.find_last_not_of(kWhitespace);
    return text.substr(first, last - first + 1);
}

}  // namespace tunedeck::worker
