// What a line of the trial channel must be for the engine to read it: one rule for the node
// agent, which checks every line of a trial before relaying it (worker/json_line.h), and for the
// engine, whose JSON parser (Qt's) reads the relayed line. A line either passes here and parses
// there, or the agent fails the trial at once with a message naming the problem; nothing is
// relayed that the engine would drop (the trial then waited for its heartbeat timeout).
// Plain C++17, header-only and free of Qt, so the agent (standard library and POSIX only, see
// DESIGN.md) includes it as the engine does. Pure functions; thread-safe.
//
// Where the agent's parser (nlohmann/json) and the engine's (Qt) disagree, the rule takes the
// stricter answer; the agent applies it on top of a full JSON parse and its nesting limit:
// * nlohmann stops at a NUL byte as if the text ended there, so `{...}<NUL>anything` passed the
//   agent and was refused by the engine. No byte below 0x20 other than tab and carriage return
//   may appear anywhere in a line (JSON allows none outside strings, and strings must escape
//   them: "\u0000", "\n").
// * nlohmann reads a number too small for a double (1e-400) as 0; Qt refuses it. A nonzero
//   number that would read as zero is refused (subnormal numbers such as 1e-310 are fine).
// * Numbers too large for a double (1e400) and malformed UTF-8 both parsers refuse already.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace tunedeck::trial_line {

// A byte a line may not hold, and where: `offset` counts from 0.
struct ForbiddenByte {
    std::size_t offset;
    unsigned char value;
};

// The first control character of `line` other than tab and carriage return, if any. (A line
// feed ends a line, so a line holds none.)
inline std::optional<ForbiddenByte> firstForbiddenByte(std::string_view line) {
    for (std::size_t i = 0; i < line.size(); ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        if (c < 0x20 && c != '\t' && c != '\r') {
            return ForbiddenByte{i, c};
        }
    }
    return std::nullopt;
}

// "a NUL byte at byte 39": for messages, positions counted from 1.
inline std::string describe(const ForbiddenByte& byte) {
    char text[64];
    if (byte.value == 0) {
        std::snprintf(text, sizeof text, "a NUL byte at byte %zu", byte.offset + 1);
    } else {
        std::snprintf(text, sizeof text, "the control character 0x%02x at byte %zu",
                      unsigned(byte.value), byte.offset + 1);
    }
    return text;
}

// Whether the engine reads the number written `text` (as it stood in the JSON) that the agent's
// parser read as `value`: it must be finite, and must not be a nonzero number so small that it
// reads as zero.
inline bool numberIsReadable(double value, std::string_view text) {
    if (!std::isfinite(value)) {
        return false;
    }
    if (value != 0.0) {
        return true;
    }
    // Zero: fine only when written as zero, that is with no nonzero digit before the exponent.
    for (const char c : text) {
        if (c == 'e' || c == 'E') {
            break;
        }
        if (c >= '1' && c <= '9') {
            return false;
        }
    }
    return true;
}

}  // namespace tunedeck::trial_line
