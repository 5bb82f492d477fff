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

// Whether `text` is exactly one JSON object (whitespace around it allowed). Validates without
// building a document: the relay embeds the trial's text as it came.
bool isJsonObject(std::string_view text);

// Whether `text` is valid JSON of any kind; tells "not JSON" from "not an object" in messages.
bool isJson(std::string_view text);

// At most `maxBytes` of `text`, cut on a UTF-8 character boundary, for quoting in a message.
std::string_view preview(std::string_view text, std::size_t maxBytes);

// `text` without JSON whitespace at either end.
std::string_view trimmed(std::string_view text);

}  // namespace tunedeck::worker
