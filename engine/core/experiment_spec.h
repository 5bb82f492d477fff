// An experiment as the user wrote it, after parsing and validation (engine/config builds it).
// Plain value types; the runtime and the policies read it, nothing mutates it after load.
// Field defaults here are the documented defaults of engine/config/SCHEMA.md.
#pragma once

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/cluster_spec.h"
#include "core/search_space.h"
#include "core/source_location.h"

namespace tunedeck {

enum class MetricMode { Min, Max };
QString metricModeName(MetricMode mode);  // "min" / "max"

// One metric the experiment optimises and its direction.
struct Objective {
    QString metric;
    MetricMode mode = MetricMode::Max;
};

struct TrainableSpec {
    // argv template; elements may contain {param} placeholders (dotted paths allowed) that are
    // replaced by the trial's value, each element staying one argument (no shell is involved).
    QStringList command;
    QString workingDir;          // absolute after loading (relative to the YAML's folder)
    QMap<QString, QString> env;  // extra environment for every trial
    // Files and folders the trials need besides working_dir (a script's pickled trainable),
    // absolute: with storage: copy each is copied to every node, and paths into them rewritten.
    QStringList files;
};

// How placement chooses among the nodes a trial fits on (engine/core/placement.h).
// Pack fills nodes one by one, so whole nodes stay free for large trials; Spread balances load.
enum class PlacementStrategy { Pack, Spread };

// How trials that share a GPU use it: by turns (the driver's time slicing, CUDA's default), or
// side by side through NVIDIA's Multi-Process Service, which each node's agent starts.
enum class GpuSharing { TimeSlicing, Mps };

struct ResourceRequest {
    double cpu = 1;
    double gpu = 0;  // fractions below 1 share a card
    // GPU memory the trial needs free on each card it is placed on (0: not checked).
    std::int64_t gpuMemoryMb = 0;
};

// One threshold of `stop:`. A trial stops once `metric` crosses `value` in `direction`.
struct StopThreshold {
    QString metric;
    double value = 0;
    bool atLeast = true;  // true: stop when result >= value; false: when result <= value
};

struct StopCriteria {
    std::optional<std::int64_t> trainingIteration;  // stop when training_iteration >= this
    std::optional<double> timeTotalS;               // stop when time_total_s >= this
    std::vector<StopThreshold> thresholds;          // any other result key
    bool isEmpty() const { return !trainingIteration && !timeTotalS && thresholds.empty(); }
};

struct CheckpointSpec {
    // false: the trainable cannot save, so the engine never asks it to (schedulers that move
    // trials through checkpoints, pbt, pb2 and hyperband, are refused at validate time).
    bool enabled = true;
    int frequency = 0;   // ask for a checkpoint every N iterations (0 = only when the trial saves)
    bool atEnd = false;  // ask for one when the trial is stopped by a stop criterion/scheduler
    int keep = 0;        // checkpoints kept per trial (0 = all); the latest is always kept
    QString score;       // result key ranking checkpoints for `keep` (empty = keep the latest)
    MetricMode scoreMode = MetricMode::Max;
};

struct FailureSpec {
    int maxFailures = 0;    // retries per trial (-1 = unlimited, as Ray)
    bool failFast = false;  // stop the whole experiment on the first trial error
    // `fail_fast: raise` (Ray raises the trial's exception): as failFast, and the run ends with
    // that trial's error and the last lines of its log, on stderr.
    bool failFastRaise = false;
    double heartbeatTimeoutS = 300;  // a trial silent on its channel this long is hung
    // A trial told to end (stop, pause, exploit) that has not exited this long after is ended:
    // SIGTERM, then SIGKILL. Ray's default grace (TUNE_FORCE_TRIAL_CLEANUP_S) is 600 s.
    double stopGraceS = 600;
};

struct AlgorithmSpec {
    QString name;         // "random", "grid", "fifo", ...
    QJsonObject options;  // every other key of the mapping, as written
    SourceLocation location;
    // `hyperparam_mutations` (pbt) parsed with the search-space syntax, each entry a domain or
    // a list (a choice), with the locations of what was written; empty when not given.
    SearchSpace mutations;
};

// How the ranks of a gang trial are spread over the nodes (Ray's placement group strategies;
// core/gang_placement.h).
enum class GangStrategy { Pack, Spread, StrictSpread };

// resources_per_trial's `workers` and `placement`: a trial of several processes (data-parallel
// training), each rank with the trial's ResourceRequest, placed all or nothing.
struct GangSpec {
    int workers = 1;
    GangStrategy placement = GangStrategy::Pack;
    bool isGang() const { return workers > 1; }
};

struct ExperimentSpec {
    QString name;
    TrainableSpec trainable;
    ResourceRequest resourcesPerTrial;  // per rank for a gang
    GangSpec gang;
    SearchSpace searchSpace;
    // Ray's num_samples: -1: trials are sampled until time_budget_s is spent (validate refuses
    // it without one: no search algorithm ends on its own).
    static constexpr int kSampleUntilBudget = -1;
    int numSamples = 1;
    bool samplesUntilBudget() const { return numSamples == kSampleUntilBudget; }
    // Ray's TuneConfig.time_budget_s: seconds after which the run starts no trial and stops
    // the running ones (TERMINATED, "time_budget_s ... spent"); counted from each run/resume.
    std::optional<double> timeBudgetS;
    QString metric;  // may be empty when no searcher/scheduler/stop needs it
    MetricMode mode = MetricMode::Max;
    // Every objective, in the order written: `metric: [a, b]` with `mode: [min, max]` makes a
    // multi-objective experiment. `metric`/`mode` above are always the first one (empty list
    // when no metric is set), so single-objective code reads them and needs nothing else.
    std::vector<Objective> objectives;
    bool isMultiObjective() const { return objectives.size() > 1; }
    AlgorithmSpec search{"random", {}, {}, {}};
    AlgorithmSpec scheduler{"fifo", {}, {}, {}};
    StopCriteria stop;
    CheckpointSpec checkpoint;
    FailureSpec failure;
    int maxConcurrentTrials = 0;  // 0 = as many as resources allow
    std::uint64_t seed = 0;
    bool seedGiven = false;                  // false: the engine picks one and records it
    QString cluster;                         // cluster YAML path; empty = this machine
    std::optional<ClusterSpec> clusterSpec;  // the cluster file, loaded; absent = this machine
    PlacementStrategy placement = PlacementStrategy::Pack;
    // How often each node's agent samples CPU, memory and GPU use (0: never).
    double gpuSampleS = 2;
    GpuSharing gpuSharing = GpuSharing::TimeSlicing;

    QString sourceFile;  // the YAML (or JSON) it was read from
    QString sourceText;  // its text, stored with the experiment for resume
    // Where each key was written: "metric", "search_space.lr", "trainable.command", ...
    QMap<QString, SourceLocation> locations;
    SourceLocation locationOf(const QString& keyPath) const;
};

}  // namespace tunedeck
