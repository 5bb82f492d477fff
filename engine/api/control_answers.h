// The control API's answers read back (CONTROL_API.md, "Operations"): typed answers decoded from
// the JSON objects `serve` sends, so the app never looks a field up by name. An error answer
// ({"ok": false, "error": {...}}) decodes to a failed Status carrying the engine's message; a
// missing or mistyped field is a failed Status naming the op and the field. Pure functions;
// thread-safe.
#pragma once

#include <QJsonObject>
#include <QString>
#include <vector>

#include "core/status.h"

namespace tunedeck::api {

struct HelloAnswer {
    int api = 0;
    int events = 0;
    QString engine;   // its version
    QString results;  // its results root, on its machine
};

struct ExperimentListEntry {
    QString experiment;  // its folder's name under the results root
    QString status;
    double createdAt = 0;  // seconds since the epoch
    int trials = 0;
    int errors = 0;
    QString best;
    bool served = false;  // run by this server now
};

// start and resume.
struct StartedAnswer {
    QString experiment;
    QString folder;
};

struct SubscribedAnswer {
    int subscription = 0;
    QString name;
    QString metric;
    bool minimize = false;  // mode min
    QString status;
    QString spec;  // the experiment file as recorded
};

// best and export.
struct TextAnswer {
    QString text;
};

struct TrialLogAnswer {
    QString text;
    qint64 offset = 0;  // where to ask from next
    qint64 size = 0;    // of the whole log
};

// queue: serve's fair queue, one entry per experiment in it.
struct QueueEntry {
    QString experiment;
    QString user;
    int priority = 0;
    int running = 0;
    int allowed = 0;  // trials it may run at once now (the answer's "slots")
    int wanted = 0;   // trials it could start
    double cpu = 1;   // per trial
    double gpu = 0;
    QString why;  // why it waits; empty when it does not
};
struct QueueAnswer {
    double cpu = 0;  // what the queue shares
    double gpu = 0;
    double cpuInUse = 0;
    double gpuInUse = 0;
    std::vector<QueueEntry> experiments;
};

// The message of an error answer; ok for an ok one.
Status answerStatus(const QJsonObject& answer);

Status decodeHello(const QJsonObject& answer, HelloAnswer* out);
Status decodeExperimentList(const QJsonObject& answer, std::vector<ExperimentListEntry>* out);
Status decodeStarted(const QJsonObject& answer, StartedAnswer* out);
Status decodeSubscribed(const QJsonObject& answer, SubscribedAnswer* out);
Status decodeText(const QJsonObject& answer, TextAnswer* out);
Status decodeTrialLog(const QJsonObject& answer, TrialLogAnswer* out);
Status decodeQueue(const QJsonObject& answer, QueueAnswer* out);

}  // namespace tunedeck::api
