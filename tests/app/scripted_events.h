// Events as the engine sends them (the envelopes of engine/core/events.h), decoded as the app's
// client decodes them (engine/api/event_decoders.h), for the app's tests to script an
// experiment without an engine. Header-only; each test executable has its own sequence.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QtTest>

#include "api/event_decoders.h"

namespace scripted {

// An envelope as the client's decodedEvent hands it on; one the decoder refuses ends the test,
// since the app never sees it.
inline tunedeck::events::Event decoded(const QJsonObject& envelope) {
    tunedeck::events::Event event;
    if (const tunedeck::Status status = tunedeck::events::decodeEvent(envelope, &event); !status) {
        qFatal("scripted event refused by the decoder: %s", qPrintable(status.message()));
    }
    return event;
}

inline qint64& sequence() {
    static qint64 seq = 0;
    return seq;
}

inline tunedeck::events::Event event(const QString& type, QJsonObject payload, double time = 1000) {
    payload.insert("type", type);
    payload.insert("seq", ++sequence());
    payload.insert("time", time);
    payload.insert("v", 1);
    return decoded(payload);
}

inline tunedeck::events::Event added(const QString& trial, const QJsonObject& config) {
    return event("trial_added", {{"trial", trial}, {"config", config}});
}

// A status change; `node` only when given (a later status without one keeps the trial's node).
inline tunedeck::events::Event status(const QString& trial, const QString& s,
                                      const QString& node = {}) {
    QJsonObject payload{{"trial", trial}, {"status", s}};
    if (!node.isEmpty()) {
        payload.insert("node", node);
    }
    return event("trial_status", payload);
}

inline tunedeck::events::Event metricResult(const QString& trial, int iteration,
                                            const QString& metric, double value,
                                            double time = 1000) {
    return event("result",
                 {{"trial", trial},
                  {"result", QJsonObject{{"training_iteration", iteration}, {metric, value}}}},
                 time);
}

// A result reporting `loss`.
inline tunedeck::events::Event result(const QString& trial, int iteration, double loss,
                                      double time = 1000) {
    return metricResult(trial, iteration, "loss", loss, time);
}

}  // namespace scripted
