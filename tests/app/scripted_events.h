// Event envelopes as the engine sends them (engine/api/events.h), for the app's tests to script
// an experiment without an engine. Header-only; each test executable has its own sequence.
#pragma once

#include <QJsonObject>
#include <QString>

namespace scripted {

inline qint64& sequence() {
    static qint64 seq = 0;
    return seq;
}

inline QJsonObject event(const QString& type, QJsonObject payload, double time = 1000) {
    payload.insert("type", type);
    payload.insert("seq", ++sequence());
    payload.insert("time", time);
    payload.insert("v", 1);
    return payload;
}

inline QJsonObject added(const QString& trial, const QJsonObject& config) {
    return event("trial_added", {{"trial", trial}, {"config", config}});
}

// A status change; `node` only when given (a later status without one keeps the trial's node).
inline QJsonObject status(const QString& trial, const QString& s, const QString& node = {}) {
    QJsonObject payload{{"trial", trial}, {"status", s}};
    if (!node.isEmpty()) {
        payload.insert("node", node);
    }
    return event("trial_status", payload);
}

inline QJsonObject metricResult(const QString& trial, int iteration, const QString& metric,
                                double value, double time = 1000) {
    return event("result",
                 {{"trial", trial},
                  {"result", QJsonObject{{"training_iteration", iteration}, {metric, value}}}},
                 time);
}

// A result reporting `loss`.
inline QJsonObject result(const QString& trial, int iteration, double loss, double time = 1000) {
    return metricResult(trial, iteration, "loss", loss, time);
}

}  // namespace scripted
