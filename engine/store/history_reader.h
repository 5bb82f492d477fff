// Reads an experiment's history (experiment.sqlite) read-only, for a program that shows it
// rather than runs it (the desktop app): no writer thread, no migration, nothing of the runtime.
// It checks the schema version against the one the store writes (schema_version.h), and reads
// inside one read transaction, from open() to its end, so it sees one consistent picture while
// an engine may be writing. Each result's metric is scanned out of its JSON text without a
// document (result_metric.h). The command line's views (`ls`, `show`, `best`, `export`) read
// through it too, so the window and the commands see the same history the same way. A read
// that meets damage (SQLite's, or a stored JSON value that does not parse) fails with
// Corruption: nothing is answered from part of a history. Thread-safety: one reader per
// thread; run it off a GUI thread.
#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "core/best_trial.h"
#include "core/config_json.h"
#include "core/status.h"
#include "store/stored_json.h"

namespace tunedeck::store {

struct HistoryExperiment {
    QString name;
    QString status;    // "running", "finished", "interrupted", "failed"
    QString specText;  // the experiment file as the user wrote it
    QString specFile;  // where that file was when it ran (its relative paths start there)
    double createdAt = 0;
    bool recorded = false;  // false before the engine wrote the row
};

// A trial row as stored, its status in the words of the history ("RUNNING", "ERROR", ...).
struct HistoryTrial {
    QString id;
    QJsonObject config;
    // Which numbers of the config are floats, found in the stored text (core/config_json.h):
    // QJsonObject reads 1.0 back as 1.
    FloatPaths configFloats;
    QString status;
    std::int64_t iteration = 0;
    QString node;
    QString pendingReason;
    QString errorMessage;
    double startedAt = 0;  // seconds since the epoch
    double finishedAt = 0;
    double timeTotalS = 0;   // its last result's time_total_s (core/trial_runtime.h)
    QJsonObject lastResult;  // every metric of its last result ({} before the first)
    // The same result as stored (a JSON object, or empty), for ResultMetric (result_metric.h).
    QByteArray lastResultJson;
};

// One trial's curve of one metric: each result that had it as a number, in the order they came.
struct MetricCurve {
    std::vector<double> iterations;
    std::vector<double> timestamps;  // seconds since the epoch
    std::vector<double> values;
};

// One PBT exploit as stored (store/experiment_store.h's ExploitRecord), with the float paths
// of both configs.
struct HistoryExploit {
    QString trialId;
    QString sourceTrialId;
    std::int64_t iteration = 0;
    std::int64_t sourceIteration = 0;
    QJsonObject oldConfig;
    QJsonObject newConfig;
    FloatPaths oldConfigFloats;
    FloatPaths newConfigFloats;
    QString reason;
    double timestamp = 0;
};

// One result as stored, read in place: valid only inside the call that hands it over.
struct HistoryResult {
    std::string_view trialId;  // the results row's trial, UTF-8
    std::int64_t iteration = 0;
    double timestamp = 0;                              // seconds since the epoch
    std::string_view json;                             // the result's JSON object text
    const std::vector<JsonMember>* members = nullptr;  // its top-level members, in text order
};

// One sample of a node's CPU, memory and GPU use: a `node_usage` event's payload as recorded.
struct HistoryNodeUsage {
    double timestamp = 0;
    QString node;
    QJsonObject usage;
};

class HistoryReader {
  public:
    // Opens the history at `path` read-only. A copy in a read-only folder is read as an
    // immutable file (no -shm index can be made beside it), or, when its WAL still holds
    // commits (copied while its engine ran), from a private copy of both, as ExperimentStore
    // reads it. Every error names the file; a history of a newer schema than
    // kStoreSchemaVersion is refused with both versions named.
    static Status open(const QString& path, std::unique_ptr<HistoryReader>* out);
    ~HistoryReader();
    HistoryReader(const HistoryReader&) = delete;
    HistoryReader& operator=(const HistoryReader&) = delete;

    int schemaVersion() const;

    // The experiment's row; an empty record when the engine has not written it yet.
    Status readExperiment(HistoryExperiment* out);
    // Every trial, in the order the experiment created them.
    // Parsed: lastResult is filled; TextOnly: only lastResultJson, checked but not parsed (a
    // fifth of `show`'s time on 20,000 trials went to parsing results it reads one metric of).
    enum class LastResult { Parsed, TextOnly };
    Status readTrials(std::vector<HistoryTrial>* out, LastResult lastResult = LastResult::Parsed);
    // The curve of `metric` for each of `trials` (curves[i] belongs to trials[i]), from one pass
    // over the results in sequence order. `results` is set to how many results the history
    // holds, whether or not they had the metric.
    Status readCurves(const QString& metric, const std::vector<HistoryTrial>& trials,
                      std::vector<MetricCurve>* curves, std::int64_t* results);
    // Calls `each` for every result in the order they were recorded, its text checked whole
    // (store/stored_json.h): the one pass `show`, `best` and `export` make over the results.
    Status readResults(const std::function<void(const HistoryResult&)>& each);
    Status readResultCount(std::int64_t* out);
    // Every PBT exploit, in the order they happened (none in a history older than schema v2).
    Status readExploits(std::vector<HistoryExploit>* out);
    // The node usage samples kept, in the order they came (none before schema v3).
    Status readNodeUsage(std::vector<HistoryNodeUsage>* out);
    // The payloads of the recorded events of one type ("node", ...), in the order they came.
    Status readEvents(const QString& type, std::vector<QJsonObject>* payloads);
    // Why each trial ended, by trial id: the reason of its last TERMINATED status change
    // ("finished", a scheduler's early stop, ...), read in place from the `trial_status` events
    // (a run records several per trial; the trials table keeps only why a trial waits).
    Status readEndReasons(QHash<QString, QString>* out);
    // The highest sequence number handed out (results, events and node usage share one, as
    // ExperimentStore::lastSeq): a client subscribes from there for what comes after this read.
    Status readLastSeq(std::int64_t* out);

  private:
    struct Impl;
    explicit HistoryReader(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// One score per trial whose curve has a value, best first for `mode` (ties by trial id), by the
// one definition of core/best_trial.h; curves[i] is trials[i]'s (readCurves). What `best`,
// `show`, `ls` and the control API's `list` rank by.
std::vector<TrialScore> rankTrials(const std::vector<HistoryTrial>& trials,
                                   const std::vector<MetricCurve>& curves, MetricMode mode,
                                   ScoreScope scope);

}  // namespace tunedeck::store
