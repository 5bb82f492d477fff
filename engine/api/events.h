// The versioned event schema shared by the engine and the app: every event the engine emits
// (to SQLite, to `--events FILE.jsonl`, later to control-API subscribers) is one JSON object
// built here, so the app never guesses field names. Pure functions; thread-safe.
//
// Envelope: {"v": kEventSchemaVersion, "seq": N, "time": unix seconds, "type": TYPE, ...fields}.
// Results are events too (type "result"); SQLite keeps them in their own table with the same
// sequence, so a subscriber replaying "since N" receives both in order. So are node usage
// samples (type "node_usage", table node_usage), thinned as they age (store/usage_retention.h):
//   {"node": ID, "cpu_percent": %, "memory_used_mb": MiB, "memory_total_mb": MiB,
//    "gpus": [{"index", "uuid", "name", "utilization_percent", "memory_used_mb",
//              "memory_total_mb", "temperature_c", "power_w", "trials": [TRIAL_ID, ...],
//              "lost": bool}]}
// A reading the node cannot give (its first CPU share, a card without a power sensor, a lost
// card) is null. `trials` are the trials whose processes use the card, by the driver's count.
#pragma once

#include <QJsonObject>
#include <QString>

#include "core/trial.h"

namespace tunedeck::events {

inline constexpr int kEventSchemaVersion = 1;

namespace type {
inline const QString kExperimentStarted = QStringLiteral("experiment_started");
inline const QString kExperimentFinished = QStringLiteral("experiment_finished");
inline const QString kTrialAdded = QStringLiteral("trial_added");
inline const QString kTrialStatus = QStringLiteral("trial_status");
inline const QString kResult = QStringLiteral("result");
inline const QString kCheckpoint = QStringLiteral("checkpoint");
inline const QString kExploit = QStringLiteral("exploit");
inline const QString kNode = QStringLiteral("node");
inline const QString kNodeUsage = QStringLiteral("node_usage");
inline const QString kLog = QStringLiteral("log");
inline const QString kWarning = QStringLiteral("warning");
}  // namespace type

// Payloads (the fields besides the envelope).
QJsonObject experimentStarted(const QString& name, const QString& folder, bool resumed);
QJsonObject experimentFinished(const QString& status, int terminated, int errored);
QJsonObject trialAdded(const Trial& trial);
QJsonObject trialStatus(const Trial& trial, const QString& reason);
QJsonObject result(const QString& trialId, const QJsonObject& result);
QJsonObject checkpoint(const QString& trialId, std::int64_t iteration, const QString& path);
// PBT: `trialId` continues from `sourceTrialId`'s checkpoint with `newConfig`.
QJsonObject exploit(const QString& trialId, const QString& sourceTrialId, std::int64_t iteration,
                    std::int64_t sourceIteration, const QJsonObject& oldConfig,
                    const QJsonObject& newConfig, const QString& reason);
QJsonObject node(const QString& nodeId, const QString& state, const QJsonObject& details);
// A node usage sample from the agent's `usage` event (engine/sdk/PROTOCOL.md): exactly the
// fields above, whatever else the agent sent.
QJsonObject nodeUsage(const QString& nodeId, const QJsonObject& sample);
QJsonObject log(const QString& trialId, const QString& message);
QJsonObject warning(const QString& message, const QString& trialId = {});

// The full event: payload plus envelope.
QJsonObject envelope(const QString& type, std::int64_t seq, double time, QJsonObject payload);

}  // namespace tunedeck::events
