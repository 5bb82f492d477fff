#include "api/problems_json.h"

#include <QStringList>

#include "api/control_protocol.h"

namespace tunedeck::api {

namespace {

const QString kErrors = QStringLiteral("errors");
const QString kWarnings = QStringLiteral("warnings");
const QString kError = QStringLiteral("error");
const QString kWarning = QStringLiteral("warning");

}  // namespace

QJsonObject problemToJson(const Problem& problem) {
    return {
        {"file", problem.location.file},
        {"line", problem.location.line},
        {"column", problem.location.column},
        {"key", problem.key},
        {"problem", problem.message},
        // "key: problem", as API version 1 answered before `key` and `problem` were fields.
        {"message", problem.keyedMessage()},
        {"severity", problem.isError() ? kError : kWarning},
    };
}

QJsonArray problemsToJson(const std::vector<Problem>& problems) {
    QJsonArray array;
    for (const Problem& problem : problems) {
        array.append(problemToJson(problem));
    }
    return array;
}

Problem problemFromJson(const QJsonObject& object, Severity severity) {
    Problem problem;
    problem.location.file = object.value("file").toString();
    problem.location.line = object.value("line").toInt();
    problem.location.column = object.value("column").toInt();
    if (object.value("problem").isString()) {
        problem.key = object.value("key").toString();
        problem.message = object.value("problem").toString();
    } else {
        problem.message = object.value("message").toString();
    }
    const QString named = object.value("severity").toString();
    problem.severity = named == kError     ? Severity::Error
                       : named == kWarning ? Severity::Warning
                                           : severity;
    return problem;
}

QJsonObject validationProblems(const std::vector<Problem>& problems) {
    QJsonArray errors;
    QJsonArray warnings;
    for (const Problem& problem : problems) {
        (problem.isError() ? errors : warnings).append(problemToJson(problem));
    }
    return {{kErrors, errors}, {kWarnings, warnings}};
}

std::vector<Problem> problemsOfValidation(const QJsonObject& answer) {
    std::vector<Problem> problems;
    for (const auto& [field, severity] :
         {std::pair{kErrors, Severity::Error}, std::pair{kWarnings, Severity::Warning}}) {
        for (const QJsonValue& item : answer.value(field).toArray()) {
            problems.push_back(problemFromJson(item.toObject(), severity));
        }
    }
    return problems;
}

QJsonObject answerInvalidSpec(const QJsonValue& id, const std::vector<Problem>& errors) {
    QStringList lines;
    for (const Problem& problem : errors) {
        lines << problem.text();
    }
    QJsonObject answer = answerError(id, code::kInvalidSpec, lines.join(QLatin1Char('\n')));
    QJsonObject error = answer.value(kError).toObject();
    error.insert(QStringLiteral("problems"), problemsToJson(errors));
    answer.insert(kError, error);
    return answer;
}

}  // namespace tunedeck::api
