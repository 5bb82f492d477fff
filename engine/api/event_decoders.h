// The event schema read back: typed events decoded from the JSON objects that core/events.h builds,
// so a reader (the app's models, charts and analysis) never looks a field up by name. Every
// decoder checks what it reads: a field of the wrong type, or a required one missing, is an
// error naming the event and the field, never a silent default. Fields an older engine did not
// send (the float paths, `index`, `iteration`, `failures`) are optional and say so below.
// Pure functions; thread-safe.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>
#include <variant>
#include <vector>

#include "core/config_json.h"
#include "core/status.h"

namespace tunedeck::events {

struct ExperimentStartedEvent {
    QString name;
    QString folder;
    bool resumed = false;
};

struct ExperimentFinishedEvent {
    QString status;
    int terminated = 0;
    int errored = 0;
};

struct TrialAddedEvent {
    QString trial;
    qint64 index = 0;  // optional: 0 when absent
    QJsonObject config;
    FloatPaths configFloats;  // optional: empty when absent (an engine before them)
};

// Where one rank of a gang trial runs (resources_per_trial.workers, engine/runtime/RUNTIME.md).
struct RankPlacement {
    int rank = 0;
    QString node;
    int nodeRank = 0;
    int localRank = 0;
    std::vector<int> gpus;  // the node's cards the rank was given
};

struct TrialStatusEvent {
    QString trial;
    QString status;                    // PENDING, RUNNING, PAUSED, TERMINATED, ERROR
    QString reason;                    // optional
    std::optional<QString> node;       // absent: the trial keeps the node it had
    qint64 iteration = 0;              // optional
    int failures = 0;                  // optional
    std::vector<int> gpus;             // RUNNING: the node's cards it was placed on; optional
    std::vector<RankPlacement> ranks;  // RUNNING of a gang: every rank, rank order; optional
};

struct ResultEvent {
    QString trial;
    QJsonObject result;
};

struct CheckpointEvent {
    QString trial;
    qint64 iteration = 0;
    QString path;
};

struct ExploitEvent {
    QString trial;
    QString source;
    qint64 iteration = 0;
    qint64 sourceIteration = 0;
    QJsonObject oldConfig;
    QJsonObject newConfig;
    FloatPaths oldConfigFloats;  // optional
    FloatPaths newConfigFloats;  // optional
    QString reason;              // optional
};

struct NodeEvent {
    QString node;
    QString state;        // up, lost, gpu_sharing, ...
    QJsonObject details;  // optional; its keys depend on the state
};

// One card of a node usage sample; a reading the node could not give is nullopt.
struct GpuUsage {
    int index = 0;
    QString uuid;
    QString name;
    std::optional<double> utilizationPercent;
    qint64 memoryUsedMb = 0;
    qint64 memoryTotalMb = 0;
    std::optional<double> temperatureC;
    std::optional<double> powerW;
    QStringList trials;
    bool lost = false;
};

// What one trial used of its node at a sample: CPU in percent of one core (400: four cores),
// its processes' resident memory and, on a node with GPUs, the card memory they hold (MiB).
struct TrialUsage {
    QString trial;
    std::optional<double> cpuPercent;
    double rssMb = 0;
    int processes = 0;
    std::optional<double> gpuMemoryMb;
    std::optional<int> rank;  // a gang trial's rank 1, 2, ...; absent: rank 0 or one process
};

struct NodeUsageEvent {
    QString node;
    std::optional<double> cpuPercent;
    qint64 memoryUsedMb = 0;
    qint64 memoryTotalMb = 0;
    std::vector<GpuUsage> gpus;
    std::vector<TrialUsage> trials;  // empty in samples recorded by older engines
};

struct LogEvent {
    QString trial;
    QString message;
};

struct WarningEvent {
    QString message;
    QString trial;  // optional: empty for a warning about the experiment
};

// num_samples or max_concurrent_trials changed while the experiment ran (only those given).
struct LimitsEvent {
    std::optional<qint64> numSamples;
    std::optional<qint64> maxConcurrentTrials;
    std::optional<qint64> trials;  // the budget in trials from now on; absent: no count
};

// A researcher's note on a trial; empty: the note was cleared.
struct TrialNoteEvent {
    QString trial;
    QString note;
};

// An event of a type this schema does not know (a newer engine): readers skip it.
struct UnknownEvent {
    QString type;
};

using EventPayload =
    std::variant<UnknownEvent, ExperimentStartedEvent, ExperimentFinishedEvent, TrialAddedEvent,
                 TrialStatusEvent, ResultEvent, CheckpointEvent, ExploitEvent, NodeEvent,
                 NodeUsageEvent, LogEvent, WarningEvent, LimitsEvent, TrialNoteEvent>;

// One envelope (core/events.h): its sequence number, time and payload.
struct Event {
    qint64 seq = 0;
    double time = 0;  // unix seconds
    EventPayload payload;

    template <typename T>
    const T* as() const {
        return std::get_if<T>(&payload);
    }
};

// Decodes one envelope. `seq` and `time` are optional (0 when absent: a payload read from the
// history carries its own); `type` is required; a `v` newer than this schema is refused. An
// unknown type decodes to UnknownEvent, not an error.
Status decodeEvent(const QJsonObject& envelope, Event* out);

// The payload decoders, for readers that hold a payload without its envelope (the history's
// tables). Each checks only its own fields.
Status decodeExperimentStarted(const QJsonObject& payload, ExperimentStartedEvent* out);
Status decodeExperimentFinished(const QJsonObject& payload, ExperimentFinishedEvent* out);
Status decodeTrialAdded(const QJsonObject& payload, TrialAddedEvent* out);
Status decodeTrialStatus(const QJsonObject& payload, TrialStatusEvent* out);
Status decodeResult(const QJsonObject& payload, ResultEvent* out);
Status decodeCheckpoint(const QJsonObject& payload, CheckpointEvent* out);
Status decodeExploit(const QJsonObject& payload, ExploitEvent* out);
Status decodeNode(const QJsonObject& payload, NodeEvent* out);
Status decodeNodeUsage(const QJsonObject& payload, NodeUsageEvent* out);
Status decodeLog(const QJsonObject& payload, LogEvent* out);
Status decodeWarning(const QJsonObject& payload, WarningEvent* out);
Status decodeLimits(const QJsonObject& payload, LimitsEvent* out);
Status decodeTrialNote(const QJsonObject& payload, TrialNoteEvent* out);

}  // namespace tunedeck::events
