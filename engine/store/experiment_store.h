// The SQLite history of one experiment (<experiment folder>/experiment.sqlite, WAL mode).
// Writes are queued and committed in batched transactions by one writer thread; reads use their
// own connection. Thread-safety: one ExperimentStore is used from one thread (the runtime's event
// loop or a CLI command); the writer thread is internal.
//
// Sequence numbers: results and events share one increasing sequence (`seq`), assigned when a
// write is queued, so the control API can replay "everything since N" from both tables in order.
// Durability: flush() returns once everything queued is committed. A write error (disk full,
// read-only folder) is sticky: it is returned by flush() and lastError(), never thrown; the
// batch it hit is rolled back and later writes are dropped. Writes cost the caller a lock and
// a queue append; only when the writer falls 250,000 writes behind does a write wait for it.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/best_trial.h"
#include "core/checkpoint_policy.h"
#include "core/config_json.h"
#include "core/experiment_spec.h"
#include "core/pbt_replay.h"
#include "core/status.h"
#include "core/trial.h"
#include "store/schema_version.h"

namespace tunedeck {

struct ExperimentRecord {
    QString name;
    QString specText;  // the experiment YAML/JSON as the user wrote it
    QString specFile;  // its original path (informational)
    std::uint64_t seed = 0;
    QString status;        // "running", "finished", "interrupted", "failed"
    double createdAt = 0;  // seconds since the epoch
    double finishedAt = 0;
    QJsonObject searcherState;
    QJsonObject schedulerState;
};

struct TrialRecord {
    Trial trial;
    // The numbers of trial.config that are floats (core/config_json.h): set by the runtime from
    // the search space, read back from the stored text, so 1.0 is stored and shown as 1.0.
    FloatPaths configFloats;
    double startedAt = 0;  // first start, seconds since the epoch (0 = never started)
    double finishedAt = 0;
};

struct ResultRecord {
    std::int64_t seq = 0;
    QString trialId;
    std::int64_t iteration = 0;
    double timestamp = 0;
    QJsonObject result;  // the full result (metrics and engine fields)
};

struct StoredCheckpoint {
    std::int64_t id = 0;
    QString trialId;
    std::int64_t iteration = 0;
    QString path;
    QJsonObject result;  // the result reported with it
    double createdAt = 0;
    bool deleted = false;
};

struct EventRecord {
    std::int64_t seq = 0;
    double timestamp = 0;
    QString type;
    QString trialId;  // empty for experiment and node events
    QJsonObject payload;
};

// One sample of a node's CPU, memory and GPU use: the payload of a `node_usage` event
// (core/events.h) as it was recorded.
struct NodeUsageRecord {
    std::int64_t seq = 0;
    double timestamp = 0;
    QString node;
    QJsonObject usage;
};

class ExperimentStore {
  public:
    enum class Mode { ReadWrite, ReadOnly };

    // Opens (creating and migrating in ReadWrite mode) the database at `path`.
    static Status open(const QString& path, Mode mode, std::unique_ptr<ExperimentStore>* out);
    ~ExperimentStore();  // flushes; never throws

    ExperimentStore(const ExperimentStore&) = delete;
    ExperimentStore& operator=(const ExperimentStore&) = delete;

    int schemaVersion() const;
    QString path() const;

    // ---- writes (queued; committed in batches) ----
    // In ReadOnly mode every write is dropped and sets lastError(); the id-returning ones
    // return 0. Results and checkpoints must name a trial saved with saveTrial (in the same
    // batch or earlier): otherwise their batch fails (a foreign key) like a disk error.
    void saveExperiment(const ExperimentRecord& record);  // insert or replace the single row
    // These two update the row saveExperiment wrote (nothing happens before it exists).
    void setExperimentStatus(const QString& status, double finishedAt = 0);
    void saveSearchState(const QJsonObject& searcherState, const QJsonObject& schedulerState);
    void saveTrial(const TrialRecord& record);  // insert or replace by trial id
    std::int64_t appendResult(const QString& trialId, std::int64_t iteration, double timestamp,
                              const QJsonObject& result);  // returns its seq
    // Removes results of `trialId` with iteration > `iteration` (resume from a checkpoint).
    void deleteResultsAfter(const QString& trialId, std::int64_t iteration);
    // Returns the new checkpoint's id (assigned at once, like seq).
    std::int64_t addCheckpoint(const QString& trialId, std::int64_t iteration, const QString& path,
                               const QJsonObject& result, double createdAt);
    void markCheckpointDeleted(std::int64_t checkpointId);
    // Returns the exploit's id (assigned at once, like seq).
    std::int64_t addExploit(const ExploitRecord& record);
    std::int64_t appendEvent(const QString& type, const QString& trialId,
                             const QJsonObject& payload, double timestamp);  // returns its seq
    // A node usage sample (the `node_usage` payload), in the shared sequence; returns its seq.
    // Older samples are thinned as later ones arrive (store/usage_retention.h), judged by the
    // samples' own timestamps: every sample of the last 10 minutes stays.
    std::int64_t appendNodeUsage(const QString& node, double timestamp, const QJsonObject& usage);

    Status flush();            // blocks until every queued write is committed
    Status lastError() const;  // the first write error, sticky
    // The first read that failed, sticky: SQLite found the file damaged, or a stored value does
    // not parse ("the history is damaged: ..."). A command that read must not answer then: what
    // it read is only part of the history.
    Status readError() const;

    // ---- reads (see committed data only) ----
    Status loadExperiment(ExperimentRecord* out) const;
    std::vector<TrialRecord> loadTrials() const;
    // One trial's (all of them if `trialId` is empty); checkpoints by id, results by seq.
    std::vector<StoredCheckpoint> loadCheckpoints(const QString& trialId = {}) const;
    std::vector<ResultRecord> loadResults(const QString& trialId = {}) const;
    // Every exploit, by id (one trial's when `trialId` is set).
    std::vector<ExploitRecord> loadExploits(const QString& trialId = {}) const;
    std::vector<EventRecord> loadEvents(std::int64_t sinceSeq, int limit = -1) const;
    // Every event of one type, by seq (the runtime's `limits` changes at recovery).
    std::vector<EventRecord> loadEventsOfType(const QString& type) const;
    // Events, results and node usage samples after `sinceSeq` in one list, in sequence order, at
    // most `limit`: what the control API replays. A result comes as type "result" with its trial
    // and, as payload, the result itself; a usage sample as type "node_usage".
    std::vector<EventRecord> loadEventStream(std::int64_t sinceSeq, int limit) const;
    // The usage samples kept, by seq (one node's when `node` is set).
    std::vector<NodeUsageRecord> loadNodeUsage(const QString& node = {}) const;
    std::int64_t resultCount() const;
    std::int64_t lastSeq() const;
    // Whether every stored JSON value (states, configs, results, events, exploits, usage
    // samples) is one JSON object; the first that is not, named ("result 812 (trial t00003,
    // iteration 4)"), is damage, kept for readError() too. One pass of SQLite's own JSON check
    // over the file, for `resume`: recovery reads only what it needs (each trial's latest
    // checkpoint), and a run must not go on writing into a history that is partly unreadable.
    Status checkStoredValues() const;
    // The views of a history (`show`, `best`, `export`, the app) read through
    // store/history_reader.h: scores and CSV columns come from there.

  private:
    struct Impl;
    explicit ExperimentStore(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace tunedeck
