// Everything the app knows of one experiment, built from its event stream (the typed events of
// engine/api/event_decoders.h, from a live run or replayed from history): its trials with their
// configs, statuses and nodes, and each trial's curve of the experiment's metric. Views read it;
// they are told what changed by polling takeChanges() on their own timer, so a stream of
// thousands of results a second costs one update per frame, not one per result.
// Thread-safety: GUI thread only.
#pragma once

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QStringList>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <vector>

#include "api/event_decoders.h"
#include "core/best_trial.h"
#include "core/config_json.h"
#include "core/early_stop.h"
#include "models/spec_choices.h"

namespace tunedeck::app {

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// The numbers of a result a researcher reported, by key: its top-level numbers less what the
// engine fills in itself (training_iteration, time_total_s, timestamp, ...), which the table
// shows in columns of their own or not at all.
QHash<QString, double> reportedMetricsIn(const QJsonObject& result);

// The metric in a result: a top-level key, or a path through nested objects ("val/loss" is a
// key of its own when the trainable reported it so); kNoValue when it is not a number there.
double metricIn(const QJsonObject& result, const QString& metric);

// One status change of a trial (a trial_status event), as the trial detail pane lists them.
struct TrialStatusChange {
    QString status;  // PENDING, RUNNING, PAUSED, TERMINATED, ERROR
    QString reason;
    QString node;  // where it was at that change; empty when not known
    qint64 iteration = 0;
    double time = 0;  // seconds since the epoch; 0 when read from a folder (no times kept)
};

// One checkpoint a trial saved (a checkpoint event): its iteration and where it is on its node.
struct TrialCheckpoint {
    qint64 iteration = 0;
    QString path;
};

// One objective's values of a trial in iteration order, kept with several objectives
// (models/pareto_front.h scores each as the curve of the first is scored).
struct ObjectiveCurve {
    std::vector<double> iterations;
    std::vector<double> values;
};

struct TrialRow {
    QString id;
    QJsonObject config;
    QJsonObject flatConfig;  // config with dotted keys, as the table shows it
    // The numbers of config that are floats, as dotted paths (core/config_json.h): what the
    // engine said in trial_added or exploit, or found in the stored text of trials.config. A
    // QJsonValue holds 1.0 as 1, so this is how 1.0 is shown as 1.0 (models/config_text.h).
    FloatPaths configFloats;
    QString status = QStringLiteral("PENDING");
    QString reason;
    QString node;
    qint64 iteration = 0;
    double addedAt = 0;  // seconds since the epoch
    double lastAt = 0;
    // Its last result's time_total_s: what its runtime is (core/trial_runtime.h), live and read
    // from a folder alike.
    double timeTotalS = 0;
    double latest = kNoValue;  // the metric in its last result
    double best = kNoValue;    // the best over its results, by the experiment's mode
    // Its curve: one entry per result that had the metric.
    std::vector<double> iterations;
    std::vector<double> times;  // seconds since the experiment's first event
    std::vector<double> values;
    // Every metric of its last result (reportedMetricsIn), for the table's metric columns.
    QHash<QString, double> metrics;
    // With several objectives, each one's values, in the objectives' order; else empty.
    std::vector<ObjectiveCurve> objectiveCurves;
    // Its status changes, oldest first, and its checkpoints in the order they were saved (a
    // checkpoint the retention policy deleted later is still listed).
    std::vector<TrialStatusChange> statusHistory;
    std::vector<TrialCheckpoint> checkpoints;
    int failures = 0;       // how often it failed and was restarted, by its latest status change
    std::vector<int> gpus;  // the node's cards its latest run was placed on
    // A gang trial's ranks in its latest run, rank order (where each runs); empty for a trial of
    // one process.
    std::vector<events::RankPlacement> ranks;
    // The researcher's note on it (set_trial_note; core/trial_note.h), empty when none.
    QString note;
    // How often its curve went back (a restore from an earlier checkpoint re-reported
    // iterations), so a view that drew the old curve knows to draw it anew.
    int rewinds = 0;
};

// The one definition of the best trial (core/best_trial.h) over the app's rows: a row's score
// under `scope` (kNoValue when its curve is empty), and the best row of `rows` (-1 when none
// has a value). The bold row, the scatter's star and Compare two experiments all use these;
// `tunedeck-engine best` (Export, Copy best config) ranks the stored results by the same rule.
double scoreOf(const TrialRow& row, bool minimize, ScoreScope scope);
int bestRowOf(const std::vector<TrialRow>& rows, bool minimize, ScoreScope scope);
// What a scope means, in the window's words ("last result", "best result", ...).
QString scoreScopeText(ScoreScope scope);

// The early stop of a TERMINATED trial by a scheduler (core/early_stop.h, from its last status
// reason), nullopt for a trial that ran to its end or has not ended.
std::optional<EarlyStop> earlyStopOf(const TrialRow& row);

// One PBT exploit as it came: the engine's exploit event with its place in the stream.
struct Exploit {
    events::ExploitEvent event;
    qint64 seq = 0;  // 0 when read from a history
    double time = 0;
};

// Progress of one experiment, by status.
struct StatusCounts {
    int pending = 0, running = 0, paused = 0, terminated = 0, error = 0;
    int total() const { return pending + running + paused + terminated + error; }
};

class ExperimentData {
  public:
    // The metric the curves and the best use; `minimize` for mode min. It is then the only
    // objective.
    void setObjective(const QString& metric, bool minimize);
    QString metric() const { return metric_; }
    bool minimize() const { return minimize_; }
    // Several objectives (`metric: [loss, latency_ms]`; the first is setObjective's): no trial
    // is best then, and bestRow() is -1. Each trial keeps every objective's values, and the
    // rows on the Pareto front (models/pareto_front.h, by the scope) take the best's place.
    void setObjectives(std::vector<Objective> objectives);
    const std::vector<Objective>& objectives() const { return objectives_; }
    bool isMultiObjective() const { return objectives_.size() > 1; }
    // The rows on the Pareto front, ascending; empty with one objective.
    const std::vector<int>& paretoFront() const;
    bool onParetoFront(int row) const;
    // `row`'s score on objectives()[objective] by the scope; kNoValue when it has none.
    double objectiveScore(int row, std::size_t objective) const;
    // The one "best" every view marks (the bold rows, the scatter's stars, parallel
    // coordinates' colours, Importance, Compare): with one objective the best row by the scope
    // (bestRow), with several the rows on the Pareto front by the scope (onParetoFront).
    bool isBest(int row) const;
    // `row` has a score on every objective (it can be on the front, or ranked); false also
    // when it has none on the only one.
    bool hasEveryObjective(int row) const;
    // What the best trial is chosen by: the engine's scope (kDefaultScoreScope) unless the
    // user picked another in the window.
    void setScope(ScoreScope scope);
    ScoreScope scope() const { return scope_; }

    // Applies one event; unknown types are ignored (a newer engine may send more).
    void apply(const events::Event& event);
    // Forgets everything (another experiment, or a replay from the start).
    void clear();
    // Replaces everything with what was read from a history (history_reader.h); events that
    // come later apply on top.
    void load(std::vector<TrialRow> trials, std::vector<Exploit> exploits, QString status,
              double startTime);

    const std::vector<TrialRow>& trials() const { return trials_; }
    int rowOf(const QString& trialId) const;
    // The flattened config keys of all trials ("model.depth" for nested groups), sorted.
    const QStringList& configKeys() const { return configKeys_; }
    // The choice parameters of the experiment's spec and their options (models/spec_choices.h):
    // the views give them categorical axes of exactly those values. Kept until clear().
    void setChoices(SpecChoices choices);
    const SpecChoices& choices() const { return choices_; }
    // Every metric any trial reported (reportedMetricsIn), sorted; the objective among them.
    const QStringList& metricNames() const { return metricNames_; }
    // The best trial's row by the scope (bestRowOf), or -1 (also with several objectives).
    int bestRow() const;
    // `row`'s score by the scope; kNoValue when it has no value yet.
    double score(int row) const;
    StatusCounts counts() const;
    QString experimentStatus() const { return status_; }  // running, finished, ...
    double startTime() const { return startTime_; }
    // When the latest run (or resume) of it started, seconds since the epoch: what its
    // time_budget_s counts from; the first event's time when no start was seen.
    double runStartTime() const { return runStartTime_ > 0 ? runStartTime_ : startTime_; }
    // Log and warning lines of `trialId` (warnings without a trial under "").
    const QStringList& logOf(const QString& trialId) const;
    // PBT's exploits, in the order they came.
    const std::vector<Exploit>& exploits() const { return exploits_; }

    // What changed since the last call: rows whose values changed, whether rows were added,
    // whether any curve grew.
    struct Changes {
        std::set<int> rows;
        bool rowsAdded = false;
        bool configKeysChanged = false;
        bool metricNamesChanged = false;
        bool curvesChanged = false;
        bool logsChanged = false;
        bool exploitsChanged = false;
        bool scopeChanged = false;  // another best trial may be bold
    };
    Changes takeChanges();

    // Adds a status change or a checkpoint to `row` (live events, and a folder's recorded ones).
    static void addStatusChange(TrialRow& row, const events::TrialStatusEvent& status, double time);
    static void addCheckpoint(TrialRow& row, const events::CheckpointEvent& checkpoint);

    // A config flattened to dotted keys, as the table shows it.
    static QJsonObject flatten(const QJsonObject& config);

  private:
    // The row of `trialId`, added when new.
    int rowFor(const QString& trialId, double time);
    void onResult(TrialRow& row, const QJsonObject& result, double time);
    void addMetricNames(const QHash<QString, double>& metrics);
    // A log or warning line of `trialId` ("" for the experiment's own warnings).
    void appendLog(const QString& trialId, const QString& message);

    QString metric_;
    bool minimize_ = false;
    ScoreScope scope_ = kDefaultScoreScope;
    // bestRow()'s answer, found again after a result, a load or a new scope: the table asks for
    // it for every cell it paints.
    mutable int bestRow_ = -1;
    mutable bool bestStale_ = true;
    std::vector<Objective> objectives_;
    mutable std::vector<int> paretoFront_;  // found again when bestStale_, as bestRow_
    // Each row's score on each objective (row-major, NaN for none), kept up for the rows that
    // got a result: the front is found again after every frame's results, and walking 10,000
    // rows' curves for it missed the cache at each step.
    void refreshObjectiveScores() const;
    mutable std::vector<double> objectiveScores_;
    mutable std::vector<int> staleScoreRows_;
    mutable bool allScoresStale_ = true;
    std::vector<TrialRow> trials_;
    QHash<QString, int> rowById_;  // looked up for each of thousands of events a second
    QStringList configKeys_;
    SpecChoices choices_;
    QStringList metricNames_;
    QString status_;
    double startTime_ = 0;
    double runStartTime_ = 0;
    std::map<QString, QStringList> logs_;
    std::vector<Exploit> exploits_;
    Changes changes_;
};

}  // namespace tunedeck::app
