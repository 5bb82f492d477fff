// Reading the fields of one message with their types checked, for the decoders of the event
// schema and of the control API's answers: the first field that is missing or of the wrong type
// becomes the reader's error ("trial_status event: \"status\" must be a string (got 3)"), and
// later reads do nothing. Value type; not shared between threads.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

#include "core/config_json.h"
#include "core/status.h"

namespace tunedeck::api {

class JsonFields {
  public:
    // `what` names the message in errors ("trial_status event", "answer to list").
    JsonFields(const QJsonObject& object, QString what) : object_(object), what_(std::move(what)) {}

    // Required fields: absent or of another type is an error.
    QString text(const char* key);
    double number(const char* key);
    qint64 integer(const char* key);
    bool boolean(const char* key);
    QJsonObject object(const char* key);
    QJsonArray array(const char* key);

    // Optional fields: absent (or null) gives `fallback`; present with another type is an error.
    QString text(const char* key, const QString& fallback);
    std::optional<QString> optionalText(const char* key);
    qint64 integer(const char* key, qint64 fallback);
    bool boolean(const char* key, bool fallback);
    std::optional<double> optionalNumber(const char* key);
    QJsonObject object(const char* key, const QJsonObject& fallback);
    QJsonArray array(const char* key, const QJsonArray& fallback);
    // A list of strings (float paths, trial ids); optional, empty when absent.
    QStringList texts(const char* key);
    FloatPaths floatPaths(const char* key);

    bool has(const char* key) const;
    // Records a problem of the caller's own ("\"gpus\"[2]: ..."), unless one came first.
    void fail(const QString& problem);
    Status status() const { return error_.isEmpty() ? Status::ok() : Status::invalid(error_); }

  private:
    QJsonValue required(const char* key, bool (QJsonValue::*is)() const, const char* kind);
    QJsonValue optional(const char* key, bool (QJsonValue::*is)() const, const char* kind);
    void wrongType(const char* key, const char* kind, const QJsonValue& got);

    QJsonObject object_;
    QString what_;
    QString error_;
};

// A JSON value as an error shows it: 3, "text", a list, an object, null.
QString shownJson(const QJsonValue& value);

}  // namespace tunedeck::api
