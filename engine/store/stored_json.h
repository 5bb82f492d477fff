// A JSON object as the history stores it (a result, a config), read in place: checked whole,
// so a damaged value is found as QJsonDocument would find it, and split into its top-level
// members without building a document. Reading every result of a history this way costs a
// fraction of parsing each into a QJsonObject (tests/bench/bench_history). Pure functions;
// thread-safe.
#pragma once

#include <QJsonValue>
#include <string_view>
#include <vector>

namespace tunedeck::store {

enum class JsonKind : char { String, Number, True, False, Null, Object, Array };

// One member of an object: its key and value as they are written in the text. `key` and a
// string `value` are the raw text between the quotes; `escaped` says one of them holds a
// backslash escape, so only a parser can say what it spells.
struct JsonMember {
    std::string_view key;
    std::string_view value;  // the whole value text (a string without its quotes)
    JsonKind kind = JsonKind::Null;
    bool escaped = false;
};

// The members of the object `text` holds, in the order written; false (and `members` left in
// any state) when the text is not one JSON object: the history is damaged there. Empty text
// reads as an empty object, as the store's reads take it.
bool readJsonMembers(std::string_view text, std::vector<JsonMember>* members);

// Whether `text` is one JSON object (or empty), checked as readJsonMembers checks it.
bool isJsonObjectText(std::string_view text);

// A member's value as QJsonDocument reads it (QJsonValue::Undefined for a member that is not
// valid: readJsonMembers never gives one).
QJsonValue jsonMemberValue(const JsonMember& member);

}  // namespace tunedeck::store
