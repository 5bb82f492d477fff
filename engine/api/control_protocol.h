// The control API's wire format, shared by `tunedeck-engine serve` and the app's client: one JSON
// object per line each way. CONTROL_API.md is the reference; these are the names and builders
// both sides use, so neither guesses a field. Pure functions; thread-safe.
//
// Request:  {"id": ANY, "op": OP, ...arguments}
// Answer:   {"id": ANY, "ok": true, ...fields} or
//           {"id": ANY, "ok": false, "error": {"code": CODE, "message": TEXT}}
// Event:    {"subscription": N, "experiment": NAME, "event": ENVELOPE}   (core/events.h)
// Caught up: {"subscription": N, "experiment": NAME, "caught_up": SEQ}  (replay done, live now)
#pragma once

#include <QByteArrayView>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <optional>

#include "core/status.h"

namespace tunedeck::api {

inline constexpr int kControlApiVersion = 1;
// Longest request line the server reads; a longer one is answered with an error and skipped.
inline constexpr qsizetype kMaxRequestLine = 4 * 1024 * 1024;

namespace op {
inline const QString kHello = QStringLiteral("hello");
inline const QString kValidate = QStringLiteral("validate");
inline const QString kList = QStringLiteral("list");
inline const QString kStart = QStringLiteral("start");
inline const QString kResume = QStringLiteral("resume");
inline const QString kStop = QStringLiteral("stop");
inline const QString kPause = QStringLiteral("pause");
inline const QString kStopTrial = QStringLiteral("stop_trial");
inline const QString kPauseTrial = QStringLiteral("pause_trial");
inline const QString kResumeTrial = QStringLiteral("resume_trial");
inline const QString kSubscribe = QStringLiteral("subscribe");
inline const QString kUnsubscribe = QStringLiteral("unsubscribe");
inline const QString kBest = QStringLiteral("best");
inline const QString kExport = QStringLiteral("export");
inline const QString kTrialLog = QStringLiteral("trial_log");
inline const QString kQueue = QStringLiteral("queue");
inline const QString kSetMaxWorkers = QStringLiteral("set_max_workers");
inline const QString kSetLimits = QStringLiteral("set_limits");
inline const QString kSetTrialNote = QStringLiteral("set_trial_note");
inline const QString kDelete = QStringLiteral("delete");
}  // namespace op

namespace code {
inline const QString kBadRequest = QStringLiteral("bad_request");     // malformed or missing
inline const QString kUnauthorized = QStringLiteral("unauthorized");  // no or wrong token
inline const QString kUnknownOp = QStringLiteral("unknown_op");
inline const QString kNotFound = QStringLiteral("not_found");        // experiment, trial
inline const QString kInvalidSpec = QStringLiteral("invalid_spec");  // start of a bad file
inline const QString kConflict = QStringLiteral("conflict");         // already running, ...
inline const QString kFailed = QStringLiteral("failed");             // the engine could not
inline const QString kBusy = QStringLiteral("busy");                 // too many connections
inline const QString kForbidden = QStringLiteral("forbidden");       // another user's experiment
}  // namespace code

struct Request {
    QJsonValue id;  // echoed in the answer; any JSON value, null when absent
    QString op;
    QJsonObject arguments;  // the whole request object

    // A string argument; empty when absent or not a string.
    QString text(const QString& key) const { return arguments.value(key).toString(); }
};

// Parses request line number `lineNumber` (1-based, per connection). On malformed input returns
// nothing and sets `error` to the answer to send, naming the line and the problem.
std::optional<Request> parseRequest(QByteArrayView line, int lineNumber, QJsonObject* error);

QJsonObject answerOk(const QJsonValue& id, QJsonObject fields = {});
QJsonObject answerError(const QJsonValue& id, const QString& errorCode, const QString& message);
QJsonObject eventMessage(int subscription, const QString& experiment, const QJsonObject& event);
QJsonObject caughtUpMessage(int subscription, const QString& experiment, std::int64_t seq);

// Where `serve` listens: "unix:PATH" or "tcp:HOST:PORT" (HOST an IP address; IPv6 in brackets).
struct ListenAddress {
    enum class Kind { Unix, Tcp } kind = Kind::Unix;
    QString path;  // Unix
    QString host;  // Tcp
    quint16 port = 0;

    QString toString() const;
    bool isLoopback() const;
};

Status parseListenAddress(const QString& text, ListenAddress* out);
// $XDG_RUNTIME_DIR/tunedeck/engine.sock, or /tmp/tunedeck-UID/engine.sock without one.
QString defaultSocketPath();

}  // namespace tunedeck::api
