// Problems found in a user's file (core/problem.h) as the control API carries them: the
// `errors` and `warnings` of a `validate` answer and the `problems` of an `invalid_spec` error.
// One problem is {"file", "line", "column", "key", "problem", "message", "severity"}
// (CONTROL_API.md, "Problems"). Pure functions; thread-safe.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <vector>

#include "core/problem.h"

namespace tunedeck::api {

QJsonObject problemToJson(const Problem& problem);
QJsonArray problemsToJson(const std::vector<Problem>& problems);

// Reads what problemToJson wrote. Lenient, as a client must be with an older engine: a missing
// field is empty (0 for line and column), and an object without `key` and `problem` keeps its
// whole `message`. `severity` applies where the object names none.
Problem problemFromJson(const QJsonObject& object, Severity severity = Severity::Error);

// {"errors": [...], "warnings": [...]}: the problem fields of a `validate` answer.
QJsonObject validationProblems(const std::vector<Problem>& problems);
// The errors, then the warnings, of a `validate` answer.
std::vector<Problem> problemsOfValidation(const QJsonObject& answer);

// The answer to a `start` whose experiment does not load: code invalid_spec, the message the CLI
// prints (one line per error), and the errors as `problems`.
QJsonObject answerInvalidSpec(const QJsonValue& id, const std::vector<Problem>& errors);

}  // namespace tunedeck::api
