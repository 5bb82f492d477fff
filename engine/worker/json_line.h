// JSON-line helpers shared by both streams of the node agent: serialising an event without ever
// throwing, and checking a trial's line cheaply before it is relayed verbatim.
// Pure functions: safe from any thread.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace tunedeck::worker {

// Compact JSON and a '\n'. Invalid UTF-8 (a trial's log, a file name) becomes U+FFFD instead of
// an exception, so no input can crash the worker while it reports.
std::string toLine(const nlohmann::json& value);

enum class LineCheck { Object, NotAnObject, NotJson, TooDeep, ForbiddenByte, UnreadableNumber };

// Whether `text` is exactly one JSON object (whitespace around it allowed) nested at most
// `maxDepth` levels that the engine can read (core/trial_line_rule.h: no control byte, no
// number a double cannot hold). Validates without building a document (the relay embeds the
// trial's text as it came) and with an explicit stack, so no line can overflow the worker's own
// stack. For ForbiddenByte and UnreadableNumber, `detail` (when given) says which and where.
LineCheck checkObjectLine(std::string_view text, int maxDepth, std::string* detail = nullptr);

// At most `maxBytes` of `text`, cut on a UTF-8 character boundary, for quoting in a message.
std::string_view preview(std::string_view text, std::size_t maxBytes);

// `text` without JSON whitespace at either end.
std::string_view trimmed(std::string_view text);

// The `time` of an event: Unix time in seconds, with millisecond precision.
double unixSeconds();

}  // namespace tunedeck::worker
