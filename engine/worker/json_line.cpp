#include "worker/json_line.h"

namespace tunedeck::worker {

std::string toLine(const nlohmann::json& value) {
    std::string line = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    line.push_back('\n');
    return line;
}

bool isJsonObject(std::string_view text) {
    const std::string_view body = trimmed(text);
    if (body.empty() || body.front() != '{') {
        return false;
    }
    // accept() is strict (nothing may follow the value) and parses with an explicit stack, so a
    // deeply nested line cannot overflow the worker's stack.
    return nlohmann::json::accept(body.begin(), body.end());
}

bool isJson(std::string_view text) {
    return nlohmann::json::accept(text.begin(), text.end());
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
