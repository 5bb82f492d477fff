#include "models/history_reader.h"

#include <QFileInfo>
#include <QHash>
#include <cmath>

#include "api/event_decoders.h"
#include "config/spec_summary.h"
#include "core/events.h"
#include "store/history_reader.h"

namespace tunedeck::app {

namespace {

TrialRow rowOf(store::HistoryTrial&& trial, store::MetricCurve&& curve, const History& history) {
    TrialRow row;
    row.id = trial.id;
    row.config = std::move(trial.config);
    row.configFloats = std::move(trial.configFloats);
    row.flatConfig = ExperimentData::flatten(row.config);
    row.status = trial.status;
    row.iteration = trial.iteration;
    row.node = trial.node;
    row.reason = row.status == QLatin1String("ERROR") ? trial.errorMessage : trial.pendingReason;
    row.addedAt = trial.startedAt;
    row.lastAt = trial.finishedAt;
    row.timeTotalS = trial.timeTotalS;
    row.metrics = reportedMetricsIn(trial.lastResult);
    row.iterations = std::move(curve.iterations);
    row.values = std::move(curve.values);
    row.times = std::move(curve.timestamps);
    for (double& time : row.times) {
        row.lastAt = std::max(row.lastAt, time);
        time -= history.startTime;  // seconds since the experiment began, as the charts draw
    }
    for (const double value : row.values) {
        if (std::isnan(row.best) || (history.minimize ? value < row.best : value > row.best)) {
            row.best = value;
        }
    }
    if (!row.values.empty()) {
        row.latest = row.values.back();
    }
    return row;
}

// As the engine's exploit event says it (api/event_decoders.h).
Exploit exploitOf(const store::HistoryExploit& exploit) {
    Exploit out;
    events::ExploitEvent& e = out.event;
    e.trial = exploit.trialId;
    e.source = exploit.sourceTrialId;
    e.iteration = exploit.iteration;
    e.sourceIteration = exploit.sourceIteration;
    e.oldConfig = exploit.oldConfig;
    e.newConfig = exploit.newConfig;
    e.oldConfigFloats = exploit.oldConfigFloats;
    e.newConfigFloats = exploit.newConfigFloats;
    e.reason = exploit.reason;
    out.time = exploit.timestamp;
    return out;
}

}  // namespace

bool readHistory(const QString& folder, History* out, QString* error, const QString& curveMetric) {
    const QString path = folder + QStringLiteral("/experiment.sqlite");
    if (!QFileInfo::exists(path)) {
        *error = QStringLiteral("%1 is not a Tunedeck experiment folder (no experiment.sqlite)")
                     .arg(folder);
        return false;
    }
    std::unique_ptr<store::HistoryReader> reader;
    store::HistoryExperiment experiment;
    std::vector<store::HistoryTrial> trials;
    std::vector<store::MetricCurve> curves;
    std::vector<store::HistoryExploit> exploits;
    std::int64_t results = 0;
    std::int64_t lastSeq = 0;
    Status status = store::HistoryReader::open(path, &reader);
    if (status) {
        status = reader->readExperiment(&experiment);
    }
    if (status) {
        out->name = experiment.name;
        out->status = experiment.status;
        out->startTime = experiment.createdAt;
        const SpecSummary spec = summarizeSpec(experiment.specText);
        out->metric = spec.metric;
        out->minimize = spec.mode == MetricMode::Min;
        out->objectives = spec.objectives;
        out->spec = experiment.specText;
        out->folder = folder;
        out->budget = budgetOfSpec(experiment.specText, folder);
        out->choices = choicesOfSpec(experiment.specText, folder);
        status = reader->readTrials(&trials);
    }
    if (status && !out->metric.isEmpty()) {
        // One pass over the results in the order they came, each to its trial's curve.
        status = reader->readCurves(curveMetric.isEmpty() ? out->metric : curveMetric, trials,
                                    &curves, &results);
    }
    // With several objectives, every objective's values too, as `best` reads them for the
    // Pareto front: one more pass each.
    std::vector<std::vector<store::MetricCurve>> objectiveCurves;
    if (out->objectives.size() > 1) {
        for (const Objective& objective : out->objectives) {
            std::int64_t counted = 0;
            if (status) {
                status = reader->readCurves(objective.metric, trials,
                                            &objectiveCurves.emplace_back(), &counted);
                objectiveCurves.back().resize(trials.size());
            }
        }
    }
    if (status) {
        status = reader->readExploits(&exploits);
    }
    // Why each trial ended, as its last status change said (a scheduler's early stop among
    // them); the trials table keeps only why a trial waits.
    std::vector<QJsonObject> statusChanges;
    if (status) {
        status = reader->readEvents(events::type::kTrialStatus, &statusChanges);
    }
    std::vector<QJsonObject> checkpoints;  // for the trial detail pane
    if (status) {
        status = reader->readEvents(events::type::kCheckpoint, &checkpoints);
    }
    std::vector<QJsonObject> limitChanges;  // set_limits since the start: the budget follows
    if (status) {
        status = reader->readEvents(events::type::kLimits, &limitChanges);
    }
    std::vector<QJsonObject> notes;  // the researchers' notes on trials, the latest counts
    if (status) {
        status = reader->readEvents(events::type::kTrialNote, &notes);
    }
    if (status) {
        status = reader->readLastSeq(&lastSeq);
    }
    if (!status) {
        *error = status.message();
        return false;
    }
    for (const QJsonObject& payload : limitChanges) {
        events::LimitsEvent limits;
        if (events::decodeLimits(payload, &limits)) {
            applyLimits(limits, &out->budget);
        }
    }
    curves.resize(trials.size());
    out->trials.reserve(trials.size());
    QHash<QString, QString> endReason;
    for (const QJsonObject& change : statusChanges) {
        if (change.value("status").toString() == QLatin1String("TERMINATED")) {
            endReason.insert(change.value("trial").toString(), change.value("reason").toString());
        }
    }
    for (std::size_t i = 0; i < trials.size(); ++i) {
        out->trials.push_back(rowOf(std::move(trials[i]), std::move(curves[i]), *out));
        TrialRow& row = out->trials.back();
        for (std::vector<store::MetricCurve>& objective : objectiveCurves) {
            row.objectiveCurves.push_back(
                ObjectiveCurve{std::move(objective[i].iterations), std::move(objective[i].values)});
        }
        if (row.status == QLatin1String("TERMINATED")) {
            row.reason = endReason.value(row.id);
        }
    }
    // Each trial's status changes and checkpoints, as the events of a live run give them (the
    // history keeps the payloads without their times).
    QHash<QString, int> rowById;
    for (int i = 0; i < int(out->trials.size()); ++i) {
        rowById.insert(out->trials[std::size_t(i)].id, i);
    }
    for (const QJsonObject& payload : statusChanges) {
        events::TrialStatusEvent change;
        if (events::decodeTrialStatus(payload, &change)) {
            if (const int row = rowById.value(change.trial, -1); row >= 0) {
                ExperimentData::addStatusChange(out->trials[std::size_t(row)], change, 0);
            }
        }
    }
    for (const QJsonObject& payload : checkpoints) {
        events::CheckpointEvent checkpoint;
        if (events::decodeCheckpoint(payload, &checkpoint)) {
            if (const int row = rowById.value(checkpoint.trial, -1); row >= 0) {
                ExperimentData::addCheckpoint(out->trials[std::size_t(row)], checkpoint);
            }
        }
    }
    for (const QJsonObject& payload : notes) {
        events::TrialNoteEvent note;
        if (events::decodeTrialNote(payload, &note)) {
            if (const int row = rowById.value(note.trial, -1); row >= 0) {
                out->trials[std::size_t(row)].note = note.note;
            }
        }
    }
    for (const store::HistoryExploit& exploit : exploits) {
        out->exploits.push_back(exploitOf(exploit));
    }
    out->results = results;
    out->lastSeq = lastSeq;
    error->clear();
    return true;
}

bool readRecordedSpec(const QString& folder, RecordedSpec* out, QString* error) {
    std::unique_ptr<store::HistoryReader> reader;
    store::HistoryExperiment recorded;
    Status status =
        store::HistoryReader::open(folder + QStringLiteral("/experiment.sqlite"), &reader);
    if (status) {
        status = reader->readExperiment(&recorded);
    }
    if (!status) {
        *error = status.message();
        return false;
    }
    out->name = recorded.name;
    out->specText = recorded.specText;
    out->specFile = recorded.specFile;
    return true;
}

}  // namespace tunedeck::app
