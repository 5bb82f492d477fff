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
//
// Configs: a QJsonObject cannot tell 1.0 from 1 (Qt stores both as the integer 1 and writes `1`),
// so an event that carries a config carries beside it which of its numbers are floats, as the
// sorted dotted paths of core/config_json.h: "config_floats" in trial_added, "old_config_floats"
// and "new_config_floats" in exploit (["lr", "model.dropout", "sizes.0"]). A reader shows a
// number at one of those paths as a float (1.0); an event without the field (an engine before
// it) says nothing, and whole numbers read as integers.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <optional>
#include <vector>

#include "core/config_json.h"
#include "core/gang_placement.h"
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
inline const QString kTrialResources = QStringLiteral("trial_resources");
inline const QString kNode = QStringLiteral("node");
inline const QString kNodeUsage = QStringLiteral("node_usage");
inline const QString kLog = QStringLiteral("log");
inline const QString kWarning = QStringLiteral("warning");
// num_samples or max_concurrent_trials changed while the experiment ran (set_limits).
inline const QString kLimits = QStringLiteral("limits");
// A researcher's note on a trial (set_trial_note, core/trial_note.h); the latest counts.
inline const QString kTrialNote = QStringLiteral("trial_note");
}  // namespace type

// `ranks` of a gang trial's RUNNING event: each rank's node and cards.
QJsonArray gangRanks(const GangPlacement& gang);

// Payloads (the fields besides the envelope).
QJsonObject experimentStarted(const QString& name, const QString& folder, bool resumed);
QJsonObject experimentFinished(const QString& status, int terminated, int errored);
// `configFloats`: the numbers of trial.config that are floats (floatPathsOf its search space).
QJsonObject trialAdded(const Trial& trial, const FloatPaths& configFloats = {});
// `gpus`: the indexes on trial.nodeId of the cards a RUNNING trial was placed on (CUDA's
// devices of it), sent as "gpus": [0, 1] when there are any; the app lists them as the trials
// on each card, which the driver's process list cannot always tell (a container's PIDs).
QJsonObject trialStatus(const Trial& trial, const QString& reason,
                        const std::vector<int>& gpus = {});
QJsonObject result(const QString& trialId, const QJsonObject& result);
QJsonObject checkpoint(const QString& trialId, std::int64_t iteration, const QString& path);
// resource_changing gave a trial another size: it pauses at `iteration` and starts again with
// `toWorkers` ranks.
QJsonObject trialResources(const QString& trialId, std::int64_t iteration, int fromWorkers,
                           int toWorkers, const QString& reason);
// PBT: `trialId` continues from `sourceTrialId`'s checkpoint with `newConfig`.
QJsonObject exploit(const QString& trialId, const QString& sourceTrialId, std::int64_t iteration,
                    std::int64_t sourceIteration, const QJsonObject& oldConfig,
                    const QJsonObject& newConfig, const QString& reason,
                    const FloatPaths& oldFloats = {}, const FloatPaths& newFloats = {});
QJsonObject node(const QString& nodeId, const QString& state, const QJsonObject& details);
// A node usage sample from the agent's `usage` event (engine/sdk/PROTOCOL.md): exactly the
// fields above, whatever else the agent sent.
QJsonObject nodeUsage(const QString& nodeId, const QJsonObject& sample);
QJsonObject log(const QString& trialId, const QString& message);
QJsonObject warning(const QString& message, const QString& trialId = {});
// The limits a set_limits request changed (only those it gave: `num_samples`,
// `max_concurrent_trials`) and `trials`, the budget in trials from now on (null when the searcher
// has no count); resume applies them again, and the app's progress bar counts `trials`.
QJsonObject limits(std::optional<int> numSamples, std::optional<int> maxConcurrentTrials,
                   std::optional<std::int64_t> trials);
// `note` replaces the trial's earlier one; empty: the trial has no note from now on.
QJsonObject trialNote(const QString& trialId, const QString& note);

// The float paths an event carries in `field` ("config_floats", "old_config_floats",
// "new_config_floats"); empty when it has none.
FloatPaths configFloatsOf(const QJsonObject& event,
                          const QString& field = QStringLiteral("config_floats"));

// The full event: payload plus envelope.
QJsonObject envelope(const QString& type, std::int64_t seq, double time, QJsonObject payload);

}  // namespace tunedeck::events
